//! The incremental evaluation equals a fresh one after every move, in both games, and every
//! code path computes the same output.

use super::accumulator::{Accumulators, evaluate_fresh};
use super::network::{Activation, InputMap, Layout, Network};
use super::simd;
use crate::chess::Chess;
use crate::game::{Game, MoveList, Side, Variant};
use crate::rng::SplitMix;
use crate::xiangqi::Xiangqi;
use std::sync::Arc;

/// A small deterministic stream for weights and move choices.
struct Stream(SplitMix);

impl Stream {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
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

/// [`random_net`] under the input map `map`: the kings crossing the middle and moving between
/// king buckets are checked too.
fn mapped_net(variant: Variant, map: InputMap, seed: u64) -> Arc<Network> {
    Arc::new(Network::random_mapped(variant, Activation::SCRelu, (32, 8), map, seed))
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
    let nets = [
        random_net(G::VARIANT, Activation::SCRelu, seed),
        random_net(G::VARIANT, Activation::CRelu, seed),
        mapped_net(G::VARIANT, InputMap::KingMirrored, seed),
        mapped_net(G::VARIANT, InputMap::KingBuckets, seed),
        mapped_net(G::VARIANT, InputMap::KingRegions, seed),
    ];
    for net in nets {
        let mut s = Stream(SplitMix::new(seed ^ 0x5555));
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
    // Every special move at depth 2 from the positions that have them, castling long taking
    // the king across the middle.
    let nets = InputMap::ALL.map(|map| mapped_net(Variant::Chess, map, 3));
    for (net, fen) in nets.iter().flat_map(|net| {
        [
            "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPpP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            // Chess960 castling, where king and rook targets overlap their start squares.
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
        ]
        .map(move |fen| (net, fen))
    }) {
        let mut board = Chess::from_fen(fen).expect("valid FEN");
        let mut acc = Accumulators::new(net.clone(), &board);
        assert!(walk(&mut board, &mut acc, net, 2) > 100);
    }
}

/// With a king map (mirrored, or bucketed too) a position and its mirror image evaluate alike (without
/// castling rights, which the network does not see, they are the same position), whether the
/// kings stand on the same wing or on opposite wings, in both games. (A xiangqi general on
/// the centre file is never mirrored, so there the two differ.)
#[test]
fn king_mirrored_networks_evaluate_mirror_images_alike() {
    fn same<G: Game>(net: &Network, fen: &str, mirror: &str) {
        let a = G::from_fen(fen).expect("valid FEN");
        let b = G::from_fen(mirror).expect("valid FEN");
        assert_eq!(evaluate_fresh(net, &a), evaluate_fresh(net, &b), "{fen}");
    }
    let (fen, mirror) = ("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "3k4/8/8/4p3/8/5N2/8/3K4 w - - 0 1");
    // The plain map tells them apart: the test can fail.
    let plain = random_net(Variant::Chess, Activation::SCRelu, 8);
    let eval = |fen| evaluate_fresh(&plain, &Chess::from_fen(fen).expect("valid FEN"));
    assert_ne!(eval(fen), eval(mirror));
    for map in [InputMap::KingMirrored, InputMap::KingBuckets] {
        let chess = mapped_net(Variant::Chess, map, 8);
        same::<Chess>(&chess, fen, mirror);
        let (fen, mirror) =
            ("6k1/5ppp/8/8/8/8/PPP5/1K6 b - - 0 1", "1k6/ppp5/8/8/8/8/5PPP/6K1 b - - 0 1");
        same::<Chess>(&chess, fen, mirror);
        let xiangqi = mapped_net(Variant::Xiangqi, map, 9);
        let (fen, mirror) =
            ("3k5/9/9/9/2p6/9/9/2H6/9/5K3 w - - 0 1", "5k3/9/9/9/6p2/9/9/6H2/9/3K5 w - - 0 1");
        same::<Xiangqi>(&xiangqi, fen, mirror);
        let (fen, mirror) = (
            "5k3/4a4/9/9/2p6/9/9/2R6/4A4/3K5 b - - 0 1",
            "3k5/4a4/9/9/6p2/9/9/6R2/4A4/5K3 b - - 0 1",
        );
        same::<Xiangqi>(&xiangqi, fen, mirror);
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

/// Every path the CPU runs (AVX-512, AVX2, portable) gives the reference's output on random
/// and extreme accumulators, hidden sizes both even and odd multiples of 16 (AVX-512's masked
/// step), and the path selected gives it too.
#[test]
fn every_code_path_computes_the_same_output() {
    let mut s = Stream(SplitMix::new(99));
    for (activation, hidden) in
        [(Activation::SCRelu, 48), (Activation::CRelu, 48), (Activation::SCRelu, 256)]
    {
        let net = Network::random_bucketed(Variant::Chess, activation, hidden, 8, 5);
        for round in 0..200 {
            let (lo, hi) = if round < 100 { (-400, 400) } else { (-32768, 32767) };
            let us: Vec<i16> = (0..net.hidden).map(|_| s.range(lo, hi)).collect();
            let them: Vec<i16> = (0..net.hidden).map(|_| s.range(lo, hi)).collect();
            let bucket = round % net.buckets;
            let reference = net.output_reference(&us, &them, bucket);
            assert_eq!(simd::output(&net, &us, &them, bucket), reference);
            for path in simd::PATHS {
                let out = simd::output_on(path, &net, &us, &them, bucket);
                assert_eq!(out.unwrap_or(reference), reference, "{path:?} {activation:?} {hidden}");
            }
        }
    }
}

/// Every path the CPU runs updates accumulators as the portable path does, wrapping included,
/// on lengths of every multiple of 16 up to 272 (so the vector loops' tails are run too).
#[test]
fn every_code_path_updates_the_same_sums() {
    let mut s = Stream(SplitMix::new(7));
    for len in (16..=272).step_by(16) {
        let mut row = || -> Vec<i16> { (0..len).map(|_| s.range(-32768, 32767)).collect() };
        let (src, a, s1, s2) = (row(), row(), row(), row());
        // Each sum written out in wrapping arithmetic: `add`, `sub`, `add_sub`, `add_sub2`.
        let expected: Vec<Vec<i16>> = [
            |x: i16, a: i16, _: i16, _: i16| x.wrapping_add(a),
            |x: i16, _: i16, s1: i16, _: i16| x.wrapping_sub(s1),
            |x: i16, a: i16, s1: i16, _: i16| x.wrapping_add(a).wrapping_sub(s1),
            |x: i16, a: i16, s1: i16, s2: i16| x.wrapping_add(a).wrapping_sub(s1).wrapping_sub(s2),
        ]
        .iter()
        .map(|f| (0..len).map(|k| f(src[k], a[k], s1[k], s2[k])).collect())
        .collect();
        for path in simd::PATHS {
            if !path.supported() {
                assert!(!simd::add_on(path, &mut vec![0; len], &a), "{path:?}");
                continue;
            }
            let mut got = vec![src.clone(), src.clone(), vec![0; len], vec![0; len]];
            assert!(simd::add_on(path, &mut got[0], &a));
            assert!(simd::sub_on(path, &mut got[1], &s1));
            assert!(simd::add_sub_on(path, &mut got[2], &src, &a, &s1));
            assert!(simd::add_sub2_on(path, &mut got[3], &src, &a, &s1, &s2));
            assert_eq!(got, expected, "{path:?} at length {len}");
        }
    }
}

/// `CHARIOT_SIMD` takes the paths' names, and refuses another name or a path the CPU lacks in
/// one short line.
#[test]
fn a_path_is_named_or_refused() {
    assert_eq!(simd::parse("portable"), Ok(simd::Path::Portable));
    for path in simd::PATHS {
        assert_eq!(simd::parse(path.name()).is_ok(), path.supported(), "{path:?}");
    }
    let error = simd::parse("avx1024").unwrap_err().to_string();
    assert_eq!(error, "CHARIOT_SIMD=avx1024: not a path (portable, avx2 or avx512)");
    assert!(simd::available().any(|p| p == simd::detect()));
    assert_eq!(simd::available().last(), Some(simd::Path::Portable));
}

/// King regions, as each side sees its own king: the back rank's queen wing, centre and king
/// wing, and the rest of the board; the second side's view is turned over, never mirrored.
#[test]
fn king_regions_follow_the_own_back_rank() {
    let chess = Layout::of::<crate::chess::Chess>();
    let regions: Vec<usize> = (0..8).map(|file| chess.king_region(file)).collect();
    assert_eq!(regions, [0, 0, 0, 1, 1, 2, 2, 2]);
    assert!((8..64).all(|sq| chess.king_region(sq) == 3));
    let map = InputMap::KingRegions;
    // g1 for white and g8 for black (castled short) are the same region; e8 is black's centre.
    assert_eq!(map.view(&chess, Side::First, 6), map.view(&chess, Side::Second, 62));
    assert_eq!(map.view(&chess, Side::Second, 60), 2);
    assert_eq!(map.view(&chess, Side::First, 2), 0);
    let xiangqi = Layout::of::<crate::xiangqi::Xiangqi>();
    let palace: Vec<usize> = (3..6).map(|file| xiangqi.king_region(file)).collect();
    assert_eq!(palace, [0, 1, 2]);
    assert_eq!(xiangqi.king_region(9 + 4), 3);
}
