//! The search, written once for every [`Game`].
//!
//! Iterative deepening over a principal-variation alpha-beta search with a quiescence search at
//! the leaves, a shared transposition table and the usual pruning. Where to find what:
//!
//! - `root`: iterative deepening, aspiration windows and the root move loop;
//! - `node`: the node search (node kinds as types) and the quiescence search;
//! - [`movepick`]: the order moves are tried in; [`history`]: what ordering learns;
//! - [`stack`]: the per-ply search stack;
//! - [`pool`]: the persistent search threads (Lazy SMP) and the answer to a `go`;
//! - [`signals`]: stop, ponderhit and the limits; [`config`]: what the session tells a search;
//! - [`time`]: the clock; [`tt`]: the shared table;
//! - [`tb`]: endgame tablebases in the search.
//!
//! The search reports through a [`Sink`](crate::report::Sink) of neutral reports and knows no
//! protocol.

pub mod config;
pub mod history;
pub mod movepick;
mod node;
pub mod params;
pub mod pool;
mod root;
pub mod signals;
pub mod skill;
pub mod stack;
pub mod tb;
pub mod time;
pub mod tt;

use crate::game::{Evaluator, Game, MATE, MATE_BOUND, MAX_PLY, Move, Score};
use crate::report::Eval;
use config::Config;
use history::History;
use movepick::Moves;
use params::Params;
use signals::Signals;
use stack::Stack;
use tt::Table;

/// Nodes between two looks at the clock and the stop flag (a power of two).
const CHECK_EVERY: u64 = 1024;
/// With UCCI `idle` on, a thread rests after searching at least this long.
const IDLE_SLICE: std::time::Duration = std::time::Duration::from_millis(10);

/// Converts an internal score to the protocol-neutral form for reports.
pub fn to_eval<G: Game>(score: Score) -> Eval {
    if score >= MATE_BOUND {
        Eval::Win((MATE - score) as u32)
    } else if score <= -MATE_BOUND {
        Eval::Loss((MATE + score) as u32)
    } else {
        Eval::Cp(score / G::UNITS_PER_CP)
    }
}

/// The result of one finished (or cleanly interrupted) iteration.
#[derive(Clone, Debug, Default)]
pub struct Line {
    /// Depth of the iteration.
    pub depth: i32,
    /// Score for the side to move at the root.
    pub score: Score,
    /// The principal variation; never empty once depth 1 has finished.
    pub pv: Vec<Move>,
}

/// A root move and what the iterations learned about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its score in the iteration in progress: `-INFINITE` once it fails low; a move not yet
    /// searched again keeps its last score (a fail-high bound survives a stop).
    pub score: Score,
    /// Its score in the last completed iteration.
    pub prev_score: Score,
    /// Its principal variation, starting with the move itself.
    pub pv: Vec<Move>,
    /// The opponent's best reply found to it (its refutation when it is not the best move).
    pub reply: Move,
}

impl RootMove {
    fn new(mv: Move) -> Self {
        use crate::game::INFINITE;
        RootMove { mv, score: -INFINITE, prev_score: -INFINITE, pv: vec![mv], reply: Move::NONE }
    }

    /// Its latest score: this iteration's, or the last completed one's when this iteration
    /// has none yet (it failed low in an iteration cut short).
    pub fn latest_score(&self) -> Score {
        if self.score > -crate::game::INFINITE { self.score } else { self.prev_score }
    }

    /// Its latest score if it has one at all: a move never scored in any finished iteration
    /// (depth 1 cut short) has none, and `-INFINITE` must never leave as a real score (it
    /// would read as a mate against the engine and resign a game).
    pub fn known_score(&self) -> Option<Score> {
        Some(self.latest_score()).filter(|&s| s > -crate::game::INFINITE)
    }
}

/// The triangular table of principal variations: row `ply` holds the best line from `ply`.
pub struct PvTable {
    lines: Vec<[Move; MAX_PLY + 1]>,
    len: [usize; MAX_PLY + 1],
}

impl Default for PvTable {
    fn default() -> Self {
        PvTable { lines: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1], len: [0; MAX_PLY + 1] }
    }
}

impl PvTable {
    /// Forgets the line from `ply`.
    #[inline]
    fn clear(&mut self, ply: usize) {
        self.len[ply] = 0;
    }

    /// The line from `ply` becomes `m` followed by the line from `ply + 1`.
    fn update(&mut self, ply: usize, m: Move) {
        let child_len = if ply < MAX_PLY { self.len[ply + 1] } else { 0 };
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        head[ply][0] = m;
        let n = child_len.min(MAX_PLY);
        if n > 0 {
            head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        }
        self.len[ply] = n + 1;
    }

    /// The line from `ply`.
    fn line(&self, ply: usize) -> &[Move] {
        &self.lines[ply][..self.len[ply]]
    }
}

/// What a search thread keeps from one `go` to the next: its history tables, its stack and
/// its PV table. The history survives until a new game clears it; the stack is reset by every
/// search.
pub struct ThreadData {
    /// Move-ordering history.
    pub history: History,
    /// The per-ply stack.
    pub stack: Stack,
    /// Principal variations.
    pv: PvTable,
    /// The moves of the node at each ply, reused from node to node.
    moves: Vec<Moves>,
}

impl Default for ThreadData {
    fn default() -> Self {
        ThreadData {
            history: History::default(),
            stack: Stack::default(),
            pv: PvTable::default(),
            moves: (0..=MAX_PLY).map(|_| Moves::default()).collect(),
        }
    }
}

impl ThreadData {
    /// Forgets everything learned (a new game, `Clear Hash`, each bench position).
    pub fn clear(&mut self) {
        self.history.clear();
        self.stack.reset();
    }
}

/// The main thread's periodic callback, given the line being searched.
pub type OnCheck<'a> = dyn Fn(&[Move]) + 'a;

/// What every thread of one search shares: the table, the signals and the configuration.
#[derive(Copy, Clone)]
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a Table,
    /// Stop, ponderhit, the limits and the node counters.
    pub signals: &'a Signals,
    /// Contempt, idle share, parameters and tablebases.
    pub config: &'a Config,
}

/// One search thread at work on one `go`: the board it walks, its evaluation state, the
/// shared table and signals, and its persistent [`ThreadData`].
pub struct Worker<'a, G: Game> {
    /// The board, made and unmade as the search walks the tree.
    pub board: G,
    /// The evaluation state, pushed and popped beside the board.
    eval: G::Eval,
    /// The table, signals and configuration every thread of the search reads.
    shared: Shared<'a>,
    /// This thread's index; 0 is the main thread, which reports and keeps the clock.
    pub id: usize,
    /// Nodes visited by this thread.
    pub nodes: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// Root moves in their current order (best first after each iteration).
    pub root_moves: Vec<RootMove>,
    /// How many best lines to find (MultiPV).
    multipv: usize,
    /// History, stack and PV table, kept by the thread between searches.
    data: &'a mut ThreadData,
    /// Set once the search must unwind; scores computed after it are garbage.
    aborted: bool,
    /// The iteration in progress; depth 1 completes unless it runs far too long (see
    /// [`Signals::depth_one_protected`]).
    pub(crate) depth_in_progress: i32,
    /// Called on the main thread at every clock check with the line being searched.
    on_check: Option<&'a OnCheck<'a>>,
    /// The ply of the node being searched.
    ply_now: usize,
    /// The best reply found at ply 1, recorded for the root move above it.
    reply: Move,
    /// When this thread last rested (UCCI `idle`).
    busy_since: std::time::Instant,
    /// Set when a score below the current node came from a rule verdict that depends on the
    /// path (who checked or chased in a repetition cycle).
    path_dependent: bool,
    /// The base late-move reductions of the session's parameters (the `tune` build; a normal
    /// build's are a constant table per game).
    #[cfg(feature = "tune")]
    lmr: Box<node::LmrTable>,
}

impl<'a, G: Game> Worker<'a, G> {
    /// A worker searching `board` restricted to `root_moves` with what the threads share,
    /// with the thread's `data`, evaluating with `net`.
    pub fn new(
        board: G,
        root_moves: Vec<Move>,
        shared: Shared<'a>,
        id: usize,
        data: &'a mut ThreadData,
        net: &<G::Eval as Evaluator<G>>::Net,
    ) -> Self {
        data.stack.reset();
        #[cfg(feature = "tune")]
        let params = *shared.config.params.as_ref().unwrap_or(Params::of(G::VARIANT));
        #[cfg(not(feature = "tune"))]
        let params = Params::of(G::VARIANT);
        data.history.fit::<G>();
        data.history.age(params.history_age_divisor);
        Worker {
            eval: G::Eval::new(&board, net),
            board,
            shared,
            id,
            nodes: 0,
            seldepth: 0,
            root_moves: root_moves.into_iter().map(RootMove::new).collect(),
            multipv: 1,
            data,
            aborted: false,
            depth_in_progress: 0,
            on_check: None,
            ply_now: 0,
            reply: Move::NONE,
            busy_since: std::time::Instant::now(),
            path_dependent: false,
            #[cfg(feature = "tune")]
            lmr: Box::new(node::LmrTable::new(&params)),
        }
    }

    /// The search's parameters: in a normal build the game's constants, which the compiler
    /// folds into the code; in the `tune` build the set the session gave the search.
    #[inline(always)]
    fn params(&self) -> &Params {
        #[cfg(feature = "tune")]
        {
            self.shared.config.params.as_ref().unwrap_or(Params::of(G::VARIANT))
        }
        #[cfg(not(feature = "tune"))]
        {
            Params::of(G::VARIANT)
        }
    }

    /// The base late-move reduction at `depth` for the move with index `i`.
    #[inline]
    fn lmr_base(&self, depth: i32, i: usize) -> i32 {
        #[cfg(feature = "tune")]
        {
            self.lmr.get(depth, i)
        }
        #[cfg(not(feature = "tune"))]
        {
            use std::sync::LazyLock;
            static CHESS: LazyLock<node::LmrTable> =
                LazyLock::new(|| node::LmrTable::new(&Params::CHESS));
            static XIANGQI: LazyLock<node::LmrTable> =
                LazyLock::new(|| node::LmrTable::new(&Params::XIANGQI));
            match G::VARIANT {
                crate::game::Variant::Chess => CHESS.get(depth, i),
                crate::game::Variant::Xiangqi => XIANGQI.get(depth, i),
            }
        }
    }

    /// Searches for the `n` best lines instead of one.
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }

    /// Installs the main thread's periodic callback.
    pub fn set_on_check(&mut self, f: &'a OnCheck<'a>) {
        self.on_check = Some(f);
    }

    /// A draw `ply` plies from the root, with contempt: worse for the root's side to move.
    #[inline]
    fn draw_score(&self, ply: usize) -> Score {
        let c = self.shared.config.contempt;
        if ply.is_multiple_of(2) { -c } else { c }
    }

    /// The static evaluation of the current position.
    #[inline(always)]
    fn evaluate(&mut self) -> Score {
        self.eval.evaluate(&self.board)
    }

    /// Plays `m` from `ply`: the board, the evaluation state and the stack.
    #[inline(always)]
    fn play(&mut self, m: Move, ply: usize) {
        let frame = &mut self.data.stack[ply];
        frame.mv = m;
        frame.piece = self.board.moved_piece(m);
        frame.to = G::target(m);
        self.eval.push(&self.board, m);
        self.board.make(m);
    }

    /// Takes back the move played by [`Worker::play`].
    #[inline(always)]
    fn take_back(&mut self) {
        self.board.unmake();
        self.eval.pop();
    }

    /// Passes the turn at `ply` (null-move pruning).
    #[inline(always)]
    fn play_null(&mut self, ply: usize) {
        self.data.stack[ply].mv = Move::NONE;
        self.eval.push_null(&self.board);
        self.board.make_null();
    }

    /// Takes back [`Worker::play_null`].
    #[inline(always)]
    fn take_back_null(&mut self) {
        self.board.unmake_null();
        self.eval.pop();
    }

    /// The moves from the root to the node being searched.
    fn current_line(&self) -> Vec<Move> {
        (0..self.ply_now).map(|p| self.data.stack[p].mv).collect()
    }

    /// Publishes the node count and decides whether to stop.
    fn check_stop(&mut self) {
        self.shared.signals.publish_nodes(self.id, self.nodes);
        // Depth 1 gives the answer a searched move: it is not cut short, unless it runs so
        // long (a quiescence explosion among many queens) that the clock or a waiting GUI
        // matters more.
        if self.depth_in_progress <= 1 && self.shared.signals.depth_one_protected() {
            return;
        }
        if self.shared.signals.should_stop(self.id) {
            self.aborted = true;
            return;
        }
        if let Some(f) = self.on_check {
            f(&self.current_line());
        }
        if self.shared.config.idle > 0 {
            let busy = self.busy_since.elapsed();
            if busy >= IDLE_SLICE {
                let rest = self.shared.config.rest_ms(busy.as_millis() as u64);
                std::thread::sleep(std::time::Duration::from_millis(rest));
                self.busy_since = std::time::Instant::now();
            }
        }
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & (CHECK_EVERY - 1) == 0
            || self.shared.signals.node_limited(self.id, self.nodes)
        {
            self.check_stop();
        }
    }
}
