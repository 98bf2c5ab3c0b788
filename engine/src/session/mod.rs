//! The session: the engine's one owner of every state, and the one way to run a `go`.
//!
//! A [`Session`] owns the settings the options set, the position (of either game), the game's
//! temper (the scores that decide draw offers and resigning), the hash table, the search threads
//! (with their history tables), each game's network and search parameters, and the opening
//! book; the hash table's size and the number of threads are stored once, in the table and the
//! pool. The protocol controller holds one and keeps only the order of commands; so do `bench`,
//! `speedtest`, each `datagen` game thread, each test and each fuzz input, so that nothing one
//! of them sets leaks into another. A search is a [`Job`]: the controller starts it and is
//! answered on the search thread ([`Session::start`]); the tools run it to its end
//! ([`Session::run`]). Either way, `go perft`, a book move, the static score of depth 0, a
//! position without a legal move and a searched move all end in one [`Outcome`].
//!
//! The module's files: `job.rs`, what is run and what it ends in; `board.rs`, the position of
//! either game; `temper.rs`, draw offers and resigning; `notice.rs`, the words of every error
//! and message; `setup.rs`, the commands that set the session up (options, positions, the
//! board's views); this file, the state and the running of a `go`.

pub mod board;
mod job;
pub mod notice;
mod setup;
pub mod temper;

pub use job::{Found, Job, Outcome, answer};

use crate::book::shelf::Shelf;
use crate::command::{Go, Limits, Task};
use crate::game::{Game, Inspect, Move, MoveList, Variant, perft_divide};
use crate::nnue::{Networked, Networks};
use crate::options::Settings;
use crate::report::{Discard, Eval, Report, Sink};
use crate::search::config::Config;
use crate::search::params::Params;
use crate::search::pool::{Pool, Search};
use crate::search::signals::Signals;
use crate::search::tb::rank_root;
use crate::search::time::Budget;
use crate::search::tt::{self, Table};
use crate::search::{Shared, ThreadData, Worker, to_eval};
use board::{Board, with_board};
use notice::Notice;
use std::sync::Arc;
use temper::Temper;

/// Every state of the engine: see the module description.
pub struct Session {
    tt: Arc<Table>,
    pool: Pool,
    nets: Networks,
    params: [Params; 2],
    shelf: Shelf,
    /// What the options set (Hash and Threads aside: the table and the pool hold those).
    settings: Settings,
    /// `None` after a rejected `position`: the next `go` refuses instead of searching a stale one.
    board: Option<Board>,
    /// Why the position is invalid, to repeat on `go`.
    invalid_reason: String,
    /// The move that led to the position, if it came from `position ... moves` (for `d`).
    last_move: Option<Move>,
    /// Root moves excluded until the next position (UCCI `banmoves`).
    banned: Vec<Move>,
    /// The engine's own recent scores; `None` while a `go` has lent it to its search thread.
    temper: Option<Temper>,
    /// Where the session's own reports go (errors, messages, answers).
    sink: Arc<dyn Sink>,
}

/// What a `go` started: the controller's handle on the search.
pub struct Started {
    /// Where `stop` and `ponderhit` go.
    pub signals: Arc<Signals>,
    /// `go infinite` or a `go` without limits: only `stop` ends it.
    pub unbounded: bool,
    /// `go ponder`: until `ponderhit`, only input ends it.
    pub pondering: bool,
}

/// What a finished `go` hands back with its completion notice: the temper it borrowed.
pub struct Finished {
    temper: Temper,
}

impl Session {
    /// A session with a table of `hash_mb` MB, `threads` search threads and the networks
    /// `nets`, each game's search parameters its constants, the default settings and the
    /// start position of chess, reporting nothing of its own. Fails only when a thread cannot
    /// be started.
    pub fn new(hash_mb: usize, threads: usize, nets: Networks) -> std::io::Result<Session> {
        let settings = Settings::default();
        Ok(Session {
            tt: Arc::new(Table::new(hash_mb)),
            pool: Pool::new(threads)?,
            nets,
            params: [Params::CHESS, Params::XIANGQI],
            shelf: Shelf::default(),
            board: Some(Board::startpos(settings.variant)),
            settings,
            invalid_reason: String::new(),
            last_move: None,
            banned: Vec::new(),
            temper: Some(Temper::default()),
            sink: Arc::new(Discard),
        })
    }

    /// This session reporting to `sink`, playing `variant` from its start position.
    pub fn with(mut self, sink: Arc<dyn Sink>, variant: Variant) -> Session {
        self.sink = sink;
        self.settings.variant = variant;
        self.board = Some(Board::startpos(variant));
        self
    }

    /// A new session with a table of `hash_mb` MB and `threads` search threads that plays as
    /// this one does: the same networks and search parameters (a bench typed in a session
    /// measures what the session would play).
    pub fn fresh(&self, hash_mb: usize, threads: usize) -> std::io::Result<Session> {
        let mut session = Session::new(hash_mb, threads, self.nets.clone())?;
        session.params = self.params;
        Ok(session)
    }

    /// The settings the options set.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Switches debug output (`debug on|off`), which may come during a search.
    pub fn set_debug(&mut self, on: bool) {
        self.settings.debug = on;
    }

    /// The game of the session (`UCI_Variant`; `startpos` sets it up).
    pub fn variant(&self) -> Variant {
        self.settings.variant
    }

    /// The position, when the last one was accepted.
    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// Why there is no position: the last one's error.
    pub fn invalid_reason(&self) -> &str {
        &self.invalid_reason
    }

    /// The temper a finished `go` borrowed comes back with its completion notice.
    pub fn finished(&mut self, finished: Finished) {
        self.temper = Some(finished.temper);
    }

    fn send(&self, report: Report) {
        self.sink.send(&report);
    }

    /// Sends an error.
    fn error(&self, notice: Notice) {
        self.send(Report::Error(notice.to_string()));
    }

    /// Sends a message.
    fn note(&self, notice: Notice) {
        self.send(Report::Message(notice.to_string()));
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

    /// Runs a `go` on the session's position: reports what could not be read, resolves the
    /// root moves (`searchmoves`, `banmoves`), asks the book and starts the job, or answers at
    /// once that there is no position (then nothing is started). `notify` is called on the
    /// search thread once the answer has been sent.
    pub fn go(
        &mut self,
        mut go: Go,
        notify: impl FnOnce(Finished) + Send + 'static,
    ) -> Option<Started> {
        for e in std::mem::take(&mut go.errors) {
            self.error(Notice::Failed { command: "go", error: e.to_string() });
        }
        for w in std::mem::take(&mut go.warnings) {
            self.send(Report::Warning(
                Notice::Failed { command: "go", error: w.to_string() }.to_string(),
            ));
        }
        // As UCI says, a `go` without a limit searches until `stop`; someone who meant a limit
        // that was not understood learns why no answer comes.
        if go.is_unbounded() && !go.limits.infinite && !go.limits.ponder {
            self.note(Notice::Unbounded);
        }
        let Some(board) = self.board.clone() else {
            self.error(Notice::NoPosition { doing: "search", reason: self.invalid_reason.clone() });
            self.send(answer(Outcome::NONE, |_| (false, false)));
            return None;
        };
        Some(with_board!(board, b => self.go_on(*b, go, notify)))
    }

    /// Reads `texts` as moves of `board`: the moves, and each text that is none with why. The
    /// one place a `searchmoves` or `banmoves` is read.
    fn read_moves<G: Game>(board: &G, texts: &[String]) -> (Vec<Move>, Vec<(String, String)>) {
        let mut bad = Vec::new();
        let moves = texts
            .iter()
            .filter_map(|t| match board.parse_move(t) {
                Ok(m) => Some(m),
                Err(e) => {
                    bad.push((t.clone(), e.to_string()));
                    None
                }
            })
            .collect();
        (moves, bad)
    }

    /// `banmoves`: the moves are read once, here, against the position; a move that is not
    /// legal is reported.
    pub fn ban(&mut self, moves: Vec<String>) {
        let Some(board) = &self.board else { return };
        let (banned, bad) = with_board!(board, b => Self::read_moves(&**b, &moves));
        self.banned = banned;
        for (_, error) in bad {
            self.error(Notice::Failed { command: "banmoves", error });
        }
    }

    /// The moves a search of `board` may play: the legal ones, only those of `searchmoves`
    /// when it names a legal one, never a banned one. A `searchmoves` text that is no legal
    /// move is reported.
    fn root_moves<G: Game>(&self, board: &G, searchmoves: &[String]) -> Vec<Move> {
        let (only, bad) = Self::read_moves(board, searchmoves);
        for (text, _) in bad {
            self.error(Notice::NotLegal(text));
        }
        let mut list = MoveList::new();
        board.legal_moves(&mut list);
        // A `searchmoves` with no legal move in it restricts nothing (its bad moves are reported).
        list.retain(|m| (only.is_empty() || only.contains(&m)) && !self.banned.contains(&m));
        list.as_slice().to_vec()
    }

    /// A move from the opening book for `board`, among the `root` moves the search may play,
    /// as coordinate text in the engine's notation.
    fn book_move<G: Game>(&mut self, board: &G, root: &[Move]) -> Option<String> {
        let fen = board.fen();
        let mut reports = Vec::new();
        let playable = |text: &str| board.parse_move(text).is_ok_and(|m| root.contains(&m));
        let pick = self.shelf.pick(
            &self.settings.book,
            G::VARIANT,
            &fen,
            crate::game::fen_ply(&fen),
            playable,
            &mut reports,
        );
        reports.into_iter().for_each(|r| self.send(r));
        // The book's text may be another spelling of the move (castling as king takes rook).
        pick.and_then(|t| board.parse_move(&t).ok()).map(|m| board.move_text(m))
    }

    /// [`Session::go`] once the game is known: everything below is compiled for `G`.
    fn go_on<G: Inspect + Networked>(
        &mut self,
        board: G,
        go: Go,
        notify: impl FnOnce(Finished) + Send + 'static,
    ) -> Started {
        let side = board.side_to_move().index();
        let (overhead, ponder) = (self.settings.overhead_ms, self.settings.ponder);
        let budget = self.plan(G::VARIANT, &go.limits, side, overhead, ponder);
        if self.settings.debug {
            self.note(Notice::Budget { soft: budget.soft, hard: budget.hard });
        }
        // Only `ponderhit` bounds a ponder search; until then end of input stops it.
        let unbounded = go.is_unbounded();
        let root = self.root_moves(&board, &go.searchmoves);
        let Go { mut task, limits, .. } = go;
        // A book move answers at once, but never a search that only `stop` may end.
        if task == Task::Search
            && self.settings.book.active()
            && !unbounded
            && !limits.ponder
            && !root.is_empty()
            && let Some(best) = self.book_move(&board, &root)
        {
            task = Task::Book(best);
        }
        let pondering = limits.ponder;
        let contempt = self.settings.contempt(self.params(G::VARIANT).contempt);
        let job = Job {
            board,
            root,
            limits,
            budget,
            view: self.settings.view.clone(),
            skill: self.settings.strength.skill(G::VARIANT),
            config: Config {
                contempt,
                idle: self.settings.idle,
                params: None,
                tablebases: self.settings.syzygy.in_use(),
            },
            soft_nodes: None,
            task,
            sink: self.sink.clone(),
        };
        let (sink, may_resign) = (self.sink.clone(), self.settings.resign);
        let mut temper = self.temper.take().unwrap_or_default();
        // The one answer path: whatever the job was, its outcome is turned into the answer
        // here, marked as given before it is sent (a `stop` or `ponderhit` read after it
        // belongs to the next search), and the controller is told.
        let signals = self.start(job, move |outcome, sig| {
            let answer = answer(outcome, |f| {
                let offered = sig.draw_offered();
                temper.judge(f.score, f.units_per_cp, f.depth, contempt, offered, may_resign)
            });
            sig.mark_answered();
            sink.send(&answer);
            notify(Finished { temper });
        });
        Started { signals, unbounded, pondering }
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
        let mut config = Config { params: Some(*self.params(G::VARIANT)), ..job.config };
        // A root the tables hold searches only the moves that keep its value, and the search
        // below it probes no more: the distances at the root decided already.
        let mut tb_score = None;
        let mut root = job.root;
        if let Some(tb) = &job.config.tablebases
            && let Some((kept, score)) = rank_root(&job.board, &root, tb)
        {
            root = kept;
            tb_score = Some(score);
            config.tablebases = None;
        }
        let signals = Arc::new(signals);
        let (sink, sig) = (job.sink.clone(), signals.clone());
        let Job { board, task, view, skill, .. } = job;
        // The one dispatch of every kind of `go`: each ends in an outcome given to `finish`.
        match task {
            Task::Perft(depth) => {
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
            }
            Task::Book(best) => {
                self.pool.run_on(
                    0,
                    Box::new(move |_| {
                        sink.send(&Report::Message(format!("book move {best}")));
                        finish(Outcome::Move { best: Some(best), ponder: None, found: None }, &sig);
                    }),
                );
            }
            _ if root.is_empty() => {
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
            }
            Task::Static => {
                // Depth 0: the quiescence score, and no move.
                let (tt, net) = (self.tt.clone(), G::net_of(&self.nets));
                self.pool.run_on(
                    0,
                    Box::new(move |data: &mut ThreadData| {
                        let score = {
                            let shared = Shared { tt: &tt, signals: &sig, config: &config };
                            let mut w = Worker::new(board, root, shared, 0, data, &net);
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
            }
            Task::Search => {
                let search = Search {
                    board: board.clone(),
                    root,
                    view,
                    tt: self.tt.clone(),
                    signals: signals.clone(),
                    config,
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
            let config = Config::default();
            let shared = Shared { tt: &self.tt, signals: &signals, config: &config };
            Worker::new(board.clone(), root, shared, 0, &mut data, &net).static_score()
        };
        let leaf: Option<(Eval, u32)> = Some((to_eval::<G>(score), 0));
        Report::Probe { best: None, lower: leaf, upper: leaf }
    }
}
