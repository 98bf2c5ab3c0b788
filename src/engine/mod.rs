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
mod shelf;

use crate::command::{Command, Dialect, Event, Gate, Limits, Start};
use crate::game::{DRAW, Game, Inspect, MATE_BOUND, Move, MoveList, Variant, perft_divide};
use crate::options::{self, Action, Effect, OptionError, Settings};
use crate::report::{Report, Sink, excerpt};
use crate::search::pool::{self, Pool, Search};
use crate::search::signals::Signals;
use crate::search::time::Budget;
use crate::search::tt::{self, Table};
use crate::search::{ThreadData, Worker, to_eval};
use board::{Board, display_text, eval_text, variant_of_fen, with_board};
use crossbeam_channel::{Receiver, Sender, select};
use parking_lot::Mutex;
use shelf::Shelf;
use std::collections::VecDeque;
use std::sync::Arc;

/// The table's entry for `board`, as ElephantEye's `probe` shows it; without one, the
/// quiescence score as both bounds at depth 0.
fn probe<G: Game>(board: &G, tt: &Table) -> Report {
    if let Some(hit) = tt.probe(board.key(), 0) {
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
        Worker::new(board.clone(), root, tt, &signals, 0, &mut data).static_score()
    };
    let leaf = Some((to_eval::<G>(score), 0));
    Report::Probe { best: None, lower: leaf, upper: leaf }
}

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
    /// Records a search's score and decides `(draw, resign)`.
    fn judge<G: Game>(
        &mut self,
        score: i32,
        depth: u32,
        contempt: i32,
        draw_offered: bool,
        may_resign: bool,
    ) -> (bool, bool) {
        let protocol = score / G::UNITS_PER_CP;
        self.scores.push(if depth >= DRAW_OFFER_DEPTH { score } else { i32::MIN });
        let recent = |n: usize| &self.scores[self.scores.len().saturating_sub(n)..];
        let hopeless = |s: &i32| *s != i32::MIN && *s / G::UNITS_PER_CP <= RESIGN_SCORE;
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
    tt: Arc<Table>,
    pool: Pool,
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
    /// The opening book.
    shelf: Shelf,
}

impl Engine {
    /// A fresh session reporting to `sink`; `variant` is the game until told otherwise.
    /// Fails only when the search thread cannot be started.
    pub fn new(sink: Arc<dyn Sink>, variant: Option<Variant>) -> std::io::Result<Self> {
        Self::with_hash(sink, variant, Settings::default().hash_mb)
    }

    /// [`Engine::new`] with a hash table of `hash_mb` MB at first instead of the `Hash`
    /// option's default: a harness that starts thousands of sessions (the fuzzer) need not
    /// clear 16 MB for each.
    pub fn with_hash(
        sink: Arc<dyn Sink>,
        variant: Option<Variant>,
        hash_mb: usize,
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
            tt: Arc::new(Table::new(settings.hash_mb)),
            pool: Pool::new(settings.threads)?,
            settings,
            running: None,
            pending: VecDeque::new(),
            eof: false,
            quitting: false,
            done_tx,
            done_rx,
            shelf: Shelf::default(),
        })
    }

    /// The gate the reader waits at in UCCI batch mode.
    pub fn gate(&self) -> Arc<Gate> {
        self.gate.clone()
    }

    fn send(&self, report: Report) {
        self.sink.send(&report);
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
            self.table_mut().clear();
        }
    }

    fn variant(&self) -> Variant {
        self.settings.variant
    }

    /// The hash table, for a change between searches. Every search thread lets go of it
    /// before the search's completion is noticed; should one still hold it, the change goes
    /// to a fresh table.
    fn table_mut(&mut self) -> &mut Table {
        if Arc::get_mut(&mut self.tt).is_none() {
            self.tt = Arc::new(Table::new(self.settings.hash_mb));
        }
        Arc::get_mut(&mut self.tt).expect("a table just made has no other owner")
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
                self.sink.send(&Report::Message(
                    "waiting for the search to end (stop ends it); then this runs".into(),
                ));
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
                    self.send(Report::no_move());
                }
            }
            Command::PonderHit { .. } => {}
            Command::Debug(on) => self.settings.debug = on,
            Command::Register => self.send(Report::Registered),
            Command::Help => self.send(Report::Help),
            Command::Display(style) => self.display(style.unwrap_or(self.settings.style)),
            Command::Eval => match &self.board {
                Some(board) => with_board!(board, b => self.send(Report::Text(eval_text(&**b)))),
                None => self.send(Report::Error("no valid position to evaluate".into())),
            },
            Command::ExportNet(file) => self.export_net(file),
            Command::Compiler => self.send(Report::Text(crate::nnue::compiler_text())),
            Command::Flip => {
                if let Some(board) = &self.board {
                    let flipped: Board = with_board!(board, b => b.flipped().into());
                    self.board = Some(flipped);
                    self.last_move = None;
                    self.banned.clear();
                }
            }
            Command::Probe { start, moves } => self.probe(start, moves),
            // Runs here, to its end: OpenBench sends `quit` only after the last start.
            Command::Genfens(request) => match crate::datagen::genfens(&request, self.variant()) {
                Ok(fens) => fens.for_each(|fen| self.send(Report::Genfen(fen))),
                Err(e) => self.send(Report::Error(format!("genfens: {e}"))),
            },
            Command::Quit => {
                self.quit();
                return false;
            }
        }
        true
    }

    /// `probe`: what the table holds for a position, which stays out of the session.
    fn probe(&mut self, start: Start, moves: Vec<String>) {
        let variant = match &start {
            Start::Fen(fen) => variant_of_fen(fen).unwrap_or(self.variant()),
            Start::Startpos => self.variant(),
        };
        match Board::setup(variant, &start, &moves, &self.settings) {
            Ok((board, _)) => {
                let report = with_board!(board, b => probe(&*b, &self.tt));
                self.send(report);
            }
            Err(e) => self.send(Report::Error(format!("probe: {e}"))),
        }
    }

    /// A new game: the hash table, the threads' history and the draw/resign memory start over.
    fn new_game(&mut self) {
        self.clear_tables();
        self.temper.lock().scores.clear();
    }

    /// Empties the hash table and the threads' history tables.
    fn clear_tables(&mut self) {
        self.table_mut().clear();
        self.pool.clear();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let (spec, value) = match options::parse(name, value, self.dialect.auto_zero) {
            Ok(found) => found,
            Err(OptionError::Unknown(n)) if self.dialect.ignore_unknown_options => {
                if self.settings.debug {
                    self.send(Report::Message(format!(
                        "ignoring unknown option '{}'",
                        excerpt(&n)
                    )));
                }
                return;
            }
            Err(e) => return self.send(Report::Error(e.to_string())),
        };
        match spec.effect {
            Effect::Nothing => {}
            Effect::Act(Action::ClearHash) => self.clear_tables(),
            Effect::Act(Action::NewGame) => self.new_game(),
            Effect::Set(apply) | Effect::SetAndClear(apply) => {
                let old = self.settings.clone();
                apply(&mut self.settings, &value);
                let clear = matches!(spec.effect, Effect::SetAndClear(_));
                // A resized table is empty already; clearing a big one again costs time.
                if clear && self.settings.hash_mb == old.hash_mb {
                    self.table_mut().clear();
                }
                self.settings_changed(&old);
                if clear {
                    self.pool.clear();
                }
            }
        }
    }

    /// Acts on what an option changed in the settings.
    fn settings_changed(&mut self, old: &Settings) {
        let new = self.settings.clone();
        if new.hash_mb != old.hash_mb {
            let table = self.table_mut();
            if table.resize(new.hash_mb).is_err() {
                let kept = table.megabytes();
                self.settings.hash_mb = kept;
                self.send(Report::Error(format!(
                    "cannot allocate a {} MB hash table; keeping {kept} MB",
                    new.hash_mb
                )));
            }
        }
        if new.threads != old.threads
            && let Err(e) = self.pool.resize(new.threads)
        {
            self.settings.threads = self.pool.len();
            self.send(Report::Error(format!(
                "cannot start {} search threads ({e}); using {}",
                new.threads,
                self.pool.len()
            )));
        }
        if new.variant != old.variant {
            self.settings.variant = old.variant;
            self.set_variant(new.variant);
        }
        if (new.chess960, new.drawmoves, new.rules) != (old.chess960, old.drawmoves, old.rules)
            && let Some(b) = self.board.as_mut()
        {
            b.apply(&new);
        }
        if (new.book.on, &new.book.file) != (old.book.on, &old.book.file) {
            // Load the book now, so that a bad path is reported when it is set.
            let variant = self.board.as_ref().map_or(self.variant(), Board::variant);
            let mut reports = Vec::new();
            self.shelf.load(&new.book, variant, &mut reports);
            reports.into_iter().for_each(|r| self.send(r));
        }
        if new.nnue != old.nnue {
            self.apply_nnue(old);
        }
        if new.log_file != old.log_file
            && let Err(e) = self.sink.set_log(&new.log_file)
        {
            // The old log (if any) goes on; the same path may be tried again.
            self.settings.log_file = old.log_file.clone();
            self.send(Report::Error(format!(
                "cannot open log file '{}': {e}",
                excerpt(&new.log_file)
            )));
        }
    }

    /// `export_net [file]`: writes the network the position's game evaluates with, to `file`
    /// or to its default name (`chess.nnue`, `xiangqi.nnue`).
    fn export_net(&mut self, file: Option<String>) {
        let variant = self.board.as_ref().map_or(self.variant(), Board::variant);
        let Some(net) = crate::nnue::in_use(variant) else {
            return self.send(Report::Error(format!(
                "no {} network is in use (Use NNUE is off, or none is embedded)",
                variant.name()
            )));
        };
        let path = file.unwrap_or_else(|| crate::nnue::default_name(variant).to_string());
        match std::fs::write(&path, net.to_bytes()) {
            Ok(()) => self.send(Report::Message(format!(
                "wrote the {} network to '{}'",
                variant.name(),
                excerpt(&path)
            ))),
            Err(e) => self.send(Report::Error(format!("cannot write '{}': {e}", excerpt(&path)))),
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
                    return self.send(Report::Error(format!("EvalFile {e}; the network stays")));
                }
            }
        }
        for v in [Variant::Chess, Variant::Xiangqi] {
            let net = match &loaded {
                Some(net) if net.variant == v => Some(net.clone()),
                _ => crate::nnue::embedded(v),
            };
            crate::nnue::install(v, if nnue.on { net } else { None });
        }
        if let Some(net) = loaded.as_ref().filter(|_| nnue.file != old.nnue.file) {
            self.send(Report::Message(format!(
                "loaded {} network '{}' ({} hidden)",
                net.variant.name(),
                excerpt(&nnue.file),
                net.hidden
            )));
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
                    self.table_mut().clear();
                }
                if variant != self.variant() && previous != Some(variant) {
                    self.send(Report::Message(format!(
                        "a {} position by the FEN's shape (the session's game stays {})",
                        variant.name(),
                        self.variant().name()
                    )));
                }
                self.board = Some(b);
                self.last_move = last;
            }
            Err(e) => {
                self.send(Report::Error(format!("position rejected: {e}")));
                self.invalid_reason = e;
                self.board = None;
            }
        }
    }

    /// `d`: the board, its FEN, key, checkers and last move.
    fn display(&self, style: crate::game::Style) {
        let Some(board) = &self.board else {
            return self.send(Report::Error(format!(
                "no valid position to show ({})",
                self.invalid_reason
            )));
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
                Err(e) => self.send(Report::Error(format!("banmoves: {e}"))),
            }
        }
    }

    fn go(&mut self, mut limits: Limits) {
        for e in std::mem::take(&mut limits.errors) {
            self.send(Report::Error(format!("go: {e}")));
        }
        for w in std::mem::take(&mut limits.warnings) {
            self.send(Report::Warning(format!("go: {w}")));
        }
        // As UCI says, a `go` without a limit searches until `stop`; someone who meant a limit
        // that was not understood learns why no answer comes.
        if limits.is_unbounded() && !limits.infinite && !limits.ponder {
            self.send(Report::Message("go without a limit searches until 'stop'".into()));
        }
        let Some(board) = self.board.clone() else {
            self.send(Report::Error(format!(
                "no valid position to search ({})",
                self.invalid_reason
            )));
            self.send(Report::no_move());
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

    /// Starts a search (or perft, or the static score) of `board` on the search threads and
    /// returns at once. Everything below is compiled for `G`.
    fn start<G: Inspect>(&mut self, board: G, limits: Limits) {
        self.table_mut().new_search();
        let side = board.side_to_move().index();
        let budget = Budget::plan(&limits, side, self.settings.overhead_ms, self.settings.ponder);
        if self.settings.debug {
            let ms = |t: Option<u64>| t.map_or("none".to_string(), |t| format!("{t} ms"));
            self.send(Report::Message(format!(
                "time budget: soft {}, hard {}",
                ms(budget.soft),
                ms(budget.hard)
            )));
        }
        let mut signals = Signals::new(&limits, budget, self.pool.len());
        let skill = self.settings.strength.skill(G::VARIANT);
        if let Some(nodes) = skill.node_limit() {
            signals.cap_nodes(nodes);
        }
        if let Some(depth) = skill.depth_limit() {
            signals.cap_depth(depth);
        }
        signals.contempt = self.settings.contempt();
        signals.idle = self.settings.idle;
        let signals = Arc::new(signals);
        // Only `ponderhit` bounds a ponder search; until then end of input stops it.
        let unbounded = limits.infinite || limits.is_unbounded();
        let (root, rejected) = pool::root_moves(&board, &limits.searchmoves, &self.banned);
        for text in rejected {
            self.send(Report::Error(format!("'{}' is not a legal move here", excerpt(&text))));
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
        let (sink, done, sig) = (self.sink.clone(), self.done_tx.clone(), signals.clone());
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
                    sink.send(&Report::PerftTotal { nodes: total });
                    sig.mark_answered();
                    let _ = done.send(());
                }),
            );
        } else if let Some(best) = book_move {
            self.pool.run_on(
                0,
                Box::new(move |_| {
                    sink.send(&Report::Message(format!("book move {best}")));
                    sig.mark_answered();
                    let answer = Report::BestMove {
                        best: Some(best),
                        ponder: None,
                        draw: false,
                        resign: false,
                    };
                    sink.send(&answer);
                    let _ = done.send(());
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
                    sig.mark_answered();
                    sink.send(&Report::no_move());
                    let _ = done.send(());
                }),
            );
        } else if limits.depth == Some(0) {
            // Depth 0: the quiescence score, and no move.
            let tt = self.tt.clone();
            self.pool.run_on(
                0,
                Box::new(move |data: &mut ThreadData| {
                    let score = {
                        let mut w = Worker::new(board, root, &tt, &sig, 0, data);
                        to_eval::<G>(w.static_score())
                    };
                    drop(tt);
                    sink.send(&Report::Static { score });
                    // `go ponder depth 0` answers only after `ponderhit` or `stop`, as every
                    // pondering search does.
                    sig.wait_until_answerable();
                    sig.mark_answered();
                    sink.send(&Report::no_move());
                    let _ = done.send(());
                }),
            );
        } else {
            let temper = self.temper.clone();
            let may_resign = self.settings.resign;
            let search = Search {
                board: board.clone(),
                root,
                view: self.settings.view.clone(),
                tt: self.tt.clone(),
                signals: signals.clone(),
                sink: sink.clone(),
                skill,
            };
            self.pool.start(search, move |answer| {
                sig.wait_until_answerable();
                let (draw, resign) = temper.lock().judge::<G>(
                    answer.score,
                    answer.depth,
                    sig.contempt,
                    sig.draw_offered(),
                    may_resign,
                );
                let best = answer.best.map(|m| board.move_text(m));
                let ponder = answer.best.and_then(|b| {
                    let mut after = board.clone();
                    after.make(b);
                    answer.ponder.filter(|&p| after.is_legal(p)).map(|p| after.move_text(p))
                });
                sig.mark_answered();
                sink.send(&Report::BestMove { best, ponder, draw, resign });
                let _ = done.send(());
            });
        }
        // At end of input nothing could end an unbounded search or a ponder search, unless
        // its `ponderhit` was read already.
        let ponder_ends = limits.ponder && !self.ponderhit_queued();
        if self.quitting || (self.eof && (unbounded || ponder_ends)) {
            signals.stop();
        }
        // While only input can end this search, the batch-mode reader must go on reading.
        self.gate.set_open_ended(unbounded || limits.ponder);
        self.running = Some(Running { signals, unbounded, told_waiting: false });
    }
}
#[cfg(test)]
mod tests;
