//! A session from start to end: the engine started, the handshake, the commands with pauses
//! between them, and `quit` with the checks of how the engine ends.

use crate::common::{Next, Session};
use crate::position::{Fens, Position};
use crate::{
    Driver, Expect, HANG, Kind, MAX_COMMANDS, MAX_DELAY_MS, Proto, QUIT_BUSY_BOUND,
    QUIT_IDLE_BOUND, Rng, Stats, ms,
};
use std::collections::VecDeque;
use std::fmt::Display;
use std::time::{Duration, Instant};

impl<'a> Driver<'a> {
    pub(crate) fn new(
        mut rng: Rng,
        proto: Proto,
        seed: u64,
        index: usize,
        fens: &'a Fens,
        stats: &'a mut Stats,
    ) -> Self {
        let variant = if proto == Proto::UciChess { Kind::Chess } else { Kind::Xiangqi };
        // UCI xiangqi is chosen by the command line or by the option, as GUIs do either.
        let by_argument = proto == Proto::UciXiangqi && rng.percent(50);
        let args: &[&str] = if by_argument { &["--variant", "xiangqi"] } else { &[] };
        let session = Session::start(args);
        let mut driver = Driver {
            rng,
            proto,
            seed,
            index,
            fens,
            stats,
            session,
            transcript: Vec::new(),
            started: Instant::now(),
            expects: VecDeque::new(),
            ready: VecDeque::new(),
            variant,
            position: Position::startpos(variant),
            banned: Vec::new(),
            millisec: false,
            by_argument,
            greeted: false,
            lines_read: 0,
            quit: false,
            bye: false,
        };
        if by_argument {
            driver.note(format!("(started with {})", args.join(" ")));
        }
        driver
    }

    pub(crate) fn uci(&self) -> bool {
        self.proto != Proto::Ucci
    }

    /// Fails the test with the seed, the session and the end of the transcript.
    pub(crate) fn fail(&self, what: impl Display) -> ! {
        let from = self.transcript.len().saturating_sub(80);
        panic!(
            "stress session {} ({:?}, seed {}): {what}\nlast lines of the transcript:\n{}",
            self.index,
            self.proto,
            self.seed,
            self.transcript[from..].join("\n")
        );
    }

    pub(crate) fn note(&mut self, text: String) {
        let at = ms(self.started.elapsed());
        self.transcript.push(format!("{at:9.1} {text}"));
    }

    pub(crate) fn send(&mut self, line: &str) {
        self.note(format!("> {line}"));
        self.session.send(line);
        self.stats.commands += 1;
    }

    /// Reads and checks output for `duration` (at least what is there already).
    pub(crate) fn pump(&mut self, duration: Duration) {
        let until = Instant::now() + duration;
        loop {
            match self.session.next_line(until.saturating_duration_since(Instant::now())) {
                Next::Line(line) => self.read(line),
                Next::Timeout => return,
                Next::Closed if self.quit => return,
                Next::Closed => self.fail("the engine closed its output"),
            }
        }
    }

    /// Reads output until `done` holds; a wait longer than [`HANG`] fails.
    pub(crate) fn wait_until(&mut self, what: &str, done: impl Fn(&Self) -> bool) {
        let start = Instant::now();
        while !done(self) {
            let left = HANG.saturating_sub(start.elapsed());
            match self.session.next_line(left) {
                Next::Line(line) => self.read(line),
                Next::Timeout => self.fail(format!("hang: no {what} within {HANG:?}")),
                Next::Closed => self.fail(format!("the engine closed its output before {what}")),
            }
        }
    }

    /// Runs the whole session.
    pub(crate) fn session(mut self) {
        self.stats.sessions += 1;
        let hello = if self.uci() { "uci" } else { "ucci" };
        self.send(hello);
        self.wait_until("handshake", |d| d.greeted);
        if self.proto == Proto::UciXiangqi && !self.by_argument {
            self.send("setoption name UCI_Variant value xiangqi");
        }
        let commands = self.rng.range(5, MAX_COMMANDS);
        for _ in 0..commands {
            self.step();
            let pause = self.rng.below(MAX_DELAY_MS + 1);
            self.pump(Duration::from_millis(pause));
        }
        let busy = self.rng.percent(30);
        if !busy {
            self.settle();
            self.send("isready");
            self.ready.push_back(Instant::now());
            self.wait_until("readyok before quit", |d| d.ready.is_empty());
        }
        self.finish(busy);
    }

    /// Sends `quit` (`busy`: with searches running or queued) and checks the ending.
    fn finish(mut self, busy: bool) {
        self.send("quit");
        self.quit = true;
        let sent = Instant::now();
        let Some((status, took)) = self.session.exit_since(sent, HANG) else {
            self.fail(format!("no exit within {HANG:?} of quit"));
        };
        self.note(format!("(exit {status} after {:.1} ms)", ms(took)));
        self.pump(Duration::from_secs(5));
        if !status.success() {
            self.fail(format!("exit status {status}"));
        }
        if let Some(e) = self.expects.front() {
            let what = match e {
                Expect::Go(g) => format!("'{}'", g.line),
                Expect::IdleStop => "an idle stop".to_string(),
            };
            self.fail(format!("{} answers lost, the first to {what}", self.expects.len()));
        }
        if !self.ready.is_empty() {
            self.fail(format!("{} readyok lost", self.ready.len()));
        }
        if !self.uci() && !self.bye {
            self.fail("no bye after quit");
        }
        let bound = if busy { QUIT_BUSY_BOUND } else { QUIT_IDLE_BOUND };
        if took > bound {
            self.fail(format!("exit {:.1} ms after quit (bound {bound:?})", ms(took)));
        }
        if busy {
            self.stats.quit_busy.push(took);
        } else {
            self.stats.quit_idle.push(took);
        }
    }
}
