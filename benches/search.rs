//! Search speed: one position of each game searched to a fixed depth from an empty table, with
//! the embedded networks, as `chariot bench` searches its positions (so its time follows the
//! nodes per second that decide the clock matches).

use chariot_engine::command::BenchLimit;
use chariot_engine::nnue::Networks;
use chariot_engine::session::Session;
use chariot_engine::tools::bench;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A middlegame of each game: the bench's own kind of position.
const POSITIONS: &[(&str, &str)] = &[
    ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("xiangqi", "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1"),
];

/// The depth searched: deep enough that the search's own work, not the setup, is measured.
const DEPTH: u32 = 8;

fn search(c: &mut Criterion) {
    let mut session = Session::new(bench::HASH_MB, 1, Networks::embedded()).expect("a session");
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, fen) in POSITIONS {
        let fens = [fen.to_string()];
        group.bench_function(format!("{name} depth {DEPTH}"), |b| {
            b.iter(|| {
                black_box(bench::run(&mut session, BenchLimit::Depth(DEPTH), Some(&fens), None))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
