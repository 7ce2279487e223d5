//! The native engine of Knizia's Samurai, built as the Python extension module `samurai_plugins.knizia.engine._native`.
//!
//! The same game as the Python engine (`samurai_plugins.knizia.engine.reference`), which stays the reference: the compiled
//! rules ([`rules`]), the position ([`state`]), the rules engine ([`engine`]), the shipped scorings
//! ([`scoring`]), the greedy player ([`greedy`]), the search's estimate ([`evaluation`]) and the search itself ([`search`]) and CPython's Mersenne Twister ([`mt`]), which every game draws
//! from. The Python binding is the `python` feature, so the pure-Rust parts are tested by `cargo test` without
//! Python (docs/native.md).

pub mod consistency;
pub mod engine;
pub mod evaluation;
pub mod greedy;
pub mod mt;
pub mod rules;
pub mod scoring;
pub mod search;
pub mod seeds;
pub mod state;

#[cfg(feature = "python")]
mod binding;
#[cfg(feature = "python")]
mod python;
