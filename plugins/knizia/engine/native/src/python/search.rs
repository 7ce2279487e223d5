//! `search_decision`: the information-set search ([`crate::search`], `samurai.search.mcts.MCTSBot`) for one seat,
//! inside the engine, from the seat's knowledge as Python keeps it.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::python::actions::{action_tuple, refusal_error};
use crate::python::mt::{twister_of, write_back};
use crate::python::rules::NativeRules;
use crate::python::state::state_of;
use crate::rules::Scoring;
use crate::search;

/// The information-set search's decision for a seat (`samurai.search.mcts.MCTSBot.act`, inside the engine): from
/// the seat's knowledge only (`public`, a Python engine `State` holding no other seat's tiles, as
/// `SeatKnowledge` keeps it; `hidden`, each seat's unseen tiles as `SeatKnowledge._hidden_tiles()` gives them;
/// each seat's hand and unchosen sizes), the bot's generator `rng` (advanced exactly as the Python search
/// advances it) and the bot's options (`simulations`, else `seconds`). `(action, simulations run)`, or None when
/// the edition scores in Python (the search must end games). ValueError for knowledge that does not fit the rules.
/// The result is `(action, simulations run, statistics)`: with `statistics`, the root's per tried legal action in
/// the legal order, `[(action, visits, [every seat's mean returns])]` (`MCTSBot.statistics`), else None.
#[pyfunction]
#[pyo3(signature = (rules, public, seat, hidden, hand_sizes, pool_sizes, rng, *, simulations, seconds,
                    exploration, playout, replies, worlds, finish=0.0, statistics=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_decision<'py>(
    py: Python<'py>,
    rules: &NativeRules,
    public: &Bound<'py, PyAny>,
    seat: usize,
    hidden: Vec<Vec<usize>>,
    hand_sizes: Vec<usize>,
    pool_sizes: Vec<usize>,
    rng: &Bound<'py, PyAny>,
    simulations: Option<u64>,
    seconds: Option<f64>,
    exploration: f64,
    playout: Option<u64>,
    replies: bool,
    worlds: Option<usize>,
    finish: f64,
    statistics: bool,
) -> SearchResult<'py> {
    if rules.rules.scoring == Scoring::Python {
        return Ok(None);
    }
    let seconds = match (simulations, seconds) {
        (Some(0), _) => {
            return Err(PyValueError::new_err(
                "search: simulations must be at least 1",
            ))
        }
        (Some(_), None) => 0.0,
        (None, Some(s)) if s > 0.0 && s <= 3600.0 => s,
        _ => return Err(PyValueError::new_err(
            "search: give simulations (from 1) or seconds (more than 0, at most 3600), not both",
        )),
    };
    if !exploration.is_finite()
        || exploration < 0.0
        || worlds == Some(0)
        || (replies && playout != Some(0))
        || !(0.0..=1.0).contains(&finish)
        || (finish > 0.0 && !replies)
    {
        return Err(PyValueError::new_err(format!(
            "search: exploration {exploration}, worlds {worlds:?}, replies {replies} with playout {playout:?} and \
             finish {finish} do not make a search"
        )));
    }
    let knowledge = search::Knowledge {
        seat,
        public: state_of(&rules.rules, public)?,
        hidden,
        hand_sizes,
        pool_sizes,
    };
    if let Some(problem) = knowledge.problem(&rules.rules) {
        return Err(PyValueError::new_err(format!(
            "search: the knowledge {problem}"
        )));
    }
    let options = search::Options {
        simulations,
        seconds,
        exploration,
        playout,
        replies,
        worlds,
        finish,
    };
    let mut twister = twister_of(rng)?;
    // The search touches no Python object: other threads (a server's requests) run while it thinks. Every few
    // simulations it takes the GIL for a moment to hear a signal, so Ctrl-C ends a long search as it ends the
    // Python one (KeyboardInterrupt, the generator left as it was).
    let mut interruption: Option<PyErr> = None;
    let found = py.detach(|| {
        let mut stop = || match Python::attach(|py| py.check_signals()) {
            Ok(()) => false,
            Err(err) => {
                interruption = Some(err);
                true
            }
        };
        search::decide(&rules.rules, &knowledge, &mut twister, options, &mut stop)
    });
    if let Some(err) = interruption {
        return Err(err);
    }
    let found = found.map_err(refusal_error)?;
    write_back(rng, &twister)?;
    let root = if statistics {
        let rows = found
            .root
            .iter()
            .map(|row| {
                Ok((
                    action_tuple(py, &row.action)?,
                    row.visits,
                    row.means.clone(),
                ))
            })
            .collect::<PyResult<Vec<_>>>()?;
        rows.into_pyobject(py)?.into_any()
    } else {
        py.None().into_bound(py)
    };
    Ok(Some((
        action_tuple(py, &found.action)?,
        found.simulations,
        root,
    )))
}

/// `search_decision`'s result: the action, the simulations run and the root's statistics (or None).
type SearchResult<'py> = PyResult<Option<(Bound<'py, PyTuple>, u64, Bound<'py, PyAny>)>>;
