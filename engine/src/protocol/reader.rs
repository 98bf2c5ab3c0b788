//! The stdin reader thread: the only code that touches input.
//!
//! It reads raw byte lines (any length, `\r\n` or `\n`, invalid UTF-8 replaced), waits for the
//! first line that names a protocol, and from then on parses every line with that protocol's
//! front-end and forwards the result to the controller's inbox. It never blocks on the search.

use super::{Frontend, Protocol, Writer};
use crate::command::{Command, Event, Gate};
use crossbeam_channel::Sender;
use std::io::BufRead;
use std::sync::Arc;
use std::thread::JoinHandle;

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

/// Starts the reader thread on `input`; events go to `inbox`. `implied`: the protocol spoken
/// when the first command names none (commands given as arguments imply UCI, as Stockfish's
/// do); `None` asks the user to choose.
pub fn spawn(
    input: impl BufRead + Send + 'static,
    inbox: Sender<Event>,
    out: Arc<Writer>,
    gate: Arc<Gate>,
    implied: Option<Protocol>,
) -> std::io::Result<JoinHandle<()>> {
    std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || run(input, inbox, out, gate, implied))
}

fn run(
    mut input: impl BufRead,
    inbox: Sender<Event>,
    out: Arc<Writer>,
    gate: Arc<Gate>,
    implied: Option<Protocol>,
) {
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
                match Protocol::select(line).or(implied) {
                    Some(p) => {
                        out.set_protocol(p);
                        if inbox.send(Event::Dialect(p.dialect())).is_err() {
                            return;
                        }
                        frontend.insert(Frontend::new(p))
                    }
                    None if line.split_whitespace().next() == Some("quit") => {
                        let _ = inbox.send(Event::Command(Command::Quit));
                        return;
                    }
                    None if line.split_whitespace().next() == Some("help") => {
                        out.text(FIRST_HELP);
                        continue;
                    }
                    None => {
                        out.text(HINT);
                        continue;
                    }
                }
            }
        };
        let event = match (Protocol::select(line), fe.parse(line)) {
            // The protocol is chosen once per session.
            (Some(p), _) if p != fe.protocol() => Event::Bad(format!(
                "this session already speaks {}; '{}' cannot switch it (start Chariot again)",
                fe.protocol().name(),
                p.name()
            )),
            (_, Ok(Some(command))) => Event::Command(command),
            (_, Ok(None)) => continue,
            (_, Err(e)) => Event::Bad(e.to_string()),
        };
        let quit = matches!(event, Event::Command(Command::Quit));
        // A search that only `stop` or `ponderhit` can end is not waited for: nothing else
        // could ever be read to end it.
        let hold = fe.batch()
            && matches!(&event, Event::Command(Command::Go(g)) if !g.limits.ponder && !g.is_unbounded());
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
