//! The native engine of Knizia's Samurai, built as the Python extension module `samurai.knizia._native`.
//!
//! So far it holds the generator every game draws from, CPython's Mersenne Twister ([`mt`]); the engine
//! itself comes next (docs/native.md). The Python binding is the `python` feature, so the pure-Rust parts
//! are tested by `cargo test` without Python.

pub mod mt;

#[cfg(feature = "python")]
mod python;
