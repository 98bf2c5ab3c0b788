//! The search threads (Lazy SMP) and the one answer to a `go`.
//!
//! The [`Pool`]'s threads are started once and live until the pool is dropped or resized; a
//! `go` wakes them with a job each, and they park again after the answer. Each thread owns
//! its [`ThreadData`] (history tables, search stack), so what the search learned survives from
//! one move to the next until a new game clears it.
//!
//! Every thread searches the same root with its own board and history, sharing only the
//! transposition table; thread 0 keeps the clock, reports, decides when all stop, waits for the
//! helpers and hands the [`Answer`] on. The [`Signals`] are the only way in from outside while
//! the search runs.

use super::config::Config;
use super::signals::Signals;
use super::skill::Skill;
use super::tt::{self, Table};
use super::{Shared, ThreadData, Worker, to_eval};
use crate::game::{Evaluator, Game, Inspect, MATE_BOUND, MAX_PLY, Move, Score};
use crate::report::{Bound, Report, Sink, View};
use crate::rng::Stream;
use crossbeam_channel::Sender;
use parking_lot::{Condvar, Mutex};
use std::sync::Arc;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::Relaxed;
use std::thread::JoinHandle;

/// How often the main thread reports nodes and time while searching.
const PROGRESS_MS: u64 = 1000;
/// The main thread reports the move it is searching once the search is this old.
const CURRMOVE_AFTER_MS: u64 = 1000;
/// Stack size of a search thread: deep recursion with a move list per ply.
const STACK_BYTES: usize = 8 * 1024 * 1024;

/// Work for one search thread, given the thread's own data.
pub type Work = Box<dyn FnOnce(&mut ThreadData) + Send>;

/// One parked thread and the way to wake it.
struct Thread {
    jobs: Sender<Work>,
    handle: JoinHandle<()>,
}

/// The persistent search threads.
pub struct Pool {
    threads: Vec<Thread>,
}

impl Pool {
    /// A pool of `n` threads (at least one).
    pub fn new(n: usize) -> std::io::Result<Pool> {
        let mut pool = Pool { threads: Vec::new() };
        pool.resize(n)?;
        Ok(pool)
    }

    /// The number of threads.
    pub fn len(&self) -> usize {
        self.threads.len()
    }

    /// True when the pool has no thread (only after a failed start).
    pub fn is_empty(&self) -> bool {
        self.threads.is_empty()
    }

    /// Grows or shrinks the pool to `n` threads (at least one); only between searches. New
    /// threads start with empty tables. On error the threads started so far are kept.
    pub fn resize(&mut self, n: usize) -> std::io::Result<()> {
        let n = n.max(1);
        while self.threads.len() > n {
            if let Some(t) = self.threads.pop() {
                // Closing its channel ends the thread's loop once its queue is done.
                drop(t.jobs);
                let _ = t.handle.join();
            }
        }
        while self.threads.len() < n {
            let (jobs, inbox) = crossbeam_channel::unbounded::<Work>();
            let handle = std::thread::Builder::new()
                .name(format!("search-{}", self.threads.len()))
                .stack_size(STACK_BYTES)
                .spawn(move || {
                    let mut data = ThreadData::default();
                    for job in inbox {
                        job(&mut data);
                    }
                })?;
            self.threads.push(Thread { jobs, handle });
        }
        Ok(())
    }

    /// Queues `job` on thread `i`. Jobs on one thread run in the order they were queued.
    pub fn run_on(&self, i: usize, job: Work) {
        if let Some(t) = self.threads.get(i) {
            // A thread only goes away with the pool, so the send cannot fail.
            let _ = t.jobs.send(job);
        }
    }

    /// Clears every thread's tables (a new game). Queued, so it happens before any later job.
    pub fn clear(&self) {
        for i in 0..self.len() {
            self.run_on(i, Box::new(ThreadData::clear));
        }
    }

    /// Starts a search of `board` over `root` (non-empty) on every thread and returns at
    /// once. When the search is over and the helpers have stopped, thread 0 calls `finish`
    /// with the answer; the caller decides there when and how to answer.
    pub fn start<G: Inspect>(
        &self,
        search: Search<G>,
        finish: impl FnOnce(Answer) + Send + 'static,
    ) {
        let helpers = self.len().saturating_sub(1);
        let latch = Arc::new(Latch::new(helpers));
        for id in 1..=helpers {
            let (board, moves, net) =
                (search.board.clone(), search.root.clone(), search.net.clone());
            let (tt, signals, latch) = (search.tt.clone(), search.signals.clone(), latch.clone());
            let config = search.config;
            self.run_on(
                id,
                Box::new(move |data| {
                    {
                        let shared = Shared { tt: &tt, signals: &signals, config: &config };
                        let mut w = Worker::new(board, moves, shared, id, data, &net);
                        w.iterate(MAX_PLY as i32, |_, _, _, _| {});
                    }
                    // Let go of the shared table before saying so: the controller may resize
                    // it as soon as the answer is out.
                    drop((tt, signals));
                    latch.count_down();
                }),
            );
        }
        self.run_on(
            0,
            Box::new(move |data| {
                let answer = main_thread(&search, data);
                latch.wait();
                let nodes = search.signals.total_nodes();
                drop(search);
                finish(Answer { nodes, ..answer });
            }),
        );
    }
}

impl Drop for Pool {
    /// Closes every thread's channel and waits for the threads to finish their queues.
    fn drop(&mut self) {
        for t in self.threads.drain(..) {
            drop(t.jobs);
            let _ = t.handle.join();
        }
    }
}

/// Counts helper threads down to zero; thread 0 waits on it before answering.
struct Latch {
    left: Mutex<usize>,
    done: Condvar,
}

impl Latch {
    fn new(n: usize) -> Self {
        Latch { left: Mutex::new(n), done: Condvar::new() }
    }

    fn count_down(&self) {
        let mut left = self.left.lock();
        *left = left.saturating_sub(1);
        if *left == 0 {
            self.done.notify_all();
        }
    }

    fn wait(&self) {
        let mut left = self.left.lock();
        while *left > 0 {
            self.done.wait(&mut left);
        }
    }
}

/// Everything one search needs, shared with the threads that run it.
pub struct Search<G: Game> {
    /// The root position.
    pub board: G,
    /// The root moves to search (after `searchmoves` and `banmoves`); not empty.
    pub root: Vec<Move>,
    /// What to report.
    pub view: View,
    /// The shared table.
    pub tt: Arc<Table>,
    /// Limits and flags.
    pub signals: Arc<Signals>,
    /// Contempt, idle share, parameters and tablebases.
    pub config: Config,
    /// Where reports go.
    pub sink: Arc<dyn Sink>,
    /// How strongly to play.
    pub skill: Skill,
    /// What the evaluation reads (the game's network, or none).
    pub net: <G::Eval as Evaluator<G>>::Net,
    /// The tablebases' score of the root, when they hold it: reported in place of the
    /// search's scores, unless the search finds a mate.
    pub tb_score: Option<Score>,
}

/// The main thread's search: iterative deepening with reports; the helpers are halted when it
/// ends.
fn main_thread<G: Inspect>(s: &Search<G>, data: &mut ThreadData) -> Answer {
    let (board, signals, sink, view, tt) = (&s.board, &*s.signals, &*s.sink, &s.view, &*s.tt);
    let last_progress = AtomicU64::new(0);
    let last_currmove = AtomicU32::new(0);
    let on_check = |current_line: &[Move]| {
        let now = signals.elapsed_ms();
        if now >= last_progress.load(Relaxed) + PROGRESS_MS {
            last_progress.store(now, Relaxed);
            sink.send(&Report::Progress { nodes: signals.total_nodes(), time_ms: now });
            if view.currline {
                sink.send(&Report::CurrLine { line: line_text(board, current_line) });
            }
        }
        let current = signals.currmove.load(Relaxed);
        if now >= CURRMOVE_AFTER_MS && current != last_currmove.load(Relaxed) {
            last_currmove.store(current, Relaxed);
            let m = Move::from_raw(current as u16);
            if board.is_legal(m) {
                sink.send(&Report::CurrMove {
                    mv: board.move_text(m),
                    number: signals.currmove_number.load(Relaxed) as usize,
                });
            }
        }
    };
    // The tables know the root's value better than the search can show it.
    let reported = |score: Score| match s.tb_score {
        Some(tb) if score.abs() < MATE_BOUND => tb,
        _ => score,
    };
    let shared = Shared { tt, signals, config: &s.config };
    let mut main = Worker::new(board.clone(), s.root.clone(), shared, 0, data, &s.net);
    main.set_on_check(&on_check);
    // A weakened search looks at a few candidates to choose among.
    let weakened = !s.skill.is_full();
    main.set_multipv(if weakened { view.multipv.max(s.skill.candidates()) } else { view.multipv });
    // The first line as last shown: the answer must name the line the GUI saw.
    let mut shown: Vec<Move> = Vec::new();
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
            let score = reported(if fail.is_some() { rm.score } else { rm.latest_score() });
            if k == 0 {
                shown.clone_from(&rm.pv);
            }
            sink.send(&Report::Iteration {
                depth: depth as u32,
                seldepth: w.seldepth.max(depth as usize) as u32,
                multipv: k as u32 + 1,
                score: to_eval::<G>(score),
                wdl: view.wdl.then(|| wdl(score)),
                bound,
                nodes,
                time_ms,
                hashfull,
                tbhits: signals.tbhits(),
                pv: line_text(board, &rm.pv),
            });
        }
        // Only where the tradition has names of its own (xiangqi); chess's are the PV's.
        if view.move_names && fail.is_none() {
            let pv = &w.root_moves[0].pv;
            let names = line_names(board, pv);
            if names != line_text(board, pv) {
                sink.send(&Report::Message(format!("pv {}", names.join(" "))));
            }
        }
        if view.refutations && fail.is_none() {
            for rm in &w.root_moves {
                let line = if rm.pv.len() > 1 || rm.reply.is_none() {
                    rm.pv.clone()
                } else {
                    vec![rm.mv, rm.reply]
                };
                sink.send(&Report::Refutation { line: line_text(board, &line) });
            }
        }
    });
    // Publish the main thread's final count before the helpers are told to stop.
    signals.publish_nodes(0, main.nodes);
    signals.halt();

    let line = if weakened { weakened_choice(&main, line, &s.skill) } else { line };
    let line = super::Line { score: reported(line.score), ..line };
    let best = line.pv.first().copied();
    let ponder =
        line.pv.get(1).copied().or_else(|| best.and_then(|m| ponder_from_tt(board, m, tt)));
    // A stop in the middle of an iteration can leave a better line than the last one shown
    // (the first move searched again, deeper): show it, so that the answer and its ponder move
    // are the last PV's first two moves, as GUIs expect.
    if best.is_some() && line.pv != shown {
        sink.send(&Report::Iteration {
            depth: main.depth_in_progress.max(line.depth).max(1) as u32,
            seldepth: main.seldepth.max(main.depth_in_progress as usize) as u32,
            multipv: 1,
            score: to_eval::<G>(line.score),
            wdl: view.wdl.then(|| wdl(line.score)),
            bound: Bound::Exact,
            nodes: signals.total_nodes(),
            time_ms: signals.elapsed_ms(),
            hashfull: tt.hashfull(),
            tbhits: signals.tbhits(),
            pv: line_text(board, &line.pv),
        });
    }
    Answer { best, ponder, score: line.score, depth: line.depth.max(0) as u32, nodes: 0 }
}

/// The line a weakened search plays: one of the main thread's best lines, chosen with the
/// skill's error.
fn weakened_choice<G: Game>(main: &Worker<'_, G>, line: super::Line, skill: &Skill) -> super::Line {
    let lines = main.root_moves.len().min(skill.candidates());
    let candidates = &main.root_moves[..lines];
    let scored: Vec<_> = candidates.iter().map(|rm| (rm.mv, rm.latest_score())).collect();
    let mut stream = Stream::from_clock();
    let random = || stream.unit();
    match skill.choose(&scored, G::UNITS_PER_CP, random) {
        Some(m) if line.pv.first() != Some(&m) => {
            let Some(rm) = candidates.iter().find(|rm| rm.mv == m) else { return line };
            // The score the choice saw (a move that failed low in an iteration cut short has
            // only the one of the iteration before).
            let score = rm.known_score().unwrap_or(line.score);
            super::Line { depth: line.depth, score, pv: rm.pv.clone() }
        }
        _ => line,
    }
}

/// Win/draw/loss chances in permille for the side to move, from a logistic model of the score:
/// a score of `WDL_EVEN` is an even chance of winning, and `WDL_SPREAD` sets how fast the
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

/// The hash move of the position after `best`, as the expected reply.
fn ponder_from_tt<G: Game>(board: &G, best: Move, tt: &Table) -> Option<Move> {
    let mut b = board.clone();
    b.make(best);
    let hit = tt.probe(b.key(), 0)?;
    b.is_legal(hit.mv).then_some(hit.mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;
    use crate::command::Limits;
    use crate::game::MoveList;
    use crate::report::Discard;
    use crate::search::time::Budget;
    use std::time::Duration;

    /// A generous bound for an answer that should come at once: the machine may be busy.
    const PATIENCE: Duration = Duration::from_secs(10);

    fn search(board: Chess, limits: &Limits, pool: &Pool) -> (Search<Chess>, Arc<Signals>) {
        let mut legal = MoveList::new();
        board.legal_moves(&mut legal);
        let root = legal.as_slice().to_vec();
        let budget = Budget::plan(limits, 0, 0, false, &crate::search::params::Params::CHESS);
        let signals = Arc::new(Signals::new(limits, budget, pool.len()));
        let s = Search {
            board,
            root,
            view: View::default(),
            tt: Arc::new(Table::new(1)),
            signals: signals.clone(),
            config: Config::default(),
            sink: Arc::new(Discard),
            skill: Skill::default(),
            net: None,
            tb_score: None,
        };
        (s, signals)
    }

    /// Starts a search and returns the channel its answer arrives on.
    fn start(pool: &Pool, limits: &Limits) -> (crossbeam_channel::Receiver<Answer>, Arc<Signals>) {
        let (s, signals) = search(Chess::startpos(), limits, pool);
        let (tx, rx) = crossbeam_channel::bounded(1);
        pool.start(s, move |a| {
            let _ = tx.send(a);
        });
        (rx, signals)
    }

    /// Runs `read` on thread 0's data and returns what it says.
    fn inspect<T: Send + 'static>(pool: &Pool, read: fn(&ThreadData) -> T) -> T {
        let (tx, rx) = crossbeam_channel::bounded(1);
        pool.run_on(
            0,
            Box::new(move |data| {
                let _ = tx.send(read(data));
            }),
        );
        rx.recv_timeout(PATIENCE).expect("the thread answers")
    }

    #[test]
    fn history_survives_between_searches_until_cleared() {
        let pool = Pool::new(1).expect("threads start");
        let depth = |d| Limits { depth: Some(d), ..Default::default() };
        let (answer, _) = start(&pool, &depth(7));
        assert!(answer.recv_timeout(PATIENCE).expect("an answer").best.is_some());
        // The quiet move the first search liked best, and how much.
        let (side, slot, m, value) = inspect(&pool, |d| d.history.best_quiet());
        assert!(value > 0, "the first search rewarded some quiet move");
        // The next search starts from what the first one learned.
        let (answer, _) = start(&pool, &depth(1));
        answer.recv_timeout(PATIENCE).expect("an answer");
        let kept = {
            let (tx, rx) = crossbeam_channel::bounded(1);
            pool.run_on(
                0,
                Box::new(move |d| {
                    let _ = tx.send(d.history.quiet(side, slot, m));
                }),
            );
            rx.recv_timeout(PATIENCE).expect("the thread answers")
        };
        // Aged by half as the next search starts, but not forgotten.
        assert!(kept >= value / 2 && kept > 0, "history kept from one go to the next: {kept}");
        // A new game clears it.
        pool.clear();
        let (_, _, _, value) = inspect(&pool, |d| d.history.best_quiet());
        assert_eq!(value, 0, "a new game clears the history");
    }

    #[test]
    fn a_stop_always_gets_an_answer() {
        let pool = Pool::new(2).expect("threads start");
        let infinite = Limits { infinite: true, ..Default::default() };
        for round in 0..50 {
            let (answer, signals) = start(&pool, &infinite);
            if round % 2 == 1 {
                std::thread::sleep(Duration::from_millis(1));
            }
            signals.stop();
            let a = answer.recv_timeout(PATIENCE).expect("a stopped search answers");
            assert!(a.best.is_some(), "round {round}: depth 1 always completes");
        }
    }

    #[test]
    fn a_ponderhit_turns_pondering_into_a_timed_search() {
        let pool = Pool::new(1).expect("threads start");
        let ponder = Limits { ponder: true, movetime: Some(20), ..Default::default() };
        for _ in 0..20 {
            let (answer, signals) = start(&pool, &ponder);
            signals.ponderhit(false);
            let a = answer.recv_timeout(PATIENCE).expect("the timed search ends by itself");
            assert!(a.best.is_some());
            // The answer may be given only once pondering is over.
            assert!(!signals.pondering());
        }
    }

    #[test]
    fn the_pool_grows_and_shrinks_between_searches() {
        let mut pool = Pool::new(1).expect("threads start");
        for n in [3, 1, 2] {
            pool.resize(n).expect("threads start");
            assert_eq!(pool.len(), n);
            let (answer, _) = start(&pool, &Limits { depth: Some(4), ..Default::default() });
            assert!(answer.recv_timeout(PATIENCE).expect("an answer").best.is_some());
        }
    }
}
