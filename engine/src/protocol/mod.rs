//! The edges: text in, text out, and nothing else.
//!
//! The [`reader`] thread turns input lines into protocol-neutral [`Command`]s through a
//! front-end ([`uci`] or [`ucci`]); the [`Writer`] turns the engine's neutral [`Report`]s back
//! into lines of the same protocol and prints them through the locked [`output::Output`].
//! Behind this module no code sees protocol text, and nothing here changes a game rule.

mod grammar;
pub mod output;
pub mod reader;
pub mod ucci;
pub mod uci;

pub use grammar::{ParseError, announce, parse_style};

use crate::command::{Command, Dialect};
use crate::game::Variant;
use crate::report::{Report, Sink};
use output::Output;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering::Relaxed};

/// The protocol a session speaks, fixed by the first recognised command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI: chess, or xiangqi Pikafish-style.
    Uci = 0,
    /// UCCI: xiangqi.
    Ucci = 1,
}

impl Protocol {
    /// Picks the protocol from a line's first recognised token, if it names one.
    pub fn select(line: &str) -> Option<Protocol> {
        match line.split_whitespace().next() {
            Some("uci") => Some(Protocol::Uci),
            Some("ucci") => Some(Protocol::Ucci),
            _ => None,
        }
    }

    /// The protocol's name, as the command that chooses it.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Ucci => "ucci",
        }
    }

    /// The conventions of the protocol, for the controller.
    pub fn dialect(self) -> Dialect {
        match self {
            // UCI's conventions are the neutral defaults.
            Protocol::Uci => Dialect::default(),
            Protocol::Ucci => Dialect {
                game: Some(Variant::Xiangqi),
                farewell: true,
                answer_idle_stop: true,
                ignore_unknown_options: true,
                auto_zero: true,
            },
        }
    }

    /// Formats a report from the engine as one output line (or several joined by `\n`).
    pub fn format(self, report: &Report) -> String {
        match self {
            Protocol::Uci => uci::format(report),
            Protocol::Ucci => ucci::format(report),
        }
    }
}

/// The way out: formats reports in the session's protocol and prints them. Until a protocol
/// is chosen, reports are written as UCI.
pub struct Writer {
    out: Output,
    protocol: AtomicU8,
    /// Error lines written so far: commands given as arguments exit non-zero after one.
    errors: AtomicUsize,
}

impl Writer {
    /// A writer printing to `out`.
    pub fn new(out: Output) -> Self {
        Writer { out, protocol: AtomicU8::new(Protocol::Uci as u8), errors: AtomicUsize::new(0) }
    }

    /// Speaks `protocol` from now on.
    pub fn set_protocol(&self, protocol: Protocol) {
        self.protocol.store(protocol as u8, Relaxed);
    }

    fn protocol(&self) -> Protocol {
        if self.protocol.load(Relaxed) == Protocol::Ucci as u8 {
            Protocol::Ucci
        } else {
            Protocol::Uci
        }
    }

    /// Prints text as it is (banners and hints before a protocol is chosen).
    pub fn text(&self, text: &str) {
        self.out.line(text);
    }

    /// How many errors have been reported: input refused, in whole or in part.
    pub fn errors(&self) -> usize {
        self.errors.load(Relaxed)
    }
}

impl Sink for Writer {
    fn send(&self, report: &Report) {
        if matches!(report, Report::Error(_)) {
            self.errors.fetch_add(1, Relaxed);
        }
        self.out.line(&self.protocol().format(report));
    }

    fn log_input(&self, line: &str) {
        self.out.log_input(line);
    }

    fn set_log(&self, path: &str) -> std::io::Result<()> {
        self.out.set_log(path)
    }
}

/// A front-end: parses lines for one protocol, keeping the little state that is pure
/// presentation (UCCI's time unit).
#[derive(Clone, Debug)]
pub struct Frontend {
    protocol: Protocol,
    /// UCCI's session state (time unit, batch mode).
    ucci: ucci::State,
}

impl Frontend {
    /// A front-end for `protocol`.
    pub fn new(protocol: Protocol) -> Self {
        Frontend { protocol, ucci: ucci::State::default() }
    }

    /// The protocol spoken.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// Parses one input line (already trimmed of its line ending) into a command.
    /// `Ok(None)` means "nothing to do" (blank line, comment).
    pub fn parse(&mut self, line: &str) -> Result<Option<Command>, ParseError> {
        match self.protocol {
            Protocol::Uci => uci::parse(line),
            Protocol::Ucci => ucci::parse(line, &mut self.ucci),
        }
    }

    /// UCCI batch mode: read no input while a search runs.
    pub fn batch(&self) -> bool {
        self.protocol == Protocol::Ucci && self.ucci.batch
    }
}
