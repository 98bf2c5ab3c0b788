//! The controller: owns the session (conventions, game, position, settings, hash table, search
//! threads) and the running search, and executes commands in order.
//!
//! It never blocks on the search. While a search runs, `stop`, `ponderhit`, `isready`, `debug`
//! and `quit` act at once; every other command waits in a queue until the search has answered,
//! and then runs in order, so nothing is dropped. The game is chosen here, once per command
//! (`board::with_board!`): everything below `Engine::start` is compiled for one game. The
//! controller speaks in neutral [`Report`]s to a [`Sink`] and knows no protocol: what differs
//! between protocols arrives as a [`Dialect`] or inside the commands.

pub mod board;
pub mod notice;

use crate::command::{BenchArgs, BenchPositions, Command, Dialect, Event, Gate, Limits, Start};
use crate::game::{DRAW, Game, Inspect, MATE_BOUND, Move, Variant};
use crate::nnue::{Networked, Networks};
use crate::options::{self, Action, Change, Effect, OptionError, Settings};
use crate::report::{Report, Sink};
use crate::search::pool;
use crate::search::signals::Signals;
use crate::session::{Found, Job, Outcome, Session};
use crate::tools::{bench, speedtest};
use board::{Board, display_text, eval_text, variant_of_fen, with_board};
use crossbeam_channel::{Receiver, Sender, select};
use notice::Notice;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Arc;

/// Accept a draw offer at or below this score (protocol units: centipawns, UCCI units).
pub const DRAW_ACCEPT: i32 = 20;
/// Offer a draw when this many searches in a row saw a draw score (zero, give or take the
/// contempt) at depth [`DRAW_OFFER_DEPTH`] or more.
pub const DRAW_OFFER_SEARCHES: usize = 3;
/// The shallowest depth whose draw score counts for an offer.
pub const DRAW_OFFER_DEPTH: u32 = 8;
/// Resign when this many searches in a row scored at or below [`RESIGN_SCORE`].
pub const RESIGN_SEARCHES: usize = 3;
/// A hopeless score (protocol units): about two chariots or two queens down.
pub const RESIGN_SCORE: i32 = -1500;

/// The engine's mood over a game: its recent scores decide draw offers and resigning.
#[derive(Default)]
struct Temper {
    /// Scores (internal units, own view) of the last searches, most recent last.
    scores: Vec<i32>,
}

impl Temper {
    /// Records a search's score (internal units, `unit` of them per centipawn) and decides
    /// `(draw, resign)`.
    fn judge(
        &mut self,
        score: i32,
        unit: i32,
        depth: u32,
        contempt: i32,
        draw_offered: bool,
        may_resign: bool,
    ) -> (bool, bool) {
        let protocol = score / unit;
        self.scores.push(if depth >= DRAW_OFFER_DEPTH { score } else { i32::MIN });
        let recent = |n: usize| &self.scores[self.scores.len().saturating_sub(n)..];
        let hopeless = |s: &i32| *s != i32::MIN && *s / unit <= RESIGN_SCORE;
        let resign = may_resign
            && (score <= -MATE_BOUND
                || (recent(RESIGN_SEARCHES).len() == RESIGN_SEARCHES
                    && recent(RESIGN_SEARCHES).iter().all(hopeless)));
        let dead_draw = recent(DRAW_OFFER_SEARCHES).len() == DRAW_OFFER_SEARCHES
            && recent(DRAW_OFFER_SEARCHES)
                .iter()
                .all(|s| *s != i32::MIN && (*s - DRAW).abs() <= contempt);
        let draw = !resign && ((draw_offered && protocol <= DRAW_ACCEPT) || dead_draw);
        (draw, resign)
    }
}

/// A search in progress.
struct Running {
    signals: Arc<Signals>,
    /// The user was told that commands wait for the search (said once per search).
    told_waiting: bool,
    /// `go infinite` or a `go` without limits: end of input stops it instead of waiting for it
    /// (so it does a search still pondering, which is looked up live).
    unbounded: bool,
}

/// The session.
pub struct Engine {
    sink: Arc<dyn Sink>,
    /// The conventions of the protocol spoken (UCI's until one is chosen).
    dialect: Dialect,
    /// `None` after a rejected `position`: the next `go` refuses instead of searching a stale one.
    board: Option<Board>,
    /// Why the position is invalid, to repeat on `go`.
    invalid_reason: String,
    /// The move that led to the position, if it came from `position ... moves` (for `d`).
    last_move: Option<Move>,
    /// Root moves excluded until the next position (UCCI `banmoves`).
    banned: Vec<Move>,
    settings: Settings,
    /// The hash table, the search threads, the networks, the search parameters and the book.
    session: Session,
    running: Option<Running>,
    pending: VecDeque<Command>,
    eof: bool,
    /// `quit` arrived during a search: the searches of the commands queued before it stop at
    /// once.
    quitting: bool,
    done_tx: Sender<()>,
    done_rx: Receiver<()>,
    /// Holds the reader in UCCI batch mode until each `go` is answered.
    gate: Arc<Gate>,
    /// The engine's own recent scores, for draw offers and resigning.
    temper: Arc<Mutex<Temper>>,
}

impl Engine {
    /// A fresh session reporting to `sink`, with the networks built in; `variant` is the game
    /// until told otherwise. Fails only when the search thread cannot be started.
    pub fn new(sink: Arc<dyn Sink>, variant: Option<Variant>) -> std::io::Result<Self> {
        Self::with_hash(sink, variant, Settings::default().hash_mb, Networks::embedded())
    }

    /// [`Engine::new`] with a hash table of `hash_mb` MB at first instead of the `Hash`
    /// option's default (a harness that starts thousands of sessions, the fuzzer, need not
    /// clear 16 MB for each), evaluating with `nets`.
    pub fn with_hash(
        sink: Arc<dyn Sink>,
        variant: Option<Variant>,
        hash_mb: usize,
        nets: Networks,
    ) -> std::io::Result<Self> {
        let (done_tx, done_rx) = crossbeam_channel::unbounded();
        let settings =
            Settings { variant: variant.unwrap_or(Variant::Chess), hash_mb, ..Settings::default() };
        Ok(Engine {
            sink,
            dialect: Dialect::default(),
            gate: Arc::new(Gate::default()),
            temper: Arc::new(Mutex::new(Temper::default())),
            board: Some(Board::startpos(settings.variant)),
            invalid_reason: String::new(),
            last_move: None,
            banned: Vec::new(),
            session: Session::new(settings.hash_mb, settings.threads, nets)?,
            settings,
            running: None,
            pending: VecDeque::new(),
            eof: false,
            quitting: false,
            done_tx,
            done_rx,
        })
    }

    /// The gate the reader waits at in UCCI batch mode.
    pub fn gate(&self) -> Arc<Gate> {
        self.gate.clone()
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

    /// Runs until `quit`, or until input has ended and every command has been answered.
    pub fn run(mut self, mut inbox: Receiver<Event>) {
        loop {
            select! {
                recv(inbox) -> event => match event {
                    Ok(Event::Dialect(d)) => self.set_dialect(d),
                    Ok(Event::Command(c)) => {
                        if !self.on_command(c) {
                            return;
                        }
                    }
                    Ok(Event::Bad(e)) => self.send(Report::Error(e)),
                    Ok(Event::Line(line)) => self.sink.log_input(&line),
                    Ok(Event::Eof) | Err(_) => {
                        // A closed channel is always ready: stop selecting on it, or this
                        // loop would spin while the last search finishes.
                        inbox = crossbeam_channel::never();
                        if !self.eof {
                            self.eof = true;
                            self.on_eof();
                        }
                    }
                },
                recv(self.done_rx) -> _ => {
                    self.finish_search(true);
                    if !self.drain() {
                        return;
                    }
                }
            }
            if self.eof && self.running.is_none() && self.pending.is_empty() {
                return;
            }
        }
    }

    /// The protocol is chosen: its conventions hold from now on, and a protocol that plays
    /// one game switches to it.
    fn set_dialect(&mut self, d: Dialect) {
        self.dialect = d;
        if let Some(game) = d.game {
            self.set_variant(game);
        }
    }

    fn set_variant(&mut self, v: Variant) {
        if v != self.variant() {
            self.settings.variant = v;
            self.board = Some(Board::startpos(v));
            if let Some(b) = self.board.as_mut() {
                b.apply(&self.settings);
            }
            self.last_move = None;
            self.banned.clear();
            self.session.table_mut().clear();
        }
    }

    fn variant(&self) -> Variant {
        self.settings.variant
    }

    /// Handles a command as it arrives. Returns false when the session is over.
    fn on_command(&mut self, c: Command) -> bool {
        // A search that has written its `bestmove` is over even before its completion notice
        // is handled: a `ponderhit` or `stop` sent after that answer belongs to the search
        // queued behind it, and must not be spent on this one.
        if self.running.as_ref().is_some_and(|run| run.signals.answered()) {
            self.finish_search(false);
            if !self.drain() {
                return false;
            }
        }
        let go_queued = self.go_queued();
        if let Some(run) = &mut self.running {
            // A person typing `d` during `go infinite` would otherwise wait without a word.
            if matches!(
                c,
                Command::Display(_)
                    | Command::Eval
                    | Command::ExportNet(_)
                    | Command::Compiler
                    | Command::Help
                    | Command::Flip
                    | Command::Probe { .. }
            ) && !run.told_waiting
            {
                run.told_waiting = true;
                self.sink.send(&Report::Message(Notice::Waiting.to_string()));
            }
            let run = &*run;
            match c {
                // Read ahead (a command file) while this search does not ponder, it belongs to
                // the `go ponder` queued before it and acts when that starts (see `drain`).
                // `stop` keeps acting on the search running, the one a person sees.
                Command::PonderHit { .. } if go_queued && !run.signals.pondering() => {
                    self.pending.push_back(c)
                }
                Command::IsReady => self.send(Report::Ready),
                Command::Stop => run.signals.stop(),
                Command::PonderHit { draw_offer } => {
                    run.signals.ponderhit(draw_offer);
                    // The search now ends by itself: a held `go` behind it may wait again.
                    if !run.unbounded {
                        self.gate.set_open_ended(false);
                    }
                }
                Command::Debug(on) => self.settings.debug = on,
                Command::Quit => {
                    // The running search stops at once; the commands queued before `quit`
                    // still run in order (a queued `go` answers at once), then the session ends.
                    run.signals.stop();
                    self.quitting = true;
                    self.pending.push_back(Command::Quit);
                }
                other => self.pending.push_back(other),
            }
            return true;
        }
        self.execute(c)
    }

    /// After a search: runs queued commands until one starts a new search. A `ponderhit`
    /// queued behind that search's `go` then acts on it at once, as it would have had the
    /// search been running when it was read; else a `go ponder` and its `ponderhit` in a
    /// command file would wait for each other for ever.
    fn drain(&mut self) -> bool {
        while self.running.is_none() {
            let Some(c) = self.pending.pop_front() else { break };
            if !self.execute(c) {
                return false;
            }
            let Some(signals) = self.running.as_ref().map(|run| run.signals.clone()) else {
                continue;
            };
            let (mut i, mut end) = (0, self.next_go());
            while i < end {
                if let Command::PonderHit { draw_offer } = self.pending[i] {
                    signals.ponderhit(draw_offer);
                    self.pending.remove(i);
                    end -= 1;
                } else {
                    i += 1;
                }
            }
        }
        true
    }

    /// Where the next queued `go` is (the queue's length when none is).
    fn next_go(&self) -> usize {
        self.pending.iter().position(|c| matches!(c, Command::Go(_))).unwrap_or(self.pending.len())
    }

    /// True when a `go` waits in the queue.
    fn go_queued(&self) -> bool {
        self.next_go() < self.pending.len()
    }

    /// True when a `ponderhit` waits in the queue for the search about to start, i.e. before
    /// any further `go`.
    fn ponderhit_queued(&self) -> bool {
        self.pending.iter().take(self.next_go()).any(|c| matches!(c, Command::PonderHit { .. }))
    }

    fn on_eof(&mut self) {
        if let Some(run) = &self.running
            && (run.unbounded || run.signals.pondering())
        {
            run.signals.stop();
        }
    }

    /// Forgets the running search once it has answered; `notified`: its completion notice has
    /// been received already, else it is waited for.
    fn finish_search(&mut self, notified: bool) {
        if self.running.take().is_some() {
            if !notified {
                let _ = self.done_rx.recv();
            }
            self.gate.set_open_ended(false);
            self.gate.answered();
        }
    }

    fn quit(&self) {
        if self.dialect.farewell {
            self.send(Report::Bye);
        }
    }

    /// Executes a command while no search runs. Returns false on `quit`.
    fn execute(&mut self, c: Command) -> bool {
        match c {
            Command::Hello => self.send(Report::Hello { variant: self.variant() }),
            Command::IsReady => self.send(Report::Ready),
            Command::NewGame => self.new_game(),
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { start, moves } => self.set_position(start, moves),
            Command::BadPosition(e) => {
                self.banned.clear();
                self.send(Report::Error(e.clone()));
                self.invalid_reason = e;
                self.board = None;
            }
            Command::BanMoves(moves) => self.ban(moves),
            Command::Go(limits) => self.go(limits),
            Command::Stop => {
                if self.dialect.answer_idle_stop {
                    self.send(answer(Outcome::NONE, |_| (false, false)));
                }
            }
            Command::PonderHit { .. } => {}
            Command::Debug(on) => self.settings.debug = on,
            Command::Register => self.send(Report::Registered),
            Command::Help => self.send(Report::Help),
            Command::Display(style) => self.display(style.unwrap_or(self.settings.style)),
            Command::Eval => match &self.board {
                Some(board) => {
                    let net = self.session.nets().get(board.variant()).cloned();
                    with_board!(board, b => self.send(Report::Text(eval_text(&**b, net.as_deref()))))
                }
                None => self.error(Notice::NoPosition {
                    doing: "evaluate",
                    reason: self.invalid_reason.clone(),
                }),
            },
            Command::ExportNet(file) => self.export_net(file),
            Command::Compiler => {
                self.send(Report::Text(crate::nnue::compiler_text(self.session.nets())))
            }
            Command::Flip => {
                if let Some(board) = &self.board {
                    let flipped: Board = with_board!(board, b => b.flipped().into());
                    self.board = Some(flipped);
                    self.last_move = None;
                    self.banned.clear();
                }
            }
            Command::Probe { start, moves } => self.probe(start, moves),
            Command::Bench(args) => self.bench(args),
            Command::Speedtest { threads, hash_mb, seconds } => {
                self.speedtest(threads, hash_mb, seconds)
            }
            // Runs here, to its end: OpenBench sends `quit` only after the last start.
            Command::Genfens(request) => {
                match crate::tools::datagen::genfens(&request, self.variant(), &self.session) {
                    Ok(fens) => fens.for_each(|fen| self.send(Report::Genfen(fen))),
                    Err(error) => {
                        self.error(Notice::Failed { command: "genfens", error: error.to_string() })
                    }
                }
            }
            Command::Quit => {
                self.quit();
                return false;
            }
        }
        true
    }

    /// `bench`: the bench in a session of its own that plays as this one does (its
    /// networks, search parameters and tablebases), printing what `chariot bench` prints. It runs to its
    /// end before the next command, as Stockfish's does.
    fn bench(&mut self, args: BenchArgs) {
        let fens = match args.positions {
            BenchPositions::Builtin => None,
            BenchPositions::Current => match &self.board {
                Some(board) => Some(vec![with_board!(board, b => b.fen())]),
                None => {
                    return self.error(Notice::NoBenchPosition(self.invalid_reason.clone()));
                }
            },
            BenchPositions::File(path) => match bench::read_positions(&path) {
                Ok(fens) => Some(fens),
                Err(error) => {
                    return self
                        .error(Notice::Failed { command: "bench", error: error.to_string() });
                }
            },
        };
        match self.session.fresh(args.hash_mb, args.threads) {
            Ok(mut session) => {
                let result = bench::run(
                    &mut session,
                    args.limit,
                    fens.as_deref(),
                    self.settings.syzygy.in_use(),
                );
                self.send(Report::Text(result.to_string()));
            }
            Err(e) => self.error(Notice::BenchThreads(e.to_string())),
        }
    }

    /// `speedtest`: the speedtest in a session of its own that plays as this one does, a line
    /// per position as it goes, then the totals `chariot speedtest` prints.
    fn speedtest(&mut self, threads: Option<usize>, hash_mb: Option<usize>, seconds: Option<u64>) {
        let threads = threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        let hash_mb = hash_mb.unwrap_or(speedtest::DEFAULT_HASH_MB);
        let seconds = seconds.unwrap_or(speedtest::DEFAULT_SECONDS);
        match speedtest::session(&self.session, threads, hash_mb) {
            Ok(mut session) => {
                let sink = self.sink.clone();
                let progress = &mut |line: &str| sink.send(&Report::Message(line.to_string()));
                let (_, text) = speedtest::run(&mut session, seconds, progress);
                self.send(Report::Text(text));
            }
            Err(error) => {
                self.error(Notice::Failed { command: "speedtest", error: error.to_string() })
            }
        }
    }

    /// `probe`: what the table holds for a position, which stays out of the session.
    fn probe(&mut self, start: Start, moves: Vec<String>) {
        let variant = match &start {
            Start::Fen(fen) => variant_of_fen(fen).unwrap_or(self.variant()),
            Start::Startpos => self.variant(),
        };
        match Board::setup(variant, &start, &moves, &self.settings) {
            Ok((board, _)) => {
                let report = with_board!(board, b => self.session.probe(&*b));
                self.send(report);
            }
            Err(e) => self.error(Notice::Failed { command: "probe", error: e.to_string() }),
        }
    }

    /// A new game: the hash table, the threads' history and the draw/resign memory start over.
    fn new_game(&mut self) {
        self.clear_tables();
        self.temper.lock().scores.clear();
    }

    /// Empties the hash table and the threads' history tables.
    fn clear_tables(&mut self) {
        self.session.clear();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        // The `tune` build: a search parameter of the session's game.
        #[cfg(feature = "tune")]
        if let Some(spec) = crate::search::params::spec(&name.trim().to_ascii_lowercase()) {
            let variant = self.variant();
            let result = match value.and_then(|v| v.trim().parse::<i32>().ok()) {
                Some(v) => {
                    self.session.params_mut(variant).set(spec.name, v).map_err(|e| e.to_string())
                }
                None => Err(OptionError::Value {
                    name: spec.name.to_string(),
                    value: value.unwrap_or("").to_string(),
                    expected: format!("a number from {} to {}", spec.min, spec.max),
                }
                .to_string()),
            };
            if let Err(e) = result {
                self.send(Report::Error(e));
            }
            return;
        }
        let (spec, value) = match options::parse(name, value, self.dialect.auto_zero) {
            Ok(found) => found,
            Err(OptionError::Unknown(n)) if self.dialect.ignore_unknown_options => {
                if self.settings.debug {
                    self.note(Notice::UnknownOption(n));
                }
                return;
            }
            Err(e) => return self.send(Report::Error(e.to_string())),
        };
        match spec.effect {
            Effect::Nothing => {}
            Effect::Act(Action::ClearHash) => self.clear_tables(),
            Effect::Act(Action::NewGame) => self.new_game(),
            Effect::Set { apply, then } => {
                let old = self.settings.clone();
                apply(&mut self.settings, &value);
                self.changed(then, &old);
            }
        }
    }

    /// Does what an option's [`Change`] asks once its value is stored; `old`: the settings
    /// before, to go back to when the change cannot be made.
    fn changed(&mut self, change: Change, old: &Settings) {
        let new = self.settings.clone();
        match change {
            Change::Stored => {}
            Change::Table => {
                let table = self.session.table_mut();
                if new.hash_mb == old.hash_mb {
                    // A resized table is empty already; clearing a big one again costs time.
                    table.clear();
                } else if table.resize(new.hash_mb).is_err() {
                    let kept = table.megabytes();
                    self.settings.hash_mb = kept;
                    self.error(Notice::Hash { wanted: new.hash_mb, kept });
                }
                self.session.clear_history();
            }
            Change::Threads => {
                if let Err(e) = self.session.set_threads(new.threads) {
                    self.settings.threads = self.session.threads();
                    let using = self.session.threads();
                    self.error(Notice::Threads {
                        wanted: new.threads,
                        error: e.to_string(),
                        using,
                    });
                }
            }
            Change::Game => {
                self.settings.variant = old.variant;
                self.set_variant(new.variant);
            }
            Change::Rules => {
                if let Some(b) = self.board.as_mut() {
                    b.apply(&new);
                }
            }
            Change::Book => {
                if (new.book.on, &new.book.file) != (old.book.on, &old.book.file) {
                    let variant = self.board.as_ref().map_or(self.variant(), Board::variant);
                    let mut reports = Vec::new();
                    self.session.shelf().load(&new.book, variant, &mut reports);
                    reports.into_iter().for_each(|r| self.send(r));
                }
            }
            Change::Network => {
                if new.nnue != old.nnue {
                    self.apply_nnue(old);
                }
            }
            Change::Tablebases => match crate::chess::tb::load(&new.syzygy.path) {
                Ok(Some(found)) => self.note(Notice::Tablebases(found)),
                Ok(None) => {}
                Err(e) => {
                    // The old tables are gone too: the settings say so.
                    self.settings.syzygy.path.clear();
                    self.error(Notice::Syzygy(e));
                }
            },
            Change::Log => {
                if new.log_file != old.log_file
                    && let Err(e) = self.sink.set_log(&new.log_file)
                {
                    // The old log (if any) goes on; the same path may be tried again.
                    self.settings.log_file = old.log_file.clone();
                    self.error(Notice::Log { path: new.log_file, error: e });
                }
            }
        }
    }

    /// `export_net [file]`: writes the network the position's game evaluates with, to `file`
    /// or to its default name (`chess.nnue`, `xiangqi.nnue`).
    fn export_net(&mut self, file: Option<String>) {
        let variant = self.board.as_ref().map_or(self.variant(), Board::variant);
        let Some(net) = self.session.nets().get(variant).cloned() else {
            return self.error(Notice::NoNetwork(variant));
        };
        let path = file.unwrap_or_else(|| crate::nnue::default_name(variant).to_string());
        match std::fs::write(&path, net.to_bytes()) {
            Ok(()) => self.note(Notice::Exported { variant, path }),
            Err(error) => self.error(Notice::Write { path, error }),
        }
    }

    /// Installs the networks the settings ask for. A file that cannot be read or is not a
    /// network is reported and the networks in use stay.
    fn apply_nnue(&mut self, old: &Settings) {
        let nnue = self.settings.nnue.clone();
        let mut loaded = None;
        if !nnue.file.is_empty() {
            match crate::nnue::load(&nnue.file) {
                Ok(net) => loaded = Some(Arc::new(net)),
                Err(e) => {
                    self.settings.nnue.file = old.nnue.file.clone();
                    return self.error(Notice::EvalFile(e));
                }
            }
        }
        for v in [Variant::Chess, Variant::Xiangqi] {
            let net = match &loaded {
                Some(net) if net.variant == v => Some(net.clone()),
                _ => crate::nnue::embedded(v),
            };
            self.session.nets_mut().set(v, if nnue.on { net } else { None });
        }
        if let Some(net) = loaded.as_ref().filter(|_| nnue.file != old.nnue.file) {
            self.note(Notice::Loaded { variant: net.variant, path: nnue.file, hidden: net.hidden });
        }
    }

    fn set_position(&mut self, start: Start, moves: Vec<String>) {
        self.banned.clear();
        // A FEN's shape chooses the game of that position only; `startpos` is the game of the
        // session (`UCI_Variant`). A rejected position applies nothing.
        let variant = match &start {
            Start::Fen(fen) => variant_of_fen(fen).unwrap_or(self.variant()),
            Start::Startpos => self.variant(),
        };
        match Board::setup(variant, &start, &moves, &self.settings) {
            Ok((b, last)) => {
                let previous = self.board.as_ref().map(Board::variant);
                if previous.is_some_and(|p| p != variant) {
                    // The other game's entries are of no use.
                    self.session.table_mut().clear();
                }
                if variant != self.variant() && previous != Some(variant) {
                    self.note(Notice::OtherGame { position: variant, session: self.variant() });
                }
                self.board = Some(b);
                self.last_move = last;
            }
            Err(e) => {
                self.invalid_reason = e.to_string();
                self.error(Notice::Rejected(e));
                self.board = None;
            }
        }
    }

    /// `d`: the board, its FEN, key, checkers and last move.
    fn display(&self, style: crate::game::Style) {
        let Some(board) = &self.board else {
            return self
                .error(Notice::NoPosition { doing: "show", reason: self.invalid_reason.clone() });
        };
        let text = with_board!(board, b => display_text(&**b, style, self.last_move));
        self.send(Report::Text(text));
    }

    /// `banmoves`: the moves are read once, here; a move that is not legal is reported.
    fn ban(&mut self, moves: Vec<String>) {
        let Some(board) = &self.board else { return };
        let parsed: Vec<_> =
            with_board!(board, b => moves.iter().map(|t| b.parse_move(t)).collect());
        self.banned.clear();
        for result in parsed {
            match result {
                Ok(m) => self.banned.push(m),
                Err(e) => self.error(Notice::Failed { command: "banmoves", error: e.to_string() }),
            }
        }
    }

    fn go(&mut self, mut limits: Limits) {
        for e in std::mem::take(&mut limits.errors) {
            self.error(Notice::Failed { command: "go", error: e.to_string() });
        }
        for w in std::mem::take(&mut limits.warnings) {
            self.send(Report::Warning(
                Notice::Failed { command: "go", error: w.to_string() }.to_string(),
            ));
        }
        // As UCI says, a `go` without a limit searches until `stop`; someone who meant a limit
        // that was not understood learns why no answer comes.
        if limits.is_unbounded() && !limits.infinite && !limits.ponder {
            self.note(Notice::Unbounded);
        }
        let Some(board) = self.board.clone() else {
            self.error(Notice::NoPosition { doing: "search", reason: self.invalid_reason.clone() });
            self.send(answer(Outcome::NONE, |_| (false, false)));
            self.gate.answered();
            return;
        };
        with_board!(board, b => self.start(*b, limits))
    }

    /// A move from the opening book for `board`, among the `root` moves the search may play,
    /// as coordinate text in the engine's notation.
    fn book_move<G: Game>(&mut self, board: &G, root: &[Move]) -> Option<String> {
        let fen = board.fen();
        let mut reports = Vec::new();
        let playable = |text: &str| board.parse_move(text).is_ok_and(|m| root.contains(&m));
        let pick = self.session.shelf().pick(
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

    /// Starts a search (or perft, or the static score) of `board` on the search threads and
    /// returns at once. Everything below is compiled for `G`.
    fn start<G: Inspect + Networked>(&mut self, board: G, limits: Limits) {
        let side = board.side_to_move().index();
        let (overhead, ponder) = (self.settings.overhead_ms, self.settings.ponder);
        let budget = self.session.plan(G::VARIANT, &limits, side, overhead, ponder);
        if self.settings.debug {
            self.note(Notice::Budget { soft: budget.soft, hard: budget.hard });
        }
        // Only `ponderhit` bounds a ponder search; until then end of input stops it.
        let unbounded = limits.infinite || limits.is_unbounded();
        let (root, rejected) = pool::root_moves(&board, &limits.searchmoves, &self.banned);
        for text in rejected {
            self.error(Notice::NotLegal(text));
        }
        // A book move answers at once, but never a search that only `stop` may end.
        let book = &self.settings.book;
        let book_move = if book.active()
            && limits.perft.is_none()
            && limits.depth != Some(0)
            && !unbounded
            && !limits.ponder
            && !root.is_empty()
        {
            self.book_move(&board, &root)
        } else {
            None
        };
        let pondering = limits.ponder;
        let ponder_ends = pondering && !self.ponderhit_queued();
        let contempt = self.settings.contempt(self.session.params(G::VARIANT).contempt);
        let job = Job {
            board,
            root,
            limits,
            budget,
            view: self.settings.view.clone(),
            skill: self.settings.strength.skill(G::VARIANT),
            contempt,
            idle: self.settings.idle,
            soft_nodes: None,
            tablebases: self.settings.syzygy.in_use(),
            book: book_move,
            sink: self.sink.clone(),
        };
        let (sink, done, temper) = (self.sink.clone(), self.done_tx.clone(), self.temper.clone());
        let may_resign = self.settings.resign;
        // The one answer path: whatever the job was, its outcome is turned into the answer
        // here, marked as given before it is sent (a `stop` or `ponderhit` read after it
        // belongs to the next search), and the controller is told.
        let signals = self.session.start(job, move |outcome, sig| {
            let answer = answer(outcome, |f| {
                let offered = sig.draw_offered();
                temper.lock().judge(
                    f.score,
                    f.units_per_cp,
                    f.depth,
                    sig.contempt,
                    offered,
                    may_resign,
                )
            });
            sig.mark_answered();
            sink.send(&answer);
            let _ = done.send(());
        });
        // At end of input nothing could end an unbounded search or a ponder search, unless
        // its `ponderhit` was read already.
        if self.quitting || (self.eof && (unbounded || ponder_ends)) {
            signals.stop();
        }
        // While only input can end this search, the batch-mode reader must go on reading.
        self.gate.set_open_ended(unbounded || pondering);
        self.running = Some(Running { signals, unbounded, told_waiting: false });
    }
}

/// The answer to a `go` (or to UCCI's `stop` while idle), from its outcome: the one place a
/// `bestmove`, `nobestmove` or perft total is made. `judge` says, from what the search found,
/// whether to offer a draw and whether to resign.
fn answer(outcome: Outcome, judge: impl FnOnce(&Found) -> (bool, bool)) -> Report {
    match outcome {
        Outcome::Perft(nodes) => Report::PerftTotal { nodes },
        Outcome::Move { best, ponder, found } => {
            let (draw, resign) = found.as_ref().map_or((false, false), judge);
            Report::BestMove { best, ponder, draw, resign }
        }
    }
}

#[cfg(test)]
mod tests;
