//! `chariot datagen`: self-play games that become training data for the networks.
//!
//! Each game starts from the start position (or a line of an opening file) followed by a few
//! random legal plies, and is kept only when a short search finds the start not decided
//! already. Then both sides play with a fixed node budget per move: a search finishes the
//! iteration in which it passes the budget (with a hard cap for the rare runaway iteration),
//! so every move costs about the same and the scores are comparable. Games end by the rules
//! (mate, stalemate, repetition, the move limit, xiangqi's perpetual check and chase verdicts
//! as the rules judge gives them) or by adjudication: a large score held by both sides for a
//! few moves, a near-zero score held for long late in the game, or a length cap.
//!
//! Every position is kept with its search score and the game's result ([`data`] format),
//! except positions in check, positions whose best move is a capture (or promotion), and
//! mate scores: the network learns quiet evaluations.
//!
//! Games are numbered; game `i` is played from a random stream seeded by the seed and `i`
//! alone, and the games are written in their numbers' order whatever the number of threads.
//! So one seed gives the same file byte for byte on any machine with any `--threads`.
//!
//! [`data`]: crate::nnue::data

use crate::chess::Chess;
use crate::command::Limits;
use crate::game::{Game, Inspect, MATE_BOUND, Move, MoveList, Side, Variant};
use crate::nnue::data::{Outcome, RECORD_BYTES, Record};
use crate::nnue::{Networked, Networks};
use crate::session::{self, Job, Session};
use crate::xiangqi::Xiangqi;
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::{Duration, Instant};

/// The default node budget per move.
pub const DEFAULT_NODES: u64 = 5000;
/// The default number of random plies after the opening.
pub const DEFAULT_RANDOM_PLIES: u32 = 8;
/// The hard cap on a move's search, in multiples of the node budget.
const HARD_NODE_FACTOR: u64 = 8;
/// The hash table of each game thread, in megabytes (cleared for every game).
const HASH_MB: usize = 16;
/// A start is played only when a search of it scores within this many pawns (chess) or
/// horses' quarter (xiangqi): [`START_MAX_CP`] protocol units.
const START_MAX_CP: i32 = 150;
/// How often a start is redrawn before the game is played anyway from the start position.
const START_TRIES: u32 = 20;
/// Win adjudication: a score beyond this many protocol units for the same side...
const WIN_CP: i32 = 1000;
/// ... on this many consecutive plies (both sides agreeing).
const WIN_PLIES: u32 = 6;
/// Draw adjudication: from this ply on, a score within this many protocol units...
const DRAW_PLY: u32 = 80;
const DRAW_CP: i32 = 10;
/// ... on this many consecutive plies.
const DRAW_PLIES: u32 = 12;
/// A game this long is drawn.
const MAX_GAME_PLIES: u32 = 400;
/// How often the progress line is refreshed.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// What to generate.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The game.
    pub variant: Variant,
    /// The file to append to.
    pub out: std::path::PathBuf,
    /// Stop after this many games...
    pub games: Option<u64>,
    /// ... or once this many positions are written.
    pub positions: Option<u64>,
    /// Game threads.
    pub threads: usize,
    /// Node budget per move.
    pub nodes: u64,
    /// Random plies played after the opening.
    pub random_plies: u32,
    /// The random stream's seed.
    pub seed: u64,
    /// Opening positions (FEN or EPD lines) to start from instead of the start position.
    pub openings: Vec<String>,
    /// Print the progress line.
    pub progress: bool,
    /// The networks the games are played with (the classic evaluation for the first
    /// generation of data).
    pub nets: Networks,
}

/// What was generated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games written.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Games won by white (red), drawn, won by black.
    pub results: [u64; 3],
}

/// A small, fast random stream (xorshift64*), seeded through splitmix64.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, stream: u64) -> Rng {
        let mut z = seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// Reads an opening file: one FEN or EPD per line (an EPD's four fields get `0 1`); blank
/// lines and `#` comments are skipped. Lines that are not positions of `variant` are errors.
pub fn read_openings(text: &str, variant: Variant) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else {
            format!("{} 0 1", fields[..fields.len().min(4)].join(" "))
        };
        let valid = match variant {
            Variant::Chess => Chess::from_fen(&fen).map(|_| ()),
            Variant::Xiangqi => Xiangqi::from_fen(&fen).map(|_| ()),
        };
        valid.map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(fen);
    }
    if out.is_empty() {
        return Err("no positions in the opening file".to_string());
    }
    Ok(out)
}

/// The searching side of a game thread: a session of one search thread, whose table and
/// history live across its games.
struct Player {
    session: Session,
    nodes: u64,
}

impl Player {
    /// Searches `board`, whose legal moves are `moves`, with the node budget: the score from
    /// the side to move's view and the best move, or `None` when there is no legal move.
    fn search<G: Inspect + Networked>(&mut self, board: &G, moves: &[Move]) -> Option<(i32, Move)> {
        if moves.is_empty() {
            return None;
        }
        let limits = Limits { nodes: Some(self.nodes * HARD_NODE_FACTOR), ..Default::default() };
        let job =
            Job { soft_nodes: Some(self.nodes), ..Job::new(board.clone(), moves.to_vec(), limits) };
        match self.session.run(job) {
            session::Outcome::Move { found: Some(f), .. } => f.mv.map(|m| (f.score, m)),
            _ => None,
        }
    }
}

/// How a game ended, from white's (red's) view, if it did; `list` is left holding the legal
/// moves.
fn verdict<G: Game>(board: &mut G, list: &mut MoveList) -> Option<Outcome> {
    let stm_wins = |stm: Side, won: bool| match (stm, won) {
        (Side::First, true) | (Side::Second, false) => Outcome::Win,
        _ => Outcome::Loss,
    };
    let stm = board.side_to_move();
    board.legal_moves(list);
    if list.is_empty() {
        let score = board.no_move_score(0);
        return Some(if score == 0 { Outcome::Draw } else { stm_wins(stm, score > 0) });
    }
    board.rule_score(0).map(|s| if s == 0 { Outcome::Draw } else { stm_wins(stm, s > 0) })
}

/// Plays game number `index`: its records, result set.
fn play_game<G: Inspect + Networked>(
    settings: &Settings,
    player: &mut Player,
    index: u64,
) -> Vec<Record> {
    let mut rng = Rng::new(settings.seed, index);
    player.session.clear();
    let unit = G::UNITS_PER_CP;
    let mut list = MoveList::new();

    // The start: an opening, random plies, and a search that finds it still open.
    let mut board = G::startpos();
    for _ in 0..START_TRIES {
        let mut b = match settings.openings.len() {
            0 => G::startpos(),
            n => match G::from_fen(&settings.openings[rng.below(n)]) {
                Ok(b) => b,
                Err(_) => G::startpos(),
            },
        };
        // Alternate the parity so that both sides get to move first in the kept positions.
        let plies = settings.random_plies + (index & 1) as u32;
        let mut alive = true;
        for _ in 0..plies {
            if verdict(&mut b, &mut list).is_some() {
                alive = false;
                break;
            }
            let m = list.as_slice()[rng.below(list.len())];
            b.make(m);
        }
        // The verdict leaves the legal moves of `b` in `list` for the search.
        if !alive || verdict(&mut b, &mut list).is_some() {
            continue;
        }
        match player.search(&b, list.as_slice()) {
            Some((score, _)) if score.abs() <= START_MAX_CP * unit => {
                board = b;
                break;
            }
            _ => {}
        }
    }

    let mut records = Vec::new();
    let mut ply = 0u32;
    let (mut win_run, mut loss_run, mut draw_run) = (0u32, 0u32, 0u32);
    let result = loop {
        if let Some(v) = verdict(&mut board, &mut list) {
            break v;
        }
        if ply >= MAX_GAME_PLIES {
            break Outcome::Draw;
        }
        let Some((score, best)) = player.search(&board, list.as_slice()) else {
            break Outcome::Draw;
        };
        let stm = board.side_to_move();
        let white = if stm == Side::First { score } else { -score };
        if white.abs() >= MATE_BOUND {
            break if white > 0 { Outcome::Win } else { Outcome::Loss };
        }
        win_run = if white >= WIN_CP * unit { win_run + 1 } else { 0 };
        loss_run = if white <= -WIN_CP * unit { loss_run + 1 } else { 0 };
        draw_run = if ply >= DRAW_PLY && white.abs() <= DRAW_CP * unit { draw_run + 1 } else { 0 };
        if win_run >= WIN_PLIES {
            break Outcome::Win;
        }
        if loss_run >= WIN_PLIES {
            break Outcome::Loss;
        }
        if draw_run >= DRAW_PLIES {
            break Outcome::Draw;
        }
        if !board.in_check()
            && !board.is_tactical(best)
            && let Ok(r) = Record::new(&board, score, Outcome::Draw, ply)
        {
            records.push(r);
        }
        board.make(best);
        ply += 1;
    };
    for r in &mut records {
        r.result = result;
    }
    records
}

/// Games finished out of order, waiting for the ones before them.
struct Shelf {
    next: u64,
    waiting: BTreeMap<u64, Vec<Record>>,
    summary: Summary,
    done: bool,
}

/// Cuts a partial record off the end of `file`: what a run stopped in the middle of a write
/// (killed, or out of time) leaves behind, which would shift every record appended after it.
fn drop_partial_record(file: &std::fs::File, path: &std::path::Path) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot repair '{}': {e}", path.display());
    let len = file.metadata().map_err(fail)?.len();
    let partial = len % RECORD_BYTES as u64;
    if partial != 0 {
        file.set_len(len - partial).map_err(fail)?;
        eprintln!(
            "datagen: dropped the last {partial} bytes of '{}', a partial record (an interrupted run)",
            path.display()
        );
    }
    Ok(())
}

/// Generates games into `settings.out` (appending) and returns what was written.
pub fn run(settings: &Settings) -> Result<Summary, String> {
    match settings.variant {
        Variant::Chess => run_game::<Chess>(settings),
        Variant::Xiangqi => run_game::<Xiangqi>(settings),
    }
}

fn run_game<G: Inspect + Networked>(settings: &Settings) -> Result<Summary, String> {
    if settings.games.is_none() && settings.positions.is_none() {
        return Err("give --games or --positions".to_string());
    }
    let path = &settings.out;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open '{}': {e}", path.display()))?;
    drop_partial_record(&file, path)?;
    let file = Mutex::new(std::io::BufWriter::new(file));
    let shelf = Mutex::new(Shelf {
        next: 0,
        waiting: BTreeMap::new(),
        summary: Summary::default(),
        done: false,
    });
    let next_game = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let start = Instant::now();
    let threads = settings.threads.max(1);

    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let session = match Session::new(HASH_MB, 1, settings.nets.clone()) {
                    Ok(session) => session,
                    Err(e) => {
                        *failure.lock() = Some(format!("cannot start a search thread: {e}"));
                        stop.store(true, Relaxed);
                        return;
                    }
                };
                let mut player = Player { session, nodes: settings.nodes };
                loop {
                    if stop.load(Relaxed) {
                        break;
                    }
                    let index = next_game.fetch_add(1, Relaxed);
                    if settings.games.is_some_and(|g| index >= g) {
                        break;
                    }
                    let records = play_game::<G>(settings, &mut player, index);
                    let mut shelf = shelf.lock();
                    shelf.waiting.insert(index, records);
                    // Write every game whose predecessors are all written.
                    while !shelf.done {
                        let n = shelf.next;
                        let Some(records) = shelf.waiting.remove(&n) else { break };
                        let mut bytes = Vec::with_capacity(records.len() * 40);
                        for r in &records {
                            bytes.extend_from_slice(&r.to_bytes());
                        }
                        if let Err(e) = file.lock().write_all(&bytes) {
                            *failure.lock() =
                                Some(format!("cannot write '{}': {e}", path.display()));
                            shelf.done = true;
                            stop.store(true, Relaxed);
                            break;
                        }
                        let s = &mut shelf.summary;
                        s.games += 1;
                        s.positions += records.len() as u64;
                        if let Some(r) = records.first() {
                            let slot = match r.result {
                                Outcome::Win => 0,
                                Outcome::Draw => 1,
                                Outcome::Loss => 2,
                            };
                            s.results[slot] += 1;
                        }
                        shelf.next += 1;
                        let full = settings.positions.is_some_and(|p| shelf.summary.positions >= p)
                            || settings.games.is_some_and(|g| shelf.next >= g);
                        if full {
                            shelf.done = true;
                            stop.store(true, Relaxed);
                        }
                    }
                }
            });
        }
        if settings.progress {
            let mut last = Instant::now();
            while !stop.load(Relaxed) && !scope_finished(&next_game, settings) {
                std::thread::sleep(Duration::from_millis(100));
                if last.elapsed() >= PROGRESS_EVERY {
                    last = Instant::now();
                    let s = shelf.lock().summary.clone();
                    eprint!("\r{}", progress_line(&s, start.elapsed()));
                }
            }
        }
    });
    if let Err(e) = file.lock().flush() {
        return Err(format!("cannot write '{}': {e}", path.display()));
    }
    if let Some(e) = failure.lock().take() {
        return Err(e);
    }
    let summary = shelf.lock().summary.clone();
    if settings.progress {
        eprintln!("\r{}", progress_line(&summary, start.elapsed()));
    }
    Ok(summary)
}

/// True when every game has been handed out (the threads are finishing their last ones).
fn scope_finished(next_game: &AtomicU64, settings: &Settings) -> bool {
    settings.games.is_some_and(|g| next_game.load(Relaxed) >= g)
}

/// `positions, positions/s, games, results`.
fn progress_line(s: &Summary, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let games = s.games.max(1) as f64;
    format!(
        "datagen: {} positions, {:.0} positions/s, {} games (white {:.0}%, draw {:.0}%, black {:.0}%), {:.0} s",
        s.positions,
        s.positions as f64 / secs,
        s.games,
        100.0 * s.results[0] as f64 / games,
        100.0 * s.results[1] as f64 / games,
        100.0 * s.results[2] as f64 / games,
        secs
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data::RECORD_BYTES;

    fn settings(variant: Variant, out: std::path::PathBuf, threads: usize) -> Settings {
        Settings {
            variant,
            out,
            games: Some(4),
            positions: None,
            threads,
            nodes: 400,
            random_plies: 6,
            seed: 7,
            openings: Vec::new(),
            progress: false,
            nets: Networks::embedded(),
        }
    }

    fn records(path: &std::path::Path) -> Vec<Record> {
        let bytes = std::fs::read(path).expect("written");
        assert_eq!(bytes.len() % RECORD_BYTES, 0);
        bytes
            .chunks_exact(RECORD_BYTES)
            .map(|c| {
                let mut b = [0u8; RECORD_BYTES];
                b.copy_from_slice(c);
                Record::from_bytes(&b).expect("valid record")
            })
            .collect()
    }

    /// The same seed gives the same file with one thread or two; positions are quiet and
    /// carry their game's result.
    #[test]
    fn datagen_is_deterministic_and_keeps_quiet_positions() {
        let dir = std::env::temp_dir().join(format!("chariot-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        for variant in [Variant::Chess, Variant::Xiangqi] {
            let one = dir.join(format!("{}-1.data", variant.name()));
            let two = dir.join(format!("{}-2.data", variant.name()));
            let _ = std::fs::remove_file(&one);
            let _ = std::fs::remove_file(&two);
            let a = run(&settings(variant, one.clone(), 1)).expect("runs");
            let b = run(&settings(variant, two.clone(), 2)).expect("runs");
            assert_eq!(a, b);
            assert_eq!(a.games, 4);
            assert!(a.positions > 20, "{a:?}");
            assert_eq!(std::fs::read(&one).ok(), std::fs::read(&two).ok());
            let recs = records(&one);
            assert_eq!(recs.len() as u64, a.positions);
            assert!(
                recs.iter().all(|r| r.variant == variant && i32::from(r.score).abs() < MATE_BOUND)
            );
            // Appending adds a game's worth without touching what is there.
            let before = std::fs::read(&one).expect("written");
            let more = Settings { games: Some(1), ..settings(variant, one.clone(), 1) };
            run(&more).expect("runs");
            let after = std::fs::read(&one).expect("written");
            assert!(after.len() > before.len() && after.starts_with(&before));
            // A run cut off in the middle of a record: the next one drops the partial record
            // and appends whole records after the whole ones.
            std::fs::write(&one, &after[..before.len() + 17]).expect("written");
            run(&more).expect("runs");
            let repaired = std::fs::read(&one).expect("written");
            assert!(repaired.starts_with(&before) && repaired.len() > before.len());
            assert_eq!(records(&one).len(), repaired.len() / RECORD_BYTES);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn opening_files_are_read_and_checked() {
        let text = "# comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"x\";\n";
        let fens = read_openings(text, Variant::Chess).expect("valid");
        assert_eq!(fens.len(), 2);
        assert!(fens[1].ends_with("w KQkq - 0 1"));
        assert!(read_openings("not a fen\n", Variant::Chess).is_err());
        assert!(read_openings("", Variant::Xiangqi).is_err());
    }
}
