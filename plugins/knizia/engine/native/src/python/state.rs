//! A position between Python and the native engine: the native position of a Python engine `State`
//! (`samurai_plugins.knizia.core.state.State`), and each field of a native one as Python reads it, field by field
//! or as `State.fingerprint()` holds them. All of it is made from the one list of the position's fields
//! ([`crate::state::position_fields`]), so no field is named here.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::mt::MersenneTwister as Twister;
use crate::python::mt::{parse_state, state_tuple};
use crate::rules::Rules;
use crate::state::{position_fields, EndReason, Event, State};

/// The error of a field of a Python position that cannot be read.
fn bad_field(name: &str, err: PyErr) -> PyErr {
    PyValueError::new_err(format!("position: the field {name:?} is malformed: {err}"))
}

/// A field of the position as Python holds it.
trait Field: Sized {
    /// The field `name` of a Python position, `value`; ValueError naming the field when it is malformed.
    fn of_python(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Self>;

    /// The field as a fresh Python value, as the Python engine's `State` holds it (lists for lists).
    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;

    /// The field as `State.fingerprint()` holds it (tuples for lists).
    fn to_fingerprint<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_python(py)
    }
}

/// [`Field`] of the fields Python holds as they are (numbers and flags).
macro_rules! plain_field {
    ($($ty:ty),*) => {$(
        impl Field for $ty {
            fn of_python(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Self> {
                value.extract::<Self>().map_err(|e| bad_field(name, e.into()))
            }

            fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                Ok(self.into_pyobject(py)?.to_owned().into_any())
            }
        }
    )*};
}
plain_field!(u8, i64, bool);

/// [`Field`] of the fields Python holds as a list of numbers.
macro_rules! list_field {
    ($($number:ty),*) => {$(
        impl Field for Vec<$number> {
            fn of_python(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Self> {
                value.extract::<Self>().map_err(|e| bad_field(name, e.into()))
            }

            fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                Ok(PyList::new(py, self)?.into_any())
            }

            fn to_fingerprint<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                Ok(PyTuple::new(py, self)?.into_any())
            }
        }
    )*};
}
list_field!(u8, i64, usize);

impl<const K: usize> Field for [i64; K] {
    fn of_python(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Self> {
        let values = Vec::<i64>::of_python(name, value)?;
        values.try_into().map_err(|v: Vec<i64>| {
            PyValueError::new_err(format!("position: {name} has {} entries, not {K}", v.len()))
        })
    }

    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyList::new(py, self)?.into_any())
    }

    fn to_fingerprint<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyTuple::new(py, self)?.into_any())
    }
}

impl Field for Vec<Vec<usize>> {
    fn of_python(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Self> {
        value.extract::<Self>().map_err(|e| bad_field(name, e))
    }

    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rows: Vec<Bound<'py, PyList>> = self
            .iter()
            .map(|row| PyList::new(py, row))
            .collect::<PyResult<_>>()?;
        Ok(PyList::new(py, rows)?.into_any())
    }

    fn to_fingerprint<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let rows: Vec<Bound<'py, PyTuple>> = self
            .iter()
            .map(|row| PyTuple::new(py, row))
            .collect::<PyResult<_>>()?;
        Ok(PyTuple::new(py, rows)?.into_any())
    }
}

/// The end reason of a code; ValueError for a code that is none.
fn end_reason_of(code: &str) -> PyResult<EndReason> {
    EndReason::of_code(code)
        .ok_or_else(|| PyValueError::new_err(format!("position: no end reason {code:?}")))
}

impl Field for Option<EndReason> {
    fn of_python(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Self> {
        let code = value
            .extract::<Option<String>>()
            .map_err(|e| bad_field(name, e))?;
        code.map(|code| end_reason_of(&code)).transpose()
    }

    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.map(EndReason::code).into_pyobject(py)?.into_any())
    }
}

impl Field for Twister {
    /// The generator in the state of a Python one's `getstate()`.
    fn of_python(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Self> {
        let state = value
            .call_method0("getstate")
            .map_err(|e| bad_field(name, e))?;
        Ok(parse_state(&state).map_err(|e| bad_field(name, e))?.0)
    }

    /// A `random.Random` in the same state (a copy: drawing from it changes nothing).
    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let generator = py.import("random")?.getattr("Random")?.call1((0,))?;
        generator.call_method1("setstate", (state_tuple(py, self, None)?,))?;
        Ok(generator)
    }

    /// Its `getstate()` tuple.
    fn to_fingerprint<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(state_tuple(py, self, None)?.into_any())
    }
}

impl Field for Option<Vec<Event>> {
    /// The events of a traced game (None when not traced), from the Python engine's tuples.
    fn of_python(name: &str, value: &Bound<'_, PyAny>) -> PyResult<Self> {
        if value.is_none() {
            return Ok(None);
        }
        let mut events = Vec::new();
        for event in value.try_iter().map_err(|e| bad_field(name, e))? {
            let event = event.map_err(|e| bad_field(name, e))?;
            events.push(event_of(&event).map_err(|e| bad_field(name, e))?);
        }
        Ok(Some(events))
    }

    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            None => Ok(py.None().into_bound(py)),
            Some(events) => {
                let items: Vec<Bound<'py, PyTuple>> = events
                    .iter()
                    .map(|e| event_tuple(py, e))
                    .collect::<PyResult<_>>()?;
                Ok(PyList::new(py, items)?.into_any())
            }
        }
    }
}

/// The event of one of the Python engine's event tuples.
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
        "end" => Event::End {
            reason: end_reason_of(&event.get_item(1)?.extract::<String>()?)?,
        },
        _ => {
            return Err(PyValueError::new_err(format!(
                "position: no event {kind:?}"
            )))
        }
    })
}

/// The Python engine's tuple of an event.
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

/// The attribute `name` of a Python position; ValueError naming it when it is missing.
pub(crate) fn attribute<'py>(state: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    state.getattr(name).map_err(|e| bad_field(name, e))
}

/// Pushes the field onto a fingerprint's items when the field list marks it `fingerprint`.
macro_rules! fingerprinted {
    ($items:ident, $py:ident, $value:expr, [fingerprint]) => {
        $items.push($value.to_fingerprint($py)?)
    };
    ($items:ident, $py:ident, $value:expr, []) => {};
}

/// [`fields_of`], [`field`] and [`fingerprint`] of the fields `position_fields!` lists.
macro_rules! conversions_of_fields {
    ($($name:ident: $ty:ty [$($fingerprint:ident)?]),* $(,)?) => {
        /// The native position of a Python engine `State` (any object with its fields), unchecked.
        fn fields_of(state: &Bound<'_, PyAny>) -> PyResult<State> {
            Ok(State {
                $($name: <$ty as Field>::of_python(
                    stringify!($name),
                    &attribute(state, stringify!($name))?,
                )?,)*
            })
        }

        /// The field `name` of `st` as a fresh Python value (as the Python engine's `State` holds it), or None
        /// when a position has no field of that name.
        pub(crate) fn field<'py>(py: Python<'py>, st: &State, name: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
            Ok(Some(match name {
                $(stringify!($name) => st.$name.to_python(py)?,)*
                _ => return Ok(None),
            }))
        }

        /// Everything that defines the position as one tuple, as `State.fingerprint()` gives it.
        #[allow(clippy::vec_init_then_push)] // one push per field the list marks, as the macro writes them
        pub(crate) fn fingerprint<'py>(py: Python<'py>, st: &State) -> PyResult<Bound<'py, PyTuple>> {
            let mut items: Vec<Bound<'py, PyAny>> = Vec::new();
            $(fingerprinted!(items, py, st.$name, [$($fingerprint)?]);)*
            PyTuple::new(py, items)
        }
    };
}
position_fields!(conversions_of_fields);

/// The native position of a Python engine `State` (any object with its fields), checked against the rules;
/// ValueError naming what is malformed.
pub(crate) fn state_of(rules: &Rules, state: &Bound<'_, PyAny>) -> PyResult<State> {
    let st = fields_of(state)?;
    if let Some(problem) = st.problem(rules) {
        return Err(PyValueError::new_err(format!("position: {problem}")));
    }
    Ok(st)
}
