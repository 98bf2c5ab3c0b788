//! Chess perft against tests/data/perft-chess.epd (`<fen>;D1 n;D2 n;...`, `#` comments) and a
//! few Chess960 positions.

mod common;

use chariot_engine::chess::Chess;
use chariot_engine::game::Game;

/// The default test runs each position to the deepest listed depth at or below this count, so
/// that every position is covered and the whole file stays fast.
const QUICK_LIMIT: u64 = 5_000_000;

/// Chess960 positions (Shredder-FEN castling), counts from Stockfish 15.1 with UCI_Chess960;
/// they include castling onto the rook's own square and a king that would land in the line of
/// a rook its castling rook used to block.
const CHESS960: &str = "\
bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9;D1 21;D2 528;D3 12189;D4 326672\n\
b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9;D1 20;D2 479;D3 10471;D4 273318\n\
qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9;D1 22;D2 593;D3 13440;D4 382958\n\
1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9;D1 28;D2 1120;D3 31058;D4 1171749\n\
4k3/8/8/8/8/8/8/5KRr w G - 0 1;D1 5;D2 57;D3 821;D4 12355\n\
1r4kr/8/8/8/8/8/8/1R4KR w BHbh - 0 1;D1 24;D2 479;D3 10954;D4 237166\n\
rk5r/8/8/8/8/8/8/RK4R1 w AGah - 0 1;D1 24;D2 487;D3 11500;D4 252562\n\
2r1kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1;D1 22;D2 483;D3 11144;D4 258747\n\
";

fn run(text: &str, limit: u64) {
    run_with(text, limit, |game, depth| game.perft(depth));
}

fn run_with(text: &str, limit: u64, perft: impl Fn(&mut Chess, u32) -> u64) {
    for (fen, counts) in common::perft_cases(text) {
        let mut game = Chess::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (i, &(depth, expected)) in counts.iter().enumerate() {
            // Always check the first depth, so every position is covered.
            if expected > limit && i > 0 {
                break;
            }
            assert_eq!(perft(&mut game, depth), expected, "{fen} depth {depth}");
        }
    }
}

const EPD: &str = include_str!("data/perft-chess.epd");

#[test]
fn perft_quick() {
    run(EPD, QUICK_LIMIT);
}

#[test]
#[ignore = "runs every listed depth; minutes in release"]
fn perft_full() {
    run(EPD, u64::MAX);
}

/// `perft` picks a code path compiled for POPCNT when the CPU has it; check the portable one.
#[test]
fn perft_portable() {
    run_with(EPD, QUICK_LIMIT, |game, depth| game.perft_portable(depth));
    run_with(CHESS960, u64::MAX, |game, depth| game.perft_portable(depth));
}

#[test]
fn perft_chess960() {
    run(CHESS960, u64::MAX);
}

/// Prints the speed of `perft 6` from the start position:
/// `cargo test --release --test perft_chess -- --ignored --nocapture perft_speed`.
#[test]
#[ignore = "a measurement, not a check"]
fn perft_speed() {
    let mut game = <Chess as Game>::startpos();
    let start = std::time::Instant::now();
    let nodes = game.perft(6);
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(nodes, 119_060_324);
    println!("perft 6: {nodes} nodes in {secs:.3} s, {:.1} Mnodes/s", nodes as f64 / secs / 1e6);
}
