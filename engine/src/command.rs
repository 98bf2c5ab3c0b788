//! What comes in: the protocol-neutral commands that the front-ends make of input lines and
//! the controller executes.
//!
//! Nothing here is protocol text. Where the protocols differ in behaviour rather than in
//! spelling, the difference is data: a front-end states its conventions once, as a
//! [`Dialect`], and puts the rest into the commands it builds (UCI's `go depth 0` arrives as
//! depth 1, UCCI's as depth 0, which asks for the static score).

use crate::game::{MAX_PLY, Style, Variant};
use parking_lot::{Condvar, Mutex};

/// Where a position starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The game's standard starting position.
    Startpos,
    /// A position given as FEN.
    Fen(String),
}

/// What a `go` asks the engine to do, read once by the front-end; the session may answer a
/// search from the book instead ([`Task::Book`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Task {
    /// Search within the limits.
    #[default]
    Search,
    /// Count the move tree to this depth instead of searching (`go perft`).
    Perft(u32),
    /// The static (quiescence) score and no move, as UCCI's `go depth 0` asks.
    Static,
    /// A move from the opening book, in the engine's notation: the answer without a search.
    Book(String),
}

/// A `go` as the front-end read it: what to do, within which limits, over which moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// What to do.
    pub task: Task,
    /// The limits of the search.
    pub limits: Limits,
    /// Only these root moves (game notation); the session reads them against its position,
    /// with `banmoves`.
    pub searchmoves: Vec<String>,
    /// Arguments that could not be read; each names the offending token. The rest of the
    /// command still runs, because every `go` must be answered.
    pub errors: Vec<String>,
    /// Arguments that were read with a change (a number clamped into its range) or skipped
    /// (a word `go` does not know); each names the token.
    pub warnings: Vec<String>,
}

impl Go {
    /// True when only `stop` ends it: a search without a natural end (a perft always ends,
    /// unless `infinite` said otherwise).
    pub fn is_unbounded(&self) -> bool {
        self.limits.infinite || (!matches!(self.task, Task::Perft(_)) && self.limits.is_unbounded())
    }
}

/// The limits of a search, in protocol-neutral form. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many plies of iterative deepening. Depth 0 asks for the static
    /// (quiescence) score and no move, as UCCI's `go depth 0` does.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Search exactly this long.
    pub movetime: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: search without the clock until `ponderhit` or `stop`.
    pub ponder: bool,
    /// The clock, if the GUI sent one.
    pub clock: Option<Clock>,
    /// The opponent offers a draw (UCCI `go draw`).
    pub draw_offer: bool,
}

impl Limits {
    /// The deepest search `go depth` can ask for.
    pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 1;
    /// The longest mate `go mate` can ask for, in moves.
    pub const MAX_MATE: u32 = Self::MAX_DEPTH / 2;
    /// The deepest `go perft`: far beyond anything that ends in a lifetime.
    pub const MAX_PERFT: u32 = 64;

    /// True when the search has no natural end and waits for `stop`.
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.depth.is_none()
                && self.nodes.is_none()
                && self.movetime.is_none()
                && self.mate.is_none()
                && self.clock.is_none())
    }
}

/// A clock as GUIs send it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Clock {
    /// UCI style: both sides' times and increments, indexed by side.
    Sides {
        /// Remaining time of white/red and black, if given.
        time: [Option<u64>; 2],
        /// Increment of white/red and black.
        inc: [u64; 2],
        /// Moves until the next time control.
        movestogo: Option<u32>,
    },
    /// UCCI style: the side to move's own time.
    Own {
        /// Remaining time.
        time: u64,
        /// Increment per move.
        inc: u64,
        /// Moves until the next time control.
        movestogo: Option<u32>,
    },
}

/// What `genfens` asks for (OpenBench's datagen protocol): chess starts for its games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Genfens {
    /// How many starts.
    pub count: u64,
    /// The seed of their random stream: the same seed gives the same starts.
    pub seed: u64,
    /// An opening file (FEN or EPD lines) to draw the openings from, or the start position.
    pub book: Option<String>,
    /// Double-Fischer-random starts instead (both sides get random Chess960 back ranks).
    pub dfrc: bool,
}

/// What a bench searches each position for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BenchLimit {
    /// Plies.
    Depth(u32),
    /// Nodes per position.
    Nodes(u64),
    /// Milliseconds per position.
    Movetime(u64),
}

/// Where a bench's positions come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BenchPositions {
    /// The built-in positions of both games: the signature.
    Builtin,
    /// The session's position.
    Current,
    /// One FEN (of either game) a line of this file.
    File(String),
}

/// The arguments of `bench`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchArgs {
    /// Hash table, MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// The limit per position.
    pub limit: BenchLimit,
    /// The positions.
    pub positions: BenchPositions,
}

/// A protocol-neutral command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The handshake (`uci`, `ucci`): identify and list options.
    Hello,
    /// `isready`.
    IsReady,
    /// A new game: clear hash and history.
    NewGame,
    /// Set an option; the name is kept as given, matching is case-insensitive.
    SetOption {
        /// The option's name.
        name: String,
        /// Its value, if any.
        value: Option<String>,
    },
    /// Set up a position.
    Position {
        /// The starting point.
        start: Start,
        /// Moves played from it, in game notation.
        moves: Vec<String>,
    },
    /// A `position` command that could not be read. It takes its turn like any `position`:
    /// the error is reported and no position is valid until the next good one, so that a
    /// following `go` answers nothing instead of searching the previous position.
    BadPosition(String),
    /// Exclude root moves until the next `position` (UCCI `banmoves`).
    BanMoves(Vec<String>),
    /// Start searching, or what else the `go` asks.
    Go(Go),
    /// Stop searching and answer.
    Stop,
    /// The predicted move was played: pondering becomes a timed search.
    PonderHit {
        /// The opponent offers a draw with it (UCCI `ponderhit draw`).
        draw_offer: bool,
    },
    /// Switch debug output.
    Debug(bool),
    /// `register`: Chariot needs no registration and says so.
    Register,
    /// `help`: the commands of the protocol in use.
    Help,
    /// `d`: the board as text; `None` uses the session's default style.
    Display(Option<Style>),
    /// `eval`: the static evaluation and its terms.
    Eval,
    /// `flip`: replace the position by its colour mirror.
    Flip,
    /// `export_net [file]`: write the network in use of the position's game.
    ExportNet(Option<String>),
    /// `compiler`: how the binary was built and which vector code the CPU runs.
    Compiler,
    /// `bench [hash] [threads] [limit] [fenfile] [limittype]`, Stockfish's arguments: the
    /// search's signature, or a bench of other positions and limits.
    Bench(BenchArgs),
    /// `speedtest [threads] [hash] [seconds]`, Stockfish's arguments.
    Speedtest {
        /// Search threads (default: every core).
        threads: Option<usize>,
        /// Hash table, MB (default: the speedtest's).
        hash_mb: Option<usize>,
        /// Total time, seconds (default: the speedtest's).
        seconds: Option<u64>,
    },
    /// Show what the hash table knows of a position, which does not become the session's
    /// (UCCI `probe`, as ElephantEye answers it).
    Probe {
        /// The starting point.
        start: Start,
        /// Moves played from it, in game notation.
        moves: Vec<String>,
    },
    /// Make chess starts for OpenBench's datagen (`genfens N seed S book X`).
    Genfens(Genfens),
    /// Leave.
    Quit,
}

/// The conventions of the protocol a session speaks, stated once by its front-end so that the
/// controller never asks which protocol it is. The default (every fact false) is UCI's, which
/// holds until a protocol is chosen.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Dialect {
    /// The game the protocol plays, when it plays only one (UCCI: xiangqi).
    pub game: Option<Variant>,
    /// `quit` is answered with a farewell (UCCI `bye`).
    pub farewell: bool,
    /// A `stop` while no search runs is answered with "no move" (UCCI `nobestmove`).
    pub answer_idle_stop: bool,
    /// An option the engine does not know is ignored without an error (UCCI).
    pub ignore_unknown_options: bool,
    /// A spin option set to 0 asks for the engine's choice (UCCI `hashsize 0`, `threads 0`).
    pub auto_zero: bool,
}

/// What the reader thread tells the controller.
#[derive(Debug)]
pub enum Event {
    /// The session speaks a protocol with these conventions from now on (sent once, before
    /// its first command).
    Dialect(Dialect),
    /// A parsed command.
    Command(Command),
    /// A line that could not be parsed, and why.
    Bad(String),
    /// Input has ended.
    Eof,
    /// A raw input line, for the debug log. Sent before the line's own event, so that the
    /// controller logs it in order with the options that open and close the log.
    Line(String),
}

/// Holds the reader back while a `go` read in UCCI batch mode is unanswered, so that a
/// redirected command file runs line after line (the spec's batch mode).
///
/// A held `go` may be queued behind a search that only input can end (`go infinite`, or
/// `go ponder` before its `ponderhit`). While such a search runs the gate stays open, or the
/// reader would wait for an answer that waits for the reader.
#[derive(Default)]
pub struct Gate {
    state: Mutex<GateState>,
    changed: Condvar,
}

#[derive(Default)]
struct GateState {
    /// Held `go`s not yet answered.
    outstanding: u64,
    /// The running search ends only on input.
    open_ended: bool,
}

impl Gate {
    /// Called by the reader before it forwards a batch-mode `go`.
    pub fn hold(&self) {
        self.state.lock().outstanding += 1;
    }

    /// Blocks the reader until every held `go` has been answered, or until the running search
    /// is one that only input can end.
    pub fn wait(&self) {
        let mut s = self.state.lock();
        while s.outstanding > 0 && !s.open_ended {
            self.changed.wait(&mut s);
        }
    }

    /// Called by the controller after each `go` is answered.
    pub fn answered(&self) {
        let mut s = self.state.lock();
        if s.outstanding > 0 {
            s.outstanding -= 1;
            self.changed.notify_all();
        }
    }

    /// Called by the controller when a search starts, ends, or becomes bounded (`ponderhit`):
    /// `open_ended` says whether only input can end the search now running.
    pub fn set_open_ended(&self, open_ended: bool) {
        let mut s = self.state.lock();
        if s.open_ended != open_ended {
            s.open_ended = open_ended;
            self.changed.notify_all();
        }
    }
}
