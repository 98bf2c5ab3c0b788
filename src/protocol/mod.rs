//! The edges: text in, text out.
//!
//! A front-end ([`uci`] or [`ucci`]) turns one input line into a protocol-neutral [`Command`] and
//! turns the search's plain [`Report`]s back into lines. Nothing behind this module sees protocol
//! text, and nothing here changes a game rule.

pub mod output;
pub mod reader;
pub mod ucci;
pub mod uci;

use crate::game::{Style, Variant};

/// The protocol a session speaks, fixed by the first recognised command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI: chess, or xiangqi Pikafish-style.
    Uci,
    /// UCCI: xiangqi.
    Ucci,
}

impl Protocol {
    /// Picks the protocol from a line's first recognised token, if it names one.
    pub fn select(line: &str) -> Option<Protocol> {
        match line.split_whitespace().next() {
            Some("uci") => Some(Protocol::Uci),
            Some("ucci") => Some(Protocol::Ucci),
            _ => None,
        }
    }

    /// The game a session of this protocol plays until told otherwise.
    pub fn default_variant(self) -> Variant {
        match self {
            Protocol::Uci => Variant::Chess,
            Protocol::Ucci => Variant::Xiangqi,
        }
    }

    /// Formats a report from the engine as one output line.
    pub fn format(self, report: &Report) -> String {
        match self {
            Protocol::Uci => uci::format(report),
            Protocol::Ucci => ucci::format(report),
        }
    }
}

/// A front-end: parses lines for one protocol, keeping the little state that is pure
/// presentation (UCCI's time unit).
#[derive(Clone, Debug)]
pub struct Frontend {
    protocol: Protocol,
    /// UCCI's session state (time unit, batch mode).
    ucci: ucci::State,
}

impl Frontend {
    /// A front-end for `protocol`.
    pub fn new(protocol: Protocol) -> Self {
        Frontend { protocol, ucci: ucci::State::default() }
    }

    /// The protocol spoken.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// Parses one input line (already trimmed of its line ending) into a command.
    /// `Ok(None)` means "nothing to do" (blank line, comment).
    pub fn parse(&mut self, line: &str) -> Result<Option<Command>, ParseError> {
        match self.protocol {
            Protocol::Uci => uci::parse(line),
            Protocol::Ucci => ucci::parse(line, &mut self.ucci),
        }
    }

    /// UCCI batch mode: read no input while a search runs.
    pub fn batch(&self) -> bool {
        self.protocol == Protocol::Ucci && self.ucci.batch
    }
}

/// `position startpos | fen <fen> [moves <m>...]`.
fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
    let moves_at = args.iter().position(|w| *w == "moves").unwrap_or(args.len());
    let moves = args.get(moves_at + 1..).unwrap_or(&[]).iter().map(|m| m.to_string()).collect();
    let start = match args.first() {
        Some(&"startpos") => Start::Startpos,
        Some(&"fen") => {
            let fen = args[1..moves_at].join(" ");
            if fen.is_empty() {
                return Err(ParseError::Missing("fen".into()));
            }
            Start::Fen(fen)
        }
        Some(other) => {
            return Err(ParseError::Malformed(format!(
                "position expects 'startpos' or 'fen', not '{other}'"
            )));
        }
        None => return Err(ParseError::Missing("position".into())),
    };
    Ok(Command::Position { start, moves })
}

/// The commands both protocols spell alike. An unreadable `position` still replaces the
/// position (by none), in its turn.
fn parse_shared(word: &str, args: &[&str]) -> Result<Command, ParseError> {
    Ok(match word {
        "isready" => Command::IsReady,
        "position" => parse_position(args).unwrap_or_else(|e| Command::BadPosition(e.to_string())),
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        "help" => Command::Help,
        "d" => Command::Display(parse_style(args.first())?),
        "eval" => Command::Eval,
        "flip" => Command::Flip,
        other => return Err(ParseError::Unknown(other.to_string())),
    })
}

/// `<name words> [value <value words>]` after `setoption name`: names and values may contain
/// spaces, and the value may be missing.
fn name_value(rest: &[&str]) -> Result<Command, ParseError> {
    let (name, value) = match rest.iter().position(|w| *w == "value") {
        Some(i) => (rest[..i].join(" "), Some(rest[i + 1..].join(" "))),
        None => (rest.join(" "), None),
    };
    if name.is_empty() {
        return Err(ParseError::Missing("name".into()));
    }
    Ok(Command::SetOption { name, value })
}

/// Reads the style argument of `d`: letters, or symbols (Unicode chess pieces, Chinese
/// characters for xiangqi).
pub fn parse_style(word: Option<&&str>) -> Result<Option<Style>, ParseError> {
    match word.map(|w| w.to_ascii_lowercase()).as_deref() {
        None => Ok(None),
        Some("letters" | "ascii") => Ok(Some(Style::Letters)),
        Some("symbols" | "unicode" | "chinese") => Ok(Some(Style::Symbols)),
        Some(other) => Err(ParseError::Malformed(format!(
            "'{other}' is no board style (letters, unicode, chinese)"
        ))),
    }
}

/// Where a position starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The game's standard starting position.
    Startpos,
    /// A position given as FEN.
    Fen(String),
}

/// What `go` asks for, in protocol-neutral form. Times are in milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many plies of iterative deepening.
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
    /// Only these root moves (game notation).
    pub searchmoves: Vec<String>,
    /// Count the move tree instead of searching.
    pub perft: Option<u32>,
    /// The opponent offers a draw (UCCI `go draw`).
    pub draw_offer: bool,
    /// Arguments that could not be read; each names the offending token. The rest of the
    /// command still runs, because every `go` must be answered.
    pub errors: Vec<String>,
}

impl Limits {
    /// True when the search has no natural end and waits for `stop`.
    pub fn is_unbounded(&self) -> bool {
        self.infinite
            || (self.perft.is_none()
                && self.depth.is_none()
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
    /// Start searching.
    Go(Limits),
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
    /// Leave.
    Quit,
}

/// Why a line could not be understood; printed as one line naming the offending token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The first word is no command this protocol knows.
    #[error("unknown command '{0}' (type help for the list)")]
    Unknown(String),
    /// A value was expected after a keyword.
    #[error("'{0}' needs a value")]
    Missing(String),
    /// A value is not a number (or out of range).
    #[error("'{value}' after '{keyword}' is not a valid number")]
    Number {
        /// The keyword the value belongs to.
        keyword: String,
        /// The value as given.
        value: String,
    },
    /// Any other malformed command.
    #[error("{0}")]
    Malformed(String),
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
    /// The reply to the handshake.
    Hello {
        /// The game the session plays now.
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
    /// A message for the user.
    Message(String),
    /// An error the user should read.
    Error(String),
    /// The answer to `quit` (UCCI `bye`).
    Bye,
    /// The answer to `register`.
    Registered,
    /// The list of commands (`help`).
    Help,
    /// Text for people, printed as it is (`d`, `eval`).
    Text(String),
}
