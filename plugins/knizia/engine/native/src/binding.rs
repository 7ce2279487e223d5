//! The engine's Python face: `NativeRules`, `NativeState` and `play_games` in `samurai_plugins.knizia.engine._native`.
//!
//! Everything that comes from Python is checked here before the engine sees it (the rules' tables, a position,
//! every action, every generator's draw), so a refusal is a Python exception and never a panic: an illegal
//! action raises `samurai.errors.IllegalAction` and leaves the position as it was, a malformed table or position
//! raises `ValueError` naming what is wrong. The Python side (`samurai_plugins.knizia.native_engine`) builds the tables
//! from a compiled edition and scores finished games through the edition's own hook.

use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::engine::{self, Action, Draw, Refusal};
use crate::greedy::{greedy_action, Greedy};
use crate::mt::MersenneTwister as Twister;
use crate::python::{parse_state, seed_key, state_tuple, MersenneTwister};
use crate::rules::{Placement, Rules, Scoring, Special};
use crate::scoring;
use crate::search;
use crate::seeds::derive_seed;
use crate::state::{EndReason, Event, State, OVER};

/// The message of an action naming what the game does not have (as `HexGameState.check` words it).
const NOT_OF_THIS_GAME: &str = "names a tile, hex, caste or settlement this game does not have";

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
        Some("move") => Ok(Some(Special::Move)),
        Some("switch") => Ok(Some(Special::Switch)),
        Some(other) => Err(PyValueError::new_err(format!(
            "native rules: no native behaviour {other:?}"
        ))),
    }
}

fn scoring_of(name: &str) -> PyResult<Scoring> {
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

fn scoring_name(scoring: Scoring) -> &'static str {
    match scoring {
        Scoring::LeaderTokens => "leader_tokens",
        Scoring::Majorities => "majorities",
        Scoring::MostFigures => "most_figures",
        Scoring::Python => "python",
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

fn field<'py>(state: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    state.getattr(name).map_err(|e| bad_field(name, e))
}

fn bad_field(name: &str, err: PyErr) -> PyErr {
    PyValueError::new_err(format!("position: the field {name:?} is malformed: {err}"))
}

macro_rules! state_get {
    ($state:expr, $name:expr, $ty:ty) => {
        field($state, $name)?
            .extract::<$ty>()
            .map_err(|e| bad_field($name, e.into()))?
    };
}

fn array<const K: usize>(name: &str, values: Vec<i64>) -> PyResult<[i64; K]> {
    values.try_into().map_err(|v: Vec<i64>| {
        PyValueError::new_err(format!("position: {name} has {} entries, not {K}", v.len()))
    })
}

fn event_of(event: &Bound<'_, PyAny>) -> PyResult<Event> {
    let kind: String = event.get_item(0)?.extract()?;
    let number = |i: usize| -> PyResult<usize> { event.get_item(i)?.extract() };
    Ok(match kind.as_str() {
        "capture" => Event::Capture {
            settlement: number(1)?,
            caste: number(2)?,
            seat: number(3)?,
            influence: event.get_item(4)?.extract()?,
        },
        "remove" => Event::Remove {
            settlement: number(1)?,
            caste: number(2)?,
            influence: event.get_item(3)?.extract()?,
        },
        "refill" => Event::Refill {
            seat: number(1)?,
            drawn: number(2)?,
        },
        "pass" => Event::Pass { seat: number(1)? },
        "end" => {
            let code: String = event.get_item(1)?.extract()?;
            Event::End {
                reason: EndReason::of_code(&code).ok_or_else(|| {
                    PyValueError::new_err(format!("position: no end reason {code:?}"))
                })?,
            }
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "position: no event {kind:?}"
            )))
        }
    })
}

/// The native position of a Python engine `State` (any object with its fields), checked against the rules.
fn state_of(rules: &Rules, state: &Bound<'_, PyAny>) -> PyResult<State> {
    let rng = field(state, "rng")?
        .call_method0("getstate")
        .map_err(|e| bad_field("rng", e))?;
    let end_reason: Option<String> = state_get!(state, "end_reason", Option<String>);
    let events = field(state, "events")?;
    let events = if events.is_none() {
        None
    } else {
        let mut out = Vec::new();
        for event in events.try_iter().map_err(|e| bad_field("events", e))? {
            let event = event.map_err(|e| bad_field("events", e))?;
            out.push(event_of(&event).map_err(|e| bad_field("events", e))?);
        }
        Some(out)
    };
    let st = State {
        phase: state_get!(state, "phase", u8),
        setup_queue: state_get!(state, "setup_queue", Vec<u8>),
        current: state_get!(state, "current", i64),
        turn: state_get!(state, "turn", i64),
        pools: state_get!(state, "pools", Vec<Vec<usize>>),
        hands: state_get!(state, "hands", Vec<Vec<usize>>),
        stacks: state_get!(state, "stacks", Vec<Vec<usize>>),
        spent: state_get!(state, "spent", Vec<i64>),
        tile_owner: state_get!(state, "tile_owner", Vec<i64>),
        tile_type: state_get!(state, "tile_type", Vec<i64>),
        tile_turn: state_get!(state, "tile_turn", Vec<i64>),
        empty_land: state_get!(state, "empty_land", Vec<usize>),
        empty_land_pos: state_get!(state, "empty_land_pos", Vec<i64>),
        empty_sea: state_get!(state, "empty_sea", Vec<usize>),
        empty_sea_pos: state_get!(state, "empty_sea_pos", Vec<i64>),
        movable_count: state_get!(state, "movable_count", Vec<i64>),
        figures: state_get!(state, "figures", Vec<u8>),
        empty_around: state_get!(state, "empty_around", Vec<i64>),
        pending: state_get!(state, "pending", Vec<usize>),
        supply: array("supply", state_get!(state, "supply", Vec<i64>))?,
        on_board: array("on_board", state_get!(state, "on_board", Vec<i64>))?,
        captured: state_get!(state, "captured", Vec<i64>),
        removed: array("removed", state_get!(state, "removed", Vec<i64>))?,
        removed_total: state_get!(state, "removed_total", i64),
        open_by_stage: state_get!(state, "open_by_stage", Vec<Vec<usize>>),
        cut: array("cut", state_get!(state, "cut", Vec<i64>))?,
        normal_played: state_get!(state, "normal_played", bool),
        played: state_get!(state, "played", i64),
        tiles_played: state_get!(state, "tiles_played", i64),
        end_reason: match end_reason {
            None => None,
            Some(code) => Some(EndReason::of_code(&code).ok_or_else(|| {
                PyValueError::new_err(format!("position: no end reason {code:?}"))
            })?),
        },
        rng: parse_state(&rng).map_err(|e| bad_field("rng", e))?.0,
        events,
    };
    if let Some(problem) = st.problem(rules) {
        return Err(PyValueError::new_err(format!("position: {problem}")));
    }
    Ok(st)
}

/// An edition compiled for one player count, options and map, as the native engine reads it.
#[pyclass(module = "samurai_plugins.knizia.engine._native", frozen)]
pub struct NativeRules {
    rules: Arc<Rules>,
    template: Arc<State>,
    tuples: Arc<ActionTuples>,
}

/// The Python tuple of every action but the special tiles', made once per rules: a search lists hundreds of
/// actions per position, and handing out a tuple made before costs a fraction of making it.
struct ActionTuples {
    place: Vec<Py<PyTuple>>,
    choose: Vec<Py<PyTuple>>,
    figure: Vec<Py<PyTuple>>,
    end: Py<PyTuple>,
    board_size: usize,
    settlements: usize,
}

impl ActionTuples {
    fn new(py: Python<'_>, rules: &Rules) -> PyResult<Self> {
        let types = rules.tile_names.len();
        let settlements = rules.settlement_names.len();
        let tuple = |action: Action| action_tuple(py, &action).map(Bound::unbind);
        let mut place = Vec::with_capacity(types * rules.board_size);
        for tile in 0..types {
            for h in 0..rules.board_size {
                place.push(tuple(Action::Place(tile, h))?);
            }
        }
        Ok(ActionTuples {
            place,
            choose: (0..types)
                .map(|t| tuple(Action::Choose(t)))
                .collect::<PyResult<_>>()?,
            figure: (0..3 * settlements)
                .map(|i| tuple(Action::Figure(i % 3, i / 3)))
                .collect::<PyResult<_>>()?,
            end: tuple(Action::End)?,
            board_size: rules.board_size,
            settlements,
        })
    }

    /// The tuple of `action`: the one made before, or a new one for a special tile.
    fn of<'py>(&self, py: Python<'py>, action: &Action) -> PyResult<Bound<'py, PyTuple>> {
        let made = match *action {
            Action::Place(t, h) => self.place.get(t * self.board_size + h),
            Action::Choose(t) => self.choose.get(t),
            Action::Figure(c, s) if s < self.settlements => self.figure.get(s * 3 + c),
            Action::End => Some(&self.end),
            _ => None,
        };
        match made {
            Some(tuple) => Ok(tuple.bind(py).clone()),
            None => action_tuple(py, action),
        }
    }
}

#[pymethods]
impl NativeRules {
    /// The tables of `spec` (`samurai_plugins.knizia.native_engine.native_spec`) and the starting position `template`
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

/// Draws from a Python generator's `random()`; the first failure is kept and every later draw is 0.
struct PyDraw<'py> {
    random: Bound<'py, PyAny>,
    error: Option<PyErr>,
}

impl<'py> PyDraw<'py> {
    fn of(rng: &Bound<'py, PyAny>) -> PyResult<Self> {
        Ok(PyDraw {
            random: rng.getattr("random")?,
            error: None,
        })
    }

    fn finish<T>(self, value: Result<T, Refusal>) -> PyResult<T> {
        if let Some(error) = self.error {
            return Err(error);
        }
        value.map_err(refusal_error)
    }
}

impl Draw for PyDraw<'_> {
    fn random(&mut self) -> f64 {
        if self.error.is_some() {
            return 0.0;
        }
        match self.random.call0().and_then(|value| value.extract::<f64>()) {
            Ok(x) if (0.0..1.0).contains(&x) => x,
            Ok(x) => {
                self.error = Some(PyValueError::new_err(format!(
                    "the generator's random() gave {x}, not a float in [0, 1)"
                )));
                0.0
            }
            Err(err) => {
                self.error = Some(err);
                0.0
            }
        }
    }
}

fn refusal_error(refusal: Refusal) -> PyErr {
    match refusal {
        Refusal::OutOfRange => PyIndexError::new_err(NOT_OF_THIS_GAME),
        Refusal::NoAction(why) => PyValueError::new_err(why),
    }
}

fn illegal(py: Python<'_>, message: String) -> PyErr {
    match py
        .import("samurai.errors")
        .and_then(|m| m.getattr("IllegalAction"))
        .and_then(|c| c.call1((message.clone(),)))
    {
        Ok(exception) => PyErr::from_value(exception),
        Err(_) => PyValueError::new_err(message),
    }
}

/// The numbers of an action tuple, its shape checked as `HexGameState.check` checks it.
fn numbers_of(action: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    let numbers: Vec<u64> = action.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "an action is a tuple of whole numbers >= 0, not {action}"
        ))
    })?;
    let shape_ok = match numbers.first() {
        Some(&engine::CHOOSE) => numbers.len() == 2,
        Some(&engine::FIGURE) | Some(&engine::PLACE) => numbers.len() == 3,
        Some(&engine::END) => numbers.len() == 1,
        Some(&engine::SPECIAL) => numbers.len() >= 2,
        _ => false,
    };
    if !shape_ok {
        return Err(PyIndexError::new_err(format!(
            "{numbers:?} is not an action of this game"
        )));
    }
    Ok(numbers)
}

fn action_tuple<'py>(py: Python<'py>, action: &Action) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, action.numbers())
}

fn event_tuple<'py>(py: Python<'py>, event: &Event) -> PyResult<Bound<'py, PyTuple>> {
    let items: Vec<Bound<'py, PyAny>> = match event {
        Event::Capture {
            settlement,
            caste,
            seat,
            influence,
        } => vec![
            "capture".into_pyobject(py)?.into_any(),
            settlement.into_pyobject(py)?.into_any(),
            caste.into_pyobject(py)?.into_any(),
            seat.into_pyobject(py)?.into_any(),
            PyTuple::new(py, influence)?.into_any(),
        ],
        Event::Remove {
            settlement,
            caste,
            influence,
        } => vec![
            "remove".into_pyobject(py)?.into_any(),
            settlement.into_pyobject(py)?.into_any(),
            caste.into_pyobject(py)?.into_any(),
            PyTuple::new(py, influence)?.into_any(),
        ],
        Event::Refill { seat, drawn } => vec![
            "refill".into_pyobject(py)?.into_any(),
            seat.into_pyobject(py)?.into_any(),
            drawn.into_pyobject(py)?.into_any(),
        ],
        Event::Pass { seat } => vec![
            "pass".into_pyobject(py)?.into_any(),
            seat.into_pyobject(py)?.into_any(),
        ],
        Event::End { reason } => vec![
            "end".into_pyobject(py)?.into_any(),
            reason.code().into_pyobject(py)?.into_any(),
        ],
    };
    PyTuple::new(py, items)
}

fn twister_of(rng: &Bound<'_, PyAny>) -> PyResult<Twister> {
    if let Ok(native) = rng.cast::<MersenneTwister>() {
        return Ok(native.borrow().inner.clone());
    }
    Ok(parse_state(&rng.call_method0("getstate")?)?.0)
}

fn write_back(rng: &Bound<'_, PyAny>, twister: &Twister) -> PyResult<()> {
    if let Ok(native) = rng.cast::<MersenneTwister>() {
        native.borrow_mut().inner = twister.clone();
        return Ok(());
    }
    let gauss = rng
        .call_method0("getstate")?
        .get_item(2)?
        .extract::<Option<f64>>()?;
    rng.call_method1("setstate", (state_tuple(rng.py(), twister, gauss)?,))?;
    Ok(())
}

fn lists<'py>(py: Python<'py>, rows: &[Vec<usize>]) -> PyResult<Bound<'py, PyList>> {
    let rows: Vec<Bound<'py, PyList>> = rows
        .iter()
        .map(|row| PyList::new(py, row))
        .collect::<PyResult<_>>()?;
    PyList::new(py, rows)
}

fn tuples<'py>(py: Python<'py>, rows: &[Vec<usize>]) -> PyResult<Bound<'py, PyTuple>> {
    let rows: Vec<Bound<'py, PyTuple>> = rows
        .iter()
        .map(|row| PyTuple::new(py, row))
        .collect::<PyResult<_>>()?;
    PyTuple::new(py, rows)
}

/// One position of a game on the native engine, with the same fields as the Python engine's `State` (read-only:
/// each read is a fresh Python list), and the engine's functions as methods.
#[pyclass(module = "samurai_plugins.knizia.engine._native")]
pub struct NativeState {
    rules: Arc<Rules>,
    tuples: Arc<ActionTuples>,
    st: State,
    result: Option<Py<PyAny>>,
}

impl NativeState {
    fn play(&mut self, py: Python<'_>, numbers: &[u64]) -> PyResult<()> {
        match engine::check(&self.rules, &self.st, numbers) {
            Ok(None) => {
                engine::apply(&self.rules, &mut self.st, engine::action_of(numbers));
                Ok(())
            }
            Ok(Some(reason)) => Err(illegal(py, format!("{numbers:?}: {reason}"))),
            Err(refusal) => Err(illegal(
                py,
                format!(
                    "{numbers:?} {}",
                    match refusal {
                        Refusal::OutOfRange => NOT_OF_THIS_GAME,
                        Refusal::NoAction(why) => why,
                    }
                ),
            )),
        }
    }
}

#[pymethods]
impl NativeState {
    /// A new game seeded `seed` (an int, as `random.Random(seed)`): the rules' starting position, random setup
    /// done. `trace` keeps the events.
    #[staticmethod]
    #[pyo3(signature = (rules, seed, trace = false))]
    fn start(rules: &NativeRules, seed: &Bound<'_, PyAny>, trace: bool) -> PyResult<Self> {
        let rng = Twister::from_key(&seed_key(seed)?);
        let st = engine::new_state(&rules.rules, &rules.template, rng, trace);
        Ok(NativeState {
            rules: Arc::clone(&rules.rules),
            tuples: Arc::clone(&rules.tuples),
            st,
            result: None,
        })
    }

    /// The native position of a Python engine `State` (a scenario's, say); ValueError naming what is malformed.
    #[staticmethod]
    fn of_state(rules: &NativeRules, state: &Bound<'_, PyAny>) -> PyResult<Self> {
        let st = state_of(&rules.rules, state)?;
        if let Some(why) = st.stuck(&rules.rules) {
            return Err(PyValueError::new_err(format!("position: {why}")));
        }
        let result = field(state, "result")?;
        let result = if result.is_none() {
            None
        } else {
            Some(result.unbind())
        };
        Ok(NativeState {
            rules: Arc::clone(&rules.rules),
            tuples: Arc::clone(&rules.tuples),
            st,
            result,
        })
    }

    /// An independent copy; its generator is a copy of this one's, or of `rng`'s state when given.
    #[pyo3(signature = (rng = None))]
    fn copy(&self, py: Python<'_>, rng: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let mut st = self.st.clone();
        if let Some(rng) = rng {
            st.rng = twister_of(rng)?;
        }
        Ok(NativeState {
            rules: Arc::clone(&self.rules),
            tuples: Arc::clone(&self.tuples),
            st,
            result: self.result.as_ref().map(|r| r.clone_ref(py)),
        })
    }

    #[getter]
    fn phase(&self) -> u8 {
        self.st.phase
    }
    #[getter]
    fn setup_queue(&self) -> Vec<u8> {
        self.st.setup_queue.clone()
    }
    #[getter]
    fn current(&self) -> i64 {
        self.st.current
    }
    #[getter]
    fn turn(&self) -> i64 {
        self.st.turn
    }
    #[getter]
    fn pools<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        lists(py, &self.st.pools)
    }
    #[getter]
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        lists(py, &self.st.hands)
    }
    #[getter]
    fn stacks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        lists(py, &self.st.stacks)
    }
    #[getter]
    fn spent(&self) -> Vec<i64> {
        self.st.spent.clone()
    }
    #[getter]
    fn tile_owner(&self) -> Vec<i64> {
        self.st.tile_owner.clone()
    }
    #[getter]
    fn tile_type(&self) -> Vec<i64> {
        self.st.tile_type.clone()
    }
    #[getter]
    fn tile_turn(&self) -> Vec<i64> {
        self.st.tile_turn.clone()
    }
    #[getter]
    fn empty_land(&self) -> Vec<usize> {
        self.st.empty_land.clone()
    }
    #[getter]
    fn empty_land_pos(&self) -> Vec<i64> {
        self.st.empty_land_pos.clone()
    }
    #[getter]
    fn empty_sea(&self) -> Vec<usize> {
        self.st.empty_sea.clone()
    }
    #[getter]
    fn empty_sea_pos(&self) -> Vec<i64> {
        self.st.empty_sea_pos.clone()
    }
    #[getter]
    fn movable_count(&self) -> Vec<i64> {
        self.st.movable_count.clone()
    }
    #[getter]
    fn figures(&self) -> Vec<u8> {
        self.st.figures.clone()
    }
    #[getter]
    fn empty_around(&self) -> Vec<i64> {
        self.st.empty_around.clone()
    }
    #[getter]
    fn pending(&self) -> Vec<usize> {
        self.st.pending.clone()
    }
    #[getter]
    fn supply(&self) -> Vec<i64> {
        self.st.supply.to_vec()
    }
    #[getter]
    fn on_board(&self) -> Vec<i64> {
        self.st.on_board.to_vec()
    }
    #[getter]
    fn captured(&self) -> Vec<i64> {
        self.st.captured.clone()
    }
    #[getter]
    fn removed(&self) -> Vec<i64> {
        self.st.removed.to_vec()
    }
    #[getter]
    fn removed_total(&self) -> i64 {
        self.st.removed_total
    }
    #[getter]
    fn open_by_stage<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        lists(py, &self.st.open_by_stage)
    }
    #[getter]
    fn cut(&self) -> Vec<i64> {
        self.st.cut.to_vec()
    }
    #[getter]
    fn normal_played(&self) -> bool {
        self.st.normal_played
    }
    #[getter]
    fn played(&self) -> i64 {
        self.st.played
    }
    #[getter]
    fn tiles_played(&self) -> i64 {
        self.st.tiles_played
    }
    #[getter]
    fn end_reason(&self) -> Option<&'static str> {
        self.st.end_reason.map(EndReason::code)
    }

    /// The events of a traced game, as the Python engine's tuples (None when not traced).
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        match &self.st.events {
            None => Ok(None),
            Some(events) => {
                let items: Vec<Bound<'py, PyTuple>> = events
                    .iter()
                    .map(|e| event_tuple(py, e))
                    .collect::<PyResult<_>>()?;
                Ok(Some(PyList::new(py, items)?))
            }
        }
    }

    /// The game's generator, as a `random.Random` in the same state (a copy: drawing from it changes nothing).
    #[getter]
    fn rng<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let generator = py.import("random")?.getattr("Random")?.call1((0,))?;
        generator.call_method1("setstate", (state_tuple(py, &self.st.rng, None)?,))?;
        Ok(generator)
    }

    /// The result once the game is over and scored (the Python side sets it), else None.
    #[getter]
    fn get_result(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.result.as_ref().map(|r| r.clone_ref(py))
    }

    #[setter]
    fn set_result(&mut self, result: Option<Py<PyAny>>) {
        self.result = result;
    }

    /// The winners and reason code of the finished game by the edition's shipped scoring, decided natively; None
    /// while the game goes on or when only the edition's Python hook can score it.
    fn native_decision(&self) -> Option<(Vec<usize>, &'static str)> {
        if self.st.phase != OVER {
            return None;
        }
        scoring::decide(self.rules.scoring, &self.st.captured, self.rules.players)
            .map(|d| (d.winners, d.reason))
    }

    /// Everything that defines the position as one tuple, as `State.fingerprint()` gives it.
    fn fingerprint<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let st = &self.st;
        let items: Vec<Bound<'py, PyAny>> = vec![
            st.phase.into_pyobject(py)?.into_any(),
            PyTuple::new(py, &st.setup_queue)?.into_any(),
            st.current.into_pyobject(py)?.into_any(),
            st.turn.into_pyobject(py)?.into_any(),
            tuples(py, &st.pools)?.into_any(),
            tuples(py, &st.hands)?.into_any(),
            tuples(py, &st.stacks)?.into_any(),
            PyTuple::new(py, &st.spent)?.into_any(),
            PyTuple::new(py, &st.tile_owner)?.into_any(),
            PyTuple::new(py, &st.tile_type)?.into_any(),
            PyTuple::new(py, &st.tile_turn)?.into_any(),
            PyTuple::new(py, &st.empty_land)?.into_any(),
            PyTuple::new(py, &st.empty_sea)?.into_any(),
            PyTuple::new(py, &st.figures)?.into_any(),
            PyTuple::new(py, &st.empty_around)?.into_any(),
            PyTuple::new(py, &st.pending)?.into_any(),
            PyTuple::new(py, st.supply)?.into_any(),
            PyTuple::new(py, st.on_board)?.into_any(),
            PyTuple::new(py, &st.captured)?.into_any(),
            PyTuple::new(py, st.removed)?.into_any(),
            st.normal_played.into_pyobject(py)?.to_owned().into_any(),
            st.played.into_pyobject(py)?.into_any(),
            st.end_reason
                .map(EndReason::code)
                .into_pyobject(py)?
                .into_any(),
            state_tuple(py, &st.rng, None)?.into_any(),
        ];
        PyTuple::new(py, items)
    }

    /// Every legal action now, as the Python engine's tuples in its order (empty once the game is over).
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let actions: Vec<Bound<'py, PyTuple>> = engine::legal_actions(&self.rules, &self.st)
            .iter()
            .map(|a| self.tuples.of(py, a))
            .collect::<PyResult<_>>()?;
        PyList::new(py, actions)
    }

    /// Why `action` is illegal now, in the Python engine's words, or None; IndexError for a number that names
    /// nothing of this game (where the Python engine indexes past a table). Changes nothing.
    fn check(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let numbers = numbers_of(action)?;
        engine::check(&self.rules, &self.st, &numbers).map_err(refusal_error)
    }

    /// Play `action`: checked first, an illegal one raises IllegalAction and changes nothing.
    fn apply(&mut self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let numbers = numbers_of(action).map_err(|e| illegal(py, e.to_string()))?;
        self.play(py, &numbers)
    }

    /// A random legal action (`engine.sample_action`) drawn from `rng`: a `MersenneTwister`, or any object whose
    /// `random()` gives floats in [0, 1) (a `random.Random`).
    fn sample_action<'py>(
        &self,
        py: Python<'py>,
        rng: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let action = if let Ok(native) = rng.cast::<MersenneTwister>() {
            let mut native = native.borrow_mut();
            engine::sample_action(&self.rules, &self.st, &mut native.inner)
                .map_err(refusal_error)?
        } else {
            let mut draw = PyDraw::of(rng)?;
            let action = engine::sample_action(&self.rules, &self.st, &mut draw);
            draw.finish(action)?
        };
        self.tuples.of(py, &action)
    }

    /// What the greedy player (`samurai_plugins.knizia.engine.greedy`) plays for the seat to act, ties drawn from `rng`.
    fn greedy_action<'py>(
        &self,
        py: Python<'py>,
        rng: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let action = if let Ok(native) = rng.cast::<MersenneTwister>() {
            let mut native = native.borrow_mut();
            greedy_action(&self.rules, &self.st, &mut native.inner).map_err(refusal_error)?
        } else {
            let mut draw = PyDraw::of(rng)?;
            let action = greedy_action(&self.rules, &self.st, &mut draw);
            draw.finish(action)?
        };
        self.tuples.of(py, &action)
    }

    /// The game to its end, seat `k` drawing random actions from `rngs[k]` (generators, native or
    /// `random.Random`, advanced as the Python engine's `play_random` advances them); returns how many actions
    /// were played, and the actions when `keep` is set.
    #[pyo3(signature = (rngs, keep = false))]
    fn play_random<'py>(
        &mut self,
        py: Python<'py>,
        rngs: Vec<Bound<'py, PyAny>>,
        keep: bool,
    ) -> PyResult<(usize, Option<Bound<'py, PyList>>)> {
        if self.st.phase != OVER && rngs.len() < self.rules.players {
            return Err(PyValueError::new_err(format!(
                "play_random: {} generators for {} seats",
                rngs.len(),
                self.rules.players
            )));
        }
        // One native generator per distinct Python one (two seats may share a generator).
        let mut distinct: Vec<usize> = Vec::new();
        let mut of_seat = Vec::with_capacity(rngs.len());
        for (i, rng) in rngs.iter().enumerate() {
            match distinct.iter().position(|&j| rngs[j].is(rng)) {
                Some(k) => of_seat.push(k),
                None => {
                    of_seat.push(distinct.len());
                    distinct.push(i);
                }
            }
        }
        let mut twisters: Vec<Twister> = distinct
            .iter()
            .map(|&i| twister_of(&rngs[i]))
            .collect::<PyResult<_>>()?;
        // A call that raises changes nothing: each generator is first written back as it is (a generator that
        // cannot take its state back fails here, before any play), the game is played on a copy, and the copy
        // and the generators are committed only when everything has worked.
        let before = twisters.clone();
        for (k, &i) in distinct.iter().enumerate() {
            write_back(&rngs[i], &before[k])?;
        }
        let mut st = self.st.clone();
        let mut actions = Vec::new();
        let played = engine::play_random(&self.rules, &mut st, &mut twisters, &of_seat, |action| {
            if keep {
                actions.push(action);
            }
        })
        .map_err(refusal_error)?;
        for (k, &i) in distinct.iter().enumerate() {
            if let Err(err) = write_back(&rngs[i], &twisters[k]) {
                // Put back the generators already advanced (they took their state a moment ago).
                for (j, &earlier) in distinct.iter().enumerate().take(k) {
                    write_back(&rngs[earlier], &before[j]).ok();
                }
                return Err(err);
            }
        }
        self.st = st;
        let kept = if keep {
            let tuples: Vec<Bound<'py, PyTuple>> = actions
                .iter()
                .map(|a| action_tuple(py, a))
                .collect::<PyResult<_>>()?;
            Some(PyList::new(py, tuples)?)
        } else {
            None
        };
        Ok((played, kept))
    }

    /// `count` random playouts to the end, each from a copy of this position (its own generator copied too),
    /// every seat drawing from `rng` (a `MersenneTwister` or a `random.Random`, advanced exactly as `count` calls of
    /// `copy().play_random([rng] * players)` advance it) and each finished game scored natively where the edition's
    /// scoring is a shipped one; the actions played in all. The position does not change. What a search's rollouts
    /// cost inside the engine, with no Python between them (`samurai bench` times it).
    fn playouts(&self, py: Python<'_>, rng: &Bound<'_, PyAny>, count: usize) -> PyResult<usize> {
        let mut twister = twister_of(rng)?;
        let (rules, start) = (&self.rules, &self.st);
        // No Python object is touched until the generator is written back, so other threads run meanwhile.
        let (total, failure) = py.detach(|| {
            let every_seat = vec![0; rules.players];
            let mut scratch = start.clone();
            let mut total = 0;
            for _ in 0..count {
                scratch.reset_from(start);
                scratch.events = None;
                scratch.rng.clone_from(&start.rng);
                match engine::play_random(
                    rules,
                    &mut scratch,
                    std::slice::from_mut(&mut twister),
                    &every_seat,
                    |_| {},
                ) {
                    Ok(played) => total += played,
                    Err(refusal) => return (total, Some(refusal)),
                }
                std::hint::black_box(scoring::decide(
                    rules.scoring,
                    &scratch.captured,
                    rules.players,
                ));
            }
            (total, None)
        });
        write_back(rng, &twister)?;
        match failure {
            Some(refusal) => Err(refusal_error(refusal)),
            None => Ok(total),
        }
    }

    /// `copy.copy`: an independent copy (a position has no shared parts to keep).
    fn __copy__(&self, py: Python<'_>) -> PyResult<Self> {
        self.copy(py, None)
    }

    /// `copy.deepcopy`: an independent copy.
    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyAny>) -> PyResult<Self> {
        self.copy(py, None)
    }

    fn __repr__(&self) -> String {
        format!(
            "<NativeState phase={} turn={} current={}>",
            self.st.phase, self.st.turn, self.st.current
        )
    }
}

/// A bot the native engine plays whole games with.
#[derive(Clone, Copy)]
enum Bot {
    Random,
    Greedy,
}

/// Whole games between random and greedy bots, one per seed in `seeds` (the games' seeds): seat `k` of a game
/// seeded `s` draws from `random.Random(derive_seed(s, k))` and plays `bots[k % len(bots)]` (`"random"` or
/// `"greedy"`), as `samurai_plugins.knizia.adapters.runner.play_game` plays them. Per game, a tuple in the order of
/// `samurai_plugins.knizia.engine.backends.NativeGame`'s fields: the seed, the winners and reason code (None when the edition's own
/// Python hook scores), the protocol's returns (None then too), the end reason, turns, tiles played, each seat's
/// captured figures per caste, figures removed by ties, actions played, the seat that led alone in captured
/// figures after the middle turn (`samurai_plugins.knizia.core.facts.FactsWatch`) or None, and the actions when `keep` (else
/// None).
#[pyfunction]
#[pyo3(signature = (rules, seeds, bots, keep = false))]
fn play_games<'py>(
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

/// A game `play_games` finished, as plain data (its Python row is made after the batch, with the GIL held).
struct Finished {
    seed: u64,
    end_reason: Option<EndReason>,
    turn: i64,
    tiles_played: i64,
    captured: Vec<i64>,
    removed_total: i64,
    played: usize,
    leader: Option<usize>,
    actions: Option<Vec<Action>>,
}

/// Play one game per seed in `seeds` from `template` (see `play_games`).
fn play_batch(
    r: &Rules,
    template: &State,
    seeds: &[u64],
    kinds: &[Bot],
    keep: bool,
) -> Result<Vec<Finished>, Refusal> {
    let players = r.players;
    let mut out = Vec::with_capacity(seeds.len());
    let mut st = template.clone();
    // Games are seeded a few at a time, their generators side by side (seeding five CPython generators is much of
    // a random game's cost, and it goes faster the more chains the processor works on together).
    let per_game = players + 1;
    let chunk = (crate::mt::MAX_LANES / per_game).max(1);
    let mut generators: Vec<Twister> = vec![st.rng.clone(); chunk * per_game];
    let mut game_seeds: Vec<u64> = Vec::with_capacity(chunk * per_game);
    let mut watch = TurnWatch::default();
    let mut greedy = Greedy::default();
    let mut actions = Vec::new();
    for seeds in seeds.chunks(chunk) {
        game_seeds.clear();
        for &seed in seeds {
            game_seeds.push(seed);
            game_seeds.extend((0..players as u64).map(|k| derive_seed(seed, k)));
        }
        {
            let mut targets: Vec<&mut Twister> =
                generators.iter_mut().take(game_seeds.len()).collect();
            Twister::reseed_all(&mut targets, &game_seeds);
        }
        for (&seed, game) in seeds.iter().zip(generators.chunks_mut(per_game)) {
            let (own, seats) = game.split_at_mut(1);
            st.rng.clone_from(&own[0]);
            engine::restart(r, &mut st, template);
            actions.clear();
            let played = play_whole(
                r,
                &mut st,
                seats,
                kinds,
                &mut watch,
                &mut greedy,
                keep.then_some(&mut actions),
            )?;
            out.push(Finished {
                seed,
                end_reason: st.end_reason,
                turn: st.turn,
                tiles_played: st.tiles_played,
                captured: st.captured[..players * 3].to_vec(),
                removed_total: st.removed_total,
                played,
                leader: watch.leader(st.turn),
                actions: keep.then(|| actions.clone()),
            });
        }
    }
    Ok(out)
}

/// Play `st` to its end, seat `k` drawing from `seats[k]` as `kinds[k % len]` plays; how many actions (each one
/// pushed onto `actions` when given). `watch` notes each seat's captured total after every turn; `greedy` keeps
/// the greedy player's working lists.
fn play_whole(
    r: &Rules,
    st: &mut State,
    seats: &mut [Twister],
    kinds: &[Bot],
    watch: &mut TurnWatch,
    greedy: &mut Greedy,
    mut actions: Option<&mut Vec<Action>>,
) -> Result<usize, Refusal> {
    let mut played = 0usize;
    watch.start(st.turn, r.players);
    while st.phase != OVER {
        watch.see(st);
        let seat = st.seat();
        let rng = &mut seats[seat];
        let action = match kinds[seat % kinds.len()] {
            Bot::Random => engine::sample_action(r, st, rng),
            Bot::Greedy => greedy.action(r, st, rng),
        }?;
        engine::apply(r, st, action);
        played += 1;
        if let Some(actions) = actions.as_mut() {
            actions.push(action);
        }
    }
    watch.see(st);
    Ok(played)
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

/// Each seat's captured total after every turn of a game, to name the seat leading alone after its middle turn
/// (as `samurai_plugins.knizia.core.facts.FactsWatch` notes them: when the turn number changes, for the turn just ended).
#[derive(Default)]
struct TurnWatch {
    /// The turn being played.
    turn: i64,
    /// Per turn ended from turn 1 on: the turn, then each seat's total (`1 + players` numbers a turn).
    ended: Vec<i64>,
    players: usize,
}

impl TurnWatch {
    /// Watch a game of `players` seats from turn `turn` on.
    fn start(&mut self, turn: i64, players: usize) {
        self.turn = turn;
        self.players = players;
        self.ended.clear();
    }

    /// Note the totals of the turn just ended if `st` has moved on to another turn.
    fn see(&mut self, st: &State) {
        if st.turn == self.turn {
            return;
        }
        if self.turn >= 1 {
            self.ended.push(self.turn);
            for castes in st.captured.chunks_exact(3).take(self.players) {
                self.ended.push(castes[0] + castes[1] + castes[2]);
            }
        }
        self.turn = st.turn;
    }

    /// The seat alone ahead at the end of turn `last_turn / 2`, if that turn was noted and one seat leads.
    fn leader(&self, last_turn: i64) -> Option<usize> {
        let middle = last_turn / 2;
        let width = 1 + self.players;
        let totals = self
            .ended
            .chunks(width.max(1))
            .rev()
            .find(|row| row[0] == middle)
            .map(|row| &row[1..])?;
        let best = totals.iter().copied().max()?;
        (totals.iter().filter(|&&t| t == best).count() == 1)
            .then(|| totals.iter().position(|&t| t == best))?
    }
}

/// `derive_seed(seed, index)` of `samurai.seeds` (SplitMix64), for the tests that pin the two together.
#[pyfunction]
#[pyo3(name = "derive_seed")]
fn derive_seed_py(seed: u64, index: u64) -> u64 {
    derive_seed(seed, index)
}

/// `derive_seed(seed, index)` of every index (the seeds of a run's games, without a Python call each).
#[pyfunction]
fn derive_seeds(seed: u64, indices: Vec<u64>) -> Vec<u64> {
    indices
        .into_iter()
        .map(|index| derive_seed(seed, index))
        .collect()
}

/// The winners and reason code the native scoring `scoring` (`leader_tokens`, `majorities`, `most_figures`) gives
/// `captured` (`seat * 3 + caste` of a `players`-seat game): what the kit checks a scoring hook's claim against.
#[pyfunction]
fn native_scoring_decision(
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

/// Adds the engine's classes and functions to the module.
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
fn search_decision<'py>(
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

pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<NativeRules>()?;
    module.add_class::<NativeState>()?;
    module.add_function(wrap_pyfunction!(play_games, module)?)?;
    module.add_function(wrap_pyfunction!(derive_seed_py, module)?)?;
    module.add_function(wrap_pyfunction!(derive_seeds, module)?)?;
    module.add_function(wrap_pyfunction!(native_scoring_decision, module)?)?;
    module.add_function(wrap_pyfunction!(search_decision, module)?)?;
    Ok(())
}
