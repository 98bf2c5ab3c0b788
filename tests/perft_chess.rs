//! Chess perft against tests/data/perft-chess.epd (`<fen>;D1 n;D2 n;...`, `#` comments).

use chariot::chess::Chess;
use chariot::game::Game;

/// The default test runs each position to the deepest listed depth at or below this count, so
/// that every position is covered and the whole file stays fast.
const QUICK_LIMIT: u64 = 3_000_000;

struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft-chess.epd");
    let mut out = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut parts = line.split(';');
        let fen = parts.next().expect("a FEN before the counts").trim().to_string();
        let counts = parts
            .map(|p| {
                let p = p.trim();
                let (d, n) = p.split_once(' ').unwrap_or_else(|| panic!("bad count '{p}'"));
                let depth = d.trim_start_matches('D').parse().expect("depth");
                (depth, n.trim().parse().expect("count"))
            })
            .collect();
        out.push(Case { fen, counts });
    }
    assert!(!out.is_empty(), "no perft positions read");
    out
}

fn run(limit: u64) {
    for case in cases() {
        let mut game = Chess::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for (i, &(depth, expected)) in case.counts.iter().enumerate() {
            // Always check the first depth, so every position is covered.
            if expected > limit && i > 0 {
                break;
            }
            assert_eq!(game.perft(depth), expected, "{} depth {depth}", case.fen);
        }
    }
}

#[test]
fn perft_quick() {
    run(QUICK_LIMIT);
}

#[test]
#[ignore = "runs every listed depth; minutes in release"]
fn perft_full() {
    run(u64::MAX);
}
