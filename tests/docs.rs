//! The documentation is output of the real binary: every transcript in README.md and every
//! command file in `examples/` is run and compared with its text, so that the two cannot drift
//! apart (a README once showed a PV the engine no longer played, and an example's "ponder hit"
//! that no longer was one).
//!
//! **README transcripts** are fenced blocks opened with ```` ```text transcript ````. The first
//! line is `$ <command>`, run by `sh` in the repository with the binary under test first on
//! `PATH` (`cargo run --release` stands for `chariot`); it may redirect and pipe (`chariot <
//! examples/batch.txt | grep bestmove`). Lines starting with `> ` are typed: each is sent only
//! after the output shown above it has arrived, as a person would wait for the answer. Every
//! other line is expected output; a line `...` stands for any number of lines (a shortened
//! option list).
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
//! When the engine's play or messages change on purpose, regenerate the text with
//! `CHARIOT_BLESS=1 cargo test --release --test docs`: it rewrites the transcript blocks of
//! README.md (only their contents; a block that still matches keeps its old figures and its
//! `...`) and the `.out` files, then checks them again. Review the diff before committing.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The variable that turns a check into a rewrite of the expected text.
const BLESS: &str = "CHARIOT_BLESS";
/// The fence that opens a checked README block.
const FENCE: &str = "```text transcript";
/// An expected line standing for any number of output lines.
const ELLIPSIS: &str = "...";
/// `info` fields whose values depend on the machine and the moment.
const VARYING: [&str; 5] = ["nodes", "nps", "time", "hashfull", "tbhits"];
/// `info` keywords after which the rest of the line is free text or moves, never a field.
const FREE_TEXT: [&str; 5] = ["pv", "string", "message", "currline", "refutation"];
/// How long a check waits for the next expected line: only a failing check ever waits this
/// long, so it can be generous for a busy machine.
const LINE_WAIT: Duration = Duration::from_secs(60);
/// How long a process may take in all.
const RUN_WAIT: Duration = Duration::from_secs(180);
/// When blessing, output is complete once it has been quiet this long (after the line that
/// ends the command's answer, if it has one). Only blessing guesses; checking never does.
const QUIET: Duration = Duration::from_millis(400);

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

/// One line of a transcript.
#[derive(Clone, Debug, PartialEq)]
enum Line {
    /// `> text`: typed by the user.
    Input(String),
    /// Printed by the program (or `...`).
    Output(String),
}

/// A README transcript: its command and lines, and where its text sits in the README.
#[derive(Debug)]
struct Transcript {
    command: String,
    lines: Vec<Line>,
    /// README line numbers (0-based) of the block's contents after the `$` line.
    body: std::ops::Range<usize>,
}

impl Transcript {
    /// The expected output between the inputs: one segment before the first input and one
    /// after each.
    fn segments(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let mut inputs = Vec::new();
        let mut segments = vec![Vec::new()];
        for line in &self.lines {
            match line {
                Line::Input(text) => {
                    // Output is awaited up to its last line before the next input is typed.
                    assert!(
                        segments.last().and_then(|s| s.last()).is_none_or(|l| l != ELLIPSIS),
                        "`$ {}`: `...` cannot be the last line before `> {text}`",
                        self.command
                    );
                    inputs.push(text.clone());
                    segments.push(Vec::new());
                }
                Line::Output(text) => segments.last_mut().expect("one segment").push(text.clone()),
            }
        }
        (inputs, segments)
    }

    /// The block's lines after the `$` line for the given output segments.
    fn render(inputs: &[String], segments: &[Vec<String>]) -> Vec<String> {
        let mut text = segments[0].clone();
        for (input, segment) in inputs.iter().zip(&segments[1..]) {
            text.push(format!("> {input}"));
            text.extend(segment.iter().cloned());
        }
        text
    }
}

/// Every transcript block of the README, in order.
fn readme_transcripts(readme: &str) -> Vec<Transcript> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() != FENCE {
            i += 1;
            continue;
        }
        let open = i + 1;
        let close = (open..lines.len())
            .find(|&j| lines[j].starts_with("```"))
            .unwrap_or_else(|| panic!("README line {}: transcript block never closed", i + 1));
        let command = lines
            .get(open)
            .and_then(|l| l.strip_prefix("$ "))
            .unwrap_or_else(|| panic!("README line {}: a transcript starts with `$ `", open + 1));
        let body: Vec<Line> = lines[open + 1..close]
            .iter()
            .map(|l| match l.strip_prefix("> ") {
                Some(input) => Line::Input(input.to_string()),
                None => Line::Output(l.to_string()),
            })
            .collect();
        found.push(Transcript { command: command.to_string(), lines: body, body: open + 1..close });
        i = close + 1;
    }
    found
}

/// A shell command with the binary under test first on `PATH`, run in the repository.
fn shell(command: &str) -> Command {
    // A reader's first session is `cargo run --release`: the same program.
    let command = match command.strip_prefix("cargo run --release") {
        Some(rest) => format!("chariot{}", rest.strip_prefix(" --").unwrap_or(rest)),
        None => command.to_string(),
    };
    let bin_dir = Path::new(common::binary()).parent().expect("the binary's folder");
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin_dir.to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg(command)
        .current_dir(root())
        .env("PATH", std::env::join_paths(dirs).expect("PATH"))
        .stdin(Stdio::piped());
    sh
}

/// Reads the output of one segment as a check: until it matches `expected`, or cannot any
/// more (as many lines as expected without a `...`), or nothing comes for [`LINE_WAIT`].
fn read_expected(run: &Running, expected: &[String]) -> Vec<String> {
    let open_ended = expected.iter().any(|l| l == ELLIPSIS);
    let mut got = Vec::new();
    while !matches(expected, &got) && (open_ended || got.len() < expected.len()) {
        match run.next(LINE_WAIT) {
            Ok(line) => got.push(line),
            Err(_) => break,
        }
    }
    got
}

/// Reads the output of one segment when blessing, with nothing to go by: until the line that
/// ends the answer to `input` (e.g. `bestmove` after a bounded `go`), then until quiet.
fn read_settled(run: &Running, input: Option<&str>) -> Vec<String> {
    let words: Vec<&str> = input.unwrap_or_default().split_whitespace().collect();
    let last: Option<fn(&str) -> bool> = match words.first().copied() {
        Some("go") if !words.contains(&"infinite") && !words.contains(&"ponder") => {
            Some(|l| l.starts_with("bestmove") || l == "nobestmove")
        }
        Some("uci") => Some(|l| l == "uciok"),
        Some("ucci") => Some(|l| l == "ucciok"),
        Some("isready") => Some(|l| l == "readyok"),
        _ => None,
    };
    let mut got = Vec::new();
    if let Some(last) = last {
        while let Ok(line) = run.next(RUN_WAIT) {
            got.push(line);
            if last(got.last().expect("a line")) {
                break;
            }
        }
    }
    while let Ok(line) = run.next(QUIET) {
        got.push(line);
    }
    got
}

/// Runs a transcript and returns the output of each segment and the exit status. `settle`:
/// read as blessing does (see [`read_settled`]), else as a check.
fn run_transcript(t: &Transcript, settle: bool) -> (Vec<Vec<String>>, ExitStatus) {
    let (inputs, expected) = t.segments();
    let mut run = Running::start(shell(&t.command));
    let mut actual = Vec::new();
    for (i, segment) in expected.iter().enumerate() {
        if i > 0 {
            run.send(&inputs[i - 1]);
        }
        if i + 1 == expected.len() {
            break;
        }
        let input = i.checked_sub(1).map(|k| inputs[k].as_str());
        actual.push(if settle { read_settled(&run, input) } else { read_expected(&run, segment) });
    }
    // The last segment: everything until the program ends at the end of input.
    let (rest, status) = run.finish();
    actual.push(rest);
    (actual, status)
}

/// Checks (or blesses) every README transcript; returns the README's new text when blessing.
fn check_readme(bless: bool) -> Result<Option<String>, String> {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).expect("README.md");
    let transcripts = readme_transcripts(&readme);
    let mut failures = Vec::new();
    let mut lines: Vec<String> = readme.lines().map(str::to_string).collect();
    // From the last block up, so that earlier line numbers stay valid as blocks change size.
    for t in transcripts.iter().rev() {
        let (inputs, expected) = t.segments();
        let (actual, status) = run_transcript(t, bless);
        let new: Vec<Vec<String>> =
            expected.iter().zip(&actual).map(|(e, a)| blessed(e, a)).collect();
        let ok = status.success() && expected.iter().zip(&actual).all(|(e, a)| matches(e, a));
        if bless {
            lines.splice(t.body.clone(), Transcript::render(&inputs, &new));
        } else if !ok {
            failures.push(format!(
                "README.md line {}: `$ {}` ({status})\n--- expected\n{}\n--- printed\n{}\n",
                t.body.start,
                t.command,
                Transcript::render(&inputs, &expected).join("\n"),
                Transcript::render(&inputs, &actual).join("\n"),
            ));
        }
    }
    if !failures.is_empty() {
        failures.reverse();
        return Err(failures.join("\n"));
    }
    Ok(bless.then(|| lines.join("\n") + "\n"))
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

/// `chariot < file`: every output line, and the exit status.
fn run_example(file: &Path) -> (Vec<String>, ExitStatus) {
    let mut command = Command::new(common::binary());
    command.current_dir(root()).stdin(std::fs::File::open(file).expect("the example"));
    Running::start(command).finish()
}

fn fail_with_hint(report: String) -> ! {
    panic!(
        "{report}\nIf the change of output is intended, regenerate the text with \
         `{BLESS}=1 cargo test --release --test docs` and review the diff."
    )
}

#[test]
fn readme_transcripts_are_what_chariot_prints() {
    if blessing() {
        let text = check_readme(true).expect("blessing does not compare").expect("new text");
        std::fs::write(root().join("README.md"), text).expect("write README.md");
    }
    if let Err(report) = check_readme(false) {
        fail_with_hint(report);
    }
}

#[test]
fn examples_print_what_their_out_files_show() {
    let mut failures = Vec::new();
    for file in examples() {
        let out = file.with_extension("out");
        let expected: Vec<String> = std::fs::read_to_string(&out)
            .map(|t| t.lines().map(str::to_string).collect())
            .unwrap_or_default();
        let (actual, status) = run_example(&file);
        if blessing() {
            let text = blessed(&expected, &actual).join("\n") + "\n";
            std::fs::write(&out, text).expect("write the .out file");
            continue;
        }
        if !out.exists() {
            failures.push(format!("{} has no {}", file.display(), out.display()));
        } else if !status.success() || !matches(&expected, &actual) {
            let first = (0..expected.len().max(actual.len()))
                .find(|&i| {
                    expected.get(i).map(|l| normalise(l)) != actual.get(i).map(|l| normalise(l))
                })
                .unwrap_or(0);
            failures.push(format!(
                "{} ({status}) differs from {} from line {}:\n--- expected\n{}\n--- printed\n{}\n",
                file.display(),
                out.display(),
                first + 1,
                expected[first.min(expected.len())..].join("\n"),
                actual[first.min(actual.len())..].join("\n"),
            ));
        }
    }
    if blessing() {
        // Written: now they must hold as a check would read them.
        let mut again = Vec::new();
        for file in examples() {
            let out = std::fs::read_to_string(file.with_extension("out")).expect(".out written");
            let expected: Vec<String> = out.lines().map(str::to_string).collect();
            if !matches(&expected, &run_example(&file).0) {
                again.push(format!("{}: output differs between two runs", file.display()));
            }
        }
        failures.extend(again);
    }
    if !failures.is_empty() {
        fail_with_hint(failures.join("\n"));
    }
}

/// A README block that shows a session but is not marked would go unchecked.
#[test]
fn every_readme_session_is_a_checked_transcript() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let mut fence: Option<(usize, String)> = None;
    let mut block: Vec<&str> = Vec::new();
    for (i, line) in readme.lines().enumerate() {
        match &fence {
            None if line.starts_with("```") => {
                fence = Some((i + 1, line.trim_end().to_string()));
                block.clear();
            }
            None => {}
            Some((at, open)) if line.starts_with("```") => {
                let session = block.first().is_some_and(|l| l.starts_with("$ "))
                    || block.iter().any(|l| l.starts_with("> "));
                assert!(
                    !session || open == FENCE,
                    "README line {at}: a session shown as {open:?}; open it with {FENCE:?} so \
                     that tests/docs.rs runs it"
                );
                fence = None;
            }
            Some(_) => block.push(line),
        }
    }
    // Each example is listed in the README's table.
    for file in examples() {
        let name = file.file_name().expect("a name").to_string_lossy().to_string();
        assert!(readme.contains(&format!("`examples/{name}`")), "README does not list {name}");
    }
}

#[test]
fn normalising_masks_only_the_varying_fields() {
    assert_eq!(
        normalise(
            "info depth 6 seldepth 15 multipv 1 score cp -4 nodes 18960 nps 4740000 hashfull 0 time 4 pv b8c6 b1c3"
        ),
        "info depth 6 seldepth 15 multipv 1 score cp -4 nodes * nps * hashfull * time * pv b8c6 b1c3"
    );
    assert_eq!(normalise("info string time 5 nodes 3"), "info string time 5 nodes 3");
    assert_eq!(normalise("Nodes searched: 197281"), "Nodes searched: 197281");
    let lines = |s: &str| s.lines().map(str::to_string).collect::<Vec<_>>();
    assert!(matches(&lines("a\n...\nd"), &lines("a\nb\nc\nd")));
    assert!(matches(&lines("a\n...\nd"), &lines("a\nd")));
    assert!(!matches(&lines("a\n...\nd"), &lines("a\nb")));
    assert!(!matches(&lines("a\nb"), &lines("a\nb\nc")));
    // A bless keeps a shortened listing shortened.
    assert_eq!(blessed(&lines("a\n...\nz"), &lines("a\nb\nc\ny")), lines("a\n...\ny"));
}
