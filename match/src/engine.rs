//! One engine process, spoken to over UCI or UCCI as a GUI speaks to it.
//!
//! The process is started once and reused across games; a crash or a hang kills it, and the
//! next game starts it again. A reader thread per process turns its output into timestamped
//! lines on a channel, so that waiting for an answer has a deadline and the clock is read
//! when a line arrives, not when the game loop gets round to it. Everything the engine says
//! is input: nothing it writes can make the runner fail, only lose it the game.

use crate::notation::Notation;
use chariot_engine::game::Variant;
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use parking_lot::Mutex;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci`/`ucci` after it starts, in milliseconds.
pub const HANDSHAKE_MS: u64 = 10_000;
/// How long an engine may take to answer `isready`, in milliseconds (a large hash is
/// cleared here on some engines).
pub const READY_MS: u64 = 10_000;
/// After a time forfeit, how long the engine gets to answer `stop` before it is killed, in
/// milliseconds.
pub const STOP_GRACE_MS: u64 = 1_000;
/// How long a pondering engine may take to answer `stop` before it is at fault (a GUI waits
/// this long before it gives the engine up), in milliseconds.
pub const PONDER_STOP_MS: u64 = 5_000;
/// How long `quit` may take before the process is killed, in milliseconds.
pub const QUIT_GRACE_MS: u64 = 1_000;
/// How often a wait for the engine looks at the abort flag (Ctrl-C), in milliseconds.
const ABORT_POLL_MS: u64 = 100;
/// A score that stands for a forced mate, in centipawns, for adjudication.
pub const MATE_CP: i32 = 100_000;

/// The protocol an engine speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI (chess, and xiangqi as Pikafish and Fairy-Stockfish speak it).
    Uci,
    /// UCCI (xiangqi).
    Ucci,
}

/// How to run one engine: what the command line's `-e` gave.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The engine's name in results and records.
    pub name: String,
    /// The program and its arguments.
    pub cmd: Vec<String>,
    /// The working directory, if not the runner's.
    pub dir: Option<PathBuf>,
    /// The protocol.
    pub proto: Protocol,
    /// Options set after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// How xiangqi moves are written (ignored for chess).
    pub notation: Notation,
    /// Time odds: this engine's base time and increment are multiplied by this.
    pub tc_factor: f64,
    /// Where to log every line sent and received, if anywhere.
    pub log: Option<PathBuf>,
    /// Ponder as a GUI lets an engine: `Ponder` (UCCI `ponder`) set, `go ponder` on the
    /// reply it expects, `ponderhit` or `stop` when the opponent has moved.
    pub ponder: bool,
}

impl EngineSpec {
    /// The engine `name` run by `cmd` over UCI, with the defaults of the command line's `-e`:
    /// the runner's directory, no options, ICCS notation, no time odds, no log.
    pub fn new(name: impl Into<String>, cmd: Vec<String>) -> EngineSpec {
        EngineSpec {
            name: name.into(),
            cmd,
            dir: None,
            proto: Protocol::Uci,
            options: Vec::new(),
            notation: Notation::Iccs,
            tc_factor: 1.0,
            log: None,
            ponder: false,
        }
    }
}

/// What went wrong talking to an engine; each ends the game as a loss for it.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("cannot start '{cmd}': {source}")]
    Spawn {
        /// The program.
        cmd: String,
        /// Why.
        source: std::io::Error,
    },
    /// The process ended (or closed its output).
    #[error("crashed (exited) while {doing}")]
    Exited {
        /// What the runner was waiting for.
        doing: &'static str,
    },
    /// The engine did not answer in time.
    #[error("no '{word}' within {ms} ms")]
    Silent {
        /// The answer awaited.
        word: &'static str,
        /// The time it had.
        ms: u64,
    },
    /// Writing to the engine failed (it has gone).
    #[error("cannot write to it: {0}")]
    Write(std::io::Error),
    /// The runner is stopping (Ctrl-C); not the engine's fault.
    #[error("aborted")]
    Aborted,
}

/// A line from the engine, or the end of its output, with the time it was read.
enum Line {
    Text(Instant, String),
    Eof,
}

/// A limit for one search, with the clocks as the engine is told them.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Go {
    /// Clock play: times left and increments in milliseconds, moves to the next control.
    Clock {
        /// The mover's time left.
        own_ms: u64,
        /// The mover's increment.
        own_inc_ms: u64,
        /// The opponent's time left.
        opp_ms: u64,
        /// The opponent's increment.
        opp_inc_ms: u64,
        /// Whether the mover plays white/red (UCI names clocks by colour).
        white: bool,
        /// Moves to the next time control, if the control has one.
        moves_to_go: Option<u32>,
    },
    /// A fixed time a move, milliseconds.
    MoveTime(u64),
    /// A fixed node count.
    Nodes(u64),
    /// A fixed depth.
    Depth(u32),
}

/// The engine's answer to `go`.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A move, in the runner's notation (ICCS ranks 0-9 for xiangqi), not yet checked.
    Move(String),
    /// `bestmove (none)`, `0000`, a bare `bestmove` or `nobestmove`.
    NoMove,
    /// UCCI `bestmove ... resign`.
    Resign,
}

/// What a search produced.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The move (or its absence).
    pub reply: Reply,
    /// The time from sending `go` to reading `bestmove`.
    pub elapsed: Duration,
    /// The last score reported, in centipawns from the engine's side (mates as ±[`MATE_CP`]).
    pub score: Option<i32>,
    /// The depth of that score.
    pub depth: Option<u32>,
    /// The reply the engine expects (`bestmove X ponder Y`), in the runner's notation, not
    /// yet checked.
    pub ponder: Option<String>,
}

/// A running process and what the handshake told us about it.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    /// UCCI: times in milliseconds (the engine offered `usemillisec`).
    millis: bool,
    /// UCCI: the engine offered the `newgame` option.
    newgame: bool,
}

/// A per-engine log of every line, shared by the writer (the game loop) and the reader
/// thread, each line stamped with seconds since the runner started.
#[derive(Clone)]
struct Log {
    file: Arc<Mutex<File>>,
    epoch: Instant,
    name: Arc<str>,
}

impl Log {
    fn line(&self, dir: char, text: &str) {
        let at = self.epoch.elapsed().as_secs_f64();
        // A failing log must not stop the match.
        let _ = writeln!(self.file.lock(), "{at:.3} {} {dir} {text}", self.name);
    }
}

/// One engine, started on demand and reused.
pub struct Engine {
    spec: Arc<EngineSpec>,
    variant: Variant,
    chess960: bool,
    /// The CPU to pin the process to, if any.
    cpu: Option<usize>,
    process: Option<Process>,
    log: Option<Log>,
    abort: Arc<AtomicBool>,
    /// Options set at every new game, after the spec's (SPSA's parameter values).
    game_options: Vec<(String, String)>,
    /// The move a `go ponder` search running now expects, in the runner's notation.
    pondering: Option<String>,
}

/// Splits a command line like a shell, with single and double quotes and backslashes.
pub fn split_command(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Reads the score from the words of an `info` line: `score cp N`, `score mate N`, or UCCI's
/// `score N`. `None` for bounds (`lowerbound`/`upperbound` are taken as they are: GUIs do)
/// or text that is not a number.
pub fn parse_score(words: &[&str]) -> Option<i32> {
    let i = words.iter().position(|w| *w == "score")?;
    let kind = *words.get(i + 1)?;
    match kind {
        "cp" => words.get(i + 2)?.parse().ok(),
        "mate" => {
            let n: i64 = words.get(i + 2)?.parse().ok()?;
            Some(if n > 0 { MATE_CP } else { -MATE_CP })
        }
        other => other.parse().ok(),
    }
}

/// The reply in the words of a `bestmove` line: the move in the runner's notation, no move
/// (`(none)`, `0000`, nothing), or UCCI's resignation.
pub fn parse_bestmove(words: &[&str], proto: Protocol, notation: Notation) -> Reply {
    let rest = words.get(2..).unwrap_or(&[]);
    if proto == Protocol::Ucci && rest.contains(&"resign") {
        return Reply::Resign;
    }
    match words.get(1).copied() {
        None | Some("(none)" | "0000" | "none" | "null") => Reply::NoMove,
        Some(m) => Reply::Move(notation.from_engine(m)),
    }
}

/// The depth from the words of an `info` line.
fn parse_depth(words: &[&str]) -> Option<u32> {
    let i = words.iter().position(|w| *w == "depth")?;
    words.get(i + 1)?.parse().ok()
}

impl Engine {
    /// An engine that is not running yet; `abort` tells every wait to give up (Ctrl-C).
    pub fn new(
        spec: Arc<EngineSpec>,
        variant: Variant,
        chess960: bool,
        cpu: Option<usize>,
        epoch: Instant,
        abort: Arc<AtomicBool>,
    ) -> Result<Engine, std::io::Error> {
        let log = match &spec.log {
            Some(path) => {
                let file = File::options().create(true).append(true).open(path)?;
                Some(Log {
                    file: Arc::new(Mutex::new(file)),
                    epoch,
                    name: spec.name.as_str().into(),
                })
            }
            None => None,
        };
        Ok(Engine {
            spec,
            variant,
            chess960,
            cpu,
            process: None,
            log,
            abort,
            game_options: Vec::new(),
            pondering: None,
        })
    }

    /// The engine's name.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The engine's specification.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Whether a process is running.
    pub fn is_running(&self) -> bool {
        self.process.is_some()
    }

    fn note(&self, dir: char, text: &str) {
        if let Some(log) = &self.log {
            log.line(dir, text);
        }
    }

    /// Writes one line to the engine.
    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        self.note('<', line);
        let p = self.process.as_mut().ok_or(EngineError::Exited { doing: "writing" })?;
        let mut text = String::with_capacity(line.len() + 1);
        text.push_str(line);
        text.push('\n');
        p.stdin
            .write_all(text.as_bytes())
            .and_then(|()| p.stdin.flush())
            .map_err(EngineError::Write)
    }

    /// The next line before `deadline`: `Ok(None)` when the deadline passes.
    fn next_line(
        &mut self,
        deadline: Instant,
        doing: &'static str,
    ) -> Result<Option<(Instant, String)>, EngineError> {
        loop {
            if self.abort.load(Ordering::Relaxed) {
                return Err(EngineError::Aborted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            let wait = (deadline - now).min(Duration::from_millis(ABORT_POLL_MS));
            let p = self.process.as_ref().ok_or(EngineError::Exited { doing })?;
            match p.lines.recv_timeout(wait) {
                Ok(Line::Text(at, text)) => return Ok(Some((at, text))),
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(EngineError::Exited { doing });
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Reads lines until one whose first word is `word`; returns the lines before it.
    fn expect(
        &mut self,
        word: &'static str,
        ms: u64,
        doing: &'static str,
    ) -> Result<Vec<String>, EngineError> {
        let deadline = Instant::now() + Duration::from_millis(ms);
        let mut seen = Vec::new();
        loop {
            match self.next_line(deadline, doing)? {
                None => return Err(EngineError::Silent { word, ms }),
                Some((_, line)) => {
                    if line.split_whitespace().next() == Some(word) {
                        return Ok(seen);
                    }
                    seen.push(line);
                }
            }
        }
    }

    /// Starts the process and runs the handshake: `uci`/`ucci`, the options, `isready`.
    pub fn start(&mut self) -> Result<(), EngineError> {
        self.kill();
        let spec = Arc::clone(&self.spec);
        let (program, args) = match (self.cpu, spec.cmd.split_first()) {
            (_, None) => {
                return Err(EngineError::Spawn {
                    cmd: String::new(),
                    source: std::io::Error::other("empty command"),
                });
            }
            // Pinned: `taskset -c N program args...` execs the program on that CPU.
            (Some(cpu), Some(_)) => {
                let mut args = vec!["-c".to_string(), cpu.to_string()];
                args.extend(spec.cmd.iter().cloned());
                ("taskset".to_string(), args)
            }
            (None, Some((program, rest))) => (program.clone(), rest.to_vec()),
        };
        let mut command = Command::new(&program);
        command.args(&args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        // Its own process group, so that Ctrl-C at the terminal reaches the runner only and
        // the runner decides what happens to the games in progress.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|source| EngineError::Spawn { cmd: spec.cmd.join(" "), source })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Exited { doing: "starting" });
        };
        let (tx, rx) = unbounded();
        let log = self.log.clone();
        std::thread::Builder::new()
            .name(format!("read-{}", spec.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let at = Instant::now();
                            // Engine output is not trusted to be UTF-8.
                            let text = String::from_utf8_lossy(&buf);
                            let text = text.trim_end_matches(['\r', '\n']).to_string();
                            if let Some(log) = &log {
                                log.line('>', &text);
                            }
                            if tx.send(Line::Text(at, text)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send(Line::Eof);
            })
            .map_err(|source| EngineError::Spawn { cmd: "reader thread".into(), source })?;
        self.process = Some(Process { child, stdin, lines: rx, millis: false, newgame: false });

        let (hello, ok) = match spec.proto {
            Protocol::Uci => ("uci", "uciok"),
            Protocol::Ucci => ("ucci", "ucciok"),
        };
        self.send(hello)?;
        let seen = self.expect(ok, HANDSHAKE_MS, "starting")?;
        let offers = |name: &str| {
            seen.iter().any(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                w.first() == Some(&"option")
                    && (w.get(1).is_some_and(|o| o.eq_ignore_ascii_case(name))
                        || (w.get(1) == Some(&"name")
                            && w.get(2).is_some_and(|o| o.eq_ignore_ascii_case(name))))
            })
        };
        let (millis, newgame, variant_opt, chess960_opt) = (
            offers("usemillisec"),
            offers("newgame"),
            offers("UCI_Variant"),
            offers("UCI_Chess960"),
        );
        if let Some(p) = self.process.as_mut() {
            p.millis = millis;
            p.newgame = newgame;
        }
        match spec.proto {
            Protocol::Uci => {
                if self.variant == Variant::Xiangqi && variant_opt {
                    self.send("setoption name UCI_Variant value xiangqi")?;
                }
                if self.chess960 && chess960_opt {
                    self.send("setoption name UCI_Chess960 value true")?;
                }
                if spec.ponder {
                    self.send_option("Ponder", "true")?;
                }
                for (name, value) in &spec.options {
                    self.send_option(name, value)?;
                }
            }
            Protocol::Ucci => {
                if millis {
                    self.send("setoption usemillisec true")?;
                }
                if spec.ponder {
                    self.send_option("ponder", "true")?;
                }
                for (name, value) in &spec.options {
                    self.send_option(name, value)?;
                }
            }
        }
        for (name, value) in self.game_options.clone() {
            self.send_option(&name, &value)?;
        }
        self.ready()
    }

    /// `setoption` in this engine's protocol.
    fn send_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        match self.spec.proto {
            Protocol::Uci => self.send(&format!("setoption name {name} value {value}")),
            Protocol::Ucci => self.send(&format!("setoption {name} {value}")),
        }
    }

    /// Options to set at the start of every game from now on, after the specification's
    /// (SPSA sets the parameters of each game this way).
    pub fn set_game_options(&mut self, options: Vec<(String, String)>) {
        self.game_options = options;
    }

    /// `isready`, waiting for `readyok`.
    pub fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        self.expect("readyok", READY_MS, "waiting for readyok").map(|_| ())
    }

    /// Prepares for a new game: starts the process if it is not running, else tells it a new
    /// game begins (`ucinewgame`; UCCI's `setoption newgame` where offered) and waits until
    /// it is ready.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        // A ponder search left from the last game is ended; an engine deaf to `stop` is
        // started afresh.
        if self.pondering.is_some() && self.stop_pondering().is_err() {
            self.kill();
        }
        if self.process.is_none() {
            return self.start();
        }
        // A process that died between games is restarted rather than blamed.
        if let Some(p) = self.process.as_mut()
            && matches!(p.child.try_wait(), Ok(Some(_)))
        {
            return self.start();
        }
        match self.spec.proto {
            Protocol::Uci => self.send("ucinewgame")?,
            Protocol::Ucci => {
                if self.process.as_ref().is_some_and(|p| p.newgame) {
                    self.send("setoption newgame")?;
                }
            }
        }
        for (name, value) in self.game_options.clone() {
            self.send_option(&name, &value)?;
        }
        self.ready()
    }

    /// The `go` command for `limit` in this engine's protocol.
    fn go_command(&self, limit: Go) -> String {
        let millis = self.process.as_ref().is_none_or(|p| p.millis);
        // UCCI without `usemillisec` counts seconds.
        let units = |ms: u64| if millis { ms } else { ms / 1000 };
        match (self.spec.proto, limit) {
            (_, Go::Nodes(n)) => format!("go nodes {n}"),
            (_, Go::Depth(d)) => format!("go depth {d}"),
            (Protocol::Uci, Go::MoveTime(ms)) => format!("go movetime {ms}"),
            // UCCI has no movetime: one move to go with that much time means the same.
            (Protocol::Ucci, Go::MoveTime(ms)) => format!("go time {} movestogo 1", units(ms)),
            (
                Protocol::Uci,
                Go::Clock { own_ms, own_inc_ms, opp_ms, opp_inc_ms, white, moves_to_go },
            ) => {
                let (wt, bt, wi, bi) = if white {
                    (own_ms, opp_ms, own_inc_ms, opp_inc_ms)
                } else {
                    (opp_ms, own_ms, opp_inc_ms, own_inc_ms)
                };
                let mut s = format!("go wtime {wt} btime {bt}");
                if wi > 0 || bi > 0 {
                    s.push_str(&format!(" winc {wi} binc {bi}"));
                }
                if let Some(n) = moves_to_go {
                    s.push_str(&format!(" movestogo {n}"));
                }
                s
            }
            (
                Protocol::Ucci,
                Go::Clock { own_ms, own_inc_ms, opp_ms, opp_inc_ms, moves_to_go, .. },
            ) => match moves_to_go {
                Some(n) => format!(
                    "go time {} movestogo {n} opptime {} oppmovestogo {n}",
                    units(own_ms),
                    units(opp_ms)
                ),
                None => format!(
                    "go time {} increment {} opptime {} oppincrement {}",
                    units(own_ms),
                    units(own_inc_ms),
                    units(opp_ms),
                    units(opp_inc_ms)
                ),
            },
        }
    }

    /// Sends the position and `go`, and waits up to `budget` for `bestmove`. `position` is
    /// the start FEN (or `None` for the standard start) and the moves since, in the runner's
    /// notation. A silence past the budget is [`EngineError::Silent`]; the engine is then
    /// stopped (or killed when it does not answer `stop`).
    pub fn go(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        limit: Go,
        budget: Duration,
    ) -> Result<Answer, EngineError> {
        let position = self.position_command(fen, moves);
        self.send(&position)?;
        let go = self.go_command(limit);
        self.send(&go)?;
        self.wait_bestmove(Instant::now(), budget)
    }

    /// The move notation this engine is spoken to in.
    fn notation(&self) -> Notation {
        if self.variant == Variant::Xiangqi { self.spec.notation } else { Notation::Iccs }
    }

    /// `position ...` for the start FEN (`None`: the standard start) and the moves since.
    fn position_command(&self, fen: Option<&str>, moves: &[String]) -> String {
        let notation = self.notation();
        let mut position = match fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in moves {
                position.push(' ');
                position.push_str(&notation.to_engine(m));
            }
        }
        position
    }

    /// Starts a ponder search: the position and `go ponder` with `limit` (the clocks as they
    /// will be when the engine is to move), where `moves` end with the reply it expects.
    /// Nothing is awaited: [`Engine::ponderhit`] or [`Engine::stop_pondering`] follows.
    pub fn ponder(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        limit: Go,
    ) -> Result<(), EngineError> {
        let position = self.position_command(fen, moves);
        self.send(&position)?;
        let go = self.go_command(limit);
        self.send(&format!("go ponder{}", &go["go".len()..]))?;
        self.pondering = moves.last().cloned();
        Ok(())
    }

    /// The reply the running ponder search expects, if one runs.
    pub fn pondering(&self) -> Option<&str> {
        self.pondering.as_deref()
    }

    /// The expected reply was played: `ponderhit`, and up to `budget` from now for the
    /// `bestmove` (the engine's clock runs from the `ponderhit`).
    pub fn ponderhit(&mut self, budget: Duration) -> Result<Answer, EngineError> {
        self.pondering = None;
        self.send("ponderhit")?;
        self.wait_bestmove(Instant::now(), budget)
    }

    /// Another reply was played (or the game ended): `stop`, and the stale `bestmove` read
    /// and dropped. An engine silent for [`PONDER_STOP_MS`] is killed and at fault.
    pub fn stop_pondering(&mut self) -> Result<(), EngineError> {
        self.pondering = None;
        self.send("stop")?;
        let deadline = Instant::now() + Duration::from_millis(PONDER_STOP_MS);
        loop {
            match self.next_line(deadline, "stopping a ponder search") {
                Ok(Some((_, line))) => {
                    let first = line.split_whitespace().next();
                    if first == Some("bestmove") || first == Some("nobestmove") {
                        return Ok(());
                    }
                }
                Ok(None) => {
                    self.kill();
                    return Err(EngineError::Silent { word: "bestmove", ms: PONDER_STOP_MS });
                }
                Err(e) => {
                    self.kill();
                    return Err(e);
                }
            }
        }
    }

    /// Reads the search's output until `bestmove`, up to `budget` from `sent`.
    fn wait_bestmove(&mut self, sent: Instant, budget: Duration) -> Result<Answer, EngineError> {
        let notation = self.notation();
        let deadline = sent + budget;
        let (mut score, mut depth) = (None, None);
        loop {
            let line = match self.next_line(deadline, "searching") {
                Ok(Some(line)) => line,
                Ok(None) => {
                    self.stop_or_kill();
                    return Err(EngineError::Silent {
                        word: "bestmove",
                        ms: budget.as_millis() as u64,
                    });
                }
                Err(e) => {
                    self.kill();
                    return Err(e);
                }
            };
            let (at, text) = line;
            let words: Vec<&str> = text.split_whitespace().collect();
            match words.first().copied() {
                Some("info") => {
                    // Only lines with a score and a PV (or UCCI's, which may lack a PV) are
                    // an engine's opinion; `info string` and `currmove` lines are not.
                    if words.get(1) != Some(&"string")
                        && let Some(s) = parse_score(&words)
                        && (words.contains(&"pv") || self.spec.proto == Protocol::Ucci)
                    {
                        score = Some(s);
                        depth = parse_depth(&words).or(depth);
                    }
                }
                Some("bestmove") => {
                    let elapsed = at.saturating_duration_since(sent);
                    let reply = parse_bestmove(&words, self.spec.proto, notation);
                    let ponder = match (words.get(2), words.get(3)) {
                        (Some(&"ponder"), Some(m)) => Some(notation.from_engine(m)),
                        _ => None,
                    };
                    return Ok(Answer { reply, elapsed, score, depth, ponder });
                }
                Some("nobestmove") => {
                    let elapsed = at.saturating_duration_since(sent);
                    let ponder = None;
                    return Ok(Answer { reply: Reply::NoMove, elapsed, score, depth, ponder });
                }
                _ => {}
            }
        }
    }

    /// After a timeout: `stop`, and a short wait for the `bestmove` it owes; an engine that
    /// stays silent is killed (the next game restarts it).
    fn stop_or_kill(&mut self) {
        if self.send("stop").is_err() {
            self.kill();
            return;
        }
        let deadline = Instant::now() + Duration::from_millis(STOP_GRACE_MS);
        loop {
            match self.next_line(deadline, "stopping") {
                Ok(Some((_, line))) => {
                    let first = line.split_whitespace().next();
                    if first == Some("bestmove") || first == Some("nobestmove") {
                        return;
                    }
                }
                _ => {
                    self.kill();
                    return;
                }
            }
        }
    }

    /// Asks the engine to quit, killing it if it does not within [`QUIT_GRACE_MS`].
    pub fn quit(&mut self) {
        if self.process.is_none() {
            return;
        }
        if self.send("quit").is_ok() {
            let deadline = Instant::now() + Duration::from_millis(QUIT_GRACE_MS);
            while Instant::now() < deadline {
                match self.process.as_mut().map(|p| p.child.try_wait()) {
                    Some(Ok(Some(_))) | None => {
                        self.process = None;
                        return;
                    }
                    _ => std::thread::sleep(Duration::from_millis(10)),
                }
            }
        }
        self.kill();
    }

    /// Kills the process, if any, and reaps it.
    pub fn kill(&mut self) {
        self.pondering = None;
        if let Some(mut p) = self.process.take() {
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.quit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(split_command("a b  c"), ["a", "b", "c"]);
        assert_eq!(split_command("'a b' \"c d\" e\\ f"), ["a b", "c d", "e f"]);
        assert_eq!(split_command("x ''"), ["x", ""]);
        assert!(split_command("   ").is_empty());
    }

    #[test]
    fn bestmove_lines_are_read_without_trusting_them() {
        let w = |s: &'static str| s.split_whitespace().collect::<Vec<_>>();
        let (uci, ucci, iccs) = (Protocol::Uci, Protocol::Ucci, Notation::Iccs);
        assert_eq!(parse_bestmove(&w("bestmove"), uci, iccs), Reply::NoMove);
        assert_eq!(parse_bestmove(&w("bestmove (none)"), uci, iccs), Reply::NoMove);
        assert_eq!(parse_bestmove(&w("bestmove 0000 ponder e7e5"), uci, iccs), Reply::NoMove);
        assert_eq!(
            parse_bestmove(&w("bestmove e2e4 ponder e7e5"), uci, iccs),
            Reply::Move("e2e4".into())
        );
        assert_eq!(parse_bestmove(&w("bestmove h2e2 resign"), ucci, iccs), Reply::Resign);
        assert_eq!(
            parse_bestmove(&w("bestmove h2e2 resign"), uci, iccs),
            Reply::Move("h2e2".into())
        );
        assert_eq!(
            parse_bestmove(&w("bestmove h3e3"), uci, Notation::Fsf),
            Reply::Move("h2e2".into())
        );
    }

    #[test]
    fn scores_are_read_from_info_lines() {
        let w = |s: &'static str| s.split_whitespace().collect::<Vec<_>>();
        assert_eq!(parse_score(&w("info depth 5 score cp -31 pv e2e4")), Some(-31));
        assert_eq!(parse_score(&w("info depth 5 score mate -3 pv e2e4")), Some(-MATE_CP));
        assert_eq!(parse_score(&w("info depth 5 score 120 pv h2e2")), Some(120));
        assert_eq!(parse_score(&w("info depth 5 score cp")), None);
        assert_eq!(parse_score(&w("info depth 5 score cp 99999999999")), None);
        assert_eq!(parse_depth(&w("info depth 7 score cp 3")), Some(7));
    }
}
