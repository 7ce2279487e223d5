//! The Python face of the native engine: the extension module `samurai_plugins.knizia.engine._native`.
//!
//! Everything that comes from Python is checked here before the engine sees it (the rules' tables, a position,
//! every action, every generator's draw), so a refusal is a Python exception and never a panic: an illegal
//! action raises `samurai.errors.IllegalAction` and leaves the position as it was, a malformed table or position
//! raises `ValueError` naming what is wrong. The Python side (`samurai_plugins.knizia.engine.backends`) builds the
//! tables from a compiled edition and scores finished games through the edition's own hook.
//!
//! One file per pure-Rust module it serves, each named as that module: [`mt`] (`MersenneTwister`), [`rules`]
//! (`NativeRules`), [`state`] (a position's fields to and from Python), [`reference`] (`NativeState`, the engine's
//! functions), [`runner`] (`play_games`), [`search`] (`search_decision`), [`scoring`] and [`seeds`]; [`actions`]
//! holds the action tuples and the exceptions of refused ones. Only this file names them all.

mod actions;
mod mt;
mod reference;
mod rules;
mod runner;
mod scoring;
mod search;
mod seeds;
mod state;

use pyo3::prelude::*;

/// The module `samurai_plugins.knizia.engine._native`.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<mt::MersenneTwister>()?;
    module.add_class::<rules::NativeRules>()?;
    module.add_class::<reference::NativeState>()?;
    module.add_function(wrap_pyfunction!(runner::play_games, module)?)?;
    module.add_function(wrap_pyfunction!(seeds::derive_seed_py, module)?)?;
    module.add_function(wrap_pyfunction!(seeds::derive_seeds, module)?)?;
    module.add_function(wrap_pyfunction!(scoring::native_scoring_decision, module)?)?;
    module.add_function(wrap_pyfunction!(search::search_decision, module)?)?;
    Ok(())
}
