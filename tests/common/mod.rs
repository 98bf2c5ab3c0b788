//! Drives the real `chariot` binary through pipes, as a GUI or a script would.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// The binary under test.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_chariot")
}

/// What waiting for one output line gave.
pub enum Next {
    /// A line (without its line ending).
    Line(String),
    /// Nothing arrived in time.
    Timeout,
    /// The engine closed its stdout.
    Closed,
}

/// An interactive session with the engine.
pub struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    pub seen: Vec<String>,
}

impl Session {
    /// Starts the engine with `args`.
    pub fn start(args: &[&str]) -> Session {
        let mut child = Command::new(binary())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chariot");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Session { child, stdin, lines, seen: Vec::new() }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to chariot");
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to chariot");
        stdin.flush().expect("flush");
    }

    /// Closes stdin (end of input).
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Waits up to `timeout` for a line satisfying `pred`; returns it and how long it took.
    pub fn expect_within(
        &mut self,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> (String, Duration) {
        let start = Instant::now();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if pred(&line) {
                        return (line, start.elapsed());
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no matching line within {timeout:?}; seen: {:#?}", self.seen)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed stdout; seen: {:#?}", self.seen)
                }
            }
        }
    }

    /// Waits (up to 60 s) for a line starting with `prefix`.
    pub fn expect(&mut self, prefix: &str) -> String {
        self.expect_within(Duration::from_secs(60), |l| l.starts_with(prefix)).0
    }

    /// Reads until stdout closes (up to `timeout`), returning the remaining lines.
    pub fn rest(&mut self, timeout: Duration) -> Vec<String> {
        let start = Instant::now();
        let mut out = Vec::new();
        loop {
            let left = timeout.saturating_sub(start.elapsed());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    out.push(line);
                }
                Err(RecvTimeoutError::Disconnected) => return out,
                Err(RecvTimeoutError::Timeout) => {
                    panic!("engine did not finish within {timeout:?}; seen: {:#?}", self.seen)
                }
            }
        }
    }

    /// The engine's process id (to read its memory from `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits up to `timeout` for the next line, whatever it is. The line is also kept in
    /// `seen`.
    pub fn next_line(&mut self, timeout: Duration) -> Next {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.seen.push(line.clone());
                Next::Line(line)
            }
            Err(RecvTimeoutError::Timeout) => Next::Timeout,
            Err(RecvTimeoutError::Disconnected) => Next::Closed,
        }
    }

    /// Waits up to `timeout` for the process to exit, looking every tenth of a millisecond,
    /// and returns its status and the time since `since` (when `quit` was sent, say); `None`
    /// if it is still running.
    pub fn exit_since(
        &mut self,
        since: Instant,
        timeout: Duration,
    ) -> Option<(ExitStatus, Duration)> {
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return Some((status, since.elapsed()));
            }
            if since.elapsed() > timeout {
                return None;
            }
            std::thread::sleep(Duration::from_micros(100));
        }
    }

    /// Waits for the process to exit.
    pub fn wait(&mut self, timeout: Duration) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            if start.elapsed() > timeout {
                let _ = self.child.kill();
                panic!("engine did not exit within {timeout:?}; seen: {:#?}", self.seen);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Pipes `input` into the engine, closes stdin, and returns every output line and the status.
pub fn run_script(args: &[&str], input: &str) -> (Vec<String>, ExitStatus) {
    let mut s = Session::start(args);
    s.send_bytes(input.as_bytes());
    s.close();
    let lines = s.rest(Duration::from_secs(120));
    let status = s.wait(Duration::from_secs(10));
    (lines, status)
}

/// The move of the last `bestmove` line, if any.
pub fn bestmove(lines: &[String]) -> Option<String> {
    lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|rest| rest.split_whitespace().next())
        .map(str::to_string)
}

/// A limit of a `debug` time-budget line (`... time budget: soft 392 ms, hard 1224 ms`):
/// `which` is `"soft"` or `"hard"`.
pub fn budget_ms(line: &str, which: &str) -> u64 {
    line.split(&format!("{which} "))
        .nth(1)
        .and_then(|rest| rest.split(" ms").next())
        .and_then(|ms| ms.parse().ok())
        .unwrap_or_else(|| panic!("no {which} limit in {line:?}"))
}

/// Runs `tests/clients/<script>` with python3 against the binary, a real client written
/// elsewhere; it must exit 0. Skipped (with a note) when python3 cannot import `module`:
/// `scripts/setup-test-deps.sh` installs the clients, and CI runs it.
pub fn python_client(module: &str, script: &str) {
    let probe = Command::new("python3").args(["-c", &format!("import {module}")]).output();
    if !probe.map(|o| o.status.success()).unwrap_or(false) {
        eprintln!("skipped: python3 cannot import {module} (scripts/setup-test-deps.sh)");
        return;
    }
    let path = format!("{}/tests/clients/{script}", env!("CARGO_MANIFEST_DIR"));
    let out =
        Command::new("python3").args([path.as_str(), binary()]).output().expect("run python3");
    assert!(
        out.status.success(),
        "{script} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The positions of a perft file (`<fen>;D1 <count>;D2 <count>...`, `#` comments): each FEN with
/// its `(depth, count)` pairs. Both games' perft tests read their files with it.
pub fn perft_cases(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    let cases: Vec<_> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().expect("a FEN before the counts").trim().to_string();
            let counts = parts
                .map(|p| {
                    let p = p.trim();
                    let (d, n) = p.split_once(' ').unwrap_or_else(|| panic!("bad count '{p}'"));
                    let depth = d.trim_start_matches('D').parse().expect("a depth");
                    (depth, n.trim().parse().expect("a count"))
                })
                .collect();
            (fen, counts)
        })
        .collect();
    assert!(!cases.is_empty(), "no perft positions read");
    cases
}
