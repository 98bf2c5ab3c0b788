//! `chariot datagen`: self-play games that become training data for the networks.
//!
//! Each game starts from the start position (or a line of an opening file; in chess, for a
//! share of the games, a random double-Fischer-random start: each side its own Chess960 back
//! rank) followed by a few random legal plies, and is played only when a verification search
//! to a fixed depth finds the start not decided already (as Viridithas and Stormphrax check
//! theirs: depth 10, within ±1000 cp). Then both sides play with a fixed node budget per
//! move: a search finishes the iteration in which it passes the budget (with a hard cap for
//! the rare runaway iteration), so every move costs about the same and the scores are
//! comparable. Games end by the rules (mate, stalemate, repetition, the move limit, xiangqi's
//! perpetual check and chase verdicts as the rules judge gives them) or by adjudication: a
//! large score held by both sides for a few moves, a near-zero score held for long late in the
//! game, or a length cap.
//!
//! Every position is kept with its search score and the game's result, except positions in
//! check, positions whose best move is a capture (or promotion), and mate scores: the network
//! learns quiet evaluations. The file holds 40-byte records of the kept positions ([`data`]),
//! or, for a `.games` file or `--format games`, the whole games with every move's score and
//! that choice marked ([`games`], about 6 bytes a training position): the same training
//! positions either way ([`sink`]).
//!
//! Games are numbered; game `i` is played from a random stream seeded by the seed and `i`
//! alone, and the games are written in their numbers' order whatever the number of threads.
//! So one seed gives the same file byte for byte on any machine with any `--threads`.
//!
//! [`genfens`] makes the same starts for OpenBench's datagen protocol (`genfens N seed S book
//! X`): line `i` is the start game `i` of a datagen run with that seed would be played from.
//!
//! [`data`]: crate::nnue::data
//! [`games`]: crate::nnue::games

use crate::chess::Chess;
use crate::command::{Genfens, Limits};
use crate::game::{Game, Inspect, MATE_BOUND, Move, MoveList, Side, Variant};
use crate::nnue::data::{GameResult, Record};
use crate::nnue::games::{GameRecord, MoveCode};
use crate::nnue::{Networked, Networks};
use crate::rng::Stream;
use crate::session::{self, Job, Session};
use crate::xiangqi::Xiangqi;
use parking_lot::Mutex;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::{Duration, Instant};

mod error;
mod sink;
pub use error::{DatagenError, OpeningsError};
pub use sink::Format;
use sink::Played;

/// The default node budget per move.
pub const DEFAULT_NODES: u64 = 5000;
/// The default number of random plies after the opening.
pub const DEFAULT_RANDOM_PLIES: u32 = 8;
/// The hard cap on a move's search, in multiples of the node budget.
const HARD_NODE_FACTOR: u64 = 8;
/// The hash table of each game thread, in megabytes (cleared for every game).
const HASH_MB: usize = 16;
/// The default depth of the search that verifies a start: Stormphrax's and Viridithas's 10.
pub const DEFAULT_VERIFY_DEPTH: Plies = Plies(10);
/// The default bound on the verification score: a start scoring beyond ±1000 cp (a rook and
/// more) is redrawn (Viridithas's bound; Stormphrax's was 1000 before it went to 500). Chess
/// centipawns; xiangqi UCCI units, as every score of the protocols.
pub const DEFAULT_VERIFY_MAX: ProtocolUnits = ProtocolUnits(1000);
/// The hard node cap of a verification search, in multiples of the node budget of a move:
/// 500 000 nodes at the default budget, Stormphrax's cap. A depth-10 search of an opening
/// takes some 20-25 thousand nodes; the cap only stops the rare explosion.
const VERIFY_NODE_FACTOR: u64 = 100;
/// The default share of chess games started from a random double-Fischer-random position.
/// Viridithas gained +6 (STC) and +7 (LTC) in standard chess with its first DFRC data mixed
/// into a mostly standard set, and lost 5 when it added 250M more DFRC positions to its 963M:
/// a small share helps standard chess, a large one costs it.
pub const DEFAULT_DFRC_SHARE: f64 = 0.1;
/// The number of Chess960 back ranks.
const CHESS960_RANKS: usize = 960;
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

/// A search depth, in plies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Plies(pub u32);

/// A score in the protocols' units: centipawns in chess, UCCI units (a horse is 100) in
/// xiangqi.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ProtocolUnits(pub i32);

impl std::fmt::Display for Plies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for Plies {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(Plies)
    }
}

impl std::fmt::Display for ProtocolUnits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for ProtocolUnits {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(ProtocolUnits)
    }
}

/// How the games' starts are made and verified (by datagen and by [`genfens`] alike).
#[derive(Clone, Debug)]
pub struct Starts {
    /// Random plies played after the opening (one more in every other game).
    pub random_plies: u32,
    /// Opening positions (FEN or EPD lines) to start from instead of the start position.
    pub openings: Vec<String>,
    /// The share of chess games (0 to 1) that start from a random double-Fischer-random
    /// position instead; xiangqi ignores it.
    pub dfrc_share: f64,
    /// The depth of the verification search of a start.
    pub verify_depth: Plies,
    /// A start whose verification score is beyond this, either way, is redrawn.
    pub verify_max: ProtocolUnits,
}

impl Default for Starts {
    fn default() -> Self {
        Starts {
            random_plies: DEFAULT_RANDOM_PLIES,
            openings: Vec::new(),
            dfrc_share: DEFAULT_DFRC_SHARE,
            verify_depth: DEFAULT_VERIFY_DEPTH,
            verify_max: DEFAULT_VERIFY_MAX,
        }
    }
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The game.
    pub variant: Variant,
    /// The file to append to.
    pub out: std::path::PathBuf,
    /// What the file holds: records or games.
    pub format: Format,
    /// Stop after this many games...
    pub games: Option<u64>,
    /// ... or once this many positions are written.
    pub positions: Option<u64>,
    /// Game threads.
    pub threads: usize,
    /// Node budget per move.
    pub nodes: u64,
    /// How the starts are made.
    pub starts: Starts,
    /// The random stream's seed.
    pub seed: u64,
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
    /// Bytes cut off the file's end before appending: what an interrupted run left
    /// half-written ([`Format::partial`]).
    pub cut: u64,
}

impl Summary {
    /// The progress line: `positions, positions/s, games, results, seconds`.
    pub fn line(&self, elapsed: Duration) -> String {
        let secs = elapsed.as_secs_f64().max(1e-3);
        let games = self.games.max(1) as f64;
        format!(
            "datagen: {} positions, {:.0} positions/s, {} games (white {:.0}%, draw {:.0}%, black {:.0}%), {:.0} s",
            self.positions,
            self.positions as f64 / secs,
            self.games,
            100.0 * self.results[0] as f64 / games,
            100.0 * self.results[1] as f64 / games,
            100.0 * self.results[2] as f64 / games,
            secs
        )
    }
}

/// The back rank of Chess960 start number `n` (0-959, Scharnagl's numbering: 518 is the
/// standard `RNBQKBNR`), as uppercase piece letters from the a-file to the h-file.
pub fn chess960_rank(n: usize) -> [u8; 8] {
    let mut rank = [0u8; 8];
    let n = n % CHESS960_RANKS;
    // The bishops first, each on its colour: the light-squared one on b, d, f or h, the
    // dark-squared one on a, c, e or g.
    rank[2 * (n % 4) + 1] = b'B';
    rank[2 * (n / 4 % 4)] = b'B';
    // Then the queen, the knights and R K R on the squares left, in that order of choice.
    let place = |rank: &mut [u8; 8], nth: usize, piece: u8| {
        if let Some(sq) = (0..8).filter(|&s| rank[s] == 0).nth(nth) {
            rank[sq] = piece;
        }
    };
    place(&mut rank, n / 16 % 6, b'Q');
    // The ten ways to put two knights on five squares, as the numbering orders them.
    const KNIGHTS: [(usize, usize); 10] =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (first, second) = KNIGHTS[n / 96];
    // The second knight's index counts the squares left once the first is placed.
    place(&mut rank, first, b'N');
    place(&mut rank, second - 1, b'N');
    for piece in [b'R', b'K', b'R'] {
        place(&mut rank, 0, piece);
    }
    rank
}

/// The FEN of a double-Fischer-random start: white's back rank is Chess960 start `white`,
/// black's is `black`, chosen independently (so black's need not mirror white's). Castling
/// rights are given as rook files (Shredder-FEN), which the chess reader takes as Chess960.
pub fn dfrc_fen(white: usize, black: usize) -> String {
    let (w, b) = (chess960_rank(white), chess960_rank(black));
    let rooks = |rank: &[u8; 8], upper: bool| -> String {
        // The king-side rook first, as `HAha` orders them.
        (0..8)
            .rev()
            .filter(|&f| rank[f] == b'R')
            .map(|f| {
                let file = (b'a' + f as u8) as char;
                if upper { file.to_ascii_uppercase() } else { file }
            })
            .collect()
    };
    let white_rank: String = w.iter().map(|&c| c as char).collect();
    let black_rank: String = b.iter().map(|&c| (c as char).to_ascii_lowercase()).collect();
    format!(
        "{black_rank}/pppppppp/8/8/8/8/PPPPPPPP/{white_rank} w {}{} - 0 1",
        rooks(&w, true),
        rooks(&b, false)
    )
}

/// Reads an opening file: one FEN or EPD per line (an EPD's four fields get `0 1`); blank
/// lines and `#` comments are skipped. Lines that are not positions of `variant` are errors.
pub fn read_openings(text: &str, variant: Variant) -> Result<Vec<String>, OpeningsError> {
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
        valid.map_err(|error| OpeningsError::Line { line: i + 1, error })?;
        out.push(fen);
    }
    if out.is_empty() {
        return Err(OpeningsError::Empty);
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
fn verdict<G: Game>(board: &mut G, list: &mut MoveList) -> Option<GameResult> {
    let stm_wins = |stm: Side, won: bool| match (stm, won) {
        (Side::First, true) | (Side::Second, false) => GameResult::Win,
        _ => GameResult::Loss,
    };
    let stm = board.side_to_move();
    board.legal_moves(list);
    if list.is_empty() {
        let score = board.no_move_score(0);
        return Some(if score == 0 { GameResult::Draw } else { stm_wins(stm, score > 0) });
    }
    board.rule_score(0).map(|s| if s == 0 { GameResult::Draw } else { stm_wins(stm, s > 0) })
}

impl Player {
    /// Verifies a start: searches `board`, whose legal moves are `moves`, to `depth` (the
    /// move's node budget plays no part; a hard cap stops a runaway) and returns the score from
    /// the side to move's view, or `None` when there is no legal move. Built as
    /// [`Player::search`] is: the two start their searches alike.
    fn verify<G: Inspect + Networked>(
        &mut self,
        board: &G,
        moves: &[Move],
        depth: Plies,
    ) -> Option<i32> {
        if moves.is_empty() {
            return None;
        }
        let depth = depth.0.clamp(1, Limits::MAX_DEPTH);
        let cap = self.nodes.saturating_mul(VERIFY_NODE_FACTOR);
        let limits = Limits { depth: Some(depth), nodes: Some(cap), ..Default::default() };
        match self.session.run(Job::new(board.clone(), moves.to_vec(), limits)) {
            session::Outcome::Move { found: Some(f), .. } => Some(f.score),
            _ => None,
        }
    }
}

/// Draws game `index`'s start from its random stream `rng`: an opening (in chess, for a share
/// of the games, a random double-Fischer-random start; else a line of the opening file, or the
/// start position), random plies, and a verification search that finds it still open. After
/// [`START_TRIES`] rejected draws the game starts from the start position.
fn draw_start<G: Inspect + Networked>(
    starts: &Starts,
    variant: Variant,
    player: &mut Player,
    rng: &mut Stream,
    index: u64,
) -> G {
    let mut list = MoveList::new();
    // The coin is drawn whatever the share, so that a game that does not start from DFRC
    // plays the same with any share.
    let coin = rng.unit();
    let dfrc = variant == Variant::Chess && coin < starts.dfrc_share;
    for _ in 0..START_TRIES {
        let opening = if dfrc {
            Some(dfrc_fen(rng.below(CHESS960_RANKS), rng.below(CHESS960_RANKS)))
        } else {
            match starts.openings.len() {
                0 => None,
                n => Some(starts.openings[rng.below(n)].clone()),
            }
        };
        let mut b = opening.and_then(|fen| G::from_fen(&fen).ok()).unwrap_or_else(G::startpos);
        // Alternate the parity so that both sides get to move first in the kept positions.
        let plies = starts.random_plies + (index & 1) as u32;
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
        let bound = starts.verify_max.0.saturating_mul(G::UNITS_PER_CP);
        if player
            .verify(&b, list.as_slice(), starts.verify_depth)
            .is_some_and(|score| score.abs() <= bound)
        {
            return b;
        }
    }
    G::startpos()
}

/// Plays game number `index`: its records and the game, result set.
fn play_game<G: Inspect + Networked + MoveCode>(
    settings: &Plan,
    player: &mut Player,
    index: u64,
) -> Played {
    let mut rng = Stream::new(settings.seed, index);
    player.session.clear();
    let unit = G::UNITS_PER_CP;
    let mut list = MoveList::new();
    let mut board: G = draw_start(&settings.starts, settings.variant, player, &mut rng, index);
    let mut game = GameRecord::new(&board);
    let mut records = Vec::new();
    let mut ply = 0u32;
    let (mut win_run, mut loss_run, mut draw_run) = (0u32, 0u32, 0u32);
    let result = loop {
        if let Some(v) = verdict(&mut board, &mut list) {
            break v;
        }
        if ply >= MAX_GAME_PLIES {
            break GameResult::Draw;
        }
        let Some((score, best)) = player.search(&board, list.as_slice()) else {
            break GameResult::Draw;
        };
        let stm = board.side_to_move();
        let white = if stm == Side::First { score } else { -score };
        if white.abs() >= MATE_BOUND {
            break if white > 0 { GameResult::Win } else { GameResult::Loss };
        }
        win_run = if white >= WIN_CP * unit { win_run + 1 } else { 0 };
        loss_run = if white <= -WIN_CP * unit { loss_run + 1 } else { 0 };
        draw_run = if ply >= DRAW_PLY && white.abs() <= DRAW_CP * unit { draw_run + 1 } else { 0 };
        if win_run >= WIN_PLIES {
            break GameResult::Win;
        }
        if loss_run >= WIN_PLIES {
            break GameResult::Loss;
        }
        if draw_run >= DRAW_PLIES {
            break GameResult::Draw;
        }
        // The filter of the training positions; the game records its choice with the move.
        let record = (!board.in_check() && !board.is_tactical(best))
            .then(|| Record::new(&board, score, GameResult::Draw, ply).ok())
            .flatten();
        game.push(&board, best, score, record.is_some());
        records.extend(record);
        board.make(best);
        ply += 1;
    };
    for r in &mut records {
        r.result = result;
    }
    game.result = result;
    Played { records, game }
}

/// Games finished out of order, waiting for the ones before them.
struct Pending {
    next: u64,
    waiting: BTreeMap<u64, Played>,
    summary: Summary,
    done: bool,
}

/// What a run reports as it goes: the games written so far and the time since it started.
pub type Progress<'a> = &'a mut dyn FnMut(&Summary, Duration);

/// Generates games into `settings.out` (appending) and returns what was written; `progress`,
/// if given, hears the running totals every few seconds.
pub fn run(settings: &Plan, progress: Option<Progress>) -> Result<Summary, DatagenError> {
    match settings.variant {
        Variant::Chess => run_game::<Chess>(settings, progress),
        Variant::Xiangqi => run_game::<Xiangqi>(settings, progress),
    }
}

fn run_game<G: Inspect + Networked + MoveCode>(
    settings: &Plan,
    progress: Option<Progress>,
) -> Result<Summary, DatagenError> {
    if settings.games.is_none() && settings.positions.is_none() {
        return Err(DatagenError::NoLimit);
    }
    check_share(settings.starts.dfrc_share)?;
    let path = &settings.out;
    let (file, cut) = settings.format.open(path)?;
    let file = Mutex::new(std::io::BufWriter::new(file));
    let shelf = Mutex::new(Pending {
        next: 0,
        waiting: BTreeMap::new(),
        summary: Summary { cut, ..Summary::default() },
        done: false,
    });
    let next_game = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let failure: Mutex<Option<DatagenError>> = Mutex::new(None);
    let start = Instant::now();
    let threads = settings.threads.max(1);

    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let session = match Session::new(HASH_MB, 1, settings.nets.clone()) {
                    Ok(session) => session,
                    Err(e) => {
                        *failure.lock() = Some(DatagenError::Threads(e));
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
                    let played = play_game::<G>(settings, &mut player, index);
                    let mut shelf = shelf.lock();
                    shelf.waiting.insert(index, played);
                    // Write every game whose predecessors are all written.
                    while !shelf.done {
                        let n = shelf.next;
                        let Some(played) = shelf.waiting.remove(&n) else { break };
                        let written = match settings.format.encode(&played) {
                            Ok(bytes) => file.lock().write_all(&bytes).map_err(|source| {
                                DatagenError::Write { path: path.clone(), source }
                            }),
                            Err(source) => {
                                Err(DatagenError::Unwritable { path: path.clone(), source })
                            }
                        };
                        if let Err(e) = written {
                            *failure.lock() = Some(e);
                            shelf.done = true;
                            stop.store(true, Relaxed);
                            break;
                        }
                        let s = &mut shelf.summary;
                        s.games += 1;
                        s.positions += played.records.len() as u64;
                        let slot = match played.game.result {
                            GameResult::Win => 0,
                            GameResult::Draw => 1,
                            GameResult::Loss => 2,
                        };
                        s.results[slot] += 1;
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
        if let Some(progress) = progress {
            let mut last = Instant::now();
            while !stop.load(Relaxed) && !scope_finished(&next_game, settings) {
                std::thread::sleep(Duration::from_millis(100));
                if last.elapsed() >= PROGRESS_EVERY {
                    last = Instant::now();
                    let s = shelf.lock().summary.clone();
                    progress(&s, start.elapsed());
                }
            }
        }
    });
    if let Err(source) = file.lock().flush() {
        return Err(DatagenError::Write { path: path.clone(), source });
    }
    if let Some(e) = failure.lock().take() {
        return Err(e);
    }
    let summary = shelf.lock().summary.clone();
    Ok(summary)
}

/// Checks that a DFRC share is a share: a number from 0 to 1.
pub fn check_share(share: f64) -> Result<(), DatagenError> {
    if (0.0..=1.0).contains(&share) { Ok(()) } else { Err(DatagenError::Share(share)) }
}

/// `genfens` (OpenBench's datagen protocol): `request.count` chess starts as FENs, searched
/// as the session `like` plays, made as
/// datagen makes its games' starts (random plies, verified by a depth-limited search) with its
/// default settings, from the lines of the book file if one is given (else the start
/// position), or all of them double-Fischer-random when `request.dfrc`. Start `i` comes from
/// the random stream of the seed and `i` alone: the same request gives the same lines.
///
/// The book is read before anything is made, so that an unreadable or invalid book fails
/// at once; then the starts are made one at a time as the iterator is advanced, so that a
/// caller can print each as soon as it is found (OpenBench gives up on an engine that is
/// silent for 15 seconds, and a few thousand verification searches take longer than that).
pub fn genfens(
    request: &Genfens,
    variant: Variant,
    like: &Session,
) -> Result<impl Iterator<Item = String> + use<>, DatagenError> {
    if variant != Variant::Chess {
        return Err(DatagenError::NotChess(variant.name()));
    }
    let openings = match &request.book {
        None => Vec::new(),
        Some(path) => {
            let name = crate::text::excerpt(path);
            let text = std::fs::read_to_string(path)
                .map_err(|source| DatagenError::BookUnreadable { name: name.clone(), source })?;
            read_openings(&text, Variant::Chess)
                .map_err(|source| DatagenError::Book { name, source })?
        }
    };
    let starts =
        Starts { openings, dfrc_share: if request.dfrc { 1.0 } else { 0.0 }, ..Starts::default() };
    // A search thread of its own that plays as `like` does (its networks and parameters).
    let session = like.fresh(HASH_MB, 1).map_err(DatagenError::Threads)?;
    let mut player = Player { session, nodes: DEFAULT_NODES };
    let seed = request.seed;
    Ok((0..request.count).map(move |index| {
        // Each start from a clean table, as each datagen game: start `i` depends on `i` alone.
        player.session.clear();
        let mut rng = Stream::new(seed, index);
        let board: Chess = draw_start(&starts, Variant::Chess, &mut player, &mut rng, index);
        board.fen()
    }))
}

/// True when every game has been handed out (the threads are finishing their last ones).
fn scope_finished(next_game: &AtomicU64, settings: &Plan) -> bool {
    settings.games.is_some_and(|g| next_game.load(Relaxed) >= g)
}

#[cfg(test)]
mod tests;
