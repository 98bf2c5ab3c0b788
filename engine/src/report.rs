//! What goes out: the protocol-neutral reports of the controller and the search, and the
//! [`Sink`] they are handed to. Only the protocol edge turns a report into text.

use crate::game::Variant;

/// Where reports go: in the program, the protocol writer that formats and prints them; in
/// tests, a recorder.
pub trait Sink: Send + Sync {
    /// Delivers one report.
    fn send(&self, report: &Report);
    /// Records an input line in the debug log, if one is open.
    fn log_input(&self, _line: &str) {}
    /// Starts appending every line in and out to `path`; an empty path stops logging.
    fn set_log(&self, _path: &str) -> std::io::Result<()> {
        Ok(())
    }
}

/// A sink that drops everything (bench, helper threads).
pub struct Discard;

impl Sink for Discard {
    fn send(&self, _: &Report) {}
}

/// What the GUI asked to see of the search (UCI options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Lines to report (MultiPV).
    pub multipv: usize,
    /// Add `wdl` to scores.
    pub wdl: bool,
    /// Report the line being searched once a second.
    pub currline: bool,
    /// Report each root move's refutation after each iteration.
    pub refutations: bool,
    /// Add the principal variation in the game's traditional notation as a message.
    pub move_names: bool,
}

impl Default for View {
    fn default() -> Self {
        View { multipv: 1, wdl: false, currline: false, refutations: false, move_names: false }
    }
}

/// A score as the search reports it, already in protocol units.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns (chess) or UCCI units (xiangqi: horse = 100).
    Cp(i32),
    /// The side to move mates in this many plies.
    Win(u32),
    /// The side to move is mated in this many plies (0: it is mated now).
    Loss(u32),
}

/// Whether a reported score is exact or a bound from a failed aspiration window.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// An exact score.
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// Something the engine tells the GUI; front-ends turn it into text.
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    /// The reply to the handshake: identification and the option list.
    Hello {
        /// The game the session plays now (the default of the variant option).
        variant: Variant,
    },
    /// `readyok`.
    Ready,
    /// One finished iteration (or an aspiration fail) of the search.
    Iteration {
        /// Nominal depth.
        depth: u32,
        /// Deepest ply reached.
        seldepth: u32,
        /// Which of the best lines this is (1 = the best).
        multipv: u32,
        /// Score for the side to move.
        score: Eval,
        /// Win/draw/loss permille, when asked for.
        wdl: Option<[u32; 3]>,
        /// Exactness of the score.
        bound: Bound,
        /// Nodes searched so far.
        nodes: u64,
        /// Milliseconds since the search began.
        time_ms: u64,
        /// Permille of the hash table in use.
        hashfull: u32,
        /// Tablebase probes that answered so far.
        tbhits: u64,
        /// The principal variation, in game notation.
        pv: Vec<String>,
    },
    /// The static score only (`go depth 0`): UCCI prints `info depth 0 score s`.
    Static {
        /// The score.
        score: Eval,
    },
    /// Progress: nodes and time.
    Progress {
        /// Nodes searched so far.
        nodes: u64,
        /// Milliseconds since the search began.
        time_ms: u64,
    },
    /// The root move being searched.
    CurrMove {
        /// The move, in game notation.
        mv: String,
        /// Its 1-based number in the root move order.
        number: usize,
    },
    /// The line being searched (UCI `currline`).
    CurrLine {
        /// Moves from the root, in game notation.
        line: Vec<String>,
    },
    /// A root move and the reply that refutes it (UCI `refutation`).
    Refutation {
        /// The root move followed by the refuting line.
        line: Vec<String>,
    },
    /// The search's answer.
    BestMove {
        /// The move, or `None` when there is none to play.
        best: Option<String>,
        /// The expected reply.
        ponder: Option<String>,
        /// Offer or accept a draw (UCCI).
        draw: bool,
        /// Resign (UCCI).
        resign: bool,
    },
    /// One line of perft divide output.
    PerftMove {
        /// The root move.
        mv: String,
        /// Leaves below it.
        nodes: u64,
    },
    /// The perft total.
    PerftTotal {
        /// All leaves.
        nodes: u64,
    },
    /// A start made by `genfens`, as FEN (one report per start).
    Genfen(String),
    /// A message for the user.
    Message(String),
    /// An error the user should read.
    Error(String),
    /// Input that was understood only in part: what was skipped or changed.
    Warning(String),
    /// The answer to `quit` (UCCI `bye`).
    Bye,
    /// The answer to `register`.
    Registered,
    /// The list of commands (`help`).
    Help,
    /// Text for people, printed as it is (`d`, `eval`).
    Text(String),
    /// What the table knows of a probed position: its move and the bounds on its score with
    /// their depths. A position the table does not hold gets its quiescence score as both
    /// bounds, at depth 0.
    Probe {
        /// The stored move, if any.
        best: Option<String>,
        /// The score is at least this, from a search this deep.
        lower: Option<(Eval, u32)>,
        /// The score is at most this, from a search this deep.
        upper: Option<(Eval, u32)>,
    },
}
