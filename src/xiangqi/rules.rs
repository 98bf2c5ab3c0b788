//! Game-ending rules other than "no legal move": the natural move limit, repetition (with the
//! simple perpetual-check rule), and insufficient material.

use super::bitboard::*;
use super::position::*;
use crate::game::{DRAW, MATE, Score};

/// Plies without a capture after which the game is drawn (60 moves each).
pub const DEFAULT_MOVE_LIMIT: u32 = 120;

/// Ranks 5-9: black's half, where a red soldier has crossed the river.
const BLACK_HALF: Bitboard = ((1 << SQUARES) - 1) ^ ((1 << (SQUARES / 2)) - 1);
/// Ranks 0-4.
const RED_HALF: Bitboard = (1 << (SQUARES / 2)) - 1;

impl Position {
    /// True when `colour` has a chariot, horse or cannon.
    #[inline]
    pub fn has_major(&self, colour: usize) -> bool {
        self.bb(colour, kind::CHARIOT)
            | self.bb(colour, kind::HORSE)
            | self.bb(colour, kind::CANNON)
            != 0
    }

    /// True when neither side has anything that can attack a general: no chariot, horse,
    /// cannon, or soldier across the river.
    pub fn insufficient_material(&self) -> bool {
        !self.has_major(RED)
            && !self.has_major(BLACK)
            && self.bb(RED, kind::SOLDIER) & BLACK_HALF == 0
            && self.bb(BLACK, kind::SOLDIER) & RED_HALF == 0
    }

    /// Whether the move at history index `i` gave check.
    #[inline]
    fn gave_check(&self, i: usize) -> bool {
        self.history.get(i + 1).map_or(self.checked, |st| st.in_check)
    }

    /// The verdict on a repetition of the position `i` plies back: the side that checked with
    /// every one of its moves in the cycle, while the other did not, loses; otherwise a draw.
    /// Scores are from the side to move's view.
    fn judge_cycle(&self, i: usize, ply: usize) -> Score {
        let n = self.history.len();
        let start = n - i;
        // Moves start, start+2, ... are the side to move's (the cycle has even length).
        let ours = (start..n).step_by(2).all(|m| self.gave_check(m));
        let theirs = (start + 1..n).step_by(2).all(|m| self.gave_check(m));
        match (ours, theirs) {
            (true, false) => -(MATE - ply as Score),
            (false, true) => MATE - ply as Score,
            _ => DRAW,
        }
    }

    /// The rules' verdict on the current position, `ply` plies from the search root, given
    /// the natural move limit in plies.
    pub fn rule_score(&self, ply: usize, move_limit: u32) -> Option<Score> {
        if u32::from(self.halfmove) >= move_limit {
            return Some(DRAW);
        }
        let n = self.history.len();
        let reach = usize::from(self.halfmove.min(self.from_null)).min(n);
        let mut earlier = 0;
        let mut i = 4;
        while i <= reach {
            if self.history[n - i].key == self.key {
                // Inside the search a repetition counts at once; before the root it needs a
                // third occurrence.
                if i <= ply || earlier > 0 {
                    return Some(self.judge_cycle(i, ply));
                }
                earlier += 1;
            }
            i += 2;
        }
        if self.insufficient_material() {
            return Some(DRAW);
        }
        None
    }
}
