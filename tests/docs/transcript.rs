//! Transcripts: the sessions shown in README.md and `docs/*.md`, run and compared with their
//! text, and the rule that every session shown is one.

use crate::common;
use crate::{
    ELLIPSIS, RUN_WAIT, Running, blessed, blessing, documents, examples, fail_with_hint, matches,
    normalise, read, root,
};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

/// The fence that opens a checked README block.
const FENCE: &str = "```text transcript";
/// How long a check waits for the next expected line: only a failing check ever waits this
/// long, so it can be generous for a busy machine.
const LINE_WAIT: Duration = Duration::from_secs(60);
/// When blessing, output is complete once it has been quiet this long (after the line that
/// ends the command's answer, if it has one). Only blessing guesses; checking never does.
const QUIET: Duration = Duration::from_millis(400);

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
                     that tests/docs/ runs it"
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
