//! `samurai.seeds.derive_seed` natively ([`crate::seeds`]).

use pyo3::prelude::*;

use crate::seeds::derive_seed;

/// `derive_seed(seed, index)` of `samurai.seeds` (SplitMix64), for the tests that pin the two together.
#[pyfunction]
#[pyo3(name = "derive_seed")]
pub(crate) fn derive_seed_py(seed: u64, index: u64) -> u64 {
    derive_seed(seed, index)
}

/// `derive_seed(seed, index)` of every index (the seeds of a run's games, without a Python call each).
#[pyfunction]
pub(crate) fn derive_seeds(seed: u64, indices: Vec<u64>) -> Vec<u64> {
    indices
        .into_iter()
        .map(|index| derive_seed(seed, index))
        .collect()
}
