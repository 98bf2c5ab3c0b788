//! The incremental evaluation equals a fresh one after every move, in both games, and every
//! code path computes the same output.

use super::accumulator::{Accumulators, evaluate_fresh};
use super::network::{Activation, Network};
use super::simd;
use crate::chess::Chess;
use crate::game::{Game, MoveList, Variant};
use crate::xiangqi::Xiangqi;
use std::sync::Arc;

/// A small deterministic stream for weights and move choices.
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn range(&mut self, lo: i32, hi: i32) -> i16 {
        (lo + (self.next() % (hi - lo + 1) as u64) as i32) as i16
    }
}

/// A network of random weights in the trained ranges, with eight output buckets: the
/// incremental piece count that picks the bucket is checked with the sums.
fn random_net(variant: Variant, activation: Activation, seed: u64) -> Arc<Network> {
    Arc::new(Network::random_bucketed(variant, activation, 32, 8, seed))
}

/// Walks `depth` plies below `board` (every move, and a null move), checking the lazy sums.
fn walk<G: Game>(board: &mut G, acc: &mut Accumulators, net: &Network, depth: u32) -> u64 {
    assert_eq!(acc.evaluate(board.side_to_move()), evaluate_fresh(net, board), "{}", board.fen());
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    board.legal_moves(&mut list);
    let mut nodes = 1;
    for &m in list.iter() {
        acc.push(board, m);
        board.make(m);
        nodes += walk(board, acc, net, depth - 1);
        board.unmake();
        acc.pop();
    }
    if !board.in_check() {
        acc.push_null();
        board.make_null();
        nodes += walk(board, acc, net, depth - 1);
        board.unmake_null();
        acc.pop();
    }
    nodes
}

/// Random games: after every move the incremental sums give the fresh output, including
/// after several pushes evaluated at once (the lazy path) and a walk of every reply.
fn random_games<G: Game>(fens: &[&str], games: usize, seed: u64) {
    for activation in [Activation::SCRelu, Activation::CRelu] {
        let net = random_net(G::VARIANT, activation, seed);
        let mut s = Stream(seed ^ 0x5555);
        for fen in fens {
            let mut nodes = 0;
            for _ in 0..games {
                let mut board = G::from_fen(fen).expect("valid FEN");
                let mut acc = Accumulators::new(net.clone(), &board);
                let mut list = MoveList::new();
                for ply in 0..120 {
                    board.legal_moves(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    let m = list.as_slice()[s.next() as usize % list.len()];
                    acc.push(&board, m);
                    board.make(m);
                    // Evaluate only every third ply, so that lazy updates span several moves.
                    if ply % 3 == 2 {
                        let fresh = evaluate_fresh(&net, &board);
                        assert_eq!(acc.evaluate(board.side_to_move()), fresh, "{}", board.fen());
                        if ply % 12 == 2 {
                            nodes += walk(&mut board, &mut acc, &net, 1);
                        }
                    }
                }
            }
            assert!(nodes > 0);
        }
    }
}

#[test]
fn chess_incremental_evaluation_equals_a_fresh_one() {
    random_games::<Chess>(
        &[
            crate::chess::START_FEN,
            // Castling both ways, en passant, promotions with and without capture.
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPpP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ],
        6,
        11,
    );
    // Every special move at depth 2 from the positions that have them.
    let net = random_net(Variant::Chess, Activation::SCRelu, 3);
    for fen in [
        "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPpP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        // Chess960 castling, where king and rook targets overlap their start squares.
        "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
    ] {
        let mut board = Chess::from_fen(fen).expect("valid FEN");
        let mut acc = Accumulators::new(net.clone(), &board);
        assert!(walk(&mut board, &mut acc, &net, 2) > 100);
    }
}

#[test]
fn xiangqi_incremental_evaluation_equals_a_fresh_one() {
    random_games::<Xiangqi>(
        &[
            crate::xiangqi::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        ],
        6,
        12,
    );
}

/// The AVX2 path (where the CPU has it), the portable path and the reference agree on
/// random and extreme accumulators.
#[test]
fn every_code_path_computes_the_same_output() {
    let mut s = Stream(99);
    for activation in [Activation::SCRelu, Activation::CRelu] {
        let net = random_net(Variant::Chess, activation, 5);
        for round in 0..200 {
            let (lo, hi) = if round < 100 { (-400, 400) } else { (-32768, 32767) };
            let us: Vec<i16> = (0..net.hidden).map(|_| s.range(lo, hi)).collect();
            let them: Vec<i16> = (0..net.hidden).map(|_| s.range(lo, hi)).collect();
            let bucket = round % net.buckets;
            let reference = net.output_reference(&us, &them, bucket);
            assert_eq!(simd::output_portable(&net, &us, &them, bucket), reference);
            assert_eq!(simd::output(&net, &us, &them, bucket), reference);
        }
    }
}
