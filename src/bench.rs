//! `chariot bench`: the search's signature, and `chariot perft` from the command line.
//!
//! Bench searches a fixed set of positions of each game to a fixed depth on one thread with a
//! fresh hash table, and prints the total node count. The count changes only when the search
//! or evaluation changes, so it is quoted in commits as `Bench: <nodes>`.

use crate::chess::Chess;
use crate::command::Limits;
use crate::game::{Game, Inspect};
use crate::report::{Discard, View};
use crate::search::pool::{self, Pool, Search};
use crate::search::signals::Signals;
use crate::search::time::Budget;
use crate::search::tt::Table;
use crate::xiangqi::Xiangqi;
use std::sync::Arc;
use std::time::Instant;

/// From this depth on, `chariot perft` works root move by root move and reports progress.
const PROGRESS_DEPTH: u32 = 6;

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

const CHESS_POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bqkbnr/pppn1pp1/3p3p/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "6k1/5pp1/4b2p/4q3/5Q1P/8/3r2PK/8 w - - 0 36",
];

const XIANGQI_POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "r1baka1nr/9/1cn1b2c1/p3p1p1p/2p6/2P6/P3P1P1P/1C4C2/9/RNBAKABNR w - - 6 4",
    "4k4/9/5an2/6P2/2p1p4/4N4/4P1P2/9/9/R3K4 w - - 0 1",
];

fn bench_game<G: Inspect>(fens: &[&str], depth: u32, pool: &Pool) -> u64 {
    let mut total = 0;
    for fen in fens {
        let board = match G::from_fen(fen) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("bench position '{fen}': {e}");
                continue;
            }
        };
        let (root, _) = pool::root_moves(&board, &[], &[]);
        if root.is_empty() {
            continue;
        }
        // Every position starts from nothing, so that the count does not depend on the order.
        pool.clear();
        let limits = Limits { depth: Some(depth), ..Default::default() };
        let search = Search {
            board,
            root,
            view: View::default(),
            tt: Arc::new(Table::new(16)),
            signals: Arc::new(Signals::new(&limits, Budget::default(), pool.len())),
            sink: Arc::new(Discard),
            skill: Default::default(),
        };
        let (tx, rx) = crossbeam_channel::bounded(1);
        pool.start(search, move |answer| {
            let _ = tx.send(answer.nodes);
        });
        total += rx.recv().unwrap_or(0);
    }
    total
}

/// Runs the bench and prints `<nodes> nodes <nps> nps`; the search's reports are dropped so
/// that the signature is the only thing on stdout.
pub fn run(depth: u32, threads: usize) -> u64 {
    let pool = match Pool::new(threads) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("chariot bench: cannot start the search threads: {e}");
            return 0;
        }
    };
    let start = Instant::now();
    let nodes = bench_game::<Chess>(CHESS_POSITIONS, depth, &pool)
        + bench_game::<Xiangqi>(XIANGQI_POSITIONS, depth, &pool);
    let ms = start.elapsed().as_millis().max(1) as u64;
    println!("{nodes} nodes {} nps", nodes * 1000 / ms);
    nodes
}

/// Runs perft from the command line: divide lines (optional), then nodes, time and speed.
pub fn perft<G: Game>(fen: Option<&str>, depth: u32, divide: bool) -> Result<u64, String> {
    let mut board = match fen {
        Some(f) => G::from_fen(f).map_err(|e| format!("invalid FEN: {e}"))?,
        None => G::startpos(),
    };
    let start = Instant::now();
    let nodes = if divide || depth >= PROGRESS_DEPTH {
        // Root move by root move, so that a long run can show its progress.
        let mut list = crate::game::MoveList::new();
        board.legal_moves(&mut list);
        let mut total = 0;
        for (i, &m) in list.iter().enumerate() {
            let text = board.move_text(m);
            board.make(m);
            let n = if depth <= 1 { 1 } else { board.perft(depth - 1) };
            board.unmake();
            total += n;
            if divide {
                println!("{text}: {n}");
            }
            if start.elapsed().as_secs() >= 1 {
                eprintln!("perft: {}/{} root moves, {total} nodes so far", i + 1, list.len());
            }
        }
        if divide {
            println!();
        }
        total
    } else {
        board.perft(depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    println!("Time: {:.3} s, {:.0} nodes/s", secs, nodes as f64 / secs.max(1e-9));
    Ok(nodes)
}
