//! Move generation speed: perft (bulk-counted) and bare legal move generation, both games.

use chariot_engine::chess::Chess;
use chariot_engine::game::{Game, MoveList};
use chariot_engine::xiangqi::Xiangqi;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

const CHESS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

const XIANGQI: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
];

fn boards<G: Game>(fens: &[&str]) -> Vec<G> {
    fens.iter().map(|f| G::from_fen(f).expect("bench FEN")).collect()
}

fn perft(c: &mut Criterion) {
    let mut chess = Chess::startpos();
    c.bench_function("chess perft 4 startpos", |b| b.iter(|| black_box(chess.perft(4))));
    let mut xq = Xiangqi::startpos();
    c.bench_function("xiangqi perft 3 startpos", |b| b.iter(|| black_box(xq.perft(3))));
}

fn movegen(c: &mut Criterion) {
    let chess = boards::<Chess>(CHESS);
    let xq = boards::<Xiangqi>(XIANGQI);
    let mut list = MoveList::new();
    c.bench_function("chess legal moves x4", |b| {
        b.iter(|| {
            for p in &chess {
                list.clear();
                p.legal_moves(&mut list);
                black_box(list.len());
            }
        })
    });
    c.bench_function("xiangqi legal moves x4", |b| {
        b.iter(|| {
            for p in &xq {
                list.clear();
                p.legal_moves(&mut list);
                black_box(list.len());
            }
        })
    });
}

criterion_group!(benches, perft, movegen);
criterion_main!(benches);
