//! Chariot's engine library: a chess and xiangqi engine behind UCI and UCCI.
//!
//! Everything the engine does at run time lives here, with no command-line parser and no
//! mutable static; the `chariot` binary (the workspace's root package) parses the command line
//! and the trainer (`chariot-train`) is a crate of its own. Layout follows the
//! architecture: [`game`] is the contract, [`chess`] and [`xiangqi`] implement it, [`search`] is
//! written once over it, [`engine`] is the controller that owns the session and the search
//! threads, and [`protocol`] turns text into commands and reports into text. The neutral
//! vocabulary between them is [`command`] (in), [`report`] (out) and [`options`] (the option
//! table). The [`tools`] (bench, speedtest, datagen, game analysis) run searches through a
//! session of their own and return values; the binary prints them.

#![warn(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod book;
pub mod chess;
pub mod command;
pub mod engine;
pub mod game;
pub mod nnue;
pub mod options;
pub mod protocol;
pub mod record;
pub mod report;
pub mod rng;
pub mod search;
pub mod session;
pub mod text;
pub mod tools;
pub mod xiangqi;
