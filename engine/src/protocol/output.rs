//! The one way out: every line to the GUI passes through [`Output`], which takes a lock per line
//! and flushes it, so lines from the controller and the search never interleave or linger in a
//! buffer. It also keeps the optional debug log of everything in and out.

use parking_lot::Mutex;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

struct Sinks {
    out: Box<dyn Write + Send>,
    log: Option<File>,
}

/// A line-flushed, locked writer to stdout (or any sink, in tests).
pub struct Output {
    sinks: Mutex<Sinks>,
}

impl Output {
    /// Writes to the process's stdout.
    pub fn stdout() -> Self {
        Self::to(Box::new(io::stdout()))
    }

    /// Writes to `out`.
    pub fn to(out: Box<dyn Write + Send>) -> Self {
        Output { sinks: Mutex::new(Sinks { out, log: None }) }
    }

    /// Writes `text` (one line, or several joined by `\n`) and flushes. Empty text writes
    /// nothing. A closed stdout is not an error worth dying for: the GUI has gone.
    pub fn line(&self, text: &str) {
        if text.is_empty() {
            return;
        }
        let mut sinks = self.sinks.lock();
        let _ = writeln!(sinks.out, "{text}");
        let _ = sinks.out.flush();
        if let Some(log) = sinks.log.as_mut() {
            for l in text.lines() {
                let _ = writeln!(log, "{} << {l}", stamp());
            }
            let _ = log.flush();
        }
    }

    /// Records an input line in the debug log, if one is open.
    pub fn log_input(&self, text: &str) {
        let mut sinks = self.sinks.lock();
        if let Some(log) = sinks.log.as_mut() {
            let _ = writeln!(log, "{} >> {text}", stamp());
            let _ = log.flush();
        }
    }

    /// Starts appending every line in and out to `path`; an empty path stops logging.
    pub fn set_log(&self, path: &str) -> io::Result<()> {
        let file = if path.is_empty() || path == "<empty>" {
            None
        } else {
            Some(OpenOptions::new().create(true).append(true).open(Path::new(path))?)
        };
        self.sinks.lock().log = file;
        Ok(())
    }
}

/// Seconds.milliseconds since the epoch: enough to line a log up with a GUI's.
fn stamp() -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    format!("{}.{:03}", now.as_secs(), now.subsec_millis())
}
