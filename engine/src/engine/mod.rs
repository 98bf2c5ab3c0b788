//! The controller: the order of commands around the session, which owns every state.
//!
//! It never blocks on the search. While a search runs, `stop`, `ponderhit`, `isready`, `debug`
//! and `quit` act at once; every other command waits in a queue until the search has answered,
//! and then runs in order, so nothing is dropped. The controller keeps only that queue, the
//! running search's handle, the protocol's conventions ([`Dialect`]) and the batch-mode
//! [`Gate`]; everything a command changes or reads is the [`Session`]'s, and the session runs
//! every `go`. The tools (`bench`, `speedtest`, `genfens`), which sit above the session, are
//! called from here. The controller speaks in neutral [`Report`]s to a [`Sink`] and knows no
//! protocol.

use crate::command::{BenchArgs, BenchPositions, Command, Dialect, Event, Gate, Go};
use crate::game::{Game, Variant};
use crate::nnue::Networks;
use crate::options::HASH_DEFAULT;
use crate::report::{Report, Sink};
use crate::search::signals::Signals;
use crate::session::board::with_board;
use crate::session::notice::Notice;
use crate::session::{Finished, Outcome, Session, Started, answer};
use crate::tools::{bench, speedtest};
use crossbeam_channel::{Receiver, Sender, select};
use std::collections::VecDeque;
use std::sync::Arc;

/// Where the position of either game lives now: the session's (the name the fuzz targets and
/// the command line use).
pub use crate::session::board;

/// A search in progress.
struct Running {
    signals: Arc<Signals>,
    /// The user was told that commands wait for the search (said once per search).
    told_waiting: bool,
    /// `go infinite` or a `go` without limits: end of input stops it instead of waiting for it
    /// (so it does a search still pondering, which is looked up live).
    unbounded: bool,
}

/// The controller: the order of commands around the session.
pub struct Engine {
    sink: Arc<dyn Sink>,
    /// The conventions of the protocol spoken (UCI's until one is chosen).
    dialect: Dialect,
    /// Every state of the engine: settings, position, temper, table, threads, networks,
    /// parameters and book.
    session: Session,
    running: Option<Running>,
    pending: VecDeque<Command>,
    eof: bool,
    /// `quit` arrived during a search: the searches of the commands queued before it stop at
    /// once.
    quitting: bool,
    /// Each `go`'s completion notice, with what it hands back to the session.
    done_tx: Sender<Finished>,
    done_rx: Receiver<Finished>,
    /// Holds the reader in UCCI batch mode until each `go` is answered.
    gate: Arc<Gate>,
}

impl Engine {
    /// A fresh session reporting to `sink`, with the networks built in; `variant` is the game
    /// until told otherwise. Fails only when the search thread cannot be started.
    pub fn new(sink: Arc<dyn Sink>, variant: Option<Variant>) -> std::io::Result<Self> {
        Self::with_hash(sink, variant, HASH_DEFAULT as usize, Networks::embedded())
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
        let session =
            Session::new(hash_mb, 1, nets)?.with(sink.clone(), variant.unwrap_or(Variant::Chess));
        Ok(Engine {
            sink,
            dialect: Dialect::default(),
            gate: Arc::new(Gate::default()),
            session,
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
                recv(self.done_rx) -> finished => {
                    if let Ok(finished) = finished {
                        self.session.finished(finished);
                    }
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
            self.session.set_variant(game);
        }
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
                Command::Debug(on) => self.session.set_debug(on),
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
            if !notified && let Ok(finished) = self.done_rx.recv() {
                self.session.finished(finished);
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
            Command::Hello => self.send(Report::Hello { variant: self.session.variant() }),
            Command::IsReady => self.send(Report::Ready),
            Command::NewGame => self.session.new_game(),
            Command::SetOption { name, value } => {
                self.session.set_option(&name, value.as_deref(), &self.dialect)
            }
            Command::Position { start, moves } => self.session.set_position(start, moves),
            Command::BadPosition(e) => self.session.bad_position(e),
            Command::BanMoves(moves) => self.session.ban(moves),
            Command::Go(go) => self.go(go),
            Command::Stop => {
                if self.dialect.answer_idle_stop {
                    self.send(answer(Outcome::NONE, |_| (false, false)));
                }
            }
            Command::PonderHit { .. } => {}
            Command::Debug(on) => self.session.set_debug(on),
            Command::Register => self.send(Report::Registered),
            Command::Help => self.send(Report::Help),
            Command::Display(style) => self.session.display(style),
            Command::Eval => self.session.eval(),
            Command::ExportNet(file) => self.session.export_net(file),
            Command::Compiler => {
                self.send(Report::Text(crate::nnue::compiler_text(self.session.nets())))
            }
            Command::Flip => self.session.flip(),
            Command::Probe { start, moves } => self.session.probe_position(start, moves),
            Command::Bench(args) => self.bench(args),
            Command::Speedtest { threads, hash_mb, seconds } => {
                self.speedtest(threads, hash_mb, seconds)
            }
            // Runs here, to its end: OpenBench sends `quit` only after the last start.
            Command::Genfens(request) => {
                match crate::tools::datagen::genfens(
                    &request,
                    self.session.variant(),
                    &self.session,
                ) {
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
            BenchPositions::Current => match self.session.board() {
                Some(board) => Some(vec![with_board!(board, b => b.fen())]),
                None => {
                    let reason = self.session.invalid_reason().to_string();
                    return self.error(Notice::NoBenchPosition(reason));
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
                    self.session.settings().syzygy.in_use(),
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

    /// `go`: the session runs it; the controller keeps its handle, and holds back a reader in
    /// batch mode while only input can end it.
    fn go(&mut self, go: Go) {
        let done = self.done_tx.clone();
        let notify = move |finished| {
            let _ = done.send(finished);
        };
        let Some(Started { signals, unbounded, pondering }) = self.session.go(go, notify) else {
            // No position: answered at once, and nothing started.
            self.gate.answered();
            return;
        };
        let ponder_ends = pondering && !self.ponderhit_queued();
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

#[cfg(test)]
mod tests;
