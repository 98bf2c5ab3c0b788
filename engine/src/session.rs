//! The session: every run-time state a search needs, with one owner, and the one way to run a
//! search.
//!
//! A [`Session`] owns the hash table, the search threads (with their history tables), each
//! game's network and search parameters, and the opening book. The protocol controller holds
//! one; so do `bench`, `speedtest`, each `datagen` game thread, each test and each fuzz input,
//! so that nothing one of them sets leaks into another. A search is a [`Job`]: the controller
//! starts it and is answered on the search thread ([`Session::start`]); the tools run it to its
//! end ([`Session::run`]). Either way, `go perft`, a book move, the static score of depth 0, a
//! position without a legal move and a searched move all end in one [`Outcome`].

use crate::book::shelf::Shelf;
use crate::command::Limits;
use crate::game::{Game, Inspect, Move, MoveList, Score, perft_divide};
use crate::nnue::{Networked, Networks};
use crate::report::{Discard, Eval, Report, Sink, View};
use crate::search::params::Params;
use crate::search::pool::{Pool, Search};
use crate::search::signals::Signals;
use crate::search::skill::Skill;
use crate::search::tb::{Tablebases, rank_root};
use crate::search::time::Budget;
use crate::search::tt::{self, Table};
use crate::search::{ThreadData, Worker, to_eval};
use std::sync::Arc;

/// One search to run: the position, its root moves and limits, and what to report.
pub struct Job<G> {
    /// The root position.
    pub board: G,
    /// The moves the search may play (after `searchmoves` and `banmoves`).
    pub root: Vec<Move>,
    /// The limits of the `go`.
    pub limits: Limits,
    /// The time the search may take.
    pub budget: Budget,
    /// What to report.
    pub view: View,
    /// How strongly to play.
    pub skill: Skill,
    /// How much worse than zero a draw is for the side to move (internal units).
    pub contempt: Score,
    /// Percent of the time to leave the processor idle (UCCI `idle`).
    pub idle: u32,
    /// Past this many nodes, start no new iteration (datagen's budget).
    pub soft_nodes: Option<u64>,
    /// The endgame tablebases to use, if any.
    pub tablebases: Option<Tablebases>,
    /// A move from the opening book, in the engine's notation: the answer without a search.
    pub book: Option<String>,
    /// Where the search's reports go.
    pub sink: Arc<dyn Sink>,
}

impl<G: Game> Job<G> {
    /// A search of `board` over the moves `root` within `limits`, without a clock, at full
    /// strength, reporting nothing: the tools' kind of search.
    pub fn new(board: G, root: Vec<Move>, limits: Limits) -> Job<G> {
        Job {
            board,
            root,
            limits,
            budget: Budget::default(),
            view: View::default(),
            skill: Skill::default(),
            contempt: 0,
            idle: 0,
            soft_nodes: None,
            tablebases: None,
            book: None,
            sink: Arc::new(Discard),
        }
    }

    /// [`Job::new`] over every legal move of `board`.
    pub fn quiet(board: G, limits: Limits) -> Job<G> {
        let mut list = MoveList::new();
        board.legal_moves(&mut list);
        let root = list.as_slice().to_vec();
        Job::new(board, root, limits)
    }
}

/// What a search found, besides the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The best move.
    pub mv: Option<Move>,
    /// Its score for the side to move, internal units.
    pub score: Score,
    /// The game's internal units per centipawn.
    pub units_per_cp: Score,
    /// The depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched by every thread.
    pub nodes: u64,
}

/// How a job ended: the one thing every `go` is answered with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `go perft`: the total of the counts reported move by move.
    Perft(u64),
    /// The move to play and the reply expected, in the engine's notation; no move for a
    /// position without one, for depth 0 and for a search whose root moves were all excluded.
    /// `found` is what a search found (none for a book move, depth 0 or no move).
    Move {
        /// The move to play.
        best: Option<String>,
        /// The reply expected.
        ponder: Option<String>,
        /// What the search found.
        found: Option<Found>,
    },
}

impl Outcome {
    /// An answer without a move (UCI `bestmove (none)`, UCCI `nobestmove`).
    pub const NONE: Outcome = Outcome::Move { best: None, ponder: None, found: None };

    /// The nodes searched, if a search ran.
    pub fn nodes(&self) -> u64 {
        match self {
            Outcome::Move { found: Some(f), .. } => f.nodes,
            _ => 0,
        }
    }
}

/// Every run-time state of the searches: see the module description.
pub struct Session {
    tt: Arc<Table>,
    pool: Pool,
    nets: Networks,
    params: [Params; 2],
    shelf: Shelf,
}

impl Session {
    /// A session with a table of `hash_mb` MB, `threads` search threads and the networks
    /// `nets`, each game's search parameters its constants. Fails only when a thread cannot be
    /// started.
    pub fn new(hash_mb: usize, threads: usize, nets: Networks) -> std::io::Result<Session> {
        Ok(Session {
            tt: Arc::new(Table::new(hash_mb)),
            pool: Pool::new(threads)?,
            nets,
            params: [Params::CHESS, Params::XIANGQI],
            shelf: Shelf::default(),
        })
    }

    /// A new session with a table of `hash_mb` MB and `threads` search threads that plays as
    /// this one does: the same networks and search parameters (a bench typed in a session
    /// measures what the session would play).
    pub fn fresh(&self, hash_mb: usize, threads: usize) -> std::io::Result<Session> {
        let mut session = Session::new(hash_mb, threads, self.nets.clone())?;
        session.params = self.params;
        Ok(session)
    }

    /// The networks the searches evaluate with.
    pub fn nets(&self) -> &Networks {
        &self.nets
    }

    /// The networks, to change for the searches started from now on.
    pub fn nets_mut(&mut self) -> &mut Networks {
        &mut self.nets
    }

    /// The search parameters of `variant`'s game.
    pub fn params(&self, variant: crate::game::Variant) -> &Params {
        &self.params[variant.index()]
    }

    /// The search parameters of `variant`'s game, to change (the `tune` build reads them).
    pub fn params_mut(&mut self, variant: crate::game::Variant) -> &mut Params {
        &mut self.params[variant.index()]
    }

    /// The opening book.
    pub fn shelf(&mut self) -> &mut Shelf {
        &mut self.shelf
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.pool.len()
    }

    /// Grows or shrinks the search threads to `n` (at least one); only between searches. On
    /// error the threads started so far are kept.
    pub fn set_threads(&mut self, n: usize) -> std::io::Result<()> {
        self.pool.resize(n)
    }

    /// The hash table, to read.
    pub fn table(&self) -> &Table {
        &self.tt
    }

    /// The hash table, for a change between searches. Every search thread lets go of it
    /// before its answer is given; should one still hold it, the change goes to a fresh table
    /// of the same size.
    pub fn table_mut(&mut self) -> &mut Table {
        if Arc::get_mut(&mut self.tt).is_none() {
            self.tt = Arc::new(Table::new(self.tt.megabytes()));
        }
        Arc::get_mut(&mut self.tt).expect("a table just made has no other owner")
    }

    /// Forgets what searches learned: the hash table and every thread's history (a new game).
    /// The threads clear theirs before any later search starts.
    pub fn clear(&mut self) {
        self.table_mut().clear();
        self.clear_history();
    }

    /// Forgets every thread's history tables, keeping the hash table.
    pub fn clear_history(&self) {
        self.pool.clear();
    }

    /// The time a search of `limits` may take in `variant`'s game for `side` to move.
    pub fn plan(
        &self,
        variant: crate::game::Variant,
        limits: &Limits,
        side: usize,
        overhead_ms: u64,
        ponder: bool,
    ) -> Budget {
        Budget::plan(limits, side, overhead_ms, ponder, self.params(variant))
    }

    /// Starts `job` on the search threads and returns its signals at once (`stop` and
    /// `ponderhit` go there). `finish` is called on a search thread with the outcome and the
    /// signals, once the search is over and may answer (a pondering or infinite search waits
    /// for `ponderhit` or `stop`), after every report of the job has been sent and the
    /// threads have let go of the table.
    pub fn start<G: Inspect + Networked>(
        &mut self,
        job: Job<G>,
        finish: impl FnOnce(Outcome, &Signals) + Send + 'static,
    ) -> Arc<Signals> {
        self.table_mut().new_search();
        let mut signals = Signals::new(&job.limits, job.budget, self.pool.len());
        if let Some(nodes) = job.skill.node_limit() {
            signals.cap_nodes(nodes);
        }
        if let Some(depth) = job.skill.depth_limit() {
            signals.cap_depth(depth);
        }
        if let Some(nodes) = job.soft_nodes {
            signals.set_soft_nodes(nodes);
        }
        signals.contempt = job.contempt;
        signals.idle = job.idle;
        signals.params = Some(*self.params(G::VARIANT));
        signals.tablebases = job.tablebases;
        // A root the tables hold searches only the moves that keep its value, and the search
        // below it probes no more: the distances at the root decided already.
        let mut tb_score = None;
        let mut root = job.root;
        if let Some(tb) = &job.tablebases
            && let Some((kept, score)) = rank_root(&job.board, &root, tb)
        {
            root = kept;
            tb_score = Some(score);
            signals.tablebases = None;
        }
        let signals = Arc::new(signals);
        let (sink, sig) = (job.sink.clone(), signals.clone());
        let Job { board, limits, book, view, skill, .. } = job;
        if let Some(depth) = limits.perft {
            self.pool.run_on(
                0,
                Box::new(move |_| {
                    let mut b = board;
                    let mut total = 0;
                    for (mv, nodes) in perft_divide(&mut b, depth.max(1)) {
                        total += nodes;
                        sink.send(&Report::PerftMove { mv, nodes });
                    }
                    finish(Outcome::Perft(total), &sig);
                }),
            );
        } else if let Some(best) = book {
            self.pool.run_on(
                0,
                Box::new(move |_| {
                    sink.send(&Report::Message(format!("book move {best}")));
                    finish(Outcome::Move { best: Some(best), ponder: None, found: None }, &sig);
                }),
            );
        } else if root.is_empty() {
            self.pool.run_on(
                0,
                Box::new(move |_| {
                    let mut legal = MoveList::new();
                    board.legal_moves(&mut legal);
                    if legal.is_empty() {
                        // No legal move: the verdict is the only thing to report.
                        let score = to_eval::<G>(board.no_move_score(0));
                        sink.send(&Report::Static { score });
                    }
                    sig.wait_until_answerable();
                    finish(Outcome::NONE, &sig);
                }),
            );
        } else if limits.depth == Some(0) {
            // Depth 0: the quiescence score, and no move.
            let (tt, net) = (self.tt.clone(), G::net_of(&self.nets));
            self.pool.run_on(
                0,
                Box::new(move |data: &mut ThreadData| {
                    let score = {
                        let mut w = Worker::new(board, root, &tt, &sig, 0, data, &net);
                        to_eval::<G>(w.static_score())
                    };
                    drop(tt);
                    sink.send(&Report::Static { score });
                    // `go ponder depth 0` answers only after `ponderhit` or `stop`, as every
                    // pondering search does.
                    sig.wait_until_answerable();
                    finish(Outcome::NONE, &sig);
                }),
            );
        } else {
            let search = Search {
                board: board.clone(),
                root,
                view,
                tt: self.tt.clone(),
                signals: signals.clone(),
                sink,
                skill,
                net: G::net_of(&self.nets),
                tb_score,
            };
            self.pool.start(search, move |answer| {
                sig.wait_until_answerable();
                let best = answer.best.map(|m| board.move_text(m));
                let ponder = answer.best.and_then(|b| {
                    let mut after = board.clone();
                    after.make(b);
                    answer.ponder.filter(|&p| after.is_legal(p)).map(|p| after.move_text(p))
                });
                let found = Found {
                    mv: answer.best,
                    score: answer.score,
                    units_per_cp: G::UNITS_PER_CP,
                    depth: answer.depth,
                    nodes: answer.nodes,
                };
                finish(Outcome::Move { best, ponder, found: Some(found) }, &sig);
            });
        }
        signals
    }

    /// Runs `job` to its end and returns its outcome: what `bench`, `speedtest` and `datagen`
    /// do. A job that only `stop` could end (infinite, pondering) must not be given.
    pub fn run<G: Inspect + Networked>(&mut self, job: Job<G>) -> Outcome {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.start(job, move |outcome, _| {
            let _ = tx.send(outcome);
        });
        // The search thread always answers; should it have died, there is no move.
        rx.recv().unwrap_or(Outcome::NONE)
    }

    /// What the table holds for `board`, as ElephantEye's `probe` shows it; without an entry,
    /// the quiescence score as both bounds at depth 0. Runs on the calling thread, between
    /// searches.
    pub fn probe<G: Inspect + Networked>(&self, board: &G) -> Report {
        if let Some(hit) = self.tt.probe(board.key(), 0) {
            let bound = Some((to_eval::<G>(hit.score), hit.depth.max(0) as u32));
            let best = board.is_legal(hit.mv).then(|| board.move_text(hit.mv));
            let (lower, upper) = match hit.bound {
                tt::Bound::Exact => (bound, bound),
                tt::Bound::Lower => (bound, None),
                tt::Bound::Upper => (None, bound),
            };
            return Report::Probe { best, lower, upper };
        }
        let mut legal = MoveList::new();
        board.legal_moves(&mut legal);
        let score = if legal.is_empty() {
            board.no_move_score(0)
        } else {
            let signals = Signals::new(&Limits::default(), Budget::default(), 1);
            let mut data = ThreadData::default();
            let root = legal.iter().copied().collect();
            let net = G::net_of(&self.nets);
            Worker::new(board.clone(), root, &self.tt, &signals, 0, &mut data, &net).static_score()
        };
        let leaf: Option<(Eval, u32)> = Some((to_eval::<G>(score), 0));
        Report::Probe { best: None, lower: leaf, upper: leaf }
    }
}
