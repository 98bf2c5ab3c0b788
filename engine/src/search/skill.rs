//! Playing strength on demand: a level from [`LEVEL_MIN`] (weakest) to 20 (full strength)
//! limits what the search may spend and how carefully it chooses.
//!
//! A weaker level plays like a weaker player, not like a broken engine: it searches fewer nodes
//! (so it also answers sooner), looks at several candidate lines, and picks among them with an
//! error that grows as the level falls. A candidate much worse than the best is chosen only
//! when the error is large, and a move into a forced mate is never chosen while another move
//! avoids it. Levels come from an Elo target (`UCI_Elo`, through a ladder measured against
//! the peers) or from `Skill Level` (its steps spread over the whole range, so that each is
//! a clear step in strength); UCCI's knowledge, pruning and randomness map onto the same
//! dials.

use crate::game::{MATE_BOUND, Move, Score};

/// The full-strength level.
pub const LEVEL_MAX: f64 = 20.0;
/// The weakest level: `Skill Level` 0. Levels below 0 are reached only through `Skill Level`
/// (an Elo target stops at 0). There the search looks one ply deep (and through the captures
/// that follow) at every move, and the choice errs more with each level down, like a beginner
/// who sees what hangs at once but weighs the rest loosely.
pub const LEVEL_MIN: f64 = -12.5;
/// How many candidate lines a weakened search at level 0 or above looks at.
pub const CANDIDATES: usize = 4;
/// Below level 0: every move is a candidate (up to this many).
const ALL_CANDIDATES: usize = 256;
/// Below level 0: a safety bound on the nodes of the one-ply search of every move.
const NODES_BELOW_ZERO: u64 = 50_000;
/// Below level 0 the choice error grows by this factor per level, from level 0's.
const ERROR_GROWTH_BELOW_ZERO: f64 = 1.25;
/// Extra choice error (UCCI `randomness`) that widens the choice by one candidate.
const CP_PER_CANDIDATE: f64 = 100.0;
/// The level of `Skill Level` 19. Low enough that at 5+0.05 its node budget, not the clock,
/// bounds the search: above it the levels differ only in a choice error of a few centipawns,
/// too little to tell them apart in a short match.
const SKILL_19_LEVEL: f64 = 16.0;
/// Levels per `Skill Level` step below 19: about one doubling of the node budget, so that each
/// step down is a clear step in strength (`Skill Level` 0 is level [`LEVEL_MIN`]).
const SKILL_STEP: f64 = 1.5;
/// Nodes a search at level 0 may visit; each level multiplies this by [`NODES_PER_LEVEL`].
const NODES_AT_ZERO: f64 = 200.0;
/// Level 19 searches about 400 000 nodes (2000 times level 0's).
const NODES_PER_LEVEL: f64 = 1.492_2;
/// The largest choice error, at level 0, in centipawns; it falls with the square of the
/// distance to full strength.
const ERROR_AT_ZERO_CP: f64 = 250.0;

/// How strongly to play.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Skill {
    /// [`LEVEL_MIN`] (weakest) to [`LEVEL_MAX`] (full strength).
    pub level: f64,
    /// A further choice error in centipawns (UCCI `randomness`).
    pub extra_error_cp: f64,
}

impl Default for Skill {
    fn default() -> Self {
        Skill { level: LEVEL_MAX, extra_error_cp: 0.0 }
    }
}

impl Skill {
    /// The level of a `Skill Level` option value (0..=20): 20 is full strength, 19 is
    /// [`SKILL_19_LEVEL`] and each step below is [`SKILL_STEP`] levels lower.
    pub fn option_level(option: u32) -> f64 {
        if f64::from(option) >= LEVEL_MAX {
            LEVEL_MAX
        } else {
            (SKILL_19_LEVEL - (19.0 - f64::from(option)) * SKILL_STEP).max(LEVEL_MIN)
        }
    }

    /// True when nothing is limited.
    pub fn is_full(&self) -> bool {
        self.level >= LEVEL_MAX && self.extra_error_cp <= 0.0
    }

    /// The most nodes a search at this level may visit; `None` at full strength.
    pub fn node_limit(&self) -> Option<u64> {
        if self.level < 0.0 {
            Some(NODES_BELOW_ZERO)
        } else {
            (self.level < LEVEL_MAX)
                .then(|| (NODES_AT_ZERO * NODES_PER_LEVEL.powf(self.level)).round() as u64)
        }
    }

    /// The deepest iteration at this level: one ply below level 0.
    pub fn depth_limit(&self) -> Option<i32> {
        (self.level < 0.0).then_some(1)
    }

    /// How many candidate lines the search looks at to choose among: every move below level
    /// 0, else [`CANDIDATES`] and one more for each [`CP_PER_CANDIDATE`] of extra error, since
    /// a large error among few candidates soon stops making the choice any worse.
    pub fn candidates(&self) -> usize {
        if self.level < 0.0 {
            return ALL_CANDIDATES;
        }
        CANDIDATES + (self.extra_error_cp.max(0.0) / CP_PER_CANDIDATE).floor() as usize
    }

    /// The largest error of the choice among candidates, in centipawns.
    pub fn error_cp(&self) -> f64 {
        let level = self.level.clamp(LEVEL_MIN, LEVEL_MAX);
        let base = if level < 0.0 {
            ERROR_AT_ZERO_CP * ERROR_GROWTH_BELOW_ZERO.powf(-level)
        } else {
            let gap = (LEVEL_MAX - level) / LEVEL_MAX;
            ERROR_AT_ZERO_CP * gap * gap
        };
        base + self.extra_error_cp.max(0.0)
    }

    /// Chooses among `candidates` (move and score, best first, internal units) with this
    /// level's error: each candidate's score gets a random bonus of up to the error, and the
    /// highest sum wins. `random` yields numbers uniform in `0..1`; `units_per_cp` converts the
    /// error to the scores' units. `None` only without candidates.
    pub fn choose(
        &self,
        candidates: &[(Move, Score)],
        units_per_cp: Score,
        mut random: impl FnMut() -> f64,
    ) -> Option<Move> {
        let &(first, best) = candidates.first()?;
        let error = self.error_cp() * f64::from(units_per_cp);
        let mut choice = (first, f64::from(best) + random() * error);
        for &(m, score) in &candidates[1..] {
            // Never into a mate that the best move avoids.
            if score <= -MATE_BOUND && best > -MATE_BOUND {
                continue;
            }
            let value = f64::from(score) + random() * error;
            if value > choice.1 {
                choice = (m, value);
            }
        }
        Some(choice.0)
    }

    /// The level of an Elo target on a `ladder` of `(elo, level)` rungs, interpolated between
    /// them.
    pub fn from_elo(elo: u32, ladder: &[(u32, f64)]) -> Skill {
        let elo = elo as f64;
        let level = match ladder {
            [] => LEVEL_MAX,
            [(e, l), ..] if elo <= f64::from(*e) => *l,
            _ => ladder.windows(2).find(|w| elo <= f64::from(w[1].0)).map_or(
                ladder[ladder.len() - 1].1,
                |w| {
                    let (e0, l0) = (f64::from(w[0].0), w[0].1);
                    let (e1, l1) = (f64::from(w[1].0), w[1].1);
                    l0 + (l1 - l0) * (elo - e0) / (e1 - e0)
                },
            ),
        };
        Skill { level: level.clamp(0.0, LEVEL_MAX), extra_error_cp: 0.0 }
    }
}

/// Elo targets (Stockfish's `UCI_Elo` scale) and the levels that play at them, per game:
/// `(elo, level)`, rising. Chess, from 100-game matches at 5+0.05 against Stockfish 15.1 at the
/// same `UCI_Elo` (networks of generation 4). On this ladder 1400 (level 3.94) scored 58%
/// (+56 ± 71), 1800 (level 9.78) 55.5% (+38 ± 62) and 2200 (level 15.5) 38% (−85 ± 62, so
/// level 15.5 is nearer 2115). The rungs came from earlier matches: level 1.74 scored 29.5%
/// against 1400 (−151 ± 77), level 7.2 78% (+220 ± 68) and full strength 60.5% against 2200
/// (+74 ± 53, about 2270). At 5+0.05 the clock, not the node limit, bounds the searches from
/// about level 16.5 on, yet they stay below full strength: the four candidate lines cost depth
/// (level 19 scored 26% against level 20 in self-play, −182 ± 86 in 50 games).
pub const ELO_LADDER_CHESS: &[(u32, f64)] = &[(1350, 3.2), (1620, 7.2), (2270, 16.5), (2400, 20.0)];
/// The same for xiangqi, against Fairy-Stockfish 11.1's `UCI_Elo`, which only orders
/// xiangqi strength: level 0.6 scored 64% against 1400 (+100 ± 68, about 1500) and level 8
/// 47% against 2000 (−21 ± 66), so level 0 plays near 1460 and a level there is worth about
/// 65 Elo; the top rung is still an estimate.
pub const ELO_LADDER_XIANGQI: &[(u32, f64)] = &[(1350, 0.0), (2000, 8.0), (2850, 20.0)];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MATE;

    #[test]
    fn weaker_levels_search_less_and_err_more() {
        let at = |level| Skill { level, extra_error_cp: 0.0 };
        assert_eq!(at(LEVEL_MAX).node_limit(), None);
        assert!(at(LEVEL_MAX).is_full() && !at(19.0).is_full());
        assert_eq!(at(0.0).node_limit(), Some(200));
        let nodes19 = at(19.0).node_limit().unwrap_or(0);
        assert!((350_000..450_000).contains(&nodes19), "{nodes19}");
        for l in 0..20 {
            let (a, b) = (at(l as f64), at(l as f64 + 1.0));
            assert!(a.node_limit() < b.node_limit().or(Some(u64::MAX)));
            assert!(a.error_cp() > b.error_cp());
        }
        assert_eq!(at(LEVEL_MAX).error_cp(), 0.0);
        // Below level 0 every move is looked at one ply deep, with an error that keeps growing.
        assert_eq!((at(0.0).depth_limit(), at(-0.5).depth_limit()), (None, Some(1)));
        assert_eq!((at(0.0).candidates(), at(-3.0).candidates()), (CANDIDATES, ALL_CANDIDATES));
        for l in -12..0 {
            assert!(at(l as f64).error_cp() > at(l as f64 + 1.0).error_cp());
        }
        let random = Skill { level: LEVEL_MAX, extra_error_cp: 300.0 };
        assert_eq!(random.candidates(), CANDIDATES + 3);
    }

    #[test]
    fn skill_level_steps_span_the_levels() {
        assert_eq!(Skill::option_level(20), LEVEL_MAX);
        assert_eq!(Skill::option_level(19), SKILL_19_LEVEL);
        assert_eq!(Skill::option_level(0), LEVEL_MIN);
        for option in 0..20 {
            let (a, b) = (Skill::option_level(option), Skill::option_level(option + 1));
            assert!(b - a >= SKILL_STEP, "{option}: {a} {b}");
        }
    }

    #[test]
    fn the_choice_errs_within_the_error_and_never_into_mate() {
        let m = |i| Move::from_raw(i);
        let lines = [(m(1), 50), (m(2), 40), (m(3), -MATE + 3), (m(4), -200)];
        let full = Skill::default();
        assert_eq!(full.choose(&lines, 1, || 0.5), Some(m(1)));
        // With an error of 250 cp the second move can win, the mated one never.
        let weak = Skill { level: 0.0, extra_error_cp: 0.0 };
        let mut flip = [0.0, 1.0, 1.0, 0.0].into_iter().cycle();
        assert_eq!(weak.choose(&lines, 1, || flip.next().unwrap_or(0.0)), Some(m(2)));
        let mut high = std::iter::repeat(1.0);
        let chosen = weak.choose(&[(m(1), 0), (m(3), -MATE + 3)], 1, || high.next().unwrap_or(1.0));
        assert_eq!(chosen, Some(m(1)));
        assert_eq!(weak.choose(&[], 1, || 0.0), None);
    }

    #[test]
    fn elo_targets_map_onto_levels_between_rungs() {
        let ladder = [(1400, 0.0), (1800, 10.0), (2200, 20.0)];
        assert_eq!(Skill::from_elo(1000, &ladder).level, 0.0);
        assert_eq!(Skill::from_elo(1600, &ladder).level, 5.0);
        assert_eq!(Skill::from_elo(2000, &ladder).level, 15.0);
        assert_eq!(Skill::from_elo(3000, &ladder).level, 20.0);
    }
}
