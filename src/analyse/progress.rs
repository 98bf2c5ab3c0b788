//! The progress line: games, positions, positions per second and the time left, redrawn on
//! stderr while the command works, only when stderr is a terminal (a log file or a pipe gets
//! the summaries alone).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How often the line is redrawn at most.
const REDRAW: Duration = Duration::from_millis(250);

/// The state of the progress line.
pub struct Progress {
    shown: bool,
    games: usize,
    positions: u64,
    game: usize,
    done: u64,
    started: Instant,
    drawn: Option<Instant>,
}

impl Progress {
    /// A progress line over `games` games of `positions` positions, drawn when stderr is a
    /// terminal.
    pub fn new(games: usize, positions: u64) -> Progress {
        Progress {
            shown: std::io::stderr().is_terminal(),
            games,
            positions,
            game: 0,
            done: 0,
            started: Instant::now(),
            drawn: None,
        }
    }

    /// A new game begins.
    pub fn game(&mut self) {
        self.game += 1;
    }

    /// One more position searched.
    pub fn tick(&mut self) {
        self.done += 1;
        if self.shown && self.drawn.is_none_or(|t| t.elapsed() >= REDRAW) {
            self.drawn = Some(Instant::now());
            let secs = self.started.elapsed().as_secs_f64().max(1e-3);
            let rate = self.done as f64 / secs;
            let left = self.positions.saturating_sub(self.done) as f64 / rate.max(1e-9);
            let left = left.min(99.0 * 3600.0) as u64;
            let mut err = std::io::stderr().lock();
            let _ = write!(
                err,
                "\r\x1b[2Kgame {}/{}, positions {}/{}, {:.1} positions/s, {}:{:02}:{:02} left",
                self.game,
                self.games,
                self.done,
                self.positions,
                rate,
                left / 3600,
                left / 60 % 60,
                left % 60
            );
            let _ = err.flush();
        }
    }

    /// Prints `line` on stderr above the progress line.
    pub fn say(&mut self, line: &str) {
        self.clear();
        eprintln!("{line}");
    }

    /// Clears the progress line, if it is shown.
    pub fn clear(&mut self) {
        if self.shown && self.drawn.is_some() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
            self.drawn = None;
        }
    }

    /// Positions searched so far, and the seconds since the start.
    pub fn totals(&self) -> (u64, f64) {
        (self.done, self.started.elapsed().as_secs_f64())
    }
}
