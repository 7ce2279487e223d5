//! CPython's Mersenne Twister as the class `MersenneTwister` ([`crate::mt`]), and how the engine draws from a
//! Python generator: its state read and written back, or its `random()` called draw by draw.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyTuple};

use crate::actions::Refusal;
use crate::mt::{self, Draw, MersenneTwister as Twister, MAX_INDEX_BOUND, N};
use crate::python::actions::refusal_error;

/// `random.getstate()`'s version for the Mersenne Twister.
const STATE_VERSION: i64 = 3;

/// The name of a value's type, for an error message.
fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "an object".to_string(), |name| name.to_string())
}

/// The words of CPython's seeding key for a whole-number seed of any size: those of `abs(seed)`.
pub(crate) fn seed_key(seed: &Bound<'_, PyAny>) -> PyResult<Vec<u32>> {
    if !seed.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "MersenneTwister(seed): the seed must be a whole number (int), got {}",
            type_name(seed)
        )));
    }
    if let Ok(small) = seed.extract::<i64>() {
        let magnitude = small.unsigned_abs();
        return Ok(MersenneTwister::key_of(magnitude));
    }
    // int.__abs__, not seed.__abs__: a subclass of int cannot change the seed, as in CPython.
    let py = seed.py();
    let magnitude = py.get_type::<PyInt>().call_method1("__abs__", (seed,))?;
    let bits: usize = magnitude.call_method0("bit_length")?.extract()?;
    let bytes: Vec<u8> = magnitude
        .call_method1("to_bytes", (bits.div_ceil(8), "little"))?
        .extract()?;
    Ok(mt::MersenneTwister::key_from_le_bytes(&bytes))
}

/// CPython's Mersenne Twister, value for value with `random.Random(seed)` for a whole-number seed.
///
/// `random()`, `getrandbits(k)` for k up to 64, `randbelow(n)` (CPython's `_randbelow`), `random_index(n)`
/// (`floor(random() * n)`, how Knizia's engine picks), `shuffle(list)` and a `getstate()`/`setstate()` whose
/// tuple `random.Random.setstate` accepts, and the other way round.
#[pyclass(module = "samurai_plugins.knizia.engine._native")]
#[derive(Clone)]
pub struct MersenneTwister {
    pub(crate) inner: mt::MersenneTwister,
    /// `random.Random`'s cached second Gaussian: kept only so that a state passes through unchanged.
    pub(crate) gauss_next: Option<f64>,
}

impl MersenneTwister {
    fn key_of(magnitude: u64) -> Vec<u32> {
        let (low, high) = (magnitude as u32, (magnitude >> 32) as u32);
        if high == 0 {
            vec![low]
        } else {
            vec![low, high]
        }
    }
}

#[pymethods]
impl MersenneTwister {
    /// The generator of `random.Random(seed)`; `seed` is an int (its sign is dropped, as CPython drops it).
    #[new]
    fn new(seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(MersenneTwister {
            inner: mt::MersenneTwister::from_key(&seed_key(seed)?),
            gauss_next: None,
        })
    }

    /// Reseeds as `random.Random.seed(seed)` does for an int.
    fn seed(&mut self, seed: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner = mt::MersenneTwister::from_key(&seed_key(seed)?);
        self.gauss_next = None;
        Ok(())
    }

    /// `random()`: a float in [0, 1).
    fn random(&mut self) -> f64 {
        self.inner.random()
    }

    /// `getrandbits(k)`: k random bits, for k from 0 to 64.
    fn getrandbits(&mut self, k: i64) -> PyResult<u64> {
        match u32::try_from(k) {
            Ok(bits) if bits <= 64 => Ok(self.inner.getrandbits(bits)),
            _ if k < 0 => Err(PyValueError::new_err(format!(
                "getrandbits(k): k must be non-negative, got {k}"
            ))),
            _ => Err(PyValueError::new_err(format!(
                "getrandbits(k): the native generator draws at most 64 bits, got {k}"
            ))),
        }
    }

    /// `_randbelow(n)`: an int in [0, n), for n from 1 to 2**64 - 1.
    fn randbelow(&mut self, n: &Bound<'_, PyAny>) -> PyResult<u64> {
        match n.extract::<u64>() {
            Ok(bound) if bound > 0 => Ok(self.inner.randbelow(bound)),
            _ => Err(PyValueError::new_err(format!(
                "randbelow(n): n must be an int from 1 to 2**64 - 1, got {n}"
            ))),
        }
    }

    /// `floor(random() * n)`: an index in [0, n), for n from 1 to 2**53.
    fn random_index(&mut self, n: &Bound<'_, PyAny>) -> PyResult<usize> {
        match n.extract::<u64>() {
            Ok(bound) if bound > 0 && bound <= MAX_INDEX_BOUND => {
                Ok(self.inner.random_index(bound as usize))
            }
            _ => Err(PyValueError::new_err(format!(
                "random_index(n): n must be an int from 1 to 2**53, got {n}"
            ))),
        }
    }

    /// `shuffle(items)`: shuffles a list in place as `random.Random.shuffle` does.
    fn shuffle(&mut self, items: &Bound<'_, PyAny>) -> PyResult<()> {
        let list = items.cast::<PyList>().map_err(|_| {
            PyTypeError::new_err(format!(
                "shuffle(items): items must be a list, got {}",
                type_name(items)
            ))
        })?;
        for i in (1..list.len()).rev() {
            let j = self.inner.randbelow(i as u64 + 1) as usize;
            if i != j {
                let (item_i, item_j) = (list.get_item(i)?, list.get_item(j)?);
                list.set_item(i, item_j)?;
                list.set_item(j, item_i)?;
            }
        }
        Ok(())
    }

    /// `getstate()`: `(3, (624 words..., index), gauss_next)`, as `random.Random.getstate()` gives it.
    fn getstate<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        state_tuple(py, &self.inner, self.gauss_next)
    }

    /// `setstate(state)`: takes a tuple of `getstate()`, this class's or `random.Random`'s; a malformed one
    /// is refused with ValueError naming what is wrong, and the generator is left as it was.
    fn setstate(&mut self, state: &Bound<'_, PyAny>) -> PyResult<()> {
        let (inner, gauss) = parse_state(state)?;
        self.inner = inner;
        self.gauss_next = gauss;
        Ok(())
    }

    /// An independent copy, at the same point of the sequence.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!("MersenneTwister(<index {}>)", self.inner.state().1)
    }
}

/// `random.Random.getstate()`'s tuple of a generator.
pub(crate) fn state_tuple<'py>(
    py: Python<'py>,
    inner: &mt::MersenneTwister,
    gauss_next: Option<f64>,
) -> PyResult<Bound<'py, PyTuple>> {
    let (words, index) = inner.state();
    let mut internal: Vec<u64> = words.iter().map(|&w| u64::from(w)).collect();
    internal.push(index as u64);
    let internal = PyTuple::new(py, internal)?;
    let gauss = gauss_next.into_pyobject(py)?;
    PyTuple::new(
        py,
        [
            STATE_VERSION.into_pyobject(py)?.into_any(),
            internal.into_any(),
            gauss,
        ],
    )
}

/// The generator of a `getstate()` tuple (this class's or `random.Random`'s); ValueError naming what is wrong.
pub(crate) fn parse_state(
    state: &Bound<'_, PyAny>,
) -> PyResult<(mt::MersenneTwister, Option<f64>)> {
    let refuse = |what: String| PyValueError::new_err(format!("setstate(state): {what}"));
    let (version, internal, gauss): (i64, Vec<Bound<'_, PyAny>>, Option<f64>) = state
        .extract()
        .map_err(|_| refuse("expected (3, (624 words, index), gauss_next)".to_string()))?;
    if version != STATE_VERSION {
        return Err(refuse(format!("version {version} is not {STATE_VERSION}")));
    }
    if internal.len() != N + 1 {
        return Err(refuse(format!(
            "{} numbers in the internal state, not {}",
            internal.len(),
            N + 1
        )));
    }
    let mut words = [0u32; N];
    for (i, (word, value)) in words.iter_mut().zip(&internal).enumerate() {
        *word = value
            .extract::<u32>()
            .map_err(|_| refuse(format!("word {i} is not in 0..2**32: {value}")))?;
    }
    let index = internal[N]
        .extract::<usize>()
        .map_err(|_| refuse(format!("index {} is not in 0..=624", internal[N])))?;
    let inner = mt::MersenneTwister::from_state(words, index)
        .map_err(|invalid| refuse(format!("index {} is not in 0..=624", invalid.index)))?;
    Ok((inner, gauss))
}

/// Draws from a Python generator's `random()`; the first failure is kept and every later draw is 0.
pub(crate) struct PyDraw<'py> {
    random: Bound<'py, PyAny>,
    error: Option<PyErr>,
}

impl<'py> PyDraw<'py> {
    pub(crate) fn of(rng: &Bound<'py, PyAny>) -> PyResult<Self> {
        Ok(PyDraw {
            random: rng.getattr("random")?,
            error: None,
        })
    }

    pub(crate) fn finish<T>(self, value: Result<T, Refusal>) -> PyResult<T> {
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

/// The native generator in the state of `rng` (a `MersenneTwister`, or a `random.Random`).
pub(crate) fn twister_of(rng: &Bound<'_, PyAny>) -> PyResult<Twister> {
    if let Ok(native) = rng.cast::<MersenneTwister>() {
        return Ok(native.borrow().inner.clone());
    }
    Ok(parse_state(&rng.call_method0("getstate")?)?.0)
}

/// `rng` (a `MersenneTwister`, or a `random.Random`) put in the state of `twister`.
pub(crate) fn write_back(rng: &Bound<'_, PyAny>, twister: &Twister) -> PyResult<()> {
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
