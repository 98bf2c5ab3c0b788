//! The commands the driver chooses: positions, `go` with every kind of limit, `stop`,
//! `ponderhit`, option changes and new games, each with what its answer must satisfy.

use crate::position::{Position, random_position};
use crate::{Driver, Expect, GoCheck, Kind, MAX_BACKLOG, Proto, Rng};
use chariot_engine::chess::Chess;
use chariot_engine::game::{Game, Move};
use chariot_engine::xiangqi::Xiangqi;
use std::time::{Duration, Instant};

/// A time for UCCI `go`: seconds unless `usemillisec`; `ms` is the wanted length.
fn ucci_time(rng: &mut Rng, millisec: bool, ms: u64) -> String {
    if millisec {
        ms.to_string()
    } else if rng.percent(50) {
        format!("{:.3}", ms as f64 / 1000.0)
    } else {
        // Whole seconds, as most UCCI GUIs send them: kept short.
        (ms / 1000).min(2).to_string()
    }
}

impl<'a> Driver<'a> {
    /// One random command.
    pub(crate) fn step(&mut self) {
        self.pump(Duration::ZERO);
        if self.expects.len() >= MAX_BACKLOG {
            return self.settle_one();
        }
        match self.rng.below(100) {
            0..=13 => self.new_position(),
            14..=43 => self.go(),
            44..=51 => {
                self.send("isready");
                self.ready.push_back(Instant::now());
            }
            52..=61 => self.stop(),
            62..=67 => self.ponderhit(),
            68..=77 => self.resize(),
            78..=83 => self.other_option(),
            84..=86 => {
                let line = if self.uci() { "ucinewgame" } else { "setoption newgame" };
                self.send(line);
            }
            87..=91 if !self.uci() => self.ban(),
            87..=91 => self.switch_variant(),
            _ => self.settle_one(),
        }
    }

    fn new_position(&mut self) {
        let mut kind = self.variant;
        // UCI: a FEN of the other game's shape plays that game for this position only.
        let other = self.uci() && self.rng.percent(10);
        if other {
            kind = if kind == Kind::Chess { Kind::Xiangqi } else { Kind::Chess };
        }
        let fens = self.fens.of(kind);
        let mut p = match kind {
            Kind::Chess => random_position::<Chess>(&mut self.rng, kind, fens),
            Kind::Xiangqi => random_position::<Xiangqi>(&mut self.rng, kind, fens),
        };
        if other && p.fen.is_none() {
            p.fen = Some(match kind {
                Kind::Chess => Chess::startpos().fen(),
                Kind::Xiangqi => Xiangqi::startpos().fen(),
            });
        }
        self.send(&p.command());
        self.position = p;
        self.banned.clear();
        self.stats.positions += 1;
    }

    fn go(&mut self) {
        let root = self.position.root();
        let legal = root.legal();
        let mut words = vec!["go".to_string()];
        let mut bounded = true;
        let mut static_only = false;
        let ponder = self.rng.percent(12);
        if ponder {
            words.push("ponder".into());
        }
        let mut searchmoves = Vec::new();
        let millisec = self.millisec;
        let r = &mut self.rng;
        if self.proto == Proto::Ucci {
            if !ponder && r.percent(10) {
                words.push("draw".into());
            }
            match r.below(9) {
                0 => {
                    let d = r.range(0, 5);
                    static_only = d == 0;
                    words.push(format!("depth {d}"));
                }
                1 => words.push(format!("nodes {}", r.range(1, 30_000))),
                2 | 3 => {
                    let t = r.range(0, 3000);
                    words.push(format!("time {}", ucci_time(r, millisec, t)));
                    match r.below(3) {
                        0 => {
                            let inc = r.range(0, 100);
                            words.push(format!("increment {}", ucci_time(r, millisec, inc)));
                        }
                        1 => words.push(format!("movestogo {}", r.range(5, 40))),
                        _ => {}
                    }
                    if r.percent(30) {
                        let opp = r.range(0, 3000);
                        words.push(format!("opptime {}", ucci_time(r, millisec, opp)));
                    }
                }
                4 => {
                    let (w, b) = (r.range(0, 3000), r.range(0, 3000));
                    let (w, b) = (ucci_time(r, millisec, w), ucci_time(r, millisec, b));
                    words.push(format!("wtime {w} btime {b}"));
                }
                5 => {
                    words.push("infinite".into());
                    bounded = false;
                }
                6 => {
                    words.push("depth infinite".into());
                    bounded = false;
                }
                7 if ponder => bounded = false,
                _ => words.push(format!("depth {}", r.range(1, 6))),
            }
        } else {
            match r.below(10) {
                0 | 1 => words.push(format!("depth {}", r.range(0, 6))),
                2 => words.push(format!("nodes {}", r.range(1, 30_000))),
                3 => words.push(format!("movetime {}", r.range(0, 40))),
                4 | 5 => {
                    // Now and then only one side's clock: the other side has no time at all.
                    let sides = r.range(1, 10);
                    if sides != 1 {
                        words.push(format!("wtime {}", r.range(0, 3000)));
                    }
                    if sides != 2 {
                        words.push(format!("btime {}", r.range(0, 3000)));
                    }
                    if r.percent(50) {
                        words.push(format!("winc {} binc {}", r.range(0, 100), r.range(0, 100)));
                    }
                    if r.percent(30) {
                        words.push(format!("movestogo {}", r.range(1, 40)));
                    }
                }
                6 => words.push(format!("mate {}", r.range(1, 2))),
                7 => {
                    words.push("infinite".into());
                    bounded = false;
                }
                8 => bounded = false,
                _ => words.push(format!("depth {} movetime {}", r.range(1, 8), r.range(1, 40))),
            }
            if !legal.is_empty() && r.percent(15) {
                let n = r.range(1, 4) as usize;
                searchmoves = r.some(&legal, n);
                let texts = root.texts(&searchmoves);
                words.push(format!("searchmoves {}", texts.join(" ")));
            }
        }
        let banned = root.parse(&self.banned);
        let allowed: Vec<Move> = legal
            .into_iter()
            .filter(|m| searchmoves.is_empty() || searchmoves.contains(m))
            .filter(|m| !banned.contains(m))
            .collect();
        let line = words.join(" ");
        self.send(&line);
        self.stats.gos += 1;
        self.expects.push_back(Expect::Go(Box::new(GoCheck {
            line,
            root,
            allowed,
            static_only,
            bounded,
            pondering: ponder,
            stopped: None,
        })));
    }

    /// The first unanswered `go`, if it is the first thing the engine owes.
    pub(crate) fn front(&self) -> Option<&GoCheck> {
        match self.expects.front() {
            Some(Expect::Go(g)) => Some(g),
            _ => None,
        }
    }

    fn front_mut(&mut self) -> Option<&mut GoCheck> {
        match self.expects.front_mut() {
            Some(Expect::Go(g)) => Some(g),
            _ => None,
        }
    }

    /// True when a `go` that waits for the driver is queued: a stray `stop` or `ponderhit`
    /// could reach it unnoticed.
    fn waiting_search_queued(&self) -> bool {
        self.expects.iter().any(|e| matches!(e, Expect::Go(g) if !g.ends_by_itself()))
    }

    fn stop(&mut self) {
        let certain = self.front().is_some_and(|g| !g.ends_by_itself());
        if certain {
            // The first search owed cannot have answered: it is running (or starts before the
            // stop is read), so the stop is its.
            if let Some(g) = self.front_mut() {
                g.stopped = Some(Instant::now());
            }
        } else if self.expects.is_empty() {
            if !self.uci() {
                self.expects.push_back(Expect::IdleStop);
            }
        } else if !self.uci() || self.waiting_search_queued() {
            // UCCI: the stop may find a search or none, and the answers would differ.
            return;
        }
        self.send("stop");
        self.stats.stops += 1;
    }

    fn ponderhit(&mut self) {
        let draw = !self.uci() && self.rng.percent(20);
        let line = if draw { "ponderhit draw" } else { "ponderhit" };
        if self.front().is_some_and(|g| g.pondering && g.stopped.is_none()) {
            // A ponder search without limits still needs a `stop` after this.
            if let Some(g) = self.front_mut() {
                g.pondering = false;
            }
        } else if !self.uci() || self.waiting_search_queued() {
            return;
        }
        // Otherwise a stray one: ignored when idle, restarts the clock of a timed search.
        self.send(line);
        self.stats.ponderhits += 1;
    }

    /// Threads 1..8 or Hash 1..64 MB, whether or not a search runs.
    fn resize(&mut self) {
        let threads = self.rng.percent(50);
        let value = if threads { self.rng.range(1, 8) } else { self.rng.range(1, 64) };
        let line = match (self.uci(), threads) {
            (true, true) => format!("setoption name Threads value {value}"),
            (true, false) => format!("setoption name Hash value {value}"),
            (false, true) => format!("setoption threads {value}"),
            (false, false) if self.rng.percent(20) => {
                format!("setoption name hashsize value {value}")
            }
            (false, false) => format!("setoption hashsize {value}"),
        };
        self.send(&line);
        self.stats.options += 1;
    }

    fn other_option(&mut self) {
        let on = if self.rng.percent(50) { "true" } else { "false" };
        let line = if self.uci() {
            match self.rng.below(5) {
                0 => "setoption name Clear Hash".to_string(),
                1 => format!("setoption name Ponder value {on}"),
                2 => format!("setoption name MultiPV value {}", self.rng.range(1, 3)),
                3 => format!("setoption name Move Overhead value {}", self.rng.range(0, 50)),
                _ => format!("setoption name UCI_ShowWDL value {on}"),
            }
        } else {
            match self.rng.below(4) {
                0 => {
                    self.millisec = on == "true";
                    format!("setoption usemillisec {on}")
                }
                1 => "setoption clearhash".to_string(),
                2 => format!("setoption ponder {on}"),
                _ => format!("setoption resign {on}"),
            }
        };
        self.send(&line);
        self.stats.options += 1;
    }

    /// UCCI `banmoves`: a few legal moves, now and then all of them.
    fn ban(&mut self) {
        let root = self.position.root();
        let legal = root.legal();
        if legal.is_empty() {
            return;
        }
        let n = if self.rng.percent(25) { legal.len() } else { self.rng.range(1, 3) as usize };
        let chosen = self.rng.some(&legal, n);
        self.banned = root.texts(&chosen);
        let line = format!("banmoves {}", self.banned.join(" "));
        self.send(&line);
    }

    /// UCI: `UCI_Variant` changes the game of `position startpos`; a new game starts from it.
    fn switch_variant(&mut self) {
        let kind = if self.rng.percent(50) { Kind::Chess } else { Kind::Xiangqi };
        let name = if kind == Kind::Chess { "chess" } else { "xiangqi" };
        self.send(&format!("setoption name UCI_Variant value {name}"));
        if kind != self.variant {
            self.variant = kind;
            self.position = Position::startpos(kind);
        }
        self.stats.options += 1;
    }

    /// Gets the first answer owed: frees a search that waits for the driver, then waits.
    fn settle_one(&mut self) {
        let Some(g) = self.front() else {
            if !self.expects.is_empty() {
                let before = self.lines_read;
                self.wait_until("answer to a stop", |d| d.lines_read > before);
            }
            return;
        };
        let (free, ponder, line) = (!g.ends_by_itself(), g.pondering && g.bounded, g.line.clone());
        if free {
            if ponder && self.rng.percent(50) {
                return self.ponderhit();
            }
            return self.stop();
        }
        let owed = self.expects.len();
        self.wait_until(&format!("answer to '{line}'"), |d| d.expects.len() < owed);
    }

    /// Gets every answer owed.
    pub(crate) fn settle(&mut self) {
        while !self.expects.is_empty() {
            self.settle_one();
        }
    }
}
