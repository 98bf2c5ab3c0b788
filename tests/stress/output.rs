//! The engine's output as the driver reads it: every line well formed, every answer owed and
//! in order, every move legal where it was asked for.

use crate::{Driver, Expect, Proto};

impl<'a> Driver<'a> {
    /// Checks one output line against what the engine owes.
    pub(crate) fn read(&mut self, line: String) {
        self.note(format!("< {line}"));
        self.lines_read += 1;
        let words: Vec<&str> = line.split_whitespace().collect();
        let first_line = self.lines_read == 1;
        match words.first().copied() {
            Some("Chariot") if first_line && line.ends_with("type help") => {}
            Some("id" | "option") if !self.greeted && words.len() >= 3 => {}
            Some("uciok") if self.uci() && !self.greeted && words.len() == 1 => self.greeted = true,
            Some("ucciok") if !self.uci() && !self.greeted && words.len() == 1 => {
                self.greeted = true
            }
            Some("readyok") if words.len() == 1 => match self.ready.pop_front() {
                Some(sent) => {
                    self.stats.readyoks += 1;
                    let took = sent.elapsed();
                    self.stats.longest_ready = self.stats.longest_ready.max(took);
                }
                None => self.fail("readyok without isready"),
            },
            Some("bestmove" | "nobestmove") => self.answer(&words),
            Some("info") => self.info(&words),
            Some("bye") if !self.uci() && self.quit && !self.bye && words.len() == 1 => {
                self.bye = true
            }
            _ => self.fail(format!("malformed, unexpected or interleaved line '{line}'")),
        }
    }

    /// A `bestmove` / `nobestmove` line.
    fn answer(&mut self, words: &[&str]) {
        let Some(owed) = self.expects.pop_front() else {
            self.fail("an answer with no go owed one (a second answer?)");
        };
        let g = match owed {
            Expect::IdleStop if words == ["nobestmove"] => return,
            Expect::IdleStop => self.fail("want nobestmove for a stop while idle"),
            Expect::Go(g) => g,
        };
        if !self.quit && !g.ends_by_itself() {
            self.fail(format!("'{}' answered before stop or ponderhit", g.line));
        }
        if let Some(at) = g.stopped {
            self.stats.longest_after_stop = self.stats.longest_after_stop.max(at.elapsed());
        }
        // (best, ponder); UCCI may add `draw` or `resign`.
        let (best, ponder) = match (self.proto, words) {
            (Proto::Ucci, ["nobestmove"])
            | (Proto::UciChess | Proto::UciXiangqi, ["bestmove", "(none)"]) => (None, None),
            (_, ["bestmove", m]) => (Some(*m), None),
            (_, ["bestmove", m, "ponder", p]) => (Some(*m), Some(*p)),
            (Proto::Ucci, ["bestmove", m, "draw" | "resign"]) => (Some(*m), None),
            (Proto::Ucci, ["bestmove", m, "ponder", p, "draw" | "resign"]) => (Some(*m), Some(*p)),
            _ => self.fail(format!("malformed answer '{}'", words.join(" "))),
        };
        let no_move = g.static_only || g.allowed.is_empty();
        match best {
            None if no_move => self.stats.no_moves += 1,
            None => self.fail(format!("no move for '{}' with moves to play", g.line)),
            Some(m) if no_move => self.fail(format!("{m} for '{}', which has no move", g.line)),
            Some(m) => {
                let line: Vec<&str> = [m].into_iter().chain(ponder).collect();
                if let Err(e) = g.root.check_line(&g.allowed, &line) {
                    self.fail(format!("answer to '{}': {e}", g.line));
                }
                self.stats.bestmoves += 1;
            }
        }
    }

    /// An `info` line: every field known, numbers numeric, moves legal.
    fn info(&mut self, words: &[&str]) {
        self.stats.info_lines += 1;
        let text_key = if self.uci() { "string" } else { "message" };
        let proto = self.proto;
        if words.get(1) == Some(&text_key) {
            if words.get(2).is_some_and(|w| w.starts_with("error")) {
                self.fail(format!("an error for a valid command: {}", words.join(" ")));
            }
            return;
        }
        let Some(g) = self.front() else {
            self.fail("search output while no search is owed an answer");
        };
        let mut problem = None;
        let mut pv_moves = 0;
        let number = |w: Option<&&str>| w.is_some_and(|w| w.parse::<i64>().is_ok());
        let mut i = 1;
        while i < words.len() && problem.is_none() {
            let key = words[i];
            match key {
                "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "hashfull" | "time"
                | "currmovenumber" => {
                    if !number(words.get(i + 1)) {
                        problem = Some(format!("'{key}' without a number"));
                    }
                    i += 2;
                }
                "score" => {
                    let (unit, value) = if proto == Proto::Ucci {
                        (None, words.get(i + 1))
                    } else {
                        (words.get(i + 1), words.get(i + 2))
                    };
                    if unit.is_some_and(|u| *u != "cp" && *u != "mate") || !number(value) {
                        problem = Some("a malformed score".into());
                    }
                    i += if unit.is_some() { 3 } else { 2 };
                    if matches!(words.get(i), Some(&"lowerbound" | &"upperbound")) {
                        i += 1;
                    }
                }
                "wdl" => {
                    if !(1..=3).all(|k| number(words.get(i + k))) {
                        problem = Some("a malformed wdl".into());
                    }
                    i += 4;
                }
                "pv" => {
                    let line = &words[i + 1..];
                    if line.is_empty() {
                        problem = Some("an empty pv".into());
                    } else if let Err(e) = g.root.check_line(&g.allowed, line) {
                        problem = Some(format!("pv: {e}"));
                    }
                    pv_moves += line.len();
                    i = words.len();
                }
                "currmove" => {
                    let mv: Vec<&str> = words.get(i + 1).copied().into_iter().collect();
                    if let Err(e) = g.root.check_line(&g.allowed, &mv) {
                        problem = Some(format!("currmove: {e}"));
                    }
                    i += 2;
                }
                _ => problem = Some(format!("unknown field '{key}'")),
            }
        }
        let go = g.line.clone();
        if let Some(p) = problem {
            self.fail(format!("info line for '{go}': {p}"));
        }
        self.stats.pv_moves += pv_moves;
    }
}
