//! The documentation is output of the real binary and of the data it is made from: every
//! transcript in README.md and `docs/*.md` and every command file in `examples/` is run and
//! compared with its text, so that the two cannot drift apart (a README once showed a PV the
//! engine no longer played, and an example's "ponder hit" that no longer was one); every table
//! generated from a data file (`docs/tried.csv`, `docs/levels.csv`) is rendered again and
//! compared; the data files are checked for form.
//!
//! **Transcripts** are fenced blocks opened with ```` ```text transcript ```` in README.md or
//! a file of `docs/`. The first line is `$ <command>`, run by `sh` in the repository with the
//! binary under test first on `PATH` (`cargo run --release` stands for `chariot`); it may
//! redirect and pipe (`chariot < examples/batch.txt | grep bestmove`). Lines starting with
//! `> ` are typed: each is sent only after the output shown above it has arrived, as a person
//! would wait for the answer. Every other line is expected output; a line `...` stands for any
//! number of lines (a shortened option list).
//!
//! **Examples**: `examples/<name>.txt` is fed to `chariot` as its stdin (`chariot <
//! examples/<name>.txt`) and the output compared with `examples/<name>.out`.
//!
//! Compared as they are, except for what varies from run to run: in `info` lines the values of
//! `nodes`, `nps`, `time`, `hashfull` and `tbhits` (depth, score and PV must match, so every
//! search shown must be deterministic: a fixed depth or node count, one thread). The engine's
//! note that a command waits for the running search is dropped too: it is printed when the
//! command is read, which in a piped file races with the search's own lines. So are the
//! progress lines a search prints once it has run a second (`info nodes ...`, `info currmove
//! ...`): whether they appear depends on how fast the machine is at that moment.
//!
//! **Generated tables** sit between a line `<!-- table FILE [where COL=VALUE] columns COL, COL
//! -->` and a line `<!-- end table -->`: the rows of the CSV file FILE (from the repository's
//! root) that match, in the file's order, with the columns named.
//!
//! When the engine's play or messages or the data change on purpose, regenerate the text with
//! `CHARIOT_BLESS=1 cargo test --release --test docs`: it rewrites the transcript blocks
//! (only their contents; a block that still matches keeps its old figures and its `...`), the
//! generated tables and the `.out` files, then checks them again. Review the diff before
//! committing.
//!
//! This file holds what the checks share: the documents and examples, running a command
//! and reading its output, and the comparison; the modules below hold the checks, one kind each.

#[path = "../common/mod.rs"]
mod common;

mod data;
mod example;
mod links;
mod tables;
mod transcript;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The variable that turns a check into a rewrite of the expected text.
const BLESS: &str = "CHARIOT_BLESS";
/// An expected line standing for any number of output lines.
const ELLIPSIS: &str = "...";
/// `info` fields whose values depend on the machine and the moment.
const VARYING: [&str; 5] = ["nodes", "nps", "time", "hashfull", "tbhits"];
/// `info` keywords after which the rest of the line is free text or moves, never a field.
const FREE_TEXT: [&str; 5] = ["pv", "string", "message", "currline", "refutation"];
/// How long a process may take in all.
const RUN_WAIT: Duration = Duration::from_secs(180);

fn blessing() -> bool {
    std::env::var_os(BLESS).is_some_and(|v| v == "1")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// True for the lines the comparison drops (see the module comment): the engine's note that a
/// command waits for the search, and the progress lines a long search prints by the clock.
fn is_timing_dependent(line: &str) -> bool {
    (line.starts_with("info ") && line.contains("waiting for the search to end"))
        || line.starts_with("info nodes ")
        || line.starts_with("info currmove ")
}

/// `line` with the values of the varying `info` fields replaced by `*`.
fn normalise(line: &str) -> String {
    if !line.starts_with("info ") {
        return line.to_string();
    }
    let mut out = Vec::new();
    let (mut mask_next, mut free) = (false, false);
    for token in line.split(' ') {
        if free {
            out.push(token);
        } else if mask_next {
            out.push("*");
            mask_next = false;
        } else {
            free = FREE_TEXT.contains(&token);
            mask_next = VARYING.contains(&token);
            out.push(token);
        }
    }
    out.join(" ")
}

/// True when `actual` matches `expected`, where an expected `...` line matches any number of
/// lines and the others must be equal once normalised.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e == ELLIPSIS => (0..=actual.len()).any(|k| matches(rest, &actual[k..])),
        Some((e, rest)) => actual
            .split_first()
            .is_some_and(|(a, more)| normalise(e) == normalise(a) && matches(rest, more)),
    }
}

/// The text to write for output `actual` that was expected as `old`: the old text while it
/// still matches (its figures and shortening kept, so a bless changes only what changed),
/// else the output, shortened again where the old text had its one `...`.
fn blessed(old: &[String], actual: &[String]) -> Vec<String> {
    if matches(old, actual) {
        return old.to_vec();
    }
    let dots: Vec<usize> = (0..old.len()).filter(|&i| old[i] == ELLIPSIS).collect();
    if let [k] = dots[..] {
        let (head, tail) = (k, old.len() - k - 1);
        if actual.len() > head + tail {
            let mut text = actual[..head].to_vec();
            text.push(ELLIPSIS.to_string());
            text.extend_from_slice(&actual[actual.len() - tail..]);
            return text;
        }
    }
    actual.to_vec()
}

/// A running command with its stdout read line by line on a thread of its own.
struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

/// Why no line came.
enum Silence {
    Timeout,
    Closed,
}

impl Running {
    fn start(mut command: Command) -> Running {
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {command:?}: {e}"));
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if !is_timing_dependent(&line) && tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Running { child, stdin, lines }
    }

    /// Types one line. A process that has already exited cannot read it; the comparison of
    /// the output then tells what went wrong, so a write error is not one here.
    fn send(&mut self, line: &str) {
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = writeln!(stdin, "{line}").and_then(|_| stdin.flush());
        }
    }

    fn next(&self, wait: Duration) -> Result<String, Silence> {
        self.lines.recv_timeout(wait).map_err(|e| match e {
            RecvTimeoutError::Timeout => Silence::Timeout,
            RecvTimeoutError::Disconnected => Silence::Closed,
        })
    }

    /// Closes stdin and reads everything left, then the exit status.
    fn finish(mut self) -> (Vec<String>, ExitStatus) {
        self.stdin = None;
        let start = Instant::now();
        let mut rest = Vec::new();
        loop {
            match self.next(RUN_WAIT.saturating_sub(start.elapsed())) {
                Ok(line) => rest.push(line),
                Err(Silence::Closed) => break,
                Err(Silence::Timeout) => {
                    let _ = self.child.kill();
                    panic!("no end of output within {RUN_WAIT:?}; read: {rest:#?}");
                }
            }
        }
        let status = self.child.wait().expect("wait for the process");
        (rest, status)
    }
}

/// README.md and every `docs/*.md`, by their paths from the repository's root.
fn documents() -> Vec<String> {
    let mut docs: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.expect("a folder entry").file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    docs.insert(0, "README.md".to_string());
    docs
}

fn read(name: &str) -> String {
    std::fs::read_to_string(root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The command files in `examples/`, sorted.
fn examples() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .expect("examples/")
        .map(|e| e.expect("a folder entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no examples found");
    files
}

fn fail_with_hint(report: String) -> ! {
    panic!(
        "{report}\nIf the change of output is intended, regenerate the text with \
         `{BLESS}=1 cargo test --release --test docs` and review the diff."
    )
}
