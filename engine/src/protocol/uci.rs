//! UCI: chess, and xiangqi the way GUIs drive Pikafish.

use super::grammar::{self, ParseError};
use crate::command::{Clock, Command, Genfens, Go, Limits, Task};
use crate::options::TABLE;
use crate::report::{Bound, Eval, Report};
use std::ops::RangeInclusive;

/// The words that start a UCI command. As the spec says, an unknown word at the start of a
/// line is skipped and the rest of the line is parsed (`joho debug on` is `debug on`).
const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "help",
    "d",
    "eval",
    "flip",
    "export_net",
    "compiler",
    "genfens",
    "bench",
    "speedtest",
];

/// The commands, for `help`.
const HELP: &str = "\
Chariot speaks UCI (chess; xiangqi with UCI_Variant xiangqi). Commands:
  uci                          identify, list the options, answer uciok
  isready                      answer readyok (at once, also while searching)
  setoption name <n> [value <v>]  set an option (names as listed by uci)
  ucinewgame                   clear the hash table and history
  position startpos|fen <fen> [moves <m>...]  set up a position
  go [depth n|nodes n|movetime ms|mate n|infinite|ponder|perft n|searchmoves <m>...]
     [wtime ms btime ms winc ms binc ms movestogo n]   search (or count moves)
  stop | ponderhit             end the search / the predicted move was played
  debug on|off                 more info strings
  register                     (not needed)
  d [letters|unicode|chinese]  show the board, FEN, key, checkers, last move
  eval                         the static evaluation, term by term
  flip                         mirror the position (colours swapped)
  export_net [file]            write the network in use (default: its own name)
  compiler                     how the binary was built, and its inference path
  bench [hash threads limit fenfile limittype]  the search's signature: <nodes> nodes <nps> nps
  speedtest [threads hash seconds]  the speed as users run it
  genfens <n> seed <s> book <file|None> [dfrc]  n verified chess starts (OpenBench datagen)
  help                         this list
  quit                         leave";

/// Parses one UCI line.
pub fn parse(line: &str) -> Result<Option<Command>, ParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(start) = words.iter().position(|w| COMMANDS.contains(w)) else {
        return match words.first() {
            None => Ok(None),
            Some(w) if w.starts_with('#') => Ok(None),
            Some(w) => Err(ParseError::Unknown((*w).to_string())),
        };
    };
    let args = &words[start + 1..];
    let command = match words[start] {
        "uci" => Command::Hello,
        "debug" => Command::Debug(args.first() != Some(&"off")),
        "setoption" => parse_setoption(args)?,
        "register" => Command::Register,
        "ucinewgame" => Command::NewGame,
        "go" => Command::Go(parse_go(args)),
        "ponderhit" => Command::PonderHit { draw_offer: false },
        "genfens" => Command::Genfens(parse_genfens(args)?),
        other => return grammar::parse_shared(other, args).map(Some),
    };
    Ok(Some(command))
}

/// `setoption name <words> [value <words>]`: names and values may contain spaces.
fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    match args.split_first() {
        Some((&"name", rest)) => grammar::name_value(rest),
        _ => Err(ParseError::Malformed("setoption needs 'name <option>'".into())),
    }
}

/// `genfens N seed S book <file|None> [dfrc]`, as OpenBench's client sends it (the keywords in
/// any order after the count). An integer seed of either sign is taken as its 64 bits.
fn parse_genfens(args: &[&str]) -> Result<Genfens, ParseError> {
    let mut words = args.iter();
    let mut request = Genfens { count: number("genfens", &mut words)?, ..Genfens::default() };
    while let Some(&word) = words.next() {
        match word {
            "seed" => {
                let Some(&text) = words.next() else {
                    return Err(ParseError::Missing("seed".into()));
                };
                request.seed = text
                    .parse::<u64>()
                    .or_else(|_| text.parse::<i64>().map(|n| n as u64))
                    .map_err(|_| ParseError::Number {
                        keyword: "seed".into(),
                        value: text.to_string(),
                    })?;
            }
            "book" => {
                let Some(&book) = words.next() else {
                    return Err(ParseError::Missing("book".into()));
                };
                request.book = (!book.eq_ignore_ascii_case("none")).then(|| book.to_string());
            }
            "dfrc" => request.dfrc = true,
            other => {
                return Err(ParseError::Malformed(format!(
                    "genfens: unknown argument '{}' (genfens <n> seed <s> book <file|None> [dfrc])",
                    crate::text::excerpt(other)
                )));
            }
        }
    }
    Ok(request)
}

/// Reads the number after `keyword`, advancing the cursor.
pub(super) fn number<T: std::str::FromStr>(
    keyword: &str,
    words: &mut std::slice::Iter<'_, &str>,
) -> Result<T, ParseError> {
    let Some(value) = words.next() else {
        return Err(ParseError::Missing(keyword.to_string()));
    };
    value
        .parse()
        .map_err(|_| ParseError::Number { keyword: keyword.to_string(), value: value.to_string() })
}

/// Reads the integer after `keyword`, advancing the cursor. A number outside `range`, however
/// many digits it has, is read as the nearest bound, with a warning in `warnings`: a GUI that
/// sends `depth 99999999999` wants a deep search, not an error.
pub(super) fn integer<T>(
    keyword: &str,
    words: &mut std::slice::Iter<'_, &str>,
    range: RangeInclusive<T>,
    warnings: &mut Vec<String>,
) -> Result<T, ParseError>
where
    T: Copy + std::fmt::Display + Into<i128> + TryFrom<i128>,
{
    let (n, clamped) = clamped(keyword, words, range)?;
    warnings.extend(clamped);
    Ok(n)
}

/// The integer after `keyword` clamped into `range`, and the warning if it had to be.
fn clamped<T>(
    keyword: &str,
    words: &mut std::slice::Iter<'_, &str>,
    range: RangeInclusive<T>,
) -> Result<(T, Option<String>), ParseError>
where
    T: Copy + std::fmt::Display + Into<i128> + TryFrom<i128>,
{
    let Some(&value) = words.next() else {
        return Err(ParseError::Missing(keyword.to_string()));
    };
    let digits = value.strip_prefix(['+', '-']).unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::Number { keyword: keyword.to_string(), value: value.to_string() });
    }
    // Only a number too long for i128 fails here; its sign still says which bound it meets.
    let n: i128 =
        value.parse().unwrap_or(if value.starts_with('-') { i128::MIN } else { i128::MAX });
    let (low, high) = (*range.start(), *range.end());
    let c = n.clamp(low.into(), high.into());
    let warning = (c != n).then(|| {
        format!(
            "{keyword} {} is out of range ({low} to {high}), using {c}",
            crate::text::excerpt(value)
        )
    });
    Ok((T::try_from(c).unwrap_or(high), warning))
}

/// A UCI time in milliseconds. GUIs occasionally send a negative time when the clock ran out:
/// that reads as 0 without a word.
fn time(
    keyword: &str,
    words: &mut std::slice::Iter<'_, &str>,
    warnings: &mut Vec<String>,
) -> Result<u64, ParseError> {
    let (t, warning) = clamped(keyword, words, 0..=u64::MAX)?;
    warnings.extend(warning.filter(|_| t > 0));
    Ok(t)
}

/// Records a bad `go` argument and carries on without it.
pub(super) fn note<T>(errors: &mut Vec<String>, value: Result<T, ParseError>) -> Option<T> {
    value.map_err(|e| errors.push(e.to_string())).ok()
}

/// At most this many skipped words are quoted in the warning about them.
const SKIPPED_QUOTED: usize = 8;

/// The warning for words of a `go` that no keyword claims, if there are any.
pub(super) fn skipped(words: &[&str]) -> Option<String> {
    let (quoted, rest) = words.split_at(words.len().min(SKIPPED_QUOTED));
    let mut list: Vec<String> =
        quoted.iter().map(|w| format!("'{}'", crate::text::excerpt(w))).collect();
    if !rest.is_empty() {
        list.push(format!("and {} more", rest.len()));
    }
    (!words.is_empty()).then(|| format!("ignored {} (not go arguments)", list.join(" ")))
}

/// `go` with any subset and order of its arguments. A bad value is recorded in `errors` and
/// skipped; a clamped number or a word that is no `go` argument is recorded in `warnings`.
fn parse_go(args: &[&str]) -> Go {
    let mut limits = Limits::default();
    let (mut perft, mut searchmoves) = (None, Vec::new());
    let mut time_of = [None, None];
    let mut inc = [0, 0];
    let mut movestogo = None;
    let (mut errors, mut warnings, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
    let (errors, warn) = (&mut errors, &mut warnings);
    let mut words = args.iter();
    while let Some(&word) = words.next() {
        let w = &mut words;
        match word {
            "searchmoves" => {
                // Moves run until the next keyword.
                let rest: Vec<&str> = w.clone().copied().collect();
                let n = rest.iter().take_while(|w| !GO_KEYWORDS.contains(w)).count();
                searchmoves = rest[..n].iter().map(|s| s.to_string()).collect();
                for _ in 0..n {
                    w.next();
                }
            }
            "ponder" => limits.ponder = true,
            "infinite" => limits.infinite = true,
            "wtime" => time_of[0] = note(errors, time(word, w, warn)),
            "btime" => time_of[1] = note(errors, time(word, w, warn)),
            "winc" => inc[0] = note(errors, time(word, w, warn)).unwrap_or(0),
            "binc" => inc[1] = note(errors, time(word, w, warn)).unwrap_or(0),
            "movestogo" => movestogo = note(errors, integer(word, w, 0..=u32::MAX, warn)),
            // UCI has no use for a depth-0 search (the neutral meaning: the static score and no
            // move); a GUI sending it wants at least a move.
            "depth" => {
                let depth = integer(word, w, 0..=Limits::MAX_DEPTH, warn);
                limits.depth = note(errors, depth).map(|d| d.max(1));
            }
            "nodes" => limits.nodes = note(errors, integer(word, w, 0..=u64::MAX, warn)),
            "mate" => limits.mate = note(errors, integer(word, w, 1..=Limits::MAX_MATE, warn)),
            "movetime" => limits.movetime = note(errors, time(word, w, warn)),
            "perft" => perft = note(errors, integer(word, w, 1..=Limits::MAX_PERFT, warn)),
            _ => unknown.push(word),
        }
    }
    if time_of.iter().any(Option::is_some) {
        limits.clock = Some(Clock::Sides { time: time_of, inc, movestogo });
    }
    warnings.extend(skipped(&unknown));
    let errors = std::mem::take(errors);
    // A depth 0 was made 1 above: UCI's `go` never asks for the static score alone.
    let task = perft.map_or(Task::Search, Task::Perft);
    Go { task, limits, searchmoves, errors, warnings }
}

/// The keywords of UCI's `go`: `searchmoves` takes the words up to the next of them.
pub const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn score(score: Eval) -> String {
    match score {
        Eval::Cp(cp) => format!("cp {cp}"),
        // UCI counts mates in moves, not plies; negative when the engine is mated.
        Eval::Win(p) => format!("mate {}", p.div_ceil(2)),
        // Mated now is `mate 0` (not `mate -0`).
        Eval::Loss(p) if p < 2 => "mate 0".to_string(),
        Eval::Loss(p) => format!("mate -{}", p / 2),
    }
}

/// Formats a report as one UCI line.
pub fn format(report: &Report) -> String {
    match report {
        Report::Hello { variant } => {
            let mut lines = vec![
                format!("id name Chariot {}", env!("CARGO_PKG_VERSION")),
                "id author the Chariot developers".to_string(),
            ];
            for spec in TABLE {
                let Some(name) = spec.uci else { continue };
                let (ty, default, range) = grammar::announce(spec.kind, *variant, false);
                let mut line = format!("option name {name} type {ty}");
                if let Some(d) = default {
                    line.push_str(&format!(" default {d}"));
                }
                if !range.is_empty() {
                    line.push_str(&format!(" {range}"));
                }
                lines.push(line);
            }
            // The `tune` build: every search parameter of the game, for a tuner to set.
            #[cfg(feature = "tune")]
            for p in crate::search::params::SPECS {
                let (min, max, value) = (p.min, p.max, p.value(*variant));
                lines.push(format!(
                    "option name {} type spin default {value} min {min} max {max}",
                    p.name
                ));
            }
            lines.push("uciok".to_string());
            lines.join("\n")
        }
        Report::Ready => "readyok".to_string(),
        Report::Iteration {
            depth,
            seldepth,
            multipv,
            score: s,
            wdl,
            bound,
            nodes,
            time_ms,
            hashfull,
            tbhits,
            pv,
        } => {
            let nps = nodes * 1000 / time_ms.max(&1);
            let bound = match bound {
                Bound::Exact => "",
                Bound::Lower => " lowerbound",
                Bound::Upper => " upperbound",
            };
            let wdl = wdl.map(|[w, d, l]| format!(" wdl {w} {d} {l}")).unwrap_or_default();
            // Only where tables answered: a search without them says nothing of them.
            let tbhits = if *tbhits > 0 { format!(" tbhits {tbhits}") } else { String::new() };
            format!(
                "info depth {depth} seldepth {seldepth} multipv {multipv} score {}{bound}{wdl} \
                 nodes {nodes} nps {nps} hashfull {hashfull}{tbhits} time {time_ms} pv {}",
                score(*s),
                pv.join(" ")
            )
        }
        Report::CurrLine { line } => format!("info currline 1 {}", line.join(" ")),
        Report::Refutation { line } => format!("info refutation {}", line.join(" ")),
        Report::Static { score: s } => format!("info depth 0 score {}", score(*s)),
        Report::Progress { nodes, time_ms } => {
            let nps = nodes * 1000 / time_ms.max(&1);
            format!("info nodes {nodes} nps {nps} time {time_ms}")
        }
        Report::CurrMove { mv, number } => {
            format!("info currmove {mv} currmovenumber {number}")
        }
        Report::BestMove { best, ponder, .. } => match (best, ponder) {
            (None, _) => "bestmove (none)".to_string(),
            (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
            (Some(b), None) => format!("bestmove {b}"),
        },
        Report::PerftMove { mv, nodes } => format!("{mv}: {nodes}"),
        Report::PerftTotal { nodes } => format!("\nNodes searched: {nodes}\n"),
        Report::Genfen(fen) => format!("info string genfens {fen}"),
        Report::Message(text) => format!("info string {text}"),
        Report::Error(text) => format!("info string error: {text}"),
        Report::Warning(text) => format!("info string warning: {text}"),
        // UCI has no probe command; the report is written for people.
        Report::Probe { best, lower, upper } => {
            let bound = |b: &Option<(Eval, u32)>| {
                b.map_or("none".to_string(), |(e, d)| format!("{} depth {d}", score(e)))
            };
            format!(
                "info string probe bestmove {} lowerbound {} upperbound {}",
                best.as_deref().unwrap_or("none"),
                bound(lower),
                bound(upper)
            )
        }
        Report::Bye => String::new(),
        Report::Registered => "registration checking\nregistration ok".to_string(),
        Report::Help => HELP.to_string(),
        Report::Text(text) => text.trim_end().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::Start;

    #[test]
    fn unknown_leading_token_is_skipped() {
        assert_eq!(parse("joho debug on"), Ok(Some(Command::Debug(true))));
        assert!(matches!(parse("xyzzy"), Err(ParseError::Unknown(w)) if w == "xyzzy"));
        assert_eq!(parse("   "), Ok(None));
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            parse("setoption name Debug Log File value /tmp/a b.txt"),
            Ok(Some(Command::SetOption {
                name: "Debug Log File".into(),
                value: Some("/tmp/a b.txt".into())
            }))
        );
        assert_eq!(
            parse("setoption name Clear Hash"),
            Ok(Some(Command::SetOption { name: "Clear Hash".into(), value: None }))
        );
    }

    #[test]
    fn go_in_any_order() {
        let Ok(Some(Command::Go(l))) =
            parse("go movestogo 5 wtime 1000 searchmoves e2e4 d2d4 binc 10 btime 900 junk depth 7")
        else {
            panic!("go did not parse");
        };
        assert_eq!(l.limits.depth, Some(7));
        assert_eq!(l.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(
            l.limits.clock,
            Some(Clock::Sides { time: [Some(1000), Some(900)], inc: [0, 10], movestogo: Some(5) })
        );
        let Ok(Some(Command::Go(l))) = parse("go depth x movetime 50") else { panic!() };
        assert_eq!(l.limits.movetime, Some(50));
        assert_eq!(l.errors, vec!["'x' after 'depth' is not a valid number".to_string()]);
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse("position startpos moves e2e4 e7e5"),
            Ok(Some(Command::Position {
                start: Start::Startpos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }))
        );
        assert_eq!(
            parse("position fen 8/8/8/8/8/8/8/K1k5 w - - 0 1"),
            Ok(Some(Command::Position {
                start: Start::Fen("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                moves: vec![]
            }))
        );
        // An unreadable `position` still takes its turn, to invalidate the position.
        assert_eq!(
            parse("position sideways"),
            Ok(Some(Command::BadPosition(
                "position expects 'startpos' or 'fen', not 'sideways'".into()
            )))
        );
    }

    #[test]
    fn genfens_as_openbench_sends_it() {
        let request = |book: Option<&str>, seed: u64, dfrc: bool| {
            Ok(Some(Command::Genfens(Genfens {
                count: 16,
                seed,
                book: book.map(str::to_string),
                dfrc,
            })))
        };
        assert_eq!(parse("genfens 16 seed 7 book None"), request(None, 7, false));
        assert_eq!(
            parse("genfens 16 seed 7 book Books/UHO.epd dfrc"),
            request(Some("Books/UHO.epd"), 7, true)
        );
        // The keywords in any order; a negative seed is its 64 bits; `none` in any case.
        assert_eq!(parse("genfens 16 book none seed -1"), request(None, u64::MAX, false));
        assert!(matches!(parse("genfens"), Err(ParseError::Missing(_))));
        assert!(matches!(parse("genfens 16 seed"), Err(ParseError::Missing(_))));
        assert!(matches!(parse("genfens -3 seed 1"), Err(ParseError::Number { .. })));
        assert!(matches!(parse("genfens 16 seed 1 extra"), Err(ParseError::Malformed(_))));
    }

    #[test]
    fn mate_scores_in_moves() {
        assert_eq!(score(Eval::Win(1)), "mate 1");
        assert_eq!(score(Eval::Win(3)), "mate 2");
        assert_eq!(score(Eval::Loss(2)), "mate -1");
        assert_eq!(score(Eval::Loss(0)), "mate 0");
        assert_eq!(score(Eval::Loss(20)), "mate -10");
    }
}
