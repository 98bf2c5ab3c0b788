//! Chariot's match runner: plays chess and xiangqi engines against each other over UCI and
//! UCCI, with Chariot's own rules as the referee, and reports the result as fastchess does.

#![warn(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod cli;
pub mod engine;
pub mod notation;
pub mod pgn;
pub mod play;
pub mod referee;
pub mod runner;
pub mod signal;
pub mod spsa;
pub mod stats;
pub mod tally;
