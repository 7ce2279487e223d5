//! `NativeState`: one position on the native engine with the engine's functions as its methods
//! (`samurai_plugins.knizia.engine.reference`'s, [`crate::reference`]), as `samurai_plugins.knizia.engine.backends.
//! NativeEngine` drives it. Its fields are read by name ([`crate::python::state`]).

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::actions::Refusal;
use crate::greedy::greedy_action;
use crate::mt::MersenneTwister as Twister;
use crate::python::actions::{
    action_tuple, illegal, numbers_of, refusal_error, ActionTuples, NOT_OF_THIS_GAME,
};
use crate::python::mt::{seed_key, twister_of, write_back, MersenneTwister, PyDraw};
use crate::python::rules::NativeRules;
use crate::python::state::{attribute, field, fingerprint, state_of};
use crate::reference;
use crate::rules::Rules;
use crate::scoring;
use crate::state::{State, OVER};

/// One position of a game on the native engine, with the same fields as the Python engine's `State` (read-only:
/// each read is a fresh Python value), and the engine's functions as methods.
#[pyclass(module = "samurai_plugins.knizia.engine._native")]
pub struct NativeState {
    rules: Arc<Rules>,
    tuples: Arc<ActionTuples>,
    st: State,
    result: Option<Py<PyAny>>,
}

impl NativeState {
    fn play(&mut self, py: Python<'_>, numbers: &[u64]) -> PyResult<()> {
        match reference::check(&self.rules, &self.st, numbers) {
            Ok(None) => {
                reference::apply(
                    &self.rules,
                    &mut self.st,
                    crate::actions::action_of(numbers),
                );
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
        let st = reference::new_state(&rules.rules, &rules.template, rng, trace);
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
        let result = attribute(state, "result")?;
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

    /// A field of the position (`phase`, `hands`, ... as the Python engine's `State` has them: each read a fresh
    /// Python value, read-only), else the attribute `name` as Python looks it up (the methods, `result`). The
    /// fields are looked up first: a search reads them at every node.
    fn __getattribute__<'py>(
        slf: &Bound<'py, Self>,
        name: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        if let Some(value) = field(py, &slf.borrow().st, name.to_str()?)? {
            return Ok(value);
        }
        static LOOKUP: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        LOOKUP
            .get_or_try_init(py, || {
                py.get_type::<PyAny>()
                    .getattr("__getattribute__")
                    .map(Bound::unbind)
            })?
            .bind(py)
            .call1((slf, name))
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
        fingerprint(py, &self.st)
    }

    /// Every legal action now, as the Python engine's tuples in its order (empty once the game is over).
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let actions: Vec<Bound<'py, PyTuple>> = reference::legal_actions(&self.rules, &self.st)
            .iter()
            .map(|a| self.tuples.of(py, a))
            .collect::<PyResult<_>>()?;
        PyList::new(py, actions)
    }

    /// Why `action` is illegal now, in the Python engine's words, or None; IndexError for a number that names
    /// nothing of this game (where the Python engine indexes past a table). Changes nothing.
    fn check(&self, action: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let numbers = numbers_of(action)?;
        reference::check(&self.rules, &self.st, &numbers).map_err(refusal_error)
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
            reference::sample_action(&self.rules, &self.st, &mut native.inner)
                .map_err(refusal_error)?
        } else {
            let mut draw = PyDraw::of(rng)?;
            let action = reference::sample_action(&self.rules, &self.st, &mut draw);
            draw.finish(action)?
        };
        self.tuples.of(py, &action)
    }

    /// What the greedy player (`samurai_plugins.knizia.engine.greedy`) plays for the seat to act, ties drawn from
    /// `rng`.
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
        let played =
            reference::play_random(&self.rules, &mut st, &mut twisters, &of_seat, |action| {
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
                match reference::play_random(
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
