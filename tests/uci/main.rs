//! UCI, driven through pipes: every command, option and error case of the protocol, the
//! example dialogue of the spec, pondering, Chess960, xiangqi over UCI, and python-chess as a
//! real client.
//!
//! This file holds what the tests share: positions, waits and the helpers that read a
//! transcript; the tests live in the modules below, one topic each.

#[path = "../common/mod.rs"]
mod common;

mod castling;
mod client;
mod clock;
mod commands;
mod go;
mod handshake;
mod input;
mod options;
mod ponder;
mod tablebases;
mod xiangqi;

use chariot_engine::game::Game;
use common::Session;
use std::time::Duration;

/// Morphy's mate in two: 1. Ra6 bxa6 2. b7#.
/// Null-move searches miss it (the defender is in zugzwang, and passing is all that it cannot
/// do), so the ordinary search finds it late; `go mate` finds it at once.
const MATE_IN_2: &str = "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1";
/// A back-rank mate in two, 1. Rd8+ Rxd8 2. Rxd8#, which every search finds at depth 1.
const BACK_RANK_MATE_IN_2: &str = "r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1";
/// Both sides may castle on both wings.
const CASTLES: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
/// A Chess960 start with the rooks on b and g and the king on e.
const C960_SHREDDER: &str = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
const C960_XFEN: &str = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1";
const XQ_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// "At once": generous, as the machine may be busy (a loaded two-core CI machine missed 100 ms),
/// yet far below what each bounded wait would take otherwise (an infinite search, a ponder
/// search, a 100 s movetime).
const SOON: Duration = Duration::from_secs(1);
const LONG: Duration = Duration::from_secs(30);

/// A session past the handshake.
fn uci() -> Session {
    uci_with(&[])
}

fn uci_with(args: &[&str]) -> Session {
    let mut s = Session::start(args);
    s.send("uci");
    s.expect("uciok");
    s
}

/// Sends `line` and `isready`; returns what the engine printed before `readyok`.
fn answer(s: &mut Session, line: &str) -> Vec<String> {
    let before = s.seen.len();
    s.send(line);
    s.send("isready");
    s.expect_within(LONG, |l| l == "readyok");
    s.seen[before..s.seen.len() - 1].to_vec()
}

/// Sends `go ...` and returns every line up to and including the `bestmove`.
fn search(s: &mut Session, go: &str) -> Vec<String> {
    s.send(go);
    until_bestmove(s, LONG)
}

fn until_bestmove(s: &mut Session, timeout: Duration) -> Vec<String> {
    let before = s.seen.len();
    s.expect_within(timeout, |l| l.starts_with("bestmove"));
    s.seen[before..].to_vec()
}

/// The errors among `lines`.
fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string error: ")).collect()
}

/// Exactly one error line, naming `token`.
fn one_error_naming(lines: &[String], token: &str) {
    let e = errors(lines);
    assert_eq!(e.len(), 1, "want one error naming {token}: {lines:#?}");
    assert!(e[0].contains(&format!("'{token}'")), "error does not name '{token}': {}", e[0]);
}

/// The words after `key` in an info line.
fn after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|w| *w == key)?;
    words.next()
}

fn number(line: &str, key: &str) -> Option<i64> {
    after(line, key).and_then(|w| w.parse().ok())
}

fn pv(line: &str) -> Vec<&str> {
    line.split_whitespace().skip_while(|w| *w != "pv").skip(1).collect()
}

/// The iteration reports (`info depth n ... pv ...`) among `lines`.
fn iterations(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info depth ") && l.contains(" pv ")).collect()
}

/// The board after `moves` from `fen` (or the start).
fn board<G: Game>(fen: Option<&str>, moves: &[&str]) -> G {
    let mut b = match fen {
        Some(f) => G::from_fen(f).expect("fen"),
        None => G::startpos(),
    };
    for m in moves {
        let m = b.parse_move(m).unwrap_or_else(|e| panic!("setup move {m}: {e}"));
        b.make(m);
    }
    b
}

/// True when `line` is a sequence of legal moves from `b`.
fn legal_line<G: Game>(b: &G, line: &[&str]) -> bool {
    let mut b = b.clone();
    line.iter().all(|m| match b.parse_move(m) {
        Ok(m) => {
            b.make(m);
            true
        }
        Err(_) => false,
    })
}

/// Every pv and the `bestmove ... ponder ...` of a search are legal from `b`.
fn all_legal<G: Game>(b: &G, lines: &[String]) {
    for info in iterations(lines) {
        assert!(legal_line(b, &pv(info)), "illegal pv from {}: {info}", b.fen());
    }
    let last = lines.iter().rfind(|l| l.starts_with("bestmove ")).expect("bestmove");
    let words: Vec<&str> = last.split_whitespace().collect();
    let line: Vec<&str> = match words.as_slice() {
        ["bestmove", b, "ponder", p] => vec![b, p],
        ["bestmove", b] => vec![b],
        _ => panic!("malformed {last}"),
    };
    assert!(legal_line(b, &line), "illegal answer from {}: {last}", b.fen());
}

/// The leaf count of `go perft depth` and its divide lines.
fn perft(s: &mut Session, depth: u32) -> (u64, Vec<String>) {
    let before = s.seen.len();
    s.send(&format!("go perft {depth}"));
    let total = s.expect("Nodes searched: ");
    // The total stands between blank lines, as Stockfish prints it.
    s.expect_within(LONG, str::is_empty);
    let divide = s.seen[before..].iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes"));
    let total = total["Nodes searched: ".len()..].parse().expect("count");
    (total, divide.cloned().collect())
}

/// Nothing starting with `prefix` for `ms` milliseconds (checked with an `isready` after).
fn nothing_within(s: &mut Session, ms: u64, prefix: &str) {
    let before = s.seen.len();
    std::thread::sleep(Duration::from_millis(ms));
    s.send("isready");
    s.expect_within(LONG, |l| l == "readyok");
    let new = &s.seen[before..];
    assert!(!new.iter().any(|l| l.starts_with(prefix)), "unexpected {prefix}: {new:#?}");
}
