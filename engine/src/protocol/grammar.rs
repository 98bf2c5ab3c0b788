//! The grammar both protocols share: the commands UCI and UCCI spell alike (`position`,
//! `bench`, `setoption`'s name and value, ...), the parse error, and the words an option is
//! announced with. Each front-end ([`super::uci`], [`super::ucci`]) reads its own commands and
//! hands the rest here, so this sits below both and the dispatch in [`super`] above them.

use crate::command::{BenchArgs, BenchLimit, BenchPositions, Command, Start};
use crate::game::{Style, Variant};
use crate::options::{GAMES, Kind};
use crate::text::excerpt;

/// `position startpos | fen <fen> [moves <m>...]`.
pub(super) fn parse_position(args: &[&str]) -> Result<Command, ParseError> {
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
pub(super) fn parse_shared(word: &str, args: &[&str]) -> Result<Command, ParseError> {
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
pub(super) fn name_value(rest: &[&str]) -> Result<Command, ParseError> {
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
