//! Network evaluation speed: a depth-2 walk of every move (push, evaluate, pop) from a few
//! positions of each game, with the embedded network and with random ones of the same size
//! under each input map, as the search drives the accumulators.

use chariot_engine::chess::Chess;
use chariot_engine::game::{Game, MoveList};
use chariot_engine::nnue::accumulator::Accumulators;
use chariot_engine::nnue::network::{Activation, InputMap, Network};
use chariot_engine::xiangqi::Xiangqi;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;

const CHESS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

const XIANGQI: &[&str] = &[
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
];

/// Every line `depth` plies deep, evaluated at every node; returns the sum of the outputs.
fn walk<G: Game>(board: &mut G, acc: &mut Accumulators, depth: u32) -> i64 {
    let mut sum = i64::from(acc.evaluate(board.side_to_move()));
    if depth == 0 {
        return sum;
    }
    let mut list = MoveList::new();
    board.legal_moves(&mut list);
    for &m in list.iter() {
        acc.push(board, m);
        board.make(m);
        sum += walk(board, acc, depth - 1);
        board.unmake();
        acc.pop();
    }
    sum
}

fn game<G: Game>(c: &mut Criterion, fens: &[&str]) {
    let embedded = chariot_engine::nnue::embedded(G::VARIANT).expect("an embedded network");
    let random = |map| {
        let dims = (embedded.hidden, 1);
        Arc::new(Network::random_mapped(G::VARIANT, Activation::SCRelu, dims, map, 1))
    };
    let name = G::VARIANT.name();
    let nets = [("embedded", embedded.clone())]
        .into_iter()
        .chain(InputMap::ALL.into_iter().map(|map| (map.name(), random(map))));
    for (label, net) in nets {
        let mut boards: Vec<G> = fens.iter().map(|f| G::from_fen(f).expect("bench FEN")).collect();
        c.bench_function(&format!("{name} nnue walk 2 {label}"), |b| {
            b.iter(|| {
                let mut total = 0;
                for board in boards.iter_mut() {
                    let mut acc = Accumulators::new(net.clone(), board);
                    total += walk(board, &mut acc, 2);
                }
                black_box(total)
            })
        });
    }
}

fn nnue(c: &mut Criterion) {
    game::<Chess>(c, CHESS);
    game::<Xiangqi>(c, XIANGQI);
}

criterion_group!(benches, nnue);
criterion_main!(benches);
