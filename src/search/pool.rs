//! Runs a search on several threads (Lazy SMP) and produces the one answer to a `go`.
//!
//! Every thread searches the same root with its own board and history, sharing only the
//! transposition table; thread 0 keeps the clock, reports, and decides when all stop. The
//! [`Signals`] are the only way in from outside while the search runs: the controller sets
//! `stop` and `ponderhit` through them, and never waits for the search to notice.

use super::time::Budget;
use super::tt::{self, Table};
use super::{Worker, to_eval};
use crate::game::{Game, INFINITE, Inspect, MATE, MATE_BOUND, MAX_PLY, Move, MoveList};
use crate::protocol::output::Output;
use crate::protocol::{Bound, Limits, Protocol, Report};
use std::sync::Arc;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64};
use std::time::{Duration, Instant};

/// How often the main thread reports nodes and time while searching.
const PROGRESS_MS: u64 = 1000;
/// The main thread reports the move it is searching once the search is this old.
const CURRMOVE_AFTER_MS: u64 = 1000;
/// How often a finished search looks whether it may answer yet (pondering, infinite).
const WAIT_POLL: Duration = Duration::from_millis(1);

/// A node counter on its own cache line, so threads do not share lines while counting.
#[repr(align(64))]
#[derive(Default)]
struct Counter(AtomicU64);

/// The search's switchboard: flags set from outside, limits, and counters.
pub struct Signals {
    stop: AtomicBool,
    halted: AtomicBool,
    pondering: AtomicBool,
    infinite: bool,
    start: Instant,
    /// Milliseconds after `start` at which the clock began to run (at `ponderhit`).
    clock_start_ms: AtomicU64,
    budget: Budget,
    node_limit: Option<u64>,
    max_depth: i32,
    mate_limit: Option<u32>,
    nodes: Vec<Counter>,
    currmove: AtomicU32,
    currmove_number: AtomicU32,
    /// How much worse than zero a draw is for the side to move at the root (internal units).
    pub contempt: i32,
    /// Percent of the time to leave the processor idle (UCCI `idle`).
    pub idle: u32,
    draw_offer: AtomicBool,
    answered: AtomicBool,
}

impl Signals {
    /// Signals for a search with these limits.
    pub fn new(limits: &Limits, budget: Budget, threads: usize) -> Self {
        let max_depth = match (limits.depth, limits.mate) {
            (Some(d), _) => d.clamp(1, MAX_PLY as u32 - 1) as i32,
            (None, Some(m)) => (2 * m as i32 + 1).min(MAX_PLY as i32 - 1),
            _ => MAX_PLY as i32 - 1,
        };
        Signals {
            stop: AtomicBool::new(false),
            halted: AtomicBool::new(false),
            pondering: AtomicBool::new(limits.ponder),
            infinite: limits.infinite,
            start: Instant::now(),
            clock_start_ms: AtomicU64::new(0),
            budget,
            node_limit: limits.nodes,
            max_depth,
            mate_limit: limits.mate,
            nodes: (0..threads.max(1)).map(|_| Counter::default()).collect(),
            currmove: AtomicU32::new(0),
            currmove_number: AtomicU32::new(0),
            contempt: 0,
            idle: 0,
            draw_offer: AtomicBool::new(limits.draw_offer),
            answered: AtomicBool::new(false),
        }
    }

    /// Asks the search to stop and answer (`stop`, `quit`, end of input).
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// True once a stop was asked for from outside.
    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// Ends the search from inside (a limit was reached, or the main thread finished). Unlike
    /// [`Signals::stop`], this does not release an answer held back by pondering or `infinite`.
    fn halt(&self) {
        self.halted.store(true, Relaxed);
    }

    /// True when every thread should unwind.
    fn over(&self) -> bool {
        self.stopped() || self.halted.load(Relaxed)
    }

    /// The predicted move was played: the clock starts now, the search goes on.
    /// `draw_offer`: the opponent offers a draw with it (UCCI `ponderhit draw`).
    pub fn ponderhit(&self, draw_offer: bool) {
        if draw_offer {
            self.draw_offer.store(true, Relaxed);
        }
        self.clock_start_ms.store(self.elapsed_ms(), Relaxed);
        self.pondering.store(false, Relaxed);
    }

    /// Marks the search as answered: called just before its `bestmove` is written, so that a
    /// command the GUI sends in reply is never taken for this search.
    pub fn mark_answered(&self) {
        self.answered.store(true, Release);
    }

    /// True once the search has given (or is giving) its answer.
    pub fn answered(&self) -> bool {
        self.answered.load(Acquire)
    }

    /// True when the opponent offered a draw (`go draw`, `ponderhit draw`).
    pub fn draw_offered(&self) -> bool {
        self.draw_offer.load(Relaxed)
    }

    /// Sleeps after `busy_ms` of searching so that the idle share of the time is left free.
    pub(super) fn rest(&self, busy_ms: u64) {
        if self.idle > 0 && self.idle < 100 {
            let ms = busy_ms * self.idle as u64 / (100 - self.idle as u64);
            std::thread::sleep(Duration::from_millis(ms));
        }
    }

    /// True while pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Relaxed)
    }

    /// Milliseconds since the search began.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds on the clock: since `go`, or since `ponderhit` when pondering.
    fn clock_ms(&self) -> u64 {
        self.elapsed_ms().saturating_sub(self.clock_start_ms.load(Relaxed))
    }

    /// All threads' nodes.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Relaxed)).sum()
    }

    pub(super) fn publish_nodes(&self, id: usize, nodes: u64) {
        if let Some(c) = self.nodes.get(id) {
            c.0.store(nodes, Relaxed);
        }
    }

    /// True when thread `id` should look at the limits now (the node limit is exact).
    #[inline]
    pub(super) fn node_limited(&self, id: usize, nodes: u64) -> bool {
        id == 0 && self.node_limit.is_some_and(|limit| nodes >= limit)
    }

    /// Decides, on the main thread, whether the hard limits are reached; every thread obeys.
    pub(super) fn should_stop(&self, id: usize) -> bool {
        if id == 0 && !self.over() {
            let out_of_time =
                !self.pondering() && self.budget.hard.is_some_and(|h| self.clock_ms() >= h);
            let out_of_nodes = self.node_limit.is_some_and(|l| self.total_nodes() >= l);
            if out_of_time || out_of_nodes {
                self.halt();
            }
        }
        self.over()
    }

    pub(super) fn set_currmove(&self, m: Move, number: usize) {
        self.currmove.store(m.raw() as u32, Relaxed);
        self.currmove_number.store(number as u32, Relaxed);
    }

    /// After an iteration: true when thread `id` should not start another one.
    pub(super) fn iteration_done(&self, id: usize, depth: i32, score: i32) -> bool {
        if self.over() || depth >= self.max_depth {
            return true;
        }
        if id != 0 {
            return false;
        }
        // `go mate n`: a mate in at most n moves (2n - 1 plies) is what was asked for.
        if let Some(m) = self.mate_limit
            && score >= MATE_BOUND
            && MATE - score < 2 * m as i32
        {
            return true;
        }
        !self.pondering() && self.budget.soft.is_some_and(|s| self.clock_ms() >= s)
    }

    /// Blocks until the search may answer: UCI forbids a `bestmove` while pondering or in an
    /// infinite search before `stop` (or `ponderhit`).
    pub fn wait_until_answerable(&self) {
        while !self.stopped() && (self.pondering() || self.infinite) {
            std::thread::sleep(WAIT_POLL);
        }
    }
}

/// Sends reports to the GUI in the session's protocol.
#[derive(Clone)]
pub struct Reporter {
    /// The shared writer.
    pub out: Arc<Output>,
    /// The session's protocol.
    pub protocol: Protocol,
}

impl Reporter {
    /// Formats and writes one report.
    pub fn send(&self, report: &Report) {
        self.out.line(&self.protocol.format(report));
    }
}

/// What the GUI asked to see of the search (UCI options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// Lines to report (MultiPV).
    pub multipv: usize,
    /// Add `wdl` to scores.
    pub wdl: bool,
    /// Report the line being searched once a second.
    pub currline: bool,
    /// Report each root move's refutation after each iteration.
    pub refutations: bool,
    /// Add the principal variation in the game's traditional notation as a message.
    pub move_names: bool,
}

impl Default for View {
    fn default() -> Self {
        View { multipv: 1, wdl: false, currline: false, refutations: false, move_names: false }
    }
}

/// Win/draw/loss chances in permille for the side to move, from a logistic model of the score:
/// a score of [`WDL_EVEN`] is an even chance of winning, and [`WDL_SPREAD`] sets how fast the
/// chance moves with the score.
pub fn wdl(score: i32) -> [u32; 3] {
    if score >= MATE_BOUND {
        return [1000, 0, 0];
    }
    if score <= -MATE_BOUND {
        return [0, 0, 1000];
    }
    let logistic = |x: f64| 1.0 / (1.0 + (-x).exp());
    let s = score as f64;
    let win = (1000.0 * logistic((s - WDL_EVEN) / WDL_SPREAD)).round() as u32;
    let loss = (1000.0 * logistic((-s - WDL_EVEN) / WDL_SPREAD)).round() as u32;
    [win, 1000 - win - loss, loss]
}

/// The score (internal units) at which the WDL model gives an even chance to win.
const WDL_EVEN: f64 = 150.0;
/// The WDL model's spread (internal units).
const WDL_SPREAD: f64 = 50.0;

/// What a search answers.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// The move to play, if any.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The score of the last finished iteration.
    pub score: i32,
    /// The depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

/// Writes a line of moves in the game's notation, playing them on a copy of `board`.
pub fn line_text<G: Game>(board: &G, moves: &[Move]) -> Vec<String> {
    write_line(board, moves, G::move_text)
}

/// Names a line of moves in the game's tradition (xiangqi: Chinese notation).
pub fn line_names<G: Inspect>(board: &G, moves: &[Move]) -> Vec<String> {
    write_line(board, moves, G::move_name)
}

/// Writes each move of a line with `write`, in the position it is played from; stops at the
/// first move that is not legal there.
fn write_line<G: Game>(
    board: &G,
    moves: &[Move],
    write: impl Fn(&G, Move) -> String,
) -> Vec<String> {
    let mut b = board.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        if !b.is_legal(m) {
            break;
        }
        out.push(write(&b, m));
        b.make(m);
    }
    out
}

/// Searches `board` over `root_moves` (already filtered by `searchmoves`/`banmoves`, non-empty)
/// on `threads` threads, reporting each iteration; returns when the search is over. The caller
/// prints the `bestmove`, after [`Signals::wait_until_answerable`].
pub fn search<G: Inspect>(
    board: &G,
    root_moves: Vec<Move>,
    threads: usize,
    view: &View,
    tt: &Table,
    signals: &Signals,
    reporter: &Reporter,
) -> Answer {
    let last_progress = AtomicU64::new(0);
    let last_currmove = AtomicU32::new(0);
    let on_check = |current_line: &[Move]| {
        let now = signals.elapsed_ms();
        if now >= last_progress.load(Relaxed) + PROGRESS_MS {
            last_progress.store(now, Relaxed);
            reporter.send(&Report::Progress { nodes: signals.total_nodes(), time_ms: now });
            if view.currline {
                reporter.send(&Report::CurrLine { line: line_text(board, current_line) });
            }
        }
        let current = signals.currmove.load(Relaxed);
        if now >= CURRMOVE_AFTER_MS && current != last_currmove.load(Relaxed) {
            last_currmove.store(current, Relaxed);
            let m = Move::from_raw(current as u16);
            if board.is_legal(m) {
                reporter.send(&Report::CurrMove {
                    mv: board.move_text(m),
                    number: signals.currmove_number.load(Relaxed) as usize,
                });
            }
        }
    };

    let line = std::thread::scope(|scope| {
        for id in 1..threads.max(1) {
            let (board, moves) = (board.clone(), root_moves.clone());
            scope.spawn(move || {
                let mut w = Worker::new(board, moves, tt, signals, id);
                w.iterate(MAX_PLY as i32, |_, _, _, _| {});
            });
        }
        let mut main = Worker::new(board.clone(), root_moves, tt, signals, 0);
        main.set_on_check(&on_check);
        main.set_multipv(view.multipv);
        let line = main.iterate(signals.max_depth, |w, depth, lines, fail| {
            let time_ms = signals.elapsed_ms();
            let nodes = signals.total_nodes().max(w.nodes);
            let hashfull = tt.hashfull();
            let (range, bound) = match fail {
                Some(tt::Bound::Lower) => (lines..lines + 1, Bound::Lower),
                Some(_) => (lines..lines + 1, Bound::Upper),
                None => (0..lines, Bound::Exact),
            };
            for k in range {
                let rm = &w.root_moves[k];
                let score =
                    if fail.is_some() || rm.score > -INFINITE { rm.score } else { rm.prev_score };
                reporter.send(&Report::Iteration {
                    depth: depth as u32,
                    seldepth: w.seldepth.max(depth as usize) as u32,
                    multipv: k as u32 + 1,
                    score: to_eval::<G>(score),
                    wdl: view.wdl.then(|| wdl(score)),
                    bound,
                    nodes,
                    time_ms,
                    hashfull,
                    pv: line_text(board, &rm.pv),
                });
            }
            if view.move_names && fail.is_none() {
                let names = line_names(board, &w.root_moves[0].pv);
                reporter.send(&Report::Message(format!("pv {}", names.join(" "))));
            }
            if view.refutations && fail.is_none() {
                for rm in &w.root_moves {
                    let line = if rm.pv.len() > 1 || rm.reply.is_none() {
                        rm.pv.clone()
                    } else {
                        vec![rm.mv, rm.reply]
                    };
                    reporter.send(&Report::Refutation { line: line_text(board, &line) });
                }
            }
        });
        // Publish the main thread's final count before the helpers are told to stop.
        signals.publish_nodes(0, main.nodes);
        signals.halt();
        line
    });

    let best = line.pv.first().copied();
    let ponder =
        line.pv.get(1).copied().or_else(|| best.and_then(|m| ponder_from_tt(board, m, tt)));
    Answer {
        best,
        ponder,
        score: line.score,
        depth: line.depth.max(0) as u32,
        nodes: signals.total_nodes(),
    }
}

/// The hash move of the position after `best`, as the expected reply.
fn ponder_from_tt<G: Game>(board: &G, best: Move, tt: &Table) -> Option<Move> {
    let mut b = board.clone();
    b.make(best);
    let hit = tt.probe(b.key(), 0)?;
    b.is_legal(hit.mv).then_some(hit.mv)
}

/// The legal root moves, restricted to `only` when it is not empty and without `banned`.
/// Returns the moves and the texts of `only`/`banned` that are not legal here.
pub fn root_moves<G: Game>(
    board: &G,
    only: &[String],
    banned: &[String],
) -> (Vec<Move>, Vec<String>) {
    let mut list = MoveList::new();
    board.legal_moves(&mut list);
    let mut rejected = Vec::new();
    let mut parse = |texts: &[String]| -> Vec<Move> {
        texts
            .iter()
            .filter_map(|t| match board.parse_move(t) {
                Ok(m) => Some(m),
                Err(_) => {
                    rejected.push(t.clone());
                    None
                }
            })
            .collect()
    };
    let only = parse(only);
    let banned = parse(banned);
    // A `searchmoves` with no legal move in it restricts nothing (its bad moves are reported).
    list.retain(|m| (only.is_empty() || only.contains(&m)) && !banned.contains(&m));
    (list.as_slice().to_vec(), rejected)
}
