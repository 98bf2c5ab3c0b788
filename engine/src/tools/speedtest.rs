//! `chariot speedtest`: the engine's speed as users run it, as Stockfish's `speedtest` measures
//! it. Positions from real games (Chariot's own self-play matches) of both games are searched
//! one after another with every thread and a large hash table, each for a time that a time
//! manager would give a move at that point of a game, and the totals are reported: nodes, nodes
//! per second, and how full the table got. Unlike `bench` (one thread, fixed depth, a
//! signature), the node count depends on the machine and the threads; the nps is the figure.

use crate::chess::Chess;
use crate::command::Limits;
use crate::game::Inspect;
use crate::nnue::Networked;
use crate::session::{Job, Session};
use crate::xiangqi::Xiangqi;
use std::time::Instant;

/// The default total time, seconds.
pub const DEFAULT_SECONDS: u64 = 60;
/// The default hash table size, MB.
pub const DEFAULT_HASH_MB: usize = 256;
/// A position's share of the time: as a time manager spends a clock, a move gets about
/// `1 / moves_left` of what is left, with `moves_left` falling from [`HORIZON_START`] by one
/// every two plies to no less than [`HORIZON_END`].
const HORIZON_START: u64 = 50;
const HORIZON_END: u64 = 20;

/// Chess positions from Chariot's self-play, from the opening to the endgame.
const CHESS_POSITIONS: &[&str] = &[
    "r1bqkb1r/p3n2p/1pnp1pp1/2p1p3/2P2P2/P1NP2PN/1P2P1BP/R1BQK2R w KQkq - 0 9",
    "r1bqr1k1/1pp2pb1/3p1npp/p2N4/2PpP1P1/3P3P/PP3PB1/R1BQ1RK1 w - - 0 13",
    "r2qrbk1/1pp2p2/5n1p/p2p1Npb/4P3/3P1P2/PPPQ2BP/R1B2RK1 w - - 0 17",
    "r5kr/1b2p1b1/p2pq1pp/1p6/1Q2p3/4B2P/PP2PPP1/K2R1B1R w - - 0 21",
    "r3q1k1/1p4b1/1n1p1p2/p2PpPp1/2p1Q1N1/P7/1P3PP1/R4RK1 w - - 0 25",
    "6k1/p6r/1p2b1p1/2p2p1p/2np1P1P/1P6/PB1P1PB1/1K2R3 w - - 0 30",
    "6R1/4k3/1p2p1pr/1bn1B3/5P2/4P3/5P1P/6K1 w - - 3 35",
    "8/8/p4k2/2pqp2P/6Q1/P7/3nB3/6K1 w - - 4 40",
    "5Bk1/6p1/pK4pp/1p6/1P3P1n/2P5/8/8 w - - 2 45",
    "8/2PkN3/4p3/5p1p/n4P1P/8/7K/8 b - - 1 52",
    "r3kbnr/1p3ppp/p1n1b3/2p1p3/4P3/1PN3P1/P1P2PBP/R1BK2NR w kq - 3 9",
    "r1b2rk1/pq1n1ppp/3b1n2/1Pp1p3/4P3/2N2N2/P1QBBPPP/R3K2R w KQ - 0 13",
    "r2qr1k1/3n1pb1/bp1p1np1/p2Pp2p/4PP2/2N1B1PP/PPQN2B1/R3R1K1 w - - 2 17",
    "1r2r1k1/1pp1nqp1/p2b1pb1/P2p3p/3P1P1P/1QP2B2/1P3NP1/R1B3KR w - - 1 21",
    "r1br2k1/1p4b1/3p1p2/p1p1p2p/P1P1PnqP/RP1PR3/3N1P2/2BQ1BK1 w - - 3 25",
    "r5k1/1p6/1n4p1/2p2b1p/p1P5/3N1B2/PP4PP/4R1K1 w - - 0 30",
    "3r2k1/1b1qr1b1/1p1p1p2/p1pPn1p1/P1P1PpPp/1PBN3P/3RQPB1/4R1K1 w - - 22 35",
    "4k3/8/2p1r3/p1P3p1/P4p1p/1q2pP1P/6P1/2R3QK w - - 0 40",
    "8/8/r2k2p1/P2p2P1/R2K3P/8/8/8 w - - 10 45",
    "3qr1kb/5p2/2pP1PnP/1pP5/pP2N1b1/P7/3Q2BR/3R2K1 b - - 0 52",
    "r1bq1rk1/p2nppbp/2p2np1/1p1p4/2PP4/5NP1/PP1NPPBP/R1BQR1K1 w - - 0 9",
    "r1bq1rk1/4np1p/2pb4/p1pp2p1/P2P2P1/2N1PB2/1PP4P/R1BQ1RK1 w - - 0 13",
    "r1b4r/pp2kp1p/3p4/2pP4/4P1pP/8/PP3PP1/2KR1B1R w - - 0 17",
    "r1bn1rk1/bpp1q3/p2p2p1/P2PpP1p/1PP5/4nBP1/1B1QNP1P/R4RK1 w - - 0 21",
    "r4rk1/pp1bb2p/3p2p1/1P1PPp2/3P1n2/1Q6/3N3P/4R1KR w - - 0 25",
    "4rr1k/1p1b4/1q1p1bp1/p2P1p1p/3P1BnP/PP1Q3N/6P1/R2R1BK1 w - - 13 30",
    "2r2rk1/7p/5ppb/2nPp2b/pB2n2P/P2qN3/2R5/Q3RNKB w - - 4 35",
    "5b1k/1p1r4/1R5p/2P2p2/2R1pP2/8/6PP/r5NK w - - 1 40",
    "3r4/4k3/p2p1ppp/1p2p3/1Pb1PP1P/P5P1/1R4B1/3R2K1 w - - 0 45",
    "8/8/p1p1k1K1/P1P5/1P4R1/8/7r/8 b - - 2 52",
];

/// Xiangqi positions from Chariot's self-play, from the opening to the endgame.
const XIANGQI_POSITIONS: &[&str] = &[
    "rnbak3r/4a4/1cc1b4/p1p1p3p/6C2/2P6/PC2P1P1n/2N1B3B/9/R2AKA1NR w - - 1 8",
    "2bakab1r/9/n3c1n2/pr6p/2p1p4/Pc1N2C2/4P1P1P/B3C4/9/R2AKABNR w - - 7 12",
    "2bakab2/9/2n1c4/p3p3C/9/2B3p2/P3P1n1P/R8/1r1N5/3AKABN1 w - - 1 16",
    "1rbakar2/9/1c2b4/p7p/3np4/2n5C/P1c5P/8N/3NA1C2/R3KABR1 w - - 0 20",
    "2baka3/5n2r/4b2c1/4p4/9/CR6p/P3P1P2/4nRN2/2rN5/3AKAB2 w - - 0 24",
    "2baka3/8r/4b4/p1p4Pp/9/2P5P/P1c6/3rB4/R3A4/2B1KA3 w - - 0 29",
    "3ak1b2/4a4/2R6/p7p/2N5r/4P1P2/P6c1/N8/c3A4/4KAB2 w - - 9 34",
    "3a2b2/3k1C3/4b3n/5R3/6r1p/4P4/3r4P/4B4/4A4/2BAKR3 w - - 3 39",
    "2b1k1n2/4a4/3ab4/3N1n1C1/6p2/2BC5/P8/4B4/4A4/c3K4 w - - 9 44",
    "1nbaka2r/r8/4b1nc1/p3p3p/9/2p2C3/P1c1P1P1P/1C7/4N4/R1BAKABNR w - - 0 8",
    "3rkabnr/4a4/1c2b3c/p3p4/2p3p1p/3CP4/P1Pn2P1P/2N1B4/4A2C1/1RB1KA1NR w - - 22 12",
    "r1baka2r/7R1/2n1b4/4p4/2p2np1p/9/1cP1P1P1P/p3C1N2/3NA4/2BRKAB2 w - - 8 16",
    "2baka3/9/r1n1b4/p3p3p/c1p6/C2nP4/c7P/1R2B1r1N/3N1C2R/3AKAB2 w - - 6 20",
    "3akabnr/9/1R7/p1P5p/7c1/6Cn1/P5R1P/2r6/4C4/2BAKABN1 w - - 2 24",
    "3ak4/4a4/4b3b/4n3p/p5p2/3N5/8P/4Br3/4N3c/R2AKAB2 w - - 0 29",
    "3ak1b2/9/4baN2/9/6n2/2B6/4P3P/9/4A4/3AK1B2 w - - 5 34",
    "3C1R3/4kc3/1n1Nb3N/2p1p4/9/2r5p/4c4/4B4/4A4/4KAB2 w - - 0 39",
    "3ak1b2/4a4/N3b1n2/2R6/p2r4p/9/P7P/4B4/9/2BAKA3 w - - 28 44",
    "4k4/9/1R7/4r4/P8/2Bn5/7p1/4B4/3CA4/4KA3 b - - 23 51",
    "3akab1r/3n5/c3b1n2/p1p1p1p1p/9/1r4P2/P1P1P3P/1CC1BAN2/3N3c1/R3KAB1R w - - 14 8",
    "2baka1nr/7c1/3cb4/C3p1p1p/9/2p3P2/P1P1N3P/9/1r2A4/RN1AK1B1R w - - 0 12",
    "2b1kar2/4an3/4c2cb/p3pn2p/9/6C2/P1p1P2CP/4B4/1r3N2R/RNBAKA3 w - - 0 16",
    "r1bakab2/9/2n5n/p1p3p2/3r5/4C1P2/P1c5P/2N6/9/R1B1KABNR w - - 2 20",
    "2b1ka2r/1C2a4/n3b4/3C3R1/9/R2p5/2rnP3P/4B3N/4A4/1c2KAB2 w - - 7 24",
    "3a1kb2/2N1a4/4b1n2/1R2p4/2pr5/8p/r3P4/4B4/9/3AKAB1R w - - 0 29",
    "2ba3R1/4ak3/n3b4/p1p6/8r/2P1P1P2/P4r3/4B4/2R4N1/2BAK4 w - - 15 34",
    "2b1ka3/4a4/9/1P1PN4/3R5/9/2r1c4/3A5/6p2/3AK1B2 w - - 10 39",
    "4kab2/4a4/4n4/6r2/p7p/4N4/2R6/9/4N4/3AKAB2 w - - 11 44",
];

/// What a speedtest measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Speed {
    /// Nodes searched, all threads.
    pub nodes: u64,
    /// Milliseconds spent searching.
    pub ms: u64,
    /// The table's fill (permille) at the end of each search, averaged.
    pub hashfull: u64,
    /// Positions searched.
    pub positions: usize,
}

/// The weight of a position `ply` plies into its game (see [`HORIZON_START`]).
fn weight(fen: &str) -> f64 {
    let moves_played = u64::from(crate::game::fen_ply(fen) / 2);
    1.0 / HORIZON_START.saturating_sub(moves_played).max(HORIZON_END) as f64
}

/// Searches `fens` of game `G` in `session`, each for its share of `total_ms`; `progress`
/// hears a line per position.
fn speed_game<G: Inspect + Networked>(
    fens: &[&str],
    total_ms: f64,
    session: &mut Session,
    progress: &mut dyn FnMut(&str),
) -> Speed {
    let sum: f64 = fens.iter().map(|f| weight(f)).sum();
    let mut speed = Speed::default();
    for (i, fen) in fens.iter().enumerate() {
        let Ok(board) = G::from_fen(fen) else {
            progress(&format!("speedtest position '{fen}' is not valid"));
            continue;
        };
        let movetime = ((total_ms * weight(fen) / sum) as u64).max(1);
        // Each position is from another game: a new game for the table and the histories.
        session.clear();
        let limits = Limits { movetime: Some(movetime), ..Default::default() };
        let budget = session.plan(G::VARIANT, &limits, 0, 0, false);
        let job = Job { budget, ..Job::quiet(board, limits) };
        if job.root.is_empty() {
            continue;
        }
        let start = Instant::now();
        let nodes = session.run(job).nodes();
        let ms = start.elapsed().as_millis() as u64;
        let hashfull = session.table().hashfull();
        speed.nodes += nodes;
        speed.ms += ms;
        speed.hashfull += u64::from(hashfull);
        speed.positions += 1;
        progress(&format!(
            "speedtest {} {}/{}: {nodes} nodes in {ms} ms, hashfull {hashfull}",
            G::VARIANT.name(),
            i + 1,
            fens.len(),
        ));
    }
    speed
}

/// Why there is no session for the speedtest.
#[derive(Debug, thiserror::Error)]
pub enum SpeedtestError {
    /// The search threads could not be started.
    #[error("cannot start the search threads: {0}")]
    Threads(std::io::Error),
    /// The table does not fit in memory.
    #[error("cannot allocate a {0} MB hash table")]
    Hash(usize),
}

/// A session for the speedtest: `threads` search threads and `hash_mb` of table, with the
/// networks and search parameters of `like`; or why there cannot be one.
pub fn session(like: &Session, threads: usize, hash_mb: usize) -> Result<Session, SpeedtestError> {
    let mut session = like.fresh(1, threads).map_err(SpeedtestError::Threads)?;
    session.table_mut().resize(hash_mb).map_err(|_| SpeedtestError::Hash(hash_mb))?;
    Ok(session)
}

/// Runs the speedtest in `session` for about `seconds` in all, half for each game; `progress`
/// hears a line per position. Returns the totals and their text (what `chariot speedtest`
/// prints).
pub fn run(session: &mut Session, seconds: u64, progress: &mut dyn FnMut(&str)) -> (Speed, String) {
    let hash_mb = session.table().megabytes();
    let half = seconds as f64 * 1000.0 / 2.0;
    let chess = speed_game::<Chess>(CHESS_POSITIONS, half, session, progress);
    let xiangqi = speed_game::<Xiangqi>(XIANGQI_POSITIONS, half, session, progress);
    let mut total = Speed::default();
    let mut lines = Vec::new();
    for (name, s) in [("chess", &chess), ("xiangqi", &xiangqi)] {
        lines.push(format!(
            "{name}: {} positions, {} nodes, {} ms, {} nps, hashfull {}",
            s.positions,
            s.nodes,
            s.ms,
            s.nodes * 1000 / s.ms.max(1),
            s.hashfull / s.positions.max(1) as u64
        ));
        total.nodes += s.nodes;
        total.ms += s.ms;
        total.hashfull += s.hashfull;
        total.positions += s.positions;
    }
    lines.push(format!(
        "total: {} threads, {hash_mb} MB, {} nodes, {} ms, {} nps",
        session.threads(),
        total.nodes,
        total.ms,
        total.nodes * 1000 / total.ms.max(1)
    ));
    (total, lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::nnue::Networks;

    #[test]
    fn every_position_is_valid_and_playable() {
        for fen in CHESS_POSITIONS {
            let b = Chess::from_fen(fen).expect(fen);
            assert!(!Job::quiet(b, Limits::default()).root.is_empty(), "{fen}");
        }
        for fen in XIANGQI_POSITIONS {
            let b = Xiangqi::from_fen(fen).expect(fen);
            assert!(!Job::quiet(b, Limits::default()).root.is_empty(), "{fen}");
        }
    }

    #[test]
    fn later_positions_get_more_time_each() {
        let opening = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let middle = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 30";
        assert!(weight(middle) > weight(opening));
    }

    #[test]
    fn a_short_speedtest_searches_every_position() {
        let like = Session::new(1, 1, Networks::classic()).expect("a session");
        let mut session = super::session(&like, 1, 1).expect("a session");
        let (speed, text) = run(&mut session, 2, &mut |_| {});
        assert!(text.lines().last().is_some_and(|l| l.starts_with("total: 1 threads")), "{text}");
        assert_eq!(speed.positions, CHESS_POSITIONS.len() + XIANGQI_POSITIONS.len());
        assert!(speed.nodes > 0 && speed.ms > 0);
    }
}
