//! An edition compiled for one player count, options and map, handed over once as `NativeRules`
//! (`samurai_plugins.knizia.engine.backends.native_rules`): the tables of [`crate::rules::Rules`] read from
//! `native_spec`'s dict, each checked before the engine sees it, and the starting position every game copies.

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::python::actions::ActionTuples;
use crate::python::scoring::{scoring_name, scoring_of};
use crate::python::state::state_of;
use crate::rules::{Placement, Rules, Special};
use crate::state::State;

fn spec_item<'py>(spec: &Bound<'py, PyDict>, key: &str) -> PyResult<Bound<'py, PyAny>> {
    spec.get_item(key)?
        .ok_or_else(|| PyValueError::new_err(format!("native rules: the table {key:?} is missing")))
}

fn bad(key: &str, err: PyErr) -> PyErr {
    PyValueError::new_err(format!(
        "native rules: the table {key:?} is malformed: {err}"
    ))
}

macro_rules! spec_get {
    ($spec:expr, $key:expr, $ty:ty) => {
        spec_item($spec, $key)?
            .extract::<$ty>()
            .map_err(|e| bad($key, e.into()))?
    };
}

fn placement_of(name: &str) -> PyResult<Placement> {
    match name {
        "land" => Ok(Placement::Land),
        "sea" => Ok(Placement::Sea),
        "special" => Ok(Placement::Special),
        _ => Err(PyValueError::new_err(format!(
            "native rules: tile placement {name:?} is not land, sea or special"
        ))),
    }
}

fn special_of(name: Option<String>) -> PyResult<Option<Special>> {
    match name.as_deref() {
        None => Ok(None),
        Some(name) => Special::named(name).map(Some).ok_or_else(|| {
            PyValueError::new_err(format!("native rules: no native behaviour {name:?}"))
        }),
    }
}

fn rules_of(spec: &Bound<'_, PyDict>) -> PyResult<Rules> {
    let tile_on: Vec<String> = spec_get!(spec, "tile_on", Vec<String>);
    let tile_special: Vec<Option<String>> = spec_get!(spec, "tile_special", Vec<Option<String>>);
    let rules = Rules {
        players: spec_get!(spec, "players", usize),
        hand_size: spec_get!(spec, "hand_size", usize),
        tile_names: spec_get!(spec, "tile_names", Vec<String>),
        tile_influence: spec_get!(spec, "tile_influence", Vec<i32>),
        tile_value: spec_get!(spec, "tile_value", Vec<i32>),
        tile_fast: spec_get!(spec, "tile_fast", Vec<bool>),
        tile_on: tile_on
            .iter()
            .map(|p| placement_of(p))
            .collect::<PyResult<_>>()?,
        tile_movable: spec_get!(spec, "tile_movable", Vec<bool>),
        tile_special: tile_special
            .into_iter()
            .map(special_of)
            .collect::<PyResult<_>>()?,
        player_tiles: spec_get!(spec, "player_tiles", Vec<usize>),
        board_size: spec_get!(spec, "board_size", usize),
        terrain: spec_get!(spec, "terrain", Vec<u8>),
        land_hexes: spec_get!(spec, "land_hexes", Vec<usize>),
        sea_hexes: spec_get!(spec, "sea_hexes", Vec<usize>),
        adjacent_settlements: spec_get!(spec, "adjacent_settlements", Vec<Vec<usize>>),
        settlement_neighbours: spec_get!(spec, "settlement_neighbours", Vec<Vec<usize>>),
        settlement_names: spec_get!(spec, "settlement_names", Vec<String>),
        capacities: spec_get!(spec, "capacities", Vec<usize>),
        stage_of: spec_get!(spec, "stage_of", Vec<i64>),
        stage_count: spec_get!(spec, "stage_count", usize),
        hands_random: spec_get!(spec, "hands_random", bool),
        figures_random: spec_get!(spec, "figures_random", bool),
        first_player: spec_get!(spec, "first_player", usize),
        figures_must_fit: spec_get!(spec, "figures_must_fit", bool),
        resolve_each_tile: spec_get!(spec, "resolve_each_tile", bool),
        end_immediate: spec_get!(spec, "end_immediate", bool),
        pass_when_unable: spec_get!(spec, "pass_when_unable", bool),
        removed_limit: spec_get!(spec, "removed_limit", i64),
        scoring: scoring_of(&spec_get!(spec, "scoring", String))?,
    };
    if let Some(problem) = rules.problem() {
        return Err(PyValueError::new_err(format!("native rules: {problem}")));
    }
    Ok(rules)
}

/// An edition compiled for one player count, options and map, as the native engine reads it.
#[pyclass(module = "samurai_plugins.knizia.engine._native", frozen)]
pub struct NativeRules {
    pub(crate) rules: Arc<Rules>,
    pub(crate) template: Arc<State>,
    pub(crate) tuples: Arc<ActionTuples>,
}

#[pymethods]
impl NativeRules {
    /// The tables of `spec` (`samurai_plugins.knizia.engine.backends.native_spec`) and the starting position `template`
    /// (a Python engine `State`); ValueError naming the table or field that is malformed.
    #[new]
    fn new(
        py: Python<'_>,
        spec: &Bound<'_, PyDict>,
        template: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let rules = rules_of(spec)?;
        // Every game starts from the template: one that cannot be set up is refused here, before any game's loop.
        let unusable = |why: String| {
            PyValueError::new_err(format!(
                "native rules: the starting position cannot be set up: {why}"
            ))
        };
        let template =
            state_of(&rules, template).map_err(|err| unusable(err.value(py).to_string()))?;
        if let Some(why) = template.stuck(&rules) {
            return Err(unusable(why));
        }
        let tuples = ActionTuples::new(py, &rules)?;
        Ok(NativeRules {
            rules: Arc::new(rules),
            template: Arc::new(template),
            tuples: Arc::new(tuples),
        })
    }

    /// The number of seats.
    #[getter]
    fn players(&self) -> usize {
        self.rules.players
    }

    /// How the native engine decides a finished game's winners: a shipped scoring, or `"python"` (the hook).
    #[getter]
    fn scoring(&self) -> &'static str {
        scoring_name(self.rules.scoring)
    }
}
