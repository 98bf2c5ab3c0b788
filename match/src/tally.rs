//! The running score of a match: games, pairs, faults, and the lines that report them.

use crate::play::PonderCounts;
use crate::stats::{Estimate, Outcome, Penta, Sprt, Wdl, elo_penta, elo_wdl};
use std::collections::HashMap;

/// The score so far, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Single games.
    pub wdl: Wdl,
    /// Finished pairs.
    pub penta: Penta,
    /// The first finished game of each pair still open, by pair index.
    open: HashMap<usize, Outcome>,
    /// Games won by white (red), by black, drawn: the colour balance of the openings.
    pub by_colour: [u64; 3],
    /// Games each engine lost by a fault (crash, illegal move, time, silence).
    pub faults: [u64; 2],
    /// What pondering did, both engines together.
    pub ponder: PonderCounts,
}

impl Tally {
    /// Counts game `index` (pair `index / 2`) with `outcome` for the first engine.
    pub fn add(&mut self, index: usize, outcome: Outcome) {
        match outcome {
            Outcome::Win => self.wdl.wins += 1,
            Outcome::Draw => self.wdl.draws += 1,
            Outcome::Loss => self.wdl.losses += 1,
        }
        let pair = index / 2;
        match self.open.remove(&pair) {
            Some(first) => self.penta.add(first, outcome),
            None => {
                self.open.insert(pair, outcome);
            }
        }
    }

    /// Adds another match's counts to these: its games, finished pairs and faults (its open
    /// pairs stay open there; they are not paired with this match's).
    pub fn merge(&mut self, other: &Tally) {
        self.wdl.wins += other.wdl.wins;
        self.wdl.draws += other.wdl.draws;
        self.wdl.losses += other.wdl.losses;
        let (p, q) = (&mut self.penta, &other.penta);
        (p.ll, p.ld, p.wl, p.dd, p.wd, p.ww) =
            (p.ll + q.ll, p.ld + q.ld, p.wl + q.wl, p.dd + q.dd, p.wd + q.wd, p.ww + q.ww);
        for i in 0..3 {
            self.by_colour[i] += other.by_colour[i];
        }
        for i in 0..2 {
            self.faults[i] += other.faults[i];
        }
        self.ponder.add(&other.ponder);
    }

    /// The number of games counted.
    pub fn games(&self) -> u64 {
        self.wdl.games()
    }

    /// The Elo estimate from the pairs, or from the games while no pair is finished.
    pub fn estimate(&self) -> Option<Estimate> {
        if self.penta.pairs() > 0 { elo_penta(&self.penta) } else { elo_wdl(&self.wdl) }
    }

    /// A one-line progress report: games, score, Elo, LLR.
    pub fn progress(&self, sprt: Option<&Sprt>) -> String {
        let g = self.games();
        let pct = if g > 0 { 100.0 * self.wdl.points() / g as f64 } else { 50.0 };
        let mut s = format!(
            "Games {g}: +{} -{} ={} [{pct:.1}%]",
            self.wdl.wins, self.wdl.losses, self.wdl.draws
        );
        if let Some(e) = self.estimate() {
            s.push_str(&format!(
                ", Elo {} +- {}, nElo {} +- {}",
                fmt_elo(e.elo),
                fmt_err(e.elo_error),
                fmt_elo(e.nelo),
                fmt_err(e.nelo_error)
            ));
        }
        if let Some(sprt) = sprt {
            s.push_str(&format!(
                ", LLR {:.2} ({:.2}, {:.2})",
                sprt.llr(&self.penta),
                sprt.lower(),
                sprt.upper()
            ));
        }
        s
    }

    /// The final report, several lines, as fastchess lays it out.
    pub fn summary(&self, names: [&str; 2], sprt: Option<&Sprt>) -> String {
        let mut out = format!("Results of {} vs {}:\n", names[0], names[1]);
        let p = &self.penta;
        if let Some(e) = elo_penta(p).or_else(|| elo_wdl(&self.wdl)) {
            out.push_str(&format!(
                "Elo: {} +/- {}, nElo: {} +/- {}\n",
                fmt_elo(e.elo),
                fmt_err(e.elo_error),
                fmt_elo(e.nelo),
                fmt_err(e.nelo_error)
            ));
            let g = self.games().max(1) as f64;
            out.push_str(&format!(
                "LOS: {:.2} %, DrawRatio: {:.2} %\n",
                100.0 * if e.los.is_nan() { 0.5 } else { e.los },
                100.0 * self.wdl.draws as f64 / g
            ));
        }
        let g = self.games();
        let pct = if g > 0 { 100.0 * self.wdl.points() / g as f64 } else { 0.0 };
        out.push_str(&format!(
            "Games: {g}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({pct:.2} %)\n",
            self.wdl.wins,
            self.wdl.losses,
            self.wdl.draws,
            self.wdl.points()
        ));
        out.push_str(&format!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD: {}/{}\n",
            p.ll,
            p.ld,
            p.wl + p.dd,
            p.wd,
            p.ww,
            p.wl,
            p.dd
        ));
        // Colours are not kept in state files: a pooled or resumed count may not know them.
        if self.by_colour.iter().sum::<u64>() > 0 {
            out.push_str(&format!(
                "White/red wins {}, black wins {}, draws {}; ",
                self.by_colour[0], self.by_colour[1], self.by_colour[2],
            ));
        }
        out.push_str(&format!(
            "faults: {} {}, {} {}\n",
            names[0], self.faults[0], names[1], self.faults[1]
        ));
        if self.ponder.any() {
            let q = &self.ponder;
            out.push_str(&format!(
                "Ponder: hits {}, misses {}, illegal ponder moves {}, stops unanswered {}\n",
                q.hits, q.misses, q.illegal, q.unanswered
            ));
        }
        if let Some(sprt) = sprt {
            let llr = sprt.llr(p);
            let verdict = match sprt.verdict(llr) {
                crate::stats::Verdict::H0 => "H0 accepted",
                crate::stats::Verdict::H1 => "H1 accepted",
                crate::stats::Verdict::Continue => "inconclusive",
            };
            out.push_str(&format!(
                "LLR: {llr:.2} ({:.2}, {:.2}) [{:.2}, {:.2}] normalized Elo: {verdict}\n",
                sprt.lower(),
                sprt.upper(),
                sprt.elo0,
                sprt.elo1
            ));
        }
        out
    }
}

/// An Elo value with its sign, or `inf`.
fn fmt_elo(x: f64) -> String {
    // Adding 0.0 turns a negative zero into a positive one, so that an even score prints +0.00.
    if x.is_finite() {
        format!("{:+.2}", x + 0.0)
    } else if x.is_nan() {
        "nan".into()
    } else {
        format!("{x}")
    }
}

/// An error bar, or `inf` when it is unbounded.
fn fmt_err(x: f64) -> String {
    if x.is_finite() { format!("{x:.2}") } else { "inf".into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_close_in_any_order() {
        let mut t = Tally::default();
        t.add(3, Outcome::Win);
        t.add(0, Outcome::Draw);
        assert_eq!(t.penta.pairs(), 0);
        t.add(2, Outcome::Loss);
        t.add(1, Outcome::Draw);
        assert_eq!(t.penta.pairs(), 2);
        assert_eq!((t.penta.wl, t.penta.dd), (1, 1));
        assert_eq!(t.games(), 4);
        let line = t.progress(Sprt::new(0.0, 5.0, 0.05, 0.05).ok().as_ref());
        assert!(line.starts_with("Games 4: +1 -1 =2 [50.0%], Elo +0.00"), "{line}");
        assert!(line.contains("LLR"), "{line}");
        let summary = t.summary(["a", "b"], None);
        assert!(summary.contains("Ptnml(0-2): [0, 0, 2, 0, 0]"), "{summary}");
    }
}
