//! `chariot bench`: the search's signature, and `chariot perft` from the command line.
//!
//! Bench searches a fixed set of positions of each game to a fixed depth on one thread with a
//! fresh hash table, and prints the total node count. The count changes only when the search
//! or evaluation changes, so it is quoted in commits as `Bench: <nodes>`.

use crate::chess::Chess;
use crate::command::Limits;
use crate::game::{Game, Inspect};
use crate::nnue::Networked;
use crate::search::tb::Tablebases;
use crate::session::{Job, Session};
use crate::xiangqi::Xiangqi;
use std::time::Instant;

/// From this depth on, `chariot perft` works root move by root move and reports progress.
const PROGRESS_DEPTH: u32 = 6;

/// The default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;
/// The bench's hash table, MB.
pub const HASH_MB: usize = 16;

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

/// What the bench searches each position for.
pub use crate::command::BenchLimit as Limit;

/// The limits of a `go` that searches as `limit` says.
fn limits(limit: Limit) -> Limits {
    match limit {
        Limit::Depth(d) => Limits { depth: Some(d), ..Default::default() },
        Limit::Nodes(n) => Limits { nodes: Some(n), ..Default::default() },
        Limit::Movetime(t) => Limits { movetime: Some(t), ..Default::default() },
    }
}

/// Searches each of `fens` that is a position of `G` in `session`, with `tablebases` if any;
/// the nodes.
fn bench_game<G: Inspect + Networked>(
    fens: &[&str],
    limit: Limit,
    tablebases: Option<Tablebases>,
    session: &mut Session,
) -> u64 {
    let mut total = 0;
    for fen in fens {
        let Ok(board) = G::from_fen(fen) else { continue };
        // Every position starts from nothing, so that the count does not depend on the order.
        session.clear();
        let limits = limits(limit);
        let budget = session.plan(G::VARIANT, &limits, board.side_to_move().index(), 0, false);
        let mut job = Job { budget, ..Job::quiet(board, limits) };
        job.config.tablebases = tablebases;
        if job.root.is_empty() {
            continue;
        }
        total += session.run(job).nodes();
    }
    total
}

/// A bench's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bench {
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds taken.
    pub ms: u64,
}

impl std::fmt::Display for Bench {
    /// `<nodes> nodes <nps> nps`: the line OpenBench reads.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} nodes {} nps", self.nodes, self.nodes * 1000 / self.ms.max(1))
    }
}

/// Runs the bench in `session`: every position of `fens` (chess or xiangqi by its shape; the
/// built-in positions when `None`) with `limit`, and with `tablebases` if any (a session's
/// `bench` after `SyzygyPath`: what probing costs; the signature has none). Reports are
/// dropped, so that the signature is all a caller prints.
pub fn run(
    session: &mut Session,
    limit: Limit,
    fens: Option<&[String]>,
    tablebases: Option<Tablebases>,
) -> Bench {
    let start = Instant::now();
    let nodes = match fens {
        None => {
            bench_game::<Chess>(CHESS_POSITIONS, limit, tablebases, session)
                + bench_game::<Xiangqi>(XIANGQI_POSITIONS, limit, tablebases, session)
        }
        Some(fens) => {
            let fens: Vec<&str> = fens.iter().map(String::as_str).collect();
            bench_game::<Chess>(&fens, limit, tablebases, session)
                + bench_game::<Xiangqi>(&fens, limit, tablebases, session)
        }
    };
    Bench { nodes, ms: start.elapsed().as_millis().max(1) as u64 }
}

/// The largest file of bench positions read.
const MAX_POSITIONS_BYTES: u64 = 1 << 20;

/// What is wrong with a file of bench positions.
#[derive(Debug, thiserror::Error)]
pub enum PositionsError {
    /// The file cannot be read.
    #[error("cannot read '{name}': {source}")]
    Unreadable {
        /// The file's name as given (shortened).
        name: String,
        /// Why.
        source: std::io::Error,
    },
    /// Not a regular file, or over [`MAX_POSITIONS_BYTES`].
    #[error("'{name}' is not a file of positions (at most 1 MB)")]
    NotAFile {
        /// The file's name as given (shortened).
        name: String,
    },
    /// A line that is a position of neither game.
    #[error("'{name}' line {line}: '{text}' is no chess or xiangqi position")]
    NotAPosition {
        /// The file's name as given (shortened).
        name: String,
        /// The line's number, from 1.
        line: usize,
        /// The line's text (shortened).
        text: String,
    },
    /// No line holds a position.
    #[error("'{name}' holds no position")]
    Empty {
        /// The file's name as given (shortened).
        name: String,
    },
}

/// The positions of a bench file: a FEN (or EPD: what follows a `;` is dropped) of either game
/// a line; blank lines and `#` comments are skipped. Every other line must be a position.
pub fn read_positions(path: &str) -> Result<Vec<String>, PositionsError> {
    let name = crate::text::excerpt(path);
    // Only a regular file of a sane size: a device or pipe named by mistake must not block.
    let meta = std::fs::metadata(path)
        .map_err(|source| PositionsError::Unreadable { name: name.clone(), source })?;
    if !meta.is_file() || meta.len() > MAX_POSITIONS_BYTES {
        return Err(PositionsError::NotAFile { name });
    }
    let text = std::fs::read_to_string(path)
        .map_err(|source| PositionsError::Unreadable { name: name.clone(), source })?;
    let mut fens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fen = line.split(';').next().unwrap_or("").trim();
        if fen.is_empty() || fen.starts_with('#') {
            continue;
        }
        if Chess::from_fen(fen).is_err() && Xiangqi::from_fen(fen).is_err() {
            let text = crate::text::excerpt(fen);
            return Err(PositionsError::NotAPosition { name, line: i + 1, text });
        }
        fens.push(fen.to_string());
    }
    if fens.is_empty() {
        return Err(PositionsError::Empty { name });
    }
    Ok(fens)
}

/// What a perft run tells as it goes, for the caller to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerftEvent {
    /// One root move's count (`--divide`), in the engine's notation.
    Divide {
        /// The root move.
        text: String,
        /// Leaf nodes below it.
        nodes: u64,
    },
    /// A long run's progress: root moves done of all, and the nodes counted so far.
    Progress {
        /// Root moves counted.
        done: usize,
        /// Root moves in all.
        of: usize,
        /// Leaf nodes so far.
        nodes: u64,
    },
}

/// A perft run's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Perft {
    /// Leaf nodes.
    pub nodes: u64,
    /// Seconds the count took.
    pub seconds: f64,
}

/// Why perft could not run.
#[derive(Debug, thiserror::Error)]
pub enum PerftError {
    /// The position given is not one of the game's.
    #[error("invalid FEN: {0}")]
    Fen(String),
}

/// Counts the leaf nodes `depth` plies below the position (the start position without a FEN),
/// telling `event` each root move's count with `divide` and a long run's progress each second
/// after the first.
pub fn perft<G: Game>(
    fen: Option<&str>,
    depth: u32,
    divide: bool,
    event: &mut dyn FnMut(PerftEvent),
) -> Result<Perft, PerftError> {
    let mut board = match fen {
        Some(f) => G::from_fen(f).map_err(|e| PerftError::Fen(e.to_string()))?,
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
                event(PerftEvent::Divide { text, nodes: n });
            }
            if start.elapsed().as_secs() >= 1 {
                event(PerftEvent::Progress { done: i + 1, of: list.len(), nodes: total });
            }
        }
        total
    } else {
        board.perft(depth)
    };
    Ok(Perft { nodes, seconds: start.elapsed().as_secs_f64() })
}
