//! UCCI: xiangqi, as ElephantEye speaks it.
//!
//! Differences from UCI that GUIs notice: scores are bare numbers (no `cp`) with mates shown as
//! ±(10000 − plies), times are seconds unless `usemillisec` is on, `nobestmove` replaces
//! `bestmove (none)`, `quit` is answered by `bye`, and options are listed without `name`.

use super::grammar::{self, ParseError};
use crate::command::{Clock, Command, Go, Limits, Task};
use crate::options::{self, TABLE};
use crate::report::{Eval, Report};

/// The commands, for `help`.
const HELP: &str = "\
Chariot speaks UCCI (xiangqi). Commands:
  ucci                         identify, list the options, answer ucciok
  isready                      answer readyok (at once, also while thinking)
  setoption <name> [<value>]   set an option (also: setoption name <n> value <v>)
  position startpos|fen <fen> [moves <m>...]  set up a position (ICCS moves: h2e2)
  banmoves <m>...              exclude root moves until the next position
  go [ponder|draw] depth n|infinite|nodes n|time t [movestogo n|increment i]
     [opptime t [oppmovestogo n|oppincrement i]]   think (times in seconds unless usemillisec)
  ponderhit [draw] | stop      the predicted move was played / answer now
  d [letters|chinese]          show the board, FEN, key, checkers, last move (Chinese notation)
  eval                         the static evaluation, term by term
  flip                         mirror the position (colours swapped)
  export_net [file]            write the network in use (default: its own name)
  compiler                     how the binary was built, and its inference path
  probe startpos|fen <fen> [moves <m>...]  what the hash table holds for that position
  bench [hash threads limit fenfile limittype]  the search's signature: <nodes> nodes <nps> nps
  speedtest [threads hash seconds]  the speed as users run it
  help                         this list
  quit                         leave (answers bye)";

/// UCCI's mate base: a mate in `n` plies is shown as `MATE_SCORE - n`.
const MATE_SCORE: i32 = 10_000;

/// What a UCCI front-end remembers between lines.
#[derive(Clone, Debug, Default)]
pub struct State {
    /// Times are milliseconds rather than seconds (`setoption usemillisec true`).
    pub millisec: bool,
    /// Batch mode: read no input while thinking (`setoption batch true`).
    pub batch: bool,
}

/// Parses one UCCI line, updating the front-end `state`.
pub fn parse(line: &str, state: &mut State) -> Result<Option<Command>, ParseError> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, args)) = words.split_first() else {
        return Ok(None);
    };
    let command = match first {
        _ if first.starts_with('#') => return Ok(None),
        "ucci" => Command::Hello,
        "setoption" => {
            let command = parse_setoption(args)?;
            // The front-end's switches read their value as the option table does, so that a
            // value the engine refuses (`usemillisec yes`) changes nothing here either.
            if let Command::SetOption { name, value } = &command
                && let Ok((spec, options::Value::Bool(on))) =
                    options::parse(name, value.as_deref(), true)
            {
                match spec.ucci {
                    Some("usemillisec") => state.millisec = on,
                    Some("batch") => state.batch = on,
                    _ => {}
                }
            }
            command
        }
        "banmoves" => Command::BanMoves(args.iter().map(|s| s.to_string()).collect()),
        "go" => Command::Go(parse_go(args, state.millisec)),
        "ponderhit" => Command::PonderHit { draw_offer: args.first() == Some(&"draw") },
        "probe" => match grammar::parse_position(args)? {
            Command::Position { start, moves } => Command::Probe { start, moves },
            _ => return Err(ParseError::Malformed("probe expects a position".into())),
        },
        other => return grammar::parse_shared(other, args).map(Some),
    };
    Ok(Some(command))
}

/// `setoption <name> [<value>]`, and the UCI form `setoption name <name> value <value>` that
/// real UCCI clients send.
fn parse_setoption(args: &[&str]) -> Result<Command, ParseError> {
    match args.split_first() {
        Some((&"name", rest)) => grammar::name_value(rest),
        Some((name, [])) => Ok(Command::SetOption { name: name.to_string(), value: None }),
        Some((name, value)) => {
            Ok(Command::SetOption { name: name.to_string(), value: Some(value.join(" ")) })
        }
        None => Err(ParseError::Missing("setoption".into())),
    }
}

/// A UCCI time in milliseconds: the value is seconds (fractions allowed) unless `millisec`.
fn time(
    keyword: &str,
    words: &mut std::slice::Iter<'_, &str>,
    millisec: bool,
) -> Result<u64, ParseError> {
    let value: f64 = super::uci::number(keyword, words)?;
    if !value.is_finite() {
        return Err(ParseError::Number { keyword: keyword.into(), value: value.to_string() });
    }
    let ms = if millisec { value } else { value * 1000.0 };
    Ok(ms.max(0.0) as u64)
}

/// `go [ponder | draw] <mode>`; the dual-time form `wtime/btime` is accepted as well. A bad
/// value is recorded in `errors` and skipped; a clamped number or an unknown word is recorded
/// in `warnings`.
fn parse_go(args: &[&str], millisec: bool) -> Go {
    use super::uci::{integer, note, skipped};
    let mut limits = Limits::default();
    let (mut perft, searchmoves) = (None, Vec::new());
    let (mut errors, mut warnings, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
    let (errors, warn) = (&mut errors, &mut warnings);
    let mut own = None;
    let mut inc = 0;
    let mut movestogo = None;
    let mut sides = [None, None];
    let mut words = args.iter();
    while let Some(&word) = words.next() {
        let w = &mut words;
        match word {
            "ponder" => limits.ponder = true,
            "draw" => limits.draw_offer = true,
            "infinite" => limits.infinite = true,
            "depth" => {
                // `go depth infinite` is also seen in the wild.
                if w.as_slice().first() == Some(&"infinite") {
                    w.next();
                    limits.infinite = true;
                } else {
                    limits.depth = note(errors, integer(word, w, 0..=Limits::MAX_DEPTH, warn));
                }
            }
            "nodes" => limits.nodes = note(errors, integer(word, w, 0..=u64::MAX, warn)),
            "time" => own = note(errors, time(word, w, millisec)),
            "increment" => inc = note(errors, time(word, w, millisec)).unwrap_or(0),
            "movestogo" => movestogo = note(errors, integer(word, w, 0..=u32::MAX, warn)),
            "wtime" => sides[0] = note(errors, time(word, w, millisec)),
            "btime" => sides[1] = note(errors, time(word, w, millisec)),
            // The opponent's clock is information only; read it to report garbage.
            "opptime" | "oppincrement" => {
                note(errors, time(word, w, millisec));
            }
            "oppmovestogo" => {
                note(errors, integer(word, w, 0..=u32::MAX, warn));
            }
            "perft" => perft = note(errors, integer(word, w, 1..=Limits::MAX_PERFT, warn)),
            _ => unknown.push(word),
        }
    }
    if let Some(time) = own {
        limits.clock = Some(Clock::Own { time, inc, movestogo });
    } else if sides.iter().any(Option::is_some) {
        limits.clock = Some(Clock::Sides { time: sides, inc: [inc, inc], movestogo });
    }
    warnings.extend(skipped(&unknown));
    let errors = std::mem::take(errors);
    // Depth 0 asks for the static score, as ElephantEye answers it; a perft comes first.
    let task = match (perft, limits.depth) {
        (Some(depth), _) => Task::Perft(depth),
        (None, Some(0)) => Task::Static,
        (None, _) => Task::Search,
    };
    Go { task, limits, searchmoves, errors, warnings }
}

fn score(score: Eval) -> i32 {
    match score {
        Eval::Cp(cp) => cp,
        Eval::Win(p) => MATE_SCORE - p as i32,
        Eval::Loss(p) => -(MATE_SCORE - p as i32),
    }
}

/// Formats a report as one UCCI line (or several, for the handshake).
pub fn format(report: &Report) -> String {
    match report {
        Report::Hello { variant } => {
            let mut lines = vec![
                format!("id name Chariot {}", env!("CARGO_PKG_VERSION")),
                "id copyright 2026 the Chariot developers, MIT licence".to_string(),
                "id author the Chariot developers".to_string(),
                "id user unknown".to_string(),
            ];
            for spec in TABLE {
                let Some(name) = spec.ucci else { continue };
                let (ty, default, range) = grammar::announce(spec.kind, *variant, true);
                // UCCI writes the range before the default, and no `name`.
                let mut line = format!("option {name} type {ty}");
                if !range.is_empty() {
                    line.push_str(&format!(" {range}"));
                }
                if let Some(d) = default {
                    line.push_str(&format!(" default {d}"));
                }
                lines.push(line);
            }
            // The `tune` build: every search parameter of the game, for a tuner to set.
            #[cfg(feature = "tune")]
            for p in crate::search::params::SPECS {
                let (min, max, value) = (p.min, p.max, p.value(*variant));
                lines.push(format!(
                    "option {} type spin min {min} max {max} default {value}",
                    p.name
                ));
            }
            lines.push("ucciok".to_string());
            lines.join("\n")
        }
        Report::Ready => "readyok".to_string(),
        Report::Iteration { depth, score: s, pv, .. } => {
            format!("info depth {depth} score {} pv {}", score(*s), pv.join(" "))
        }
        Report::Static { score: s } => format!("info depth 0 score {}", score(*s)),
        Report::Progress { nodes, time_ms } => format!("info nodes {nodes} time {time_ms}"),
        // UCCI has no such lines.
        Report::CurrLine { .. } | Report::Refutation { .. } => String::new(),
        Report::CurrMove { mv, .. } => format!("info currmove {mv}"),
        Report::BestMove { best: None, .. } => "nobestmove".to_string(),
        Report::BestMove { best: Some(b), ponder, draw, resign } => {
            let mut line = format!("bestmove {b}");
            if let Some(p) = ponder {
                line.push_str(&format!(" ponder {p}"));
            }
            if *resign {
                line.push_str(" resign");
            } else if *draw {
                line.push_str(" draw");
            }
            line
        }
        Report::PerftMove { mv, nodes } => format!("{mv}: {nodes}"),
        Report::PerftTotal { nodes } => format!("\nNodes searched: {nodes}\n"),
        Report::Genfen(fen) => format!("info message genfens {fen}"),
        Report::Message(text) => format!("info message {text}"),
        Report::Error(text) => format!("info message error: {text}"),
        Report::Warning(text) => format!("info message warning: {text}"),
        Report::Probe { best, lower, upper } => {
            let mut line = String::from("pophash");
            if let Some(m) = best {
                line.push_str(&format!(" bestmove {m}"));
            }
            for (word, bound) in [("lowerbound", lower), ("upperbound", upper)] {
                if let Some((eval, depth)) = bound {
                    line.push_str(&format!(" {word} {} depth {depth}", score(*eval)));
                }
            }
            line
        }
        Report::Bye => "bye".to_string(),
        Report::Registered => String::new(),
        Report::Help => HELP.to_string(),
        Report::Text(text) => text.trim_end().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_unless_millisec() {
        let mut ms = State::default();
        let Ok(Some(Command::Go(l))) = parse("go time 5 increment 1", &mut ms) else { panic!() };
        assert_eq!(l.limits.clock, Some(Clock::Own { time: 5000, inc: 1000, movestogo: None }));
        parse("setoption usemillisec true", &mut ms).unwrap();
        assert!(ms.millisec);
        let Ok(Some(Command::Go(l))) = parse("go time 5000 movestogo 3", &mut ms) else { panic!() };
        assert_eq!(l.limits.clock, Some(Clock::Own { time: 5000, inc: 0, movestogo: Some(3) }));
    }

    #[test]
    fn setoption_both_forms() {
        let mut ms = State::default();
        assert_eq!(
            parse("setoption hashsize 64", &mut ms),
            Ok(Some(Command::SetOption { name: "hashsize".into(), value: Some("64".into()) }))
        );
        assert_eq!(
            parse("setoption name usemillisec value true", &mut ms),
            Ok(Some(Command::SetOption { name: "usemillisec".into(), value: Some("true".into()) }))
        );
        assert!(ms.millisec);
        parse("setoption batch on", &mut ms).unwrap();
        assert!(ms.batch);
        // A value the option table refuses changes nothing (found by fuzzing: `yes` switched
        // the time unit while the engine answered "bad value").
        for refused in ["setoption usemillisec yes", "setoption batch 0", "setoption batch maybe"] {
            parse(refused, &mut ms).unwrap();
            assert!(ms.millisec && ms.batch, "{refused}");
        }
    }

    #[test]
    fn scores_are_bare_with_elephanteye_mates() {
        assert_eq!(score(Eval::Cp(37)), 37);
        assert_eq!(score(Eval::Win(3)), 9997);
        assert_eq!(score(Eval::Loss(2)), -9998);
        assert_eq!(score(Eval::Loss(0)), -10000);
        assert_eq!(
            format(&Report::BestMove { best: None, ponder: None, draw: false, resign: false }),
            "nobestmove"
        );
    }
}
