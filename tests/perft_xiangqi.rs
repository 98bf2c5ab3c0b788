//! Xiangqi perft against the verified counts in `tests/data/perft-xiangqi.epd`.

mod common;

use chariot_engine::game::Game;
use chariot_engine::xiangqi::Xiangqi;
use std::time::Instant;

const EPD: &str = include_str!("data/perft-xiangqi.epd");

/// The default test runs each position to the deepest listed depth with at most this many
/// nodes, so that every position is covered in a few seconds of a release build.
const QUICK_NODE_LIMIT: u64 = 3_000_000;

/// (FEN, [(depth, count)]) for each line of the EPD file.
fn cases() -> Vec<(String, Vec<(u32, u64)>)> {
    common::perft_cases(EPD)
}

/// The portable counting path, which CPUs with POPCNT never take, on every position.
#[test]
fn perft_portable() {
    for (fen, depths) in cases() {
        let mut game = Xiangqi::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let &(depth, expected) =
            depths.iter().rev().find(|(_, n)| *n <= 300_000).unwrap_or(&depths[0]);
        assert_eq!(game.perft_portable(depth), expected, "{fen} depth {depth}");
    }
}

fn check(limit: u64) {
    let mut failures = Vec::new();
    for (fen, depths) in cases() {
        let mut game = Xiangqi::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for &(depth, expected) in &depths {
            if expected > limit && depth > 1 {
                continue;
            }
            let got = game.perft(depth);
            if got != expected {
                failures.push(format!("{fen} depth {depth}: got {got}, expected {expected}"));
            }
        }
        assert_eq!(game.fen(), Xiangqi::from_fen(&fen).map(|g| g.fen()).unwrap_or_default());
    }
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
}

#[test]
fn perft_quick() {
    check(QUICK_NODE_LIMIT);
}

#[test]
#[ignore = "runs every listed depth: minutes"]
fn perft_full() {
    check(u64::MAX);
}

/// Start position, depth 5 (or `XQ_PERFT_DEPTH`, 1..=5), with the speed printed; run with
/// `cargo test --release --test perft_xiangqi -- --ignored --nocapture speed`.
#[test]
#[ignore = "a benchmark"]
fn perft_speed() {
    const COUNTS: [u64; 6] = [1, 44, 1_920, 79_666, 3_290_240, 133_312_995];
    let depth = std::env::var("XQ_PERFT_DEPTH").ok().and_then(|d| d.parse().ok()).unwrap_or(5);
    let mut game = Xiangqi::startpos();
    let start = Instant::now();
    let nodes = game.perft(depth as u32);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft {depth}: {nodes} nodes in {secs:.3} s, {:.1} Mnodes/s",
        nodes as f64 / secs / 1e6
    );
    assert_eq!(nodes, COUNTS[depth]);
}
