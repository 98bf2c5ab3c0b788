//! What the controller tells the user: every error and message it sends, as data, each with
//! its words written once here, so that the controller's code says what happened and not how
//! to phrase it. The front-end prints a notice as its protocol wants (`info string`, UCCI's
//! `info`, or the terminal's plain line).

use super::board::SetupError;
use crate::chess::tb::{Census, LoadError as TbLoadError};
use crate::game::Variant;
use crate::nnue::LoadError;
use crate::text::excerpt;

/// One error or message of the controller.
#[derive(Debug, thiserror::Error)]
pub enum Notice {
    /// A command waits behind a search that only `stop` ends.
    #[error("waiting for the search to end (stop ends it); then this runs")]
    Waiting,
    /// A command needs a position and the last one was rejected (`reason`: why).
    #[error("no valid position to {doing} ({reason})")]
    NoPosition {
        /// What the command would have done: `search`, `show`, `evaluate`.
        doing: &'static str,
        /// Why the last position was rejected.
        reason: String,
    },
    /// `bench` with the current position, which was rejected.
    #[error("bench: no valid position ({0})")]
    NoBenchPosition(String),
    /// A command failed with its own error: `genfens`, `bench`, `speedtest`, `probe`,
    /// `banmoves`, or a `go` limit that was not understood.
    #[error("{command}: {error}")]
    Failed {
        /// The command.
        command: &'static str,
        /// Its error.
        error: String,
    },
    /// The threads of a bench's session could not start.
    #[error("bench: cannot start the threads: {0}")]
    BenchThreads(String),
    /// An unknown option the protocol (UCCI) ignores, told in debug mode.
    #[error("ignoring unknown option '{}'", excerpt(.0))]
    UnknownOption(String),
    /// `Hash` asked for more memory than there is.
    #[error("cannot allocate a {wanted} MB hash table; keeping {kept} MB")]
    Hash {
        /// The size asked for.
        wanted: usize,
        /// The size kept.
        kept: usize,
    },
    /// `Threads` asked for threads the system would not start.
    #[error("cannot start {wanted} search threads ({error}); using {using}")]
    Threads {
        /// The number asked for.
        wanted: usize,
        /// The system's error.
        error: String,
        /// The number running.
        using: usize,
    },
    /// `Debug Log File` names a file that cannot be opened.
    #[error("cannot open log file '{}': {error}", excerpt(.path))]
    Log {
        /// The path as given.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// `export_net` with no network in use for the position's game.
    #[error("no {} network is in use (Use NNUE is off, or none is embedded)", .0.name())]
    NoNetwork(Variant),
    /// `export_net` wrote the file.
    #[error("wrote the {} network to '{}'", .variant.name(), excerpt(.path))]
    Exported {
        /// The network's game.
        variant: Variant,
        /// The file.
        path: String,
    },
    /// A file could not be written.
    #[error("cannot write '{}': {error}", excerpt(.path))]
    Write {
        /// The path as given.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// `EvalFile` names no network.
    #[error("EvalFile {0}; the network stays")]
    EvalFile(LoadError),
    /// `EvalFile` loaded a network.
    #[error("loaded {} network '{}' ({hidden} hidden)", .variant.name(), excerpt(.path))]
    Loaded {
        /// The network's game.
        variant: Variant,
        /// The file.
        path: String,
        /// Its neurons per accumulator.
        hidden: usize,
    },
    /// A FEN of the other game: the position is that game's, the session's game stays.
    #[error(
        "a {} position by the FEN's shape (the session's game stays {})",
        .position.name(),
        .session.name()
    )]
    OtherGame {
        /// The position's game.
        position: Variant,
        /// The session's game.
        session: Variant,
    },
    /// `position` was rejected.
    #[error("position rejected: {0}")]
    Rejected(SetupError),
    /// A `go` with no limit, which searches until `stop`.
    #[error("go without a limit searches until 'stop'")]
    Unbounded,
    /// The time planned for a move, in debug mode.
    #[error("time budget: soft {}, hard {}", millis(*.soft), millis(*.hard))]
    Budget {
        /// The soft limit, milliseconds.
        soft: Option<u64>,
        /// The hard limit, milliseconds.
        hard: Option<u64>,
    },
    /// `SyzygyPath` loaded tables.
    #[error(
        "Found {} tablebases ({} WDL and {} DTZ files, up to {} pieces)",
        .0.files(),
        .0.wdl,
        .0.dtz,
        .0.largest
    )]
    Tablebases(Census),
    /// `SyzygyPath` could not be loaded.
    #[error("SyzygyPath: {0}; no tablebases in use")]
    Syzygy(TbLoadError),
    /// A `searchmoves` or `banmoves` move that is not legal in the position.
    #[error("'{}' is not a legal move here", excerpt(.0))]
    NotLegal(String),
}

/// A time limit in words.
fn millis(t: Option<u64>) -> String {
    t.map_or("none".to_string(), |t| format!("{t} ms"))
}
