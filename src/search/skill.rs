//! Playing strength on demand: a level from 0 (weakest) to 20 (full strength) limits what the
//! search may spend and how carefully it chooses.
//!
//! A weaker level plays like a weaker player, not like a broken engine: it searches fewer nodes
//! (so it also answers sooner), looks at several candidate lines, and picks among them with an
//! error that grows as the level falls. A candidate much worse than the best is chosen only
//! when the error is large, and a move into a forced mate is never chosen while another move
//! avoids it. Fractional levels come from an Elo target (`UCI_Elo`), whole ones from
//! `Skill Level`; UCCI's knowledge, pruning and randomness map onto the same two dials.

use crate::game::{MATE_BOUND, Move, Score};

/// The full-strength level.
pub const LEVEL_MAX: f64 = 20.0;
/// How many candidate lines a weakened search looks at.
pub const CANDIDATES: usize = 4;
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
    /// 0 (weakest) to [`LEVEL_MAX`] (full strength).
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
    /// True when nothing is limited.
    pub fn is_full(&self) -> bool {
        self.level >= LEVEL_MAX && self.extra_error_cp <= 0.0
    }

    /// The most nodes a search at this level may visit; `None` at full strength.
    pub fn node_limit(&self) -> Option<u64> {
        (self.level < LEVEL_MAX)
            .then(|| (NODES_AT_ZERO * NODES_PER_LEVEL.powf(self.level.max(0.0))).round() as u64)
    }

    /// The largest error of the choice among candidates, in centipawns.
    pub fn error_cp(&self) -> f64 {
        let gap = (LEVEL_MAX - self.level.clamp(0.0, LEVEL_MAX)) / LEVEL_MAX;
        ERROR_AT_ZERO_CP * gap * gap + self.extra_error_cp.max(0.0)
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
/// same `UCI_Elo` (with the networks of generation 4): level 7.2 scored 78% against 1400
/// (+220 ± 68, so about 1620), level 16.5 scored 94.5% against 1800 (+494 ± 122) and full
/// strength 60.5% against 2200 (+74 ± 53, about 2270). At 5+0.05 the clock, not the node
/// limit, bounds the searches of level 16.5 and up, yet they stay below full strength: the
/// four candidate lines cost depth (level 19 scored 26% against level 20 in self-play, −182
/// ± 86 in 50 games). Below level 7 a level is worth about 40 Elo (earlier matches).
pub const ELO_LADDER_CHESS: &[(u32, f64)] = &[(1350, 0.5), (1620, 7.2), (2270, 16.5), (2400, 20.0)];
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
