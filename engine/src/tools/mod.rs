//! The tools: commands that run searches for a purpose of their own rather than for a game in
//! progress. Each takes a session (or makes its own like the caller's) and returns values and
//! typed errors; the `chariot` binary and the controller print them.
//!
//! - [`bench`]: the bench signature (fixed positions searched to a depth) and perft;
//! - [`speedtest`]: nodes per second over a stretch of a game;
//! - [`datagen`]: self-play games that become the networks' training data;
//! - [`analysis`]: whole games searched move by move and judged.

pub mod analysis;
pub mod bench;
pub mod datagen;
pub mod speedtest;
