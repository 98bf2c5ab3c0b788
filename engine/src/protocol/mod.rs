//! The edges: text in, text out, and nothing else.
//!
//! The [`reader`] thread turns input lines into protocol-neutral [`Command`]s through a
//! front-end ([`uci`] or [`ucci`]); the [`Writer`] turns the engine's neutral [`Report`]s back
//! into lines of the same protocol and prints them through the locked [`output::Output`].
//! Behind this module no code sees protocol text, and nothing here changes a game rule.

pub mod output;
pub mod reader;
pub mod ucci;
pub mod uci;

use crate::command::{BenchArgs, BenchLimit, BenchPositions, Command, Dialect, Start};
use crate::game::{Style, Variant};
use crate::options::{GAMES, Kind};
use crate::report::{Report, Sink};
use crate::text::excerpt;
use output::Output;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering::Relaxed};

/// The protocol a session speaks, fixed by the first recognised command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI: chess, or xiangqi Pikafish-style.
    Uci = 0,
    /// UCCI: xiangqi.
    Ucci = 1,
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

    /// The protocol's name, as the command that chooses it.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
        }
    }

    /// The conventions of the protocol, for the controller.
    pub fn dialect(self) -> Dialect {
        match self {
            // UCI's conventions are the neutral defaults.
            Protocol::Uci => Dialect::default(),
            Protocol::Ucci => Dialect {
                game: Some(Variant::Xiangqi),
                farewell: true,
                answer_idle_stop: true,
                ignore_unknown_options: true,
                auto_zero: true,
            },
        }
    }

    /// Formats a report from the engine as one output line (or several joined by `\n`).
    pub fn format(self, report: &Report) -> String {
        match self {
            Protocol::Uci => uci::format(report),
            Protocol::Ucci => ucci::format(report),
        }
    }
}

/// The way out: formats reports in the session's protocol and prints them. Until a protocol
/// is chosen, reports are written as UCI.
pub struct Writer {
    out: Output,
    protocol: AtomicU8,
    /// Error lines written so far: commands given as arguments exit non-zero after one.
    errors: AtomicUsize,
}

impl Writer {
    /// A writer printing to `out`.
    pub fn new(out: Output) -> Self {
        Writer { out, protocol: AtomicU8::new(Protocol::Uci as u8), errors: AtomicUsize::new(0) }
    }

    /// Speaks `protocol` from now on.
    pub fn set_protocol(&self, protocol: Protocol) {
        self.protocol.store(protocol as u8, Relaxed);
    }

    fn protocol(&self) -> Protocol {
        if self.protocol.load(Relaxed) == Protocol::Ucci as u8 {
            Protocol::Ucci
        } else {
            Protocol::Uci
        }
    }

    /// Prints text as it is (banners and hints before a protocol is chosen).
    pub fn text(&self, text: &str) {
        self.out.line(text);
    }

    /// How many errors have been reported: input refused, in whole or in part.
    pub fn errors(&self) -> usize {
        self.errors.load(Relaxed)
    }
}

impl Sink for Writer {
    fn send(&self, report: &Report) {
        if matches!(report, Report::Error(_)) {
            self.errors.fetch_add(1, Relaxed);
        }
        self.out.line(&self.protocol().format(report));
    }

    fn log_input(&self, line: &str) {
        self.out.log_input(line);
    }

    fn set_log(&self, path: &str) -> std::io::Result<()> {
        self.out.set_log(path)
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
        "export_net" => Command::ExportNet(args.first().map(|s| s.to_string())),
        "compiler" => Command::Compiler,
        "bench" => Command::Bench(parse_bench(args)?),
        "speedtest" => parse_speedtest(args)?,
        other => return Err(ParseError::Unknown(other.to_string())),
    })
}

/// The bench's default depth and hash table, as `chariot bench` uses them.
const BENCH_DEPTH: u32 = 9;
const BENCH_HASH_MB: usize = 16;

/// `bench [hash] [threads] [limit] [fenfile] [limittype]`, as Stockfish reads them: each
/// argument may be left off from the right; `fenfile` is `default`, `current` or a path;
/// `limittype` is `depth`, `nodes` or `movetime`.
fn parse_bench(args: &[&str]) -> Result<BenchArgs, ParseError> {
    let number = |i: usize, what: &str| -> Result<Option<u64>, ParseError> {
        match args.get(i) {
            None => Ok(None),
            Some(w) => w.parse::<u64>().map(Some).map_err(|_| {
                ParseError::Malformed(format!("bench: '{}' is no {what}", excerpt(w)))
            }),
        }
    };
    let hash_mb = number(0, "hash size in MB")?.map_or(BENCH_HASH_MB, |h| h.max(1) as usize);
    let threads = number(1, "thread count")?.map_or(1, |t| t.max(1) as usize);
    let limit = number(2, "limit")?;
    let positions = match args.get(3).copied() {
        None | Some("default") => BenchPositions::Builtin,
        Some("current") => BenchPositions::Current,
        Some(path) => BenchPositions::File(path.to_string()),
    };
    let limit = match args.get(4).copied() {
        None | Some("depth") => {
            BenchLimit::Depth(limit.map_or(BENCH_DEPTH, |d| d.clamp(1, 200) as u32))
        }
        Some("nodes") => BenchLimit::Nodes(limit.unwrap_or(1_000_000).max(1)),
        Some("movetime") => BenchLimit::Movetime(limit.unwrap_or(1000).max(1)),
        Some(other) => {
            return Err(ParseError::Malformed(format!(
                "bench: limit type '{}' is not depth, nodes or movetime",
                excerpt(other)
            )));
        }
    };
    if args.len() > 5 {
        return Err(ParseError::Malformed(format!(
            "bench takes at most five arguments (hash threads limit fenfile limittype), not '{}'",
            excerpt(&args[5..].join(" "))
        )));
    }
    Ok(BenchArgs { hash_mb, threads, limit, positions })
}

/// `speedtest [threads] [hash] [seconds]`, as Stockfish reads them.
fn parse_speedtest(args: &[&str]) -> Result<Command, ParseError> {
    let number = |i: usize, what: &str| -> Result<Option<u64>, ParseError> {
        match args.get(i) {
            None => Ok(None),
            Some(w) => w.parse::<u64>().map(|n| Some(n.max(1))).map_err(|_| {
                ParseError::Malformed(format!("speedtest: '{}' is no {what}", excerpt(w)))
            }),
        }
    };
    if args.len() > 3 {
        return Err(ParseError::Malformed(
            "speedtest takes at most three arguments (threads hash seconds)".into(),
        ));
    }
    Ok(Command::Speedtest {
        threads: number(0, "thread count")?.map(|n| n as usize),
        hash_mb: number(1, "hash size in MB")?.map(|n| n as usize),
        seconds: number(2, "number of seconds")?,
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

/// Why a line could not be understood; printed as one line naming the offending token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The first word is no command this protocol knows.
    #[error("unknown command '{}' (type help for the list)", excerpt(.0))]
    Unknown(String),
    /// A value was expected after a keyword.
    #[error("'{}' needs a value", excerpt(.0))]
    Missing(String),
    /// A value is not a number (or out of range).
    #[error("'{}' after '{}' is not a valid number", excerpt(value), excerpt(keyword))]
    Number {
        /// The keyword the value belongs to.
        keyword: String,
        /// The value as given.
        value: String,
    },
    /// Any other malformed command.
    #[error("{}", excerpt(.0))]
    Malformed(String),
}

/// The words of an option's type as both protocols announce it, `(type, default, range)`:
/// e.g. `("spin", "16", "min 1 max 65536")`; each front-end puts them in its own order.
/// `game` is the session's game, the default of [`Kind::Game`]; `auto_zero`: the protocol
/// reserves 0 for the engine's choice (UCCI).
pub fn announce(
    kind: Kind,
    game: Variant,
    auto_zero: bool,
) -> (&'static str, Option<String>, String) {
    let vars = |v: &[&str]| v.iter().map(|w| format!("var {w}")).collect::<Vec<_>>().join(" ");
    match kind {
        Kind::Check(d) => ("check", Some(d.to_string()), String::new()),
        Kind::Spin { default, min, max, zero } => {
            let min = Kind::low(min, zero, auto_zero);
            ("spin", Some(default.to_string()), format!("min {min} max {max}"))
        }
        Kind::Combo { default, vars: v } => ("combo", Some(default.to_string()), vars(v)),
        Kind::Game => ("combo", Some(game.name().to_string()), vars(GAMES)),
        Kind::Text(d) => ("string", Some(d.to_string()), String::new()),
        Kind::Button => ("button", None, String::new()),
        Kind::Label => ("label", None, String::new()),
    }
}
