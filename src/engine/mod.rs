//! The controller: owns the session (protocol, game, position, options, hash table) and the
//! running search, and executes commands in order.
//!
//! It never blocks on the search. While a search runs, `stop`, `ponderhit`, `isready`, `debug`
//! and `quit` act at once; every other command waits in a queue until the search has answered,
//! and then runs in order, so nothing is dropped. The game is chosen here, once per command:
//! everything below [`Engine::start`] is monomorphised for one game.

pub mod options;

use crate::chess::Chess;
use crate::game::{DRAW, MATE_BOUND};
use crate::game::{Game, Inspect, MoveList, Side, Style, Variant, perft_divide};
use crate::protocol::output::Output;
use crate::protocol::reader::Event;
use crate::protocol::reader::Gate;
use crate::protocol::{Command, Limits, Protocol, Report, Start};
use crate::search::pool::{self, Reporter, Signals};
use crate::search::time::Budget;
use crate::search::tt::Table;
use crate::search::{Worker, to_eval};
use crate::xiangqi::Xiangqi;
use crossbeam_channel::{Receiver, Sender, select};
use options::{Change, Settings};
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Arc;
use std::thread::JoinHandle;

/// The text of `d`: the board, side to move, FEN, key, checkers, and the last move with its
/// name in the game's tradition (`before` is the board before it and its text).
fn display_text<G: Inspect>(board: &G, style: Style, before: Option<(&G, &str)>) -> String {
    let side = match (G::VARIANT, board.side_to_move()) {
        (_, Side::Second) => "black",
        (Variant::Chess, Side::First) => "white",
        (Variant::Xiangqi, Side::First) => "red",
    };
    let checkers = board.checkers();
    let last = before.and_then(|(b, text)| {
        let m = b.parse_move(text).ok()?;
        let name = b.move_name(m);
        Some(if name == text { name } else { format!("{text} ({name})") })
    });
    format!(
        "{}\nSide to move: {side}\nFen: {}\nKey: {:016X}\nCheckers: {}\nLast move: {}",
        board.board_text(style),
        board.fen(),
        board.key(),
        if checkers.is_empty() { "-".to_string() } else { checkers.join(" ") },
        last.unwrap_or_else(|| "-".to_string()),
    )
}

/// The text of `eval`: each term for each side in protocol units, then the total.
fn eval_text<G: Inspect>(board: &G) -> String {
    let unit = G::UNITS_PER_CP;
    let (first, second) = match G::VARIANT {
        Variant::Chess => ("White", "Black"),
        Variant::Xiangqi => ("Red", "Black"),
    };
    let mut out = format!("{:>14} | {first:>8} | {second:>8} | {:>8}\n", "Term", "Total");
    out.push_str(&format!("{:-<14}-+-{:-<8}-+-{:-<8}-+-{:-<8}\n", "", "", "", ""));
    let mut total = 0;
    for t in board.eval_terms() {
        let diff = t.first - t.second;
        total += diff;
        out.push_str(&format!(
            "{:>14} | {:>8} | {:>8} | {:>8}\n",
            t.name,
            t.first / unit,
            t.second / unit,
            diff / unit
        ));
    }
    let stm = board.evaluate();
    let units = match G::VARIANT {
        Variant::Chess => "centipawns",
        Variant::Xiangqi => "UCCI units, a horse = 100",
    };
    out.push_str(&format!(
        "\nEvaluation: {} for {first} ({}, {units}); {} for the side to move",
        total / unit,
        if total >= 0 { "ahead or level" } else { "behind" },
        stm / unit
    ));
    out
}

/// How long a `go` whose limits could not be read searches (ms).
const ERROR_MOVETIME_MS: u64 = 100;

/// A position of either game.
#[derive(Clone)]
pub enum Board {
    /// A chess position.
    Chess(Box<Chess>),
    /// A xiangqi position.
    Xiangqi(Box<Xiangqi>),
}

impl Board {
    /// The starting position of `variant`.
    pub fn startpos(variant: Variant) -> Board {
        match variant {
            Variant::Chess => Board::Chess(Box::new(Chess::startpos())),
            Variant::Xiangqi => Board::Xiangqi(Box::new(Xiangqi::startpos())),
        }
    }

    /// Sets up `start` and plays `moves` in `variant` with the rules `settings` choose;
    /// on error nothing is applied and the message names the bad FEN field or the first bad move.
    pub fn setup(
        variant: Variant,
        start: &Start,
        moves: &[String],
        settings: &Settings,
    ) -> Result<Board, String> {
        fn build<G: Game>(
            start: &Start,
            moves: &[String],
            prepare: impl FnOnce(&mut G),
        ) -> Result<G, String> {
            let mut board = match start {
                Start::Startpos => G::startpos(),
                Start::Fen(fen) => G::from_fen(fen).map_err(|e| format!("invalid FEN: {e}"))?,
            };
            prepare(&mut board);
            for (i, text) in moves.iter().enumerate() {
                let m = board.parse_move(text).map_err(|e| format!("move {} {e}", i + 1))?;
                board.make(m);
            }
            Ok(board)
        }
        Ok(match variant {
            Variant::Chess => Board::Chess(Box::new(build(start, moves, |b: &mut Chess| {
                b.set_chess960(settings.chess960)
            })?)),
            Variant::Xiangqi => {
                Board::Xiangqi(Box::new(build(start, moves, |b: &mut Xiangqi| {
                    b.set_move_limit(settings.drawmoves);
                    b.set_rules(settings.rules);
                })?))
            }
        })
    }
}

/// Guesses the game from a FEN's shape: ten ranks mean xiangqi, eight mean chess.
pub fn variant_of_fen(fen: &str) -> Option<Variant> {
    let board = fen.split_whitespace().next()?;
    match board.split('/').count() {
        8 => Some(Variant::Chess),
        10 => Some(Variant::Xiangqi),
        _ => None,
    }
}

/// A search in progress.
struct Running {
    handle: JoinHandle<()>,
    signals: Arc<Signals>,
    /// `go infinite` or a `go` without limits: end of input stops it instead of waiting for it
    /// (so it does a search still pondering, which is looked up live).
    unbounded: bool,
}

/// The session.
pub struct Engine {
    out: Arc<Output>,
    protocol: Option<Protocol>,
    variant: Variant,
    /// `None` after a rejected `position`: the next `go` refuses instead of searching a stale one.
    board: Option<Board>,
    /// Why the position is invalid, to repeat on `go`.
    invalid_reason: String,
    /// The last accepted `position`: where it started and the moves since (for `d`).
    line: (Start, Vec<String>),
    banned: Vec<String>,
    settings: Settings,
    tt: Arc<Table>,
    debug: bool,
    running: Option<Running>,
    pending: VecDeque<Command>,
    eof: bool,
    done_tx: Sender<()>,
    done_rx: Receiver<()>,
    /// Holds the reader in UCCI batch mode until each `go` is answered.
    gate: Arc<Gate>,
    /// The engine's own recent scores, for draw offers and resigning.
    temper: Arc<Mutex<Temper>>,
}

/// The engine's mood over a game: its recent scores decide draw offers and resigning.
#[derive(Default)]
struct Temper {
    /// Scores (internal units, own view) of the last searches, most recent last.
    scores: Vec<i32>,
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

impl Engine {
    /// A fresh session writing to `out`; `variant` is the game until a protocol says otherwise.
    pub fn new(out: Arc<Output>, variant: Option<Variant>) -> Self {
        let (done_tx, done_rx) = crossbeam_channel::unbounded();
        let variant = variant.unwrap_or(Variant::Chess);
        let settings = Settings::default();
        Engine {
            out,
            protocol: None,
            gate: Arc::new(Gate::default()),
            temper: Arc::new(Mutex::new(Temper::default())),
            variant,
            board: Some(Board::startpos(variant)),
            invalid_reason: String::new(),
            line: (Start::Startpos, Vec::new()),
            banned: Vec::new(),
            tt: Arc::new(Table::new(settings.hash_mb)),
            settings,
            debug: false,
            running: None,
            pending: VecDeque::new(),
            eof: false,
            done_tx,
            done_rx,
        }
    }

    /// The gate the reader waits at in UCCI batch mode.
    pub fn gate(&self) -> Arc<Gate> {
        self.gate.clone()
    }

    fn reporter(&self) -> Reporter {
        Reporter { out: self.out.clone(), protocol: self.protocol.unwrap_or(Protocol::Uci) }
    }

    fn send(&self, report: Report) {
        self.reporter().send(&report);
    }

    /// Runs until `quit`, or until input has ended and every command has been answered.
    pub fn run(mut self, mut inbox: Receiver<Event>) {
        loop {
            select! {
                recv(inbox) -> event => match event {
                    Ok(Event::Protocol(p)) => self.set_protocol(p),
                    Ok(Event::Command(c)) => {
                        if !self.on_command(c) {
                            return;
                        }
                    }
                    Ok(Event::Bad(e)) => self.send(Report::Error(e.to_string())),
                    Ok(Event::Line(line)) => self.out.log_input(&line),
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
                    self.finish_search();
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

    fn set_protocol(&mut self, p: Protocol) {
        if self.protocol.is_none() {
            self.protocol = Some(p);
            if p == Protocol::Ucci && self.variant != Variant::Xiangqi {
                self.set_variant(Variant::Xiangqi);
            }
        }
    }

    fn set_variant(&mut self, v: Variant) {
        if v != self.variant {
            self.variant = v;
            self.board = Some(Board::startpos(v));
            self.line = (Start::Startpos, Vec::new());
            self.banned.clear();
            if let Some(tt) = Arc::get_mut(&mut self.tt) {
                tt.clear();
            }
        }
    }

    /// Handles a command as it arrives. Returns false when the session is over.
    fn on_command(&mut self, c: Command) -> bool {
        // A search that has written its `bestmove` is over even before its completion notice
        // is handled: a `ponderhit` or `stop` sent after that answer belongs to the search
        // queued behind it, and must not be spent on this one.
        if self.running.as_ref().is_some_and(|run| run.signals.answered()) {
            self.finish_search();
            if !self.drain() {
                return false;
            }
        }
        if let Some(run) = &self.running {
            match c {
                Command::IsReady => self.send(Report::Ready),
                Command::Stop => run.signals.stop(),
                Command::PonderHit { draw_offer } => run.signals.ponderhit(draw_offer),
                Command::Debug(on) => self.debug = on,
                Command::Quit => {
                    run.signals.stop();
                    self.finish_search();
                    self.quit();
                    return false;
                }
                other => self.pending.push_back(other),
            }
            return true;
        }
        self.execute(c)
    }

    /// After a search: runs queued commands until one starts a new search.
    fn drain(&mut self) -> bool {
        while self.running.is_none() {
            let Some(c) = self.pending.pop_front() else { break };
            if !self.execute(c) {
                return false;
            }
        }
        true
    }

    fn on_eof(&mut self) {
        if let Some(run) = &self.running
            && (run.unbounded || run.signals.pondering())
        {
            run.signals.stop();
        }
    }

    fn finish_search(&mut self) {
        if let Some(run) = self.running.take() {
            let _ = run.handle.join();
            // Drain the completion notice if the join came first (quit).
            while self.done_rx.try_recv().is_ok() {}
            self.gate.answered();
        }
    }

    fn quit(&self) {
        if self.protocol == Some(Protocol::Ucci) {
            self.send(Report::Bye);
        }
    }

    /// Executes a command while no search runs. Returns false on `quit`.
    fn execute(&mut self, c: Command) -> bool {
        match c {
            Command::Hello => self.send(Report::Hello { variant: self.variant }),
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
                // UCCI answers a stop while idle; UCI has nothing to say.
                if self.protocol == Some(Protocol::Ucci) {
                    self.send(Report::BestMove {
                        best: None,
                        ponder: None,
                        draw: false,
                        resign: false,
                    });
                }
            }
            Command::PonderHit { .. } => {}
            Command::Debug(on) => self.debug = on,
            Command::Register => self.send(Report::Registered),
            Command::Help => self.send(Report::Help),
            Command::Display(style) => self.display(style.unwrap_or(self.settings.style)),
            Command::Eval => match &self.board {
                Some(Board::Chess(b)) => self.send(Report::Text(eval_text(&**b))),
                Some(Board::Xiangqi(b)) => self.send(Report::Text(eval_text(&**b))),
                None => self.send(Report::Error("no valid position to evaluate".into())),
            },
            Command::Flip => {
                let flipped = match &self.board {
                    Some(Board::Chess(b)) => Board::Chess(Box::new(b.flipped())),
                    Some(Board::Xiangqi(b)) => Board::Xiangqi(Box::new(b.flipped())),
                    None => return true,
                };
                let fen = match &flipped {
                    Board::Chess(b) => b.fen(),
                    Board::Xiangqi(b) => b.fen(),
                };
                self.board = Some(flipped);
                self.line = (Start::Fen(fen), Vec::new());
                self.banned.clear();
            }
            Command::Quit => {
                self.quit();
                return false;
            }
        }
        true
    }

    fn new_game(&mut self) {
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.clear();
        }
        self.temper.lock().scores.clear();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let change = match options::parse(name, value) {
            Ok(c) => c,
            Err(options::OptionError::Unknown(n)) if self.protocol == Some(Protocol::Ucci) => {
                // UCCI: an option the engine does not know is ignored without harm.
                if self.debug {
                    self.send(Report::Message(format!("ignoring unknown option '{n}'")));
                }
                return;
            }
            Err(e) => return self.send(Report::Error(e.to_string())),
        };
        match change {
            Change::Hash(mb) => {
                self.settings.hash_mb = mb;
                match Arc::get_mut(&mut self.tt) {
                    Some(tt) => tt.resize(mb),
                    None => self.tt = Arc::new(Table::new(mb)),
                }
            }
            Change::Threads(n) => self.settings.threads = n,
            Change::Overhead(ms) => self.settings.overhead_ms = ms,
            Change::ClearHash => {
                if let Some(tt) = Arc::get_mut(&mut self.tt) {
                    tt.clear();
                }
            }
            Change::Variant(v) => self.set_variant(v),
            Change::MultiPv(n) => self.settings.view.multipv = n,
            Change::ShowWdl(on) => self.settings.view.wdl = on,
            Change::ShowCurrLine(on) => self.settings.view.currline = on,
            Change::ShowRefutations(on) => self.settings.view.refutations = on,
            Change::Ponder(on) => self.settings.ponder = on,
            Change::Analyse(on) => self.settings.analyse = on,
            Change::Chess960(on) => {
                self.settings.chess960 = on;
                if let Some(Board::Chess(b)) = self.board.as_mut() {
                    b.set_chess960(on);
                }
            }
            Change::Opponent(o) => self.settings.opponent = o,
            Change::LogFile(path) => {
                if let Err(e) = self.out.set_log(&path) {
                    self.send(Report::Error(format!("cannot open log file '{path}': {e}")));
                }
            }
            Change::NewGame => self.new_game(),
            Change::Debug(on) => self.debug = on,
            Change::DrawMoves(plies) => {
                self.settings.drawmoves = plies;
                if let Some(Board::Xiangqi(b)) = self.board.as_mut() {
                    b.set_move_limit(plies);
                }
            }
            Change::Rules(rules) => {
                self.settings.rules = rules;
                if let Some(Board::Xiangqi(b)) = self.board.as_mut() {
                    b.set_rules(rules);
                }
            }
            Change::Idle(share) => self.settings.idle = share,
            Change::Resign(on) => self.settings.resign = on,
            Change::MoveNames(on) => self.settings.view.move_names = on,
            Change::Style(style) => self.settings.style = style,
            Change::None => {}
        }
    }

    fn set_position(&mut self, start: Start, moves: Vec<String>) {
        self.banned.clear();
        // The FEN's shape may choose the other game, but only a position that is accepted
        // switches to it: a rejected one applies nothing.
        let variant = match &start {
            Start::Fen(fen) => variant_of_fen(fen).unwrap_or(self.variant),
            Start::Startpos => self.variant,
        };
        match Board::setup(variant, &start, &moves, &self.settings) {
            Ok(b) => {
                if variant != self.variant {
                    self.set_variant(variant);
                    self.send(Report::Message(format!(
                        "variant set to {} by the FEN",
                        variant.name()
                    )));
                }
                self.board = Some(b);
                self.line = (start, moves);
            }
            Err(e) => {
                self.send(Report::Error(format!("position rejected: {e}")));
                self.invalid_reason = e;
                self.board = None;
            }
        }
    }

    /// `d`: the board, its FEN, key, checkers and last move.
    fn display(&self, style: Style) {
        let Some(board) = &self.board else {
            return self.send(Report::Error(format!(
                "no valid position to show ({})",
                self.invalid_reason
            )));
        };
        // The board before the last move, to name that move.
        let (start, moves) = &self.line;
        let before = moves.split_last().and_then(|(last, earlier)| {
            let b = Board::setup(self.variant, start, earlier, &self.settings).ok()?;
            Some((b, last.clone()))
        });
        let text = match (board, before) {
            (Board::Chess(b), Some((Board::Chess(p), m))) => {
                display_text(&**b, style, Some((&*p, &m)))
            }
            (Board::Xiangqi(b), Some((Board::Xiangqi(p), m))) => {
                display_text(&**b, style, Some((&*p, &m)))
            }
            (Board::Chess(b), _) => display_text::<Chess>(b, style, None),
            (Board::Xiangqi(b), _) => display_text::<Xiangqi>(b, style, None),
        };
        self.send(Report::Text(text));
    }

    fn ban(&mut self, moves: Vec<String>) {
        let Some(board) = &self.board else { return };
        let check = |text: &String| -> Option<String> {
            let legal = match board {
                Board::Chess(b) => b.parse_move(text).map(|_| ()),
                Board::Xiangqi(b) => b.parse_move(text).map(|_| ()),
            };
            legal.err().map(|e| e.to_string())
        };
        for text in &moves {
            if let Some(e) = check(text) {
                self.send(Report::Error(format!("banmoves: {e}")));
            }
        }
        self.banned = moves;
    }

    fn go(&mut self, mut limits: Limits) {
        for e in std::mem::take(&mut limits.errors) {
            self.send(Report::Error(format!("go: {e}")));
            // A `go` whose limits could not be read must still answer, and soon.
            if limits.is_unbounded() && !limits.ponder {
                limits.movetime = Some(ERROR_MOVETIME_MS);
            }
        }
        let Some(board) = self.board.clone() else {
            self.send(Report::Error(format!(
                "no valid position to search ({})",
                self.invalid_reason
            )));
            self.send(Report::BestMove { best: None, ponder: None, draw: false, resign: false });
            self.gate.answered();
            return;
        };
        // UCI has no use for a depth-0 search; it means "at least move".
        if self.protocol != Some(Protocol::Ucci) && limits.depth == Some(0) {
            limits.depth = Some(1);
        }
        match board {
            Board::Chess(b) => self.start(*b, limits),
            Board::Xiangqi(b) => self.start(*b, limits),
        }
    }

    /// Starts a search (or perft) of `board` on its own thread. Everything below is
    /// monomorphised for `G`.
    fn start<G: Inspect>(&mut self, board: G, limits: Limits) {
        if let Some(tt) = Arc::get_mut(&mut self.tt) {
            tt.new_search();
        }
        let side = board.side_to_move().index();
        let budget = Budget::plan(&limits, side, self.settings.overhead_ms, self.settings.ponder);
        if self.debug {
            self.send(Report::Message(format!(
                "time budget: soft {:?} ms, hard {:?} ms",
                budget.soft, budget.hard
            )));
        }
        let mut signals = Signals::new(&limits, budget, self.settings.threads);
        signals.contempt = self.settings.contempt();
        signals.idle = self.settings.idle;
        let signals = Arc::new(signals);
        // Only `ponderhit` bounds a ponder search; until then end of input stops it.
        let unbounded = limits.infinite || limits.is_unbounded();
        let reporter = self.reporter();
        let tt = self.tt.clone();
        let done = self.done_tx.clone();
        let threads = self.settings.threads;
        let view = self.settings.view.clone();
        let temper = self.temper.clone();
        let may_resign = self.settings.resign;
        let ucci = self.protocol == Some(Protocol::Ucci);
        let limits_ponder = limits.ponder;
        let (root, rejected) = pool::root_moves(&board, &limits.searchmoves, &self.banned);
        for text in rejected {
            self.send(Report::Error(format!("'{text}' is not a legal move here")));
        }
        let sig = signals.clone();
        let job = move || {
            if let Some(depth) = limits.perft {
                let mut b = board;
                let mut total = 0;
                for (mv, nodes) in perft_divide(&mut b, depth.max(1)) {
                    total += nodes;
                    reporter.send(&Report::PerftMove { mv, nodes });
                }
                reporter.send(&Report::PerftTotal { nodes: total });
            } else if root.is_empty() {
                let mut legal = MoveList::new();
                board.legal_moves(&mut legal);
                if legal.is_empty() {
                    // No legal move: the verdict is the only thing to report.
                    let score = to_eval::<G>(board.no_move_score(0));
                    reporter.send(&Report::Static { score });
                }
                sig.wait_until_answerable();
                sig.mark_answered();
                reporter.send(&Report::BestMove {
                    best: None,
                    ponder: None,
                    draw: false,
                    resign: false,
                });
            } else if ucci && limits.depth == Some(0) {
                // UCCI `go depth 0`: the quiescence score, and no move.
                let mut w = Worker::new(board.clone(), root, &tt, &sig, 0);
                let score = to_eval::<G>(w.static_score());
                reporter.send(&Report::Static { score });
                sig.mark_answered();
                reporter.send(&Report::BestMove {
                    best: None,
                    ponder: None,
                    draw: false,
                    resign: false,
                });
            } else {
                let answer = pool::search(&board, root, threads, &view, &tt, &sig, &reporter);
                sig.wait_until_answerable();
                let (draw, resign) = temper.lock().judge::<G>(
                    answer.score,
                    answer.depth,
                    sig.contempt,
                    sig.draw_offered(),
                    may_resign,
                );
                let text = |m: Option<crate::game::Move>| m.map(|m| board.move_text(m));
                let ponder = answer.best.and_then(|b| {
                    let mut after = board.clone();
                    after.make(b);
                    answer.ponder.filter(|&p| after.is_legal(p)).map(|p| after.move_text(p))
                });
                sig.mark_answered();
                reporter.send(&Report::BestMove { best: text(answer.best), ponder, draw, resign });
            }
            sig.mark_answered();
            let _ = done.send(());
        };
        match std::thread::Builder::new().name("search".into()).spawn(job) {
            Ok(handle) => {
                if self.eof && (unbounded || limits_ponder) {
                    signals.stop();
                }
                self.running = Some(Running { handle, signals, unbounded });
            }
            Err(e) => {
                self.send(Report::Error(format!("cannot start the search thread: {e}")));
                self.send(Report::BestMove {
                    best: None,
                    ponder: None,
                    draw: false,
                    resign: false,
                });
            }
        }
    }
}
