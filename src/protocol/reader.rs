//! The stdin reader thread: the only code that touches input.
//!
//! It reads raw byte lines (any length, `\r\n` or `\n`, invalid UTF-8 replaced), waits for the
//! first line that names a protocol, and from then on parses every line with that protocol's
//! front-end and forwards the result to the controller's inbox. It never blocks on the search.

use super::output::Output;
use super::{Command, Frontend, ParseError, Protocol};
use crossbeam_channel::Sender;
use parking_lot::{Condvar, Mutex};
use std::io::BufRead;
use std::sync::Arc;
use std::thread::JoinHandle;

/// What the reader tells the controller.
#[derive(Debug)]
pub enum Event {
    /// The session speaks this protocol from now on (sent once, before its first command).
    Protocol(Protocol),
    /// A parsed command.
    Command(Command),
    /// A line that could not be parsed.
    Bad(ParseError),
    /// Input has ended.
    Eof,
    /// A raw input line, for the debug log. Sent before the line's own event, so that the
    /// controller logs it in order with the options that open and close the log.
    Line(String),
}

/// Holds the reader back while a `go` read in UCCI batch mode is unanswered, so that a
/// redirected command file runs line after line (the spec's batch mode).
#[derive(Default)]
pub struct Gate {
    outstanding: Mutex<u64>,
    answered: Condvar,
}

impl Gate {
    /// Called by the reader before it forwards a batch-mode `go`.
    fn hold(&self) {
        *self.outstanding.lock() += 1;
    }

    /// Blocks the reader until every held `go` has been answered.
    fn wait(&self) {
        let mut n = self.outstanding.lock();
        while *n > 0 {
            self.answered.wait(&mut n);
        }
    }

    /// Called by the controller after each `go` is answered.
    pub fn answered(&self) {
        let mut n = self.outstanding.lock();
        if *n > 0 {
            *n -= 1;
            self.answered.notify_all();
        }
    }
}

/// The line printed when input arrives before a protocol has been chosen.
pub const HINT: &str =
    "Chariot: type 'uci' for chess (UCI) or 'ucci' for xiangqi (UCCI) first; 'help' explains";

/// `help` before a protocol has been chosen.
pub const FIRST_HELP: &str = "\
Chariot is a chess and xiangqi engine. Choose a protocol first:
  uci     chess over UCI (xiangqi too: setoption name UCI_Variant value xiangqi)
  ucci    xiangqi over UCCI
Then type help for that protocol's commands. quit leaves.";

/// The one-line banner printed when Chariot starts on a terminal or a pipe.
pub const BANNER: &str = concat!(
    "Chariot ",
    env!("CARGO_PKG_VERSION"),
    ": chess over uci, xiangqi over ucci; type help"
);

/// Starts the reader thread on `input`; events go to `inbox`.
pub fn spawn(
    input: impl BufRead + Send + 'static,
    inbox: Sender<Event>,
    out: Arc<Output>,
    gate: Arc<Gate>,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new().name("reader".into()).spawn(move || run(input, inbox, out, gate))
}

fn run(mut input: impl BufRead, inbox: Sender<Event>, out: Arc<Output>, gate: Arc<Gate>) {
    let mut frontend: Option<Frontend> = None;
    let mut raw = Vec::new();
    loop {
        raw.clear();
        match input.read_until(b'\n', &mut raw) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("stdin: {e}");
                break;
            }
        }
        let text = String::from_utf8_lossy(&raw);
        let line = text.trim_end_matches(['\n', '\r']).trim();
        if inbox.send(Event::Line(line.to_string())).is_err() {
            return;
        }
        let fe = match frontend.as_mut() {
            Some(fe) => fe,
            None => {
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                match Protocol::select(line) {
                    Some(p) => {
                        if inbox.send(Event::Protocol(p)).is_err() {
                            return;
                        }
                        frontend.insert(Frontend::new(p))
                    }
                    None if line.split_whitespace().next() == Some("quit") => {
                        let _ = inbox.send(Event::Command(Command::Quit));
                        return;
                    }
                    None if line.split_whitespace().next() == Some("help") => {
                        out.line(FIRST_HELP);
                        continue;
                    }
                    None => {
                        out.line(HINT);
                        continue;
                    }
                }
            }
        };
        let event = match fe.parse(line) {
            Ok(Some(command)) => Event::Command(command),
            Ok(None) => continue,
            Err(e) => Event::Bad(e),
        };
        let quit = matches!(event, Event::Command(Command::Quit));
        // A search that only `stop` or `ponderhit` can end is not waited for: nothing else
        // could ever be read to end it.
        let hold = fe.batch()
            && matches!(&event, Event::Command(Command::Go(l)) if !l.ponder && !l.is_unbounded());
        if hold {
            gate.hold();
        }
        if inbox.send(event).is_err() || quit {
            return;
        }
        if hold {
            gate.wait();
        }
    }
    let _ = inbox.send(Event::Eof);
}
