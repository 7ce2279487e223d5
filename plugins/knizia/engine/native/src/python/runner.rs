//! `play_games`: whole games between the native random and greedy players ([`crate::runner`]), as
//! `samurai_plugins.knizia.adapters.runner.play_batch` asks for them, each as a row of
//! `samurai_plugins.knizia.engine.backends.NativeGame`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::python::actions::{action_tuple, refusal_error};
use crate::python::rules::NativeRules;
use crate::rules::Rules;
use crate::runner::{play_batch, Bot, Finished};
use crate::scoring;

/// Whole games between random and greedy bots, one per seed in `seeds` (the games' seeds): seat `k` of a game seeded
/// `s` draws from `random.Random(derive_seed(s, k))` and plays `bots[k % len(bots)]` (`"random"` or `"greedy"`), as
/// `samurai_plugins.knizia.adapters.runner.play_game` plays them. Per game, a tuple in the order of
/// `samurai_plugins.knizia.engine.backends.NativeGame`'s fields: the seed, the winners and reason code (None when the
/// edition's own Python hook scores), the protocol's returns (None then too), the end reason, turns, tiles played, each
/// seat's captured figures per caste, figures removed by ties, actions played, the seat that led alone in captured
/// figures after the middle turn (`samurai_plugins.knizia.core.facts.FactsWatch`) or None, and the actions when `keep`
/// (else None).
#[pyfunction]
#[pyo3(signature = (rules, seeds, bots, keep = false))]
pub(crate) fn play_games<'py>(
    py: Python<'py>,
    rules: &NativeRules,
    seeds: Vec<u64>,
    bots: Vec<String>,
    keep: bool,
) -> PyResult<Vec<Bound<'py, PyTuple>>> {
    let kinds: Vec<Bot> = bots
        .iter()
        .map(|name| match name.as_str() {
            "random" => Ok(Bot::Random),
            "greedy" => Ok(Bot::Greedy),
            other => Err(PyValueError::new_err(format!(
                "play_games: no native bot {other:?} (random, greedy)"
            ))),
        })
        .collect::<PyResult<_>>()?;
    if kinds.is_empty() {
        return Err(PyValueError::new_err("play_games: no bots"));
    }
    // The games touch no Python object, so other threads run meanwhile: a Dask worker's event loop keeps its
    // heartbeats and hears the cluster close, and a server's requests are answered during a long batch.
    let finished = py
        .detach(|| play_batch(&rules.rules, &rules.template, &seeds, &kinds, keep))
        .map_err(refusal_error)?;
    finished
        .iter()
        .map(|game| game_row(py, &rules.rules, game))
        .collect()
}

/// A finished game as `play_games` gives it (see there for the order).
fn game_row<'py>(py: Python<'py>, r: &Rules, game: &Finished) -> PyResult<Bound<'py, PyTuple>> {
    let players = r.players;
    let decision = scoring::decide(r.scoring, &game.captured, players);
    let (winners, reason, returns) = match &decision {
        Some(d) => {
            // The protocol's returns, as `Result.shares` computes them: the winners share 1.
            let share = 1.0 / d.winners.len() as f64;
            let returns = (0..players).map(|s| if d.winners.contains(&s) { share } else { 0.0 });
            (
                PyTuple::new(py, &d.winners)?.into_any(),
                d.reason.into_pyobject(py)?.into_any(),
                PyTuple::new(py, returns)?.into_any(),
            )
        }
        None => (
            py.None().into_bound(py),
            py.None().into_bound(py),
            py.None().into_bound(py),
        ),
    };
    let captured: Vec<Bound<'py, PyTuple>> = game
        .captured
        .chunks(3)
        .map(|castes| PyTuple::new(py, castes))
        .collect::<PyResult<_>>()?;
    let kept = match &game.actions {
        Some(actions) => {
            let tuples: Vec<Bound<'py, PyTuple>> = actions
                .iter()
                .map(|a| action_tuple(py, a))
                .collect::<PyResult<_>>()?;
            PyList::new(py, tuples)?.into_any()
        }
        None => py.None().into_bound(py),
    };
    let items: [Bound<'py, PyAny>; 12] = [
        game.seed.into_pyobject(py)?.into_any(),
        winners,
        reason,
        returns,
        game.end_reason
            .map(|reason| pyo3::types::PyString::intern(py, reason.code()))
            .into_pyobject(py)?
            .into_any(),
        game.turn.into_pyobject(py)?.into_any(),
        game.tiles_played.into_pyobject(py)?.into_any(),
        PyTuple::new(py, captured)?.into_any(),
        game.removed_total.into_pyobject(py)?.into_any(),
        game.played.into_pyobject(py)?.into_any(),
        game.leader.into_pyobject(py)?.into_any(),
        kept,
    ];
    PyTuple::new(py, items)
}
