//! The session target: a sequence of lines through the real reader, front-end and controller,
//! as `chariot < file` would run them, with every report formatted by the real writer.
//!
//! Between the reader and the controller sits a relay that keeps each session cheap and
//! harmless without changing what is parsed: every bounded `go` is capped at a few hundred
//! nodes and perft at depth 2, `Threads` at 4 and `Hash` at 4 MB, and every `Debug Log File`
//! path is rewritten to a file inside the fuzzer's temporary directory. The relay also counts
//! the `go`s, so that the answers can be checked: exactly one `bestmove`/`nobestmove` each.

use super::input::{self, Rng};
use super::{MAX_ERROR_CHARS, OTHER_PANICS};
use chariot_engine::command::{Command, Event};
use chariot_engine::engine::Engine;
use chariot_engine::game::Variant;
use chariot_engine::options::{self, Value};
use chariot_engine::protocol::output::Output;
use chariot_engine::protocol::{Protocol, Writer, reader};
use chariot_engine::report::{Report, Sink};
use parking_lot::Mutex;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The most nodes a capped `go` may search.
const NODE_CAP: u64 = 400;
/// The deepest perft a session may ask for.
const PERFT_CAP: u32 = 2;
/// The most search threads a session may start (each has an 8 MB stack).
const THREADS_CAP: i64 = 4;
/// The largest hash table a session may ask for, in MB.
const HASH_CAP: i64 = 4;
/// The hash table a session starts with, in MB (the default 16 MB would be most of the cost
/// of a short session).
const FRESH_HASH: usize = 1;
/// How long a session may take before it counts as hung; generous for a loaded machine.
const HANG: Duration = Duration::from_secs(20);

/// The temporary directory that every debug log of this process goes to.
pub fn log_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("chariot-fuzz-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        dir
    })
}

/// Empties the log directory (the logs grow with every session that opens one).
pub fn clear_logs() {
    let _ = std::fs::remove_dir_all(log_dir());
    let _ = std::fs::create_dir_all(log_dir());
}

/// A log path inside [`log_dir`] for whatever path a session asked for: its safe characters
/// as a file name, in a directory that does not exist when it had one (so that opening fails,
/// the error path). `<empty>` and the empty path stay: they close the log.
fn confine(path: &str) -> String {
    let path = path.trim();
    if path.is_empty() || path == "<empty>" {
        return path.to_string();
    }
    let safe: String = path
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        .take(40)
        .collect();
    let dir = if path.contains('/') { log_dir().join("missing") } else { log_dir().to_path_buf() };
    dir.join(format!("log-{safe}")).to_string_lossy().into_owned()
}

/// The sink of a fuzzed session: keeps every report for the checks, formats it with the real
/// writer (to nowhere), and refuses any log path outside the temporary directory.
struct Recorder {
    writer: Arc<Writer>,
    reports: Mutex<Vec<Report>>,
    escaped: Mutex<Vec<String>>,
}

impl Sink for Recorder {
    fn send(&self, report: &Report) {
        self.reports.lock().push(report.clone());
        self.writer.send(report);
    }

    fn log_input(&self, line: &str) {
        self.writer.log_input(line);
    }

    fn set_log(&self, path: &str) -> std::io::Result<()> {
        if !path.is_empty() && path != "<empty>" && !Path::new(path).starts_with(log_dir()) {
            self.escaped.lock().push(path.to_string());
            return Err(std::io::Error::other("outside the fuzzer's directory"));
        }
        self.writer.set_log(path)
    }
}

/// What the relay saw go past.
#[derive(Default)]
struct Counts {
    go: usize,
    stop: usize,
    /// The protocol chosen answers a `stop` while idle.
    idle_stop_answered: bool,
}

/// Caps a command's cost (see the module comment); counts `go` and `stop`.
fn relay(command: Command, counts: &mut Counts) -> Command {
    match command {
        Command::Go(mut go) => {
            counts.go += 1;
            // An unbounded `go` stays unbounded: `stop` or the end of input ends it at once.
            if !go.is_unbounded() {
                let nodes = go.limits.nodes.map_or(NODE_CAP, |n| n.min(NODE_CAP));
                go.limits.nodes = Some(nodes);
            }
            if let chariot_engine::command::Task::Perft(d) = &mut go.task {
                *d = (*d).min(PERFT_CAP);
            }
            Command::Go(go)
        }
        Command::Stop => {
            counts.stop += 1;
            Command::Stop
        }
        Command::SetOption { name, value } => {
            let value = match (options::find(&name), options::parse(&name, value.as_deref(), false))
            {
                (Some(spec), _) if spec.uci == Some("Debug Log File") => value.map(|v| confine(&v)),
                (Some(spec), Ok((_, Value::Int(n)))) if spec.uci == Some("Threads") => {
                    Some(n.min(THREADS_CAP).to_string())
                }
                (Some(spec), Ok((_, Value::Int(n)))) if spec.uci == Some("Hash") => {
                    Some(n.min(HASH_CAP).to_string())
                }
                _ => value,
            };
            Command::SetOption { name, value }
        }
        other => other,
    }
}

/// A session: a protocol (usually), then lines of both protocols, plausible and broken,
/// with the searches, options and debug-log settings a GUI or a script would send.
pub fn generate(rng: &mut Rng) -> Vec<String> {
    let ucci = rng.one_in(2);
    let mut lines = Vec::new();
    // parts[0] tells the session how it starts: `-` as a pipe, `uci` as with arguments.
    lines.push(if rng.one_in(8) { "implied".to_string() } else { "-".to_string() });
    match rng.below(12) {
        0 => lines
            .push(rng.pick(&["help", "quit", "", "# a comment", "position startpos"]).to_string()),
        1 => lines.push(input::token(rng, &["uci", "ucci"])),
        _ => {}
    }
    if !rng.one_in(12) {
        lines.push(if ucci { "ucci" } else { "uci" }.to_string());
    }
    let variant = if ucci { Variant::Xiangqi } else { Variant::Chess };
    for _ in 0..1 + rng.below(16) {
        let line = match rng.below(20) {
            0..=4 if ucci => input::ucci_line(rng),
            0..=4 => input::uci_line(rng),
            5 | 6 => input::position_line(rng, variant),
            7 => format!("go depth {}", 1 + rng.below(2)),
            8 => format!("go nodes {}", rng.below(500)),
            9 => "go infinite".to_string(),
            10 => "go ponder".to_string(),
            11 => rng.pick(&["stop", "ponderhit", "isready", "ponderhit draw"]).to_string(),
            12 => {
                let (name, value) = *rng.pick(&[
                    ("Debug Log File", "session.log"),
                    ("Debug Log File", "/etc/nowhere/x.log"),
                    ("Debug Log File", "<empty>"),
                    ("Debug Log File", ""),
                    ("Threads", "2"),
                    ("Threads", "1"),
                    ("Hash", "1"),
                    ("Hash", "2"),
                    ("MultiPV", "3"),
                    ("UCI_Variant", "xiangqi"),
                    ("UCI_Variant", "chess"),
                    ("UCI_ShowWDL", "true"),
                    ("UCI_Chess960", "true"),
                    ("Chinese Notation", "true"),
                    ("Ponder", "true"),
                    ("Repetition Rule", "checkban"),
                    ("Draw Moves", "1"),
                ]);
                format!("setoption name {name} value {value}")
            }
            13 if ucci => rng
                .pick(&[
                    "setoption batch on",
                    "setoption usemillisec true",
                    "setoption newgame",
                    "setoption debug true",
                    "go time 1 increment 0",
                    "go draw depth 1",
                    "banmoves h2e2",
                ])
                .to_string(),
            13 => rng
                .pick(&["ucinewgame", "debug on", "go wtime 100 btime 100", "go mate 1"])
                .to_string(),
            14 => rng.pick(&["d", "eval", "flip", "help", "d chinese"]).to_string(),
            15 if rng.one_in(4) => "quit".to_string(),
            16 => input::setoption_line(rng, ucci),
            _ if ucci => input::ucci_line(rng),
            _ => input::uci_line(rng),
        };
        lines.push(line);
    }
    lines
}

/// Runs the session and checks it: it ends, nothing panics, each `go` gets exactly one answer
/// (UCCI: a `stop` while idle may add a `nobestmove`), errors and messages are one short line,
/// and no debug log is opened outside the temporary directory.
pub fn check(parts: &[String]) -> Result<(), String> {
    let Some((how, lines)) = parts.split_first() else { return Ok(()) };
    let implied = (how == "implied").then_some(Protocol::Uci);
    let mut text = lines.join("\n");
    text.push('\n');

    let writer = Arc::new(Writer::new(Output::to(Box::new(std::io::sink()))));
    let recorder = Arc::new(Recorder {
        writer: writer.clone(),
        reports: Mutex::new(Vec::new()),
        escaped: Mutex::new(Vec::new()),
    });
    let engine = Engine::with_hash(
        recorder.clone(),
        None,
        FRESH_HASH,
        chariot_engine::nnue::Networks::embedded(),
    )
    .map_err(|e| format!("no engine: {e}"))?;
    let gate = engine.gate();
    let (to_engine, engine_inbox) = crossbeam_channel::unbounded();
    let (to_relay, relay_inbox) = crossbeam_channel::unbounded();
    let (done_tx, done_rx) = crossbeam_channel::bounded::<bool>(1);
    let controller = std::thread::spawn(move || {
        let ok =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.run(engine_inbox)))
                .is_ok();
        let _ = done_tx.send(ok);
    });
    let input = std::io::Cursor::new(text.into_bytes());
    let reader = reader::spawn(input, to_relay, writer, gate, implied)
        .map_err(|e| format!("no reader: {e}"))?;

    // The relay: everything the reader sends, capped and counted, until it ends.
    let mut counts = Counts::default();
    let deadline = std::time::Instant::now() + HANG;
    loop {
        let event = match relay_inbox.recv_deadline(deadline) {
            Ok(event) => event,
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                return Err(format!("the reader still reads after {HANG:?} (held at the gate?)"));
            }
        };
        let event = match event {
            Event::Command(c) => Event::Command(relay(c, &mut counts)),
            Event::Dialect(d) => {
                counts.idle_stop_answered = d.answer_idle_stop;
                Event::Dialect(d)
            }
            other => other,
        };
        if to_engine.send(event).is_err() {
            break;
        }
    }
    drop(to_engine);
    let finished = done_rx.recv_deadline(deadline);
    let panics: Vec<String> = std::mem::take(&mut *OTHER_PANICS.lock());
    if !panics.is_empty() {
        return Err(format!("a thread panicked: {}", panics.join("; ")));
    }
    match finished {
        Ok(true) => {}
        Ok(false) => return Err("the controller panicked".into()),
        Err(_) => return Err(format!("the session did not end within {HANG:?}")),
    }
    let _ = controller.join();
    let _ = reader.join();

    let reports = recorder.reports.lock();
    // A search answers with a move (or none); `go perft` with its total.
    let answers = reports
        .iter()
        .filter(|r| matches!(r, Report::BestMove { .. } | Report::PerftTotal { .. }))
        .count();
    // A `stop` while idle is answered only where the protocol says so (UCCI).
    let most = if counts.idle_stop_answered { counts.go + counts.stop } else { counts.go };
    if answers < counts.go || answers > most {
        return Err(format!(
            "{} go and {} stop got {answers} answers: {:?}",
            counts.go,
            counts.stop,
            summary(&reports)
        ));
    }
    for r in reports.iter() {
        if let Report::Error(text) | Report::Message(text) = r
            && text.chars().count() > MAX_ERROR_CHARS
        {
            return Err(format!(
                "a report of {} characters: {}",
                text.chars().count(),
                text.chars().take(300).collect::<String>()
            ));
        }
    }
    let escaped = recorder.escaped.lock();
    if !escaped.is_empty() {
        return Err(format!("a debug log outside {}: {escaped:?}", log_dir().display()));
    }
    Ok(())
}

/// The reports without the search's chatter, for a failure message.
fn summary(reports: &[Report]) -> Vec<String> {
    reports
        .iter()
        .filter(|r| !matches!(r, Report::Iteration { .. } | Report::Text(_) | Report::Help))
        .map(|r| format!("{r:?}").chars().take(120).collect())
        .collect()
}
