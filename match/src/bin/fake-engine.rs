//! A fake engine for the runner's tests: it speaks UCI and UCCI, plays a legal move at once
//! (chosen from the position, so that games vary), and misbehaves when asked.
//!
//! `chariot-fake-engine [--mode MODE] [--at N] [--once FILE] [--sleep MS] [--fsf] [--seed N]`
//!
//! MODE is `good` (the default), `crash` (exits at the `go`), `hang` (stops answering
//! anything, `stop` and `quit` included), `illegal` (plays a move that is not legal),
//! `none` (`bestmove (none)`), `slow` (sleeps MS milliseconds, then answers), or `deaf`
//! (its first `go ponder` is never answered, neither at `ponderhit` nor at `stop`). The
//! misbehaviour comes at the Nth `go` of the process (default 1), and with `--once FILE`
//! only while FILE does not exist (the fake creates it), so that a restarted process
//! behaves: one bad game in a match. `--fsf` writes and reads xiangqi ranks 1-10, as
//! Fairy-Stockfish does in UCI mode. With `Ponder` (UCCI `ponder`) set, each `bestmove` names
//! a legal reply to ponder on, `go ponder` holds its answer until `ponderhit` or `stop`.

use chariot_engine::chess::Chess;
use chariot_engine::game::{Game, MoveList};
use chariot_engine::xiangqi::Xiangqi;
use chariot_match::notation::Notation;
use std::io::{BufRead, Write};
use std::time::Duration;

/// The two boards the fake can play on (boxed: one board is three times the other's size).
enum Board {
    Chess(Box<Chess>),
    Xiangqi(Box<Xiangqi>),
}

/// Plays `moves` on `board`; false if one is not legal.
fn play_all<G: Game>(board: &mut G, moves: &[&str]) -> bool {
    for m in moves {
        match board.parse_move(m) {
            Ok(mv) => board.make(mv),
            Err(_) => return false,
        }
    }
    true
}

/// A legal move chosen by the position's key mixed with `salt`, or `None` when there is none.
fn pick<G: Game>(board: &G, salt: u64) -> Option<String> {
    let mut list = MoveList::new();
    board.legal_moves(&mut list);
    let moves = list.as_slice();
    if moves.is_empty() {
        return None;
    }
    // A multiplicative mix, so that salts 1 and 2 choose unrelated moves.
    let mixed = (board.key() ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let i = ((mixed >> 32) % moves.len() as u64) as usize;
    Some(board.move_text(moves[i]))
}

/// A move as [`pick`] chooses it, and a reply to it chosen the same way.
fn pick_with_reply<G: Game>(board: &G, salt: u64) -> (Option<String>, Option<String>) {
    let Some(m) = pick(board, salt) else { return (None, None) };
    let mut after = board.clone();
    let reply = after.parse_move(&m).ok().and_then(|mv| {
        after.make(mv);
        pick(&after, salt)
    });
    (Some(m), reply)
}

/// Reads `position startpos|fen F... [moves ...]`.
fn position(words: &[&str], xiangqi: bool, notation: Notation) -> Option<Board> {
    let at = words.iter().position(|w| *w == "moves");
    let (head, moves) = match at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let moves: Vec<String> = moves.iter().map(|m| notation.from_engine(m)).collect();
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    let fen = match head.get(1) {
        Some(&"startpos") if xiangqi => chariot_engine::xiangqi::START_FEN.to_string(),
        Some(&"startpos") => chariot_engine::chess::START_FEN.to_string(),
        Some(&"fen") => head[2..].join(" "),
        _ => return None,
    };
    // Ten ranks: xiangqi.
    if fen.split_whitespace().next().is_some_and(|b| b.split('/').count() == 10) {
        let mut b = Xiangqi::from_fen(&fen).ok()?;
        play_all(&mut b, &moves).then(|| Board::Xiangqi(Box::new(b)))
    } else {
        let mut b = Chess::from_fen(&fen).ok()?;
        play_all(&mut b, &moves).then(|| Board::Chess(Box::new(b)))
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value =
        |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let mode = value("--mode").unwrap_or_else(|| "good".into());
    let at: u32 = value("--at").and_then(|n| n.parse().ok()).unwrap_or(1);
    let sleep_ms: u64 = value("--sleep").and_then(|n| n.parse().ok()).unwrap_or(1000);
    let once = value("--once").map(std::path::PathBuf::from);
    let armed = once.as_ref().is_none_or(|f| !f.exists());
    let notation = if args.iter().any(|a| a == "--fsf") { Notation::Fsf } else { Notation::Iccs };

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut xiangqi = false;
    let mut board: Option<Board> = None;
    let mut gos = 0u32;
    // Pondering: whether it is on, and the answer held back while a `go ponder` runs.
    let mut ponder_on = false;
    let mut pending: Option<String> = None;
    // Moves depend on the seed and on how many games the process has begun, so that
    // repeated games differ.
    let seed: u64 = value("--seed").and_then(|n| n.parse().ok()).unwrap_or(0);
    let mut salt = seed;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.first().copied() {
            Some("uci") => "id name fake\noption name UCI_Variant type combo default chess var chess var xiangqi\nuciok".to_string(),
            Some("ucci") => {
                xiangqi = true;
                "id name fake\noption usemillisec type check default false\nucciok".to_string()
            }
            Some("setoption") => {
                if line.contains("UCI_Variant") && line.contains("xiangqi") {
                    xiangqi = true;
                }
                if words.get(1..).is_some_and(|w| w.iter().any(|w| w.eq_ignore_ascii_case("ponder"))) {
                    ponder_on = line.ends_with("true");
                }
                continue;
            }
            Some("isready") => "readyok".to_string(),
            Some("ucinewgame") => {
                salt = salt.wrapping_add(seed.wrapping_mul(31).wrapping_add(1));
                continue;
            }
            Some("position") => {
                board = position(&words, xiangqi, notation);
                continue;
            }
            Some("ponderhit" | "stop") => match pending.take() {
                Some(answer) => answer,
                None => continue,
            },
            Some("go") => {
                gos += 1;
                let pondering = words.get(1) == Some(&"ponder");
                let misbehave = if mode == "deaf" {
                    armed && pondering
                } else {
                    armed && gos == at && mode != "good"
                };
                if misbehave && let Some(f) = &once {
                    let _ = std::fs::write(f, b"done");
                }
                let good = || {
                    let (m, reply) = match &board {
                        Some(Board::Chess(b)) => pick_with_reply(b.as_ref(), salt),
                        Some(Board::Xiangqi(b)) => {
                            let (m, r) = pick_with_reply(b.as_ref(), salt);
                            (m.map(|m| notation.to_engine(&m)), r.map(|r| notation.to_engine(&r)))
                        }
                        None => (None, None),
                    };
                    match (m, reply) {
                        (Some(m), Some(r)) if ponder_on => {
                            format!("info depth 1 score cp 0 pv {m} {r}\nbestmove {m} ponder {r}")
                        }
                        (Some(m), _) => format!("info depth 1 score cp 0 pv {m}\nbestmove {m}"),
                        (None, _) => "bestmove (none)".to_string(),
                    }
                };
                if pondering {
                    // `deaf`: the answer is never given.
                    pending = (!misbehave).then(good);
                    continue;
                }
                match (misbehave, mode.as_str()) {
                    (true, "crash") => std::process::exit(3),
                    (true, "hang") => loop {
                        std::thread::sleep(Duration::from_secs(3600));
                    },
                    (true, "illegal") => format!("bestmove {}", if xiangqi { "a0a0" } else { "a1a1" }),
                    (true, "none") => "bestmove (none)".to_string(),
                    (true, _) => {
                        std::thread::sleep(Duration::from_millis(sleep_ms));
                        good()
                    }
                    (false, _) => good(),
                }
            }
            Some("quit") => break,
            _ => continue,
        };
        if writeln!(out, "{reply}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
