//! The engine's actions as Python tuples of numbers, and the Python exceptions of refused ones.

use pyo3::exceptions::{PyIndexError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::actions::{self, Action, Refusal};
use crate::rules::Rules;

/// The message of an action naming what the game does not have (as `HexGameState.check` words it).
pub(crate) const NOT_OF_THIS_GAME: &str =
    "names a tile, hex, caste or settlement this game does not have";

/// The Python tuple of every action but the special tiles', made once per rules: a search lists hundreds of
/// actions per position, and handing out a tuple made before costs a fraction of making it.
pub(crate) struct ActionTuples {
    place: Vec<Py<PyTuple>>,
    choose: Vec<Py<PyTuple>>,
    figure: Vec<Py<PyTuple>>,
    end: Py<PyTuple>,
    board_size: usize,
    settlements: usize,
}

impl ActionTuples {
    pub(crate) fn new(py: Python<'_>, rules: &Rules) -> PyResult<Self> {
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
    pub(crate) fn of<'py>(
        &self,
        py: Python<'py>,
        action: &Action,
    ) -> PyResult<Bound<'py, PyTuple>> {
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

/// The Python exception of what the engine refused: IndexError for a number naming nothing of the game.
pub(crate) fn refusal_error(refusal: Refusal) -> PyErr {
    match refusal {
        Refusal::OutOfRange => PyIndexError::new_err(NOT_OF_THIS_GAME),
        Refusal::NoAction(why) => PyValueError::new_err(why),
    }
}

/// `samurai.errors.IllegalAction(message)` (a ValueError if it cannot be made).
pub(crate) fn illegal(py: Python<'_>, message: String) -> PyErr {
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
pub(crate) fn numbers_of(action: &Bound<'_, PyAny>) -> PyResult<Vec<u64>> {
    let numbers: Vec<u64> = action.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "an action is a tuple of whole numbers >= 0, not {action}"
        ))
    })?;
    let shape_ok = match numbers.first() {
        Some(&actions::CHOOSE) => numbers.len() == 2,
        Some(&actions::FIGURE) | Some(&actions::PLACE) => numbers.len() == 3,
        Some(&actions::END) => numbers.len() == 1,
        Some(&actions::SPECIAL) => numbers.len() >= 2,
        _ => false,
    };
    if !shape_ok {
        return Err(PyIndexError::new_err(format!(
            "{numbers:?} is not an action of this game"
        )));
    }
    Ok(numbers)
}

/// The Python engine's tuple of `action`.
pub(crate) fn action_tuple<'py>(py: Python<'py>, action: &Action) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, action.numbers())
}
