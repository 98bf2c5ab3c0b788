//! Why datagen or genfens cannot go on, as values the caller prints.

use crate::game::FenError;
use crate::nnue::games::GamesError;
use std::path::PathBuf;

/// What is wrong with an opening file (read by [`super::read_openings`]).
#[derive(Debug, thiserror::Error)]
pub enum OpeningsError {
    /// A line that is not a position of the game.
    #[error("line {line}: {error}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// Why it is not a position.
        error: FenError,
    },
    /// No line holds a position.
    #[error("no positions in the opening file")]
    Empty,
}

/// Why a datagen run (or a genfens request) stopped or could not start.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// Neither a number of games nor of positions: the run would never end.
    #[error("give --games or --positions")]
    NoLimit,
    /// A share of double-Fischer-random starts outside 0 to 1.
    #[error("the DFRC share must be from 0 to 1, not {0}")]
    Share(f64),
    /// A search thread could not be started.
    #[error("cannot start a search thread: {0}")]
    Threads(std::io::Error),
    /// The output file could not be opened.
    #[error("cannot open '{}': {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The half-written end an interrupted run left could not be cut off.
    #[error("cannot repair '{}': {source}", path.display())]
    Repair {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The game file is damaged before its end: cutting it would lose the games after.
    #[error("cannot repair '{}': {source}", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
        /// Where and how it is damaged.
        source: GamesError,
    },
    /// A game could not be written.
    #[error("cannot write '{}': {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A game the format cannot hold (a start FEN over 255 bytes, say).
    #[error("cannot write '{}': {source}", path.display())]
    Unwritable {
        /// The file.
        path: PathBuf,
        /// What the format cannot hold.
        source: GamesError,
    },
    /// genfens asked of a session that plays xiangqi.
    #[error("makes chess starts, and the session plays {0}")]
    NotChess(&'static str),
    /// genfens's book could not be read.
    #[error("book '{name}': {source}")]
    BookUnreadable {
        /// The book's name as given (shortened).
        name: String,
        /// Why.
        source: std::io::Error,
    },
    /// genfens's book holds something other than chess positions.
    #[error("book '{name}': {source}")]
    Book {
        /// The book's name as given (shortened).
        name: String,
        /// What is wrong with it.
        source: OpeningsError,
    },
}
