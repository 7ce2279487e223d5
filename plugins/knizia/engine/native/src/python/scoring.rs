//! The shipped scorings ([`crate::scoring`], `samurai_plugins.knizia.editions.native_scoring`) by their Python
//! names, and the decision of one for the kit that checks a scoring hook's claim.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::rules::Scoring;
use crate::scoring;

/// The shipped scoring named `name` (or `python`, the edition's own hook).
pub(crate) fn scoring_of(name: &str) -> PyResult<Scoring> {
    match name {
        "leader_tokens" => Ok(Scoring::LeaderTokens),
        "majorities" => Ok(Scoring::Majorities),
        "most_figures" => Ok(Scoring::MostFigures),
        "python" => Ok(Scoring::Python),
        _ => Err(PyValueError::new_err(format!(
            "native rules: no native scoring {name:?}"
        ))),
    }
}

/// The Python name of a scoring.
pub(crate) fn scoring_name(scoring: Scoring) -> &'static str {
    match scoring {
        Scoring::LeaderTokens => "leader_tokens",
        Scoring::Majorities => "majorities",
        Scoring::MostFigures => "most_figures",
        Scoring::Python => "python",
    }
}

/// The winners and reason code the native scoring `scoring` (`leader_tokens`, `majorities`, `most_figures`) gives
/// `captured` (`seat * 3 + caste` of a `players`-seat game): what the kit checks a scoring hook's claim against.
#[pyfunction]
pub(crate) fn native_scoring_decision(
    scoring: &str,
    captured: Vec<i64>,
    players: usize,
) -> PyResult<(Vec<usize>, &'static str)> {
    let scoring = scoring_of(scoring)?;
    if players == 0 || captured.len() != 3 * players {
        return Err(PyValueError::new_err(format!(
            "native_scoring_decision: {} counts for {players} seats",
            captured.len()
        )));
    }
    scoring::decide(scoring, &captured, players)
        .map(|d| (d.winners, d.reason))
        .ok_or_else(|| {
            PyValueError::new_err("native_scoring_decision: the Python scoring is the hook's own")
        })
}
