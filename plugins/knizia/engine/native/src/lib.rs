//! The native engine of Knizia's Samurai, built as the Python extension module `samurai_plugins.knizia.engine._native`.
//!
//! The same game as the Python engine (`samurai_plugins.knizia.engine.reference`), which stays the reference. Each
//! module mirrors one Python module, named as it is (docs/native.md has the map):
//!
//! - [`state`]: the position (`core.state`); [`actions`]: the actions as numbers (`core.actions`' tuples);
//!   [`facts`]: what a finished game tells (`core.facts`);
//! - [`rules`]: the compiled rules and the special tile behaviour's interface (`editions.rules`); [`setup`]: the
//!   setup's rules (`editions.setup`); [`scoring`]: the shipped scorings (`editions.native_scoring`);
//! - [`reference`]: the rules engine (`engine.reference`); [`special_tiles`]: Move and Switch
//!   (`engine.special_tiles`); [`consistency`]: what a position handed over must satisfy (`engine.consistency`);
//!   [`greedy`]: the greedy player (`engine.greedy`); [`evaluation`]: the search's estimate (`engine.evaluation`);
//! - [`runner`]: whole games of random and greedy players (`adapters.runner`);
//!
//! (each under `samurai_plugins.knizia.`), and three that mirror the framework's and Python's own: [`search`] the
//! information-set search (`samurai.search.mcts`), [`mt`] CPython's Mersenne Twister (`random.Random`) and
//! [`seeds`] (`samurai.seeds`). The Python binding is the `python` feature, in `python/`, whose files are named
//! as the modules they serve; the pure-Rust modules never use it, so `cargo test` tests them without Python
//! (docs/native.md).

pub mod actions;
pub mod consistency;
pub mod evaluation;
pub mod facts;
pub mod greedy;
pub mod mt;
pub mod reference;
pub mod rules;
pub mod runner;
pub mod scoring;
pub mod search;
pub mod seeds;
pub mod setup;
pub mod special_tiles;
pub mod state;

#[cfg(feature = "python")]
mod python;
