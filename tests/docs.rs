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

/// A transcript: its command and lines, and where its text sits in its document.
#[derive(Debug)]
struct Transcript {
    command: String,
    lines: Vec<Line>,
    /// Line numbers (0-based) of the block's contents after the `$` line.
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

/// Every transcript block of a document, in order.
fn transcripts(doc: &str, name: &str) -> Vec<Transcript> {
    let lines: Vec<&str> = doc.lines().collect();
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
            .unwrap_or_else(|| panic!("{name} line {}: transcript block never closed", i + 1));
        let command = lines
            .get(open)
            .and_then(|l| l.strip_prefix("$ "))
            .unwrap_or_else(|| panic!("{name} line {}: a transcript starts with `$ `", open + 1));
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

/// Checks (or blesses) every transcript of one document; returns its new text when blessing.
fn check_doc(name: &str, bless: bool) -> Result<Option<String>, String> {
    let doc = read(name);
    let mut failures = Vec::new();
    let mut lines: Vec<String> = doc.lines().map(str::to_string).collect();
    // From the last block up, so that earlier line numbers stay valid as blocks change size.
    for t in transcripts(&doc, name).iter().rev() {
        let (inputs, expected) = t.segments();
        let (actual, status) = run_transcript(t, bless);
        let new: Vec<Vec<String>> =
            expected.iter().zip(&actual).map(|(e, a)| blessed(e, a)).collect();
        let ok = status.success() && expected.iter().zip(&actual).all(|(e, a)| matches(e, a));
        if bless {
            lines.splice(t.body.clone(), Transcript::render(&inputs, &new));
        } else if !ok {
            failures.push(format!(
                "{name} line {}: `$ {}` ({status})\n--- expected\n{}\n--- printed\n{}\n",
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
fn transcripts_are_what_chariot_prints() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for name in documents() {
        if blessing() {
            let text = check_doc(&name, true).expect("blessing does not compare").expect("text");
            std::fs::write(root().join(&name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        checked += transcripts(&read(&name), &name).len();
        if let Err(report) = check_doc(&name, false) {
            failures.push(report);
        }
    }
    // The README's two sessions and those of docs/usage.md at least.
    assert!(checked >= 6, "only {checked} transcripts found");
    if !failures.is_empty() {
        fail_with_hint(failures.join("\n"));
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

/// A block that shows a session but is not marked would go unchecked.
#[test]
fn every_session_shown_is_a_checked_transcript() {
    let mut all = String::new();
    for name in documents() {
        let doc = read(&name);
        every_session_is_checked(&name, &doc);
        all.push_str(&doc);
    }
    // Each example is listed in a document's table.
    for file in examples() {
        let name = file.file_name().expect("a name").to_string_lossy().to_string();
        assert!(all.contains(&format!("`examples/{name}`")), "no document lists {name}");
    }
}

fn every_session_is_checked(name: &str, doc: &str) {
    let mut fence: Option<(usize, String)> = None;
    let mut block: Vec<&str> = Vec::new();
    for (i, line) in doc.lines().enumerate() {
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
                    "{name} line {at}: a session shown as {open:?}; open it with {FENCE:?} so \
                     that tests/docs.rs runs it"
                );
                fence = None;
            }
            Some(_) => block.push(line),
        }
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

// ---------------------------------------------------------------------------------------------
// Data files and the tables made from them.

/// The line that opens a generated table; the line that closes it.
const TABLE_OPEN: &str = "<!-- table ";
const TABLE_CLOSE: &str = "<!-- end table -->";

/// A CSV file (RFC 4180: fields quoted with `"` when they hold a comma, a quote or a line
/// break, quotes doubled inside): its rows, the header first.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let (mut row, mut field) = (Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(!quoted, "a quoted CSV field never closed");
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// A CSV file of the repository as records keyed by the header's names; every row must have
/// as many fields as the header.
fn records(name: &str) -> Vec<std::collections::HashMap<String, String>> {
    let rows = parse_csv(&read(name));
    let (header, body) = rows.split_first().unwrap_or_else(|| panic!("{name} is empty"));
    body.iter()
        .enumerate()
        .map(|(i, row)| {
            assert_eq!(row.len(), header.len(), "{name} row {}: {} fields", i + 2, row.len());
            header.iter().cloned().zip(row.iter().cloned()).collect()
        })
        .collect()
}

/// What a table directive asks for: the file, the filter and the columns.
struct TableSpec {
    file: String,
    filter: Option<(String, String)>,
    columns: Vec<String>,
}

fn parse_table_spec(line: &str) -> Result<TableSpec, String> {
    let body = line
        .trim()
        .strip_prefix(TABLE_OPEN)
        .and_then(|l| l.strip_suffix("-->"))
        .ok_or_else(|| format!("not a table directive: {line}"))?;
    let (head, columns) =
        body.split_once(" columns ").ok_or_else(|| format!("no ` columns ` in: {line}"))?;
    let (file, filter) = match head.split_once(" where ") {
        Some((file, cond)) => {
            let (k, v) = cond.split_once('=').ok_or_else(|| format!("no `=` in: {line}"))?;
            (file, Some((k.trim().to_string(), v.trim().to_string())))
        }
        None => (head, None),
    };
    let columns = columns.split(',').map(|c| c.trim().to_string()).collect();
    Ok(TableSpec { file: file.trim().to_string(), filter, columns })
}

/// The Markdown table a directive stands for.
fn render_table(spec: &TableSpec) -> Vec<String> {
    let rows = records(&spec.file);
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    let mut out = vec![
        format!("| {} |", spec.columns.join(" | ")),
        format!("|{}", "---|".repeat(spec.columns.len())),
    ];
    for row in &rows {
        if let Some((k, v)) = &spec.filter {
            let have = row.get(k).unwrap_or_else(|| panic!("{}: no column {k}", spec.file));
            if have != v {
                continue;
            }
        }
        let cells: Vec<String> = spec
            .columns
            .iter()
            .map(|c| cell(row.get(c).unwrap_or_else(|| panic!("{}: no column {c}", spec.file))))
            .collect();
        out.push(format!("| {} |", cells.join(" | ")));
    }
    out
}

/// Checks (or, blessing, rewrites) the generated tables of one document: the number of tables
/// and the document's text with every table rendered afresh, or the first difference.
fn check_tables(name: &str) -> (usize, String, Option<String>) {
    let doc = read(name);
    let lines: Vec<&str> = doc.lines().collect();
    let (mut out, mut count, mut failure) = (Vec::<String>::new(), 0, None);
    let mut i = 0;
    while i < lines.len() {
        out.push(lines[i].to_string());
        if !lines[i].starts_with(TABLE_OPEN) {
            i += 1;
            continue;
        }
        let spec = parse_table_spec(lines[i]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let close = (i + 1..lines.len())
            .find(|&j| lines[j].trim() == TABLE_CLOSE)
            .unwrap_or_else(|| panic!("{name} line {}: no {TABLE_CLOSE}", i + 1));
        let table = render_table(&spec);
        if failure.is_none() && lines[i + 1..close] != table[..] {
            let first =
                (0..table.len()).find(|&k| lines.get(i + 1 + k) != Some(&table[k].as_str()));
            failure = Some(format!(
                "{name} line {}: the table from {} differs from its data at its line {}:\n{}",
                i + 1,
                spec.file,
                first.map_or(table.len(), |k| k + 1),
                first.map_or(String::new(), |k| table[k].clone()),
            ));
        }
        out.extend(table);
        out.push(lines[close].to_string());
        count += 1;
        i = close + 1;
    }
    (count, out.join("\n") + "\n", failure)
}

#[test]
fn generated_tables_are_their_data() {
    let mut failures = Vec::new();
    let mut count = 0;
    for name in documents() {
        let (n, text, failure) = check_tables(&name);
        count += n;
        if blessing() && failure.is_some() {
            std::fs::write(root().join(&name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
        } else {
            failures.extend(failure);
        }
    }
    // docs/tried.md's kept and not kept, and the levels' tables at least.
    assert!(count >= 4, "only {count} generated tables found");
    if !failures.is_empty() {
        fail_with_hint(failures.join("\n"));
    }
}

#[test]
fn tables_render_csv() {
    let rows = parse_csv("a,b\n1,\"x, \"\"y\"\"\"\n2,\n");
    assert_eq!(rows, [vec!["a", "b"], vec!["1", "x, \"y\""], vec!["2", ""]]);
    let spec = parse_table_spec("<!-- table docs/tried.csv where kept=yes columns order, game -->")
        .expect("a directive");
    assert_eq!(spec.file, "docs/tried.csv");
    assert_eq!(spec.filter, Some(("kept".to_string(), "yes".to_string())));
    assert_eq!(spec.columns, ["order", "game"]);
    let table = render_table(&spec);
    assert_eq!(table[..2], ["| order | game |".to_string(), "|---|---|".to_string()]);
    assert!(
        table.len() > 30
            && table[2..].iter().all(|r| r.ends_with("chess |") || r.ends_with("xiangqi |"))
    );
    assert!(parse_table_spec("<!-- table docs/tried.csv -->").is_err());
}

/// Parses an optional number field of a data row.
fn number(row: &std::collections::HashMap<String, String>, col: &str, at: &str) -> Option<f64> {
    let v = row.get(col).unwrap_or_else(|| panic!("{at}: no column {col}"));
    (!v.is_empty()).then(|| v.parse().unwrap_or_else(|_| panic!("{at}: {col} `{v}` is no number")))
}

/// The lab notebook's rows hold what a match result needs, and agree with themselves.
#[test]
fn tried_changes_are_well_formed() {
    let rows = records("docs/tried.csv");
    // Every row of the old README's two tables (31 strength changes, 5 of them measured in both
    // games, and 85 tried ones) and the 8 network trials its network table told of.
    assert!(rows.len() >= 129, "{} rows", rows.len());
    for (i, row) in rows.iter().enumerate() {
        let at = format!("docs/tried.csv row {}", i + 2);
        assert_eq!(number(row, "order", &at), Some((i + 1) as f64), "{at}: rows in order");
        assert!(["chess", "xiangqi"].contains(&row["game"].as_str()), "{at}: game");
        assert!(["yes", "no"].contains(&row["kept"].as_str()), "{at}: kept");
        assert!(!row["description"].is_empty() && !row["result"].is_empty(), "{at}: text");
        let date = &row["date"];
        assert!(date.len() == 10 && date.as_bytes()[4] == b'-', "{at}: date {date}");
        for col in ["commit", "recorded_in"] {
            let c = &row[col];
            assert!(c.is_empty() || c.chars().all(|c| c.is_ascii_hexdigit()), "{at}: {col}");
        }
        let wld: Vec<Option<f64>> =
            ["wins", "losses", "draws"].iter().map(|c| number(row, c, &at)).collect();
        let games = number(row, "games", &at);
        if let [Some(w), Some(l), Some(d)] = wld[..] {
            assert_eq!(games, Some(w + l + d), "{at}: games = wins + losses + draws");
        }
        let penta: Vec<Option<f64>> =
            ["penta_ll", "penta_ld", "penta_dd_wl", "penta_wd", "penta_ww"]
                .iter()
                .map(|c| number(row, c, &at))
                .collect();
        if penta.iter().any(Option::is_some) {
            let pairs: f64 = penta.iter().map(|p| p.expect("all five or none")).sum();
            assert_eq!(games, Some(2.0 * pairs), "{at}: a pentanomial count is of game pairs");
        }
        let (elo, error) = (number(row, "elo", &at), number(row, "elo_error", &at));
        assert_eq!(elo.is_some(), error.is_some(), "{at}: Elo with its error bar");
        assert!(error.is_none_or(|e| e > 0.0), "{at}: error bar");
        if let (Some(e), [Some(w), Some(l), Some(_)]) = (elo, &wld[..]) {
            // The sign of the Elo is the sign of wins minus losses (a pooled figure of a
            // level score may round to a few tenths).
            let agrees = if w == l { e.abs() < 1.0 } else { e == 0.0 || (e > 0.0) == (w > l) };
            assert!(agrees, "{at}: Elo {e} for {w}-{l}");
        }
        number(row, "llr", &at);
        number(row, "bench", &at);
    }
}

/// Each game has one shipped network recipe, the last of its generations, and the file; the
/// learning line's candidates not (yet) shipped stand beside them.
#[test]
fn network_recipes_name_the_shipped_networks() {
    let text = read("nets/recipes.toml");
    let mut entries: Vec<(String, u32, bool)> = Vec::new();
    for block in text.split("\n[[network]]\n").skip(1) {
        let field = |key: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{key} = ")))
                .unwrap_or_else(|| panic!("a recipe without {key}"))
                .trim_matches('"')
                .to_string()
        };
        for key in ["data", "command", "hidden", "lr", "epochs", "batch", "lambda", "measured"] {
            field(key);
        }
        // A candidate of the learning line (scripts/learn.sh) that has not shipped is a
        // recipe like any other, outside the shipped generations' sequence.
        let candidate = block.lines().any(|l| l == "line = true") && field("shipped") != "true";
        if candidate {
            continue;
        }
        entries.push((
            field("game"),
            field("generation").parse().expect("a generation"),
            field("shipped") == "true",
        ));
    }
    for game in ["chess", "xiangqi"] {
        let of: Vec<_> = entries.iter().filter(|e| e.0 == game).collect();
        let last = of.iter().map(|e| e.1).max().expect("a recipe");
        let shipped: Vec<u32> = of.iter().filter(|e| e.2).map(|e| e.1).collect();
        assert_eq!(shipped, [last], "{game}: one shipped network, the last generation");
        assert_eq!(of.len() as u32, last, "{game}: a recipe for every generation");
        assert!(root().join(format!("nets/{game}.nnue")).exists());
    }
}

/// The network scripts cut data files to whole records: the size they use is the engine's.
#[test]
fn scripts_use_the_engines_record_size() {
    let common = read("scripts/nnue-common.sh");
    let bytes: usize = common
        .lines()
        .find_map(|l| l.strip_prefix("RECORD_BYTES="))
        .expect("RECORD_BYTES= in scripts/nnue-common.sh")
        .trim()
        .parse()
        .expect("a number");
    assert_eq!(bytes, chariot_engine::nnue::data::RECORD_BYTES);
    for script in ["scripts/nnue.sh", "scripts/nnue-gen.sh"] {
        let text = read(script);
        assert!(text.contains("nnue-common.sh") && !text.contains("* 40"), "{script}");
    }
}

/// No document and no script of those the documents tell a newcomer to run needs a path
/// outside a clone: what they need comes from an argument or an environment variable.
#[test]
fn nothing_needs_a_path_outside_the_repository() {
    let mut files = documents();
    files.extend(
        [
            "nnue.sh",
            "nnue-gen.sh",
            "nnue-common.sh",
            "fuzz.sh",
            "setup-test-deps.sh",
            "game-env.sh",
            "sprt.sh",
            "accept.sh",
            "levels.sh",
            "compare-perft.sh",
            "match-rules.py",
        ]
        .map(|s| format!("scripts/{s}")),
    );
    files.extend(
        ["nets/recipes.toml", "docs/tried.csv", "docs/levels.csv", "docs/acceptance.csv"]
            .map(String::from),
    );
    for name in files {
        let text = read(&name);
        for (i, line) in text.lines().enumerate() {
            for bad in ["../shared", "~/", "$HOME", "/home/", "/root/"] {
                assert!(!line.contains(bad), "{name} line {}: `{bad}` in {line}", i + 1);
            }
        }
    }
}

/// The other result files add up: games are wins, losses and draws, and a score is the first
/// side's share of the points (as rounded when it was recorded).
#[test]
fn match_results_add_up() {
    for name in ["docs/acceptance.csv", "docs/levels.csv"] {
        let rows = records(name);
        assert!(rows.len() >= 10, "{name}: {} rows", rows.len());
        for (i, row) in rows.iter().enumerate() {
            let at = format!("{name} row {}", i + 2);
            let games = number(row, "games", &at).expect("games");
            let score = number(row, "score", &at);
            let wld: Vec<Option<f64>> =
                ["wins", "losses", "draws"].iter().map(|c| number(row, c, &at)).collect();
            if let [Some(w), Some(l), Some(d)] = wld[..] {
                assert_eq!(games, w + l + d, "{at}: games = wins + losses + draws");
                if let Some(s) = score {
                    let points = 100.0 * (w + d / 2.0) / games;
                    assert!((points - s).abs() < 0.051, "{at}: score {s}% for {w}-{l}-{d}");
                }
            }
            assert!(score.is_none_or(|s| (0.0..=100.0).contains(&s)), "{at}: score");
            assert!(!row["game"].is_empty() && !row["tc"].is_empty(), "{at}: game and time");
        }
    }
}

/// README.md stays a front door, and every relative link of the documents leads to a file.
#[test]
fn readme_is_short_and_links_resolve() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines; at most 300 (the rest belongs in docs/)");
    let mut links = 0;
    for name in documents() {
        let doc = read(&name);
        let dir = Path::new(&name).parent().expect("a folder").to_path_buf();
        for part in doc.split("](").skip(1) {
            let target = part.split(')').next().expect("a target");
            let file = target.split('#').next().expect("a path");
            if file.is_empty() || file.contains("://") {
                continue;
            }
            links += 1;
            assert!(root().join(&dir).join(file).exists(), "{name}: a link to {target}, not found");
        }
    }
    for name in documents().iter().skip(1) {
        let file = name.strip_prefix("docs/").expect("in docs/");
        assert!(readme.contains(&format!("(docs/{file})")), "README.md does not link {name}");
    }
    assert!(links >= 20, "only {links} links found");
}
