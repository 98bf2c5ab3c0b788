//! History tables: what the search learned about moves, kept per thread from one `go` to the
//! next within a game and cleared by a new game.
//!
//! Today there is one table, the butterfly history of quiet moves by side and from/to. The
//! capture, continuation and correction histories of the search issue belong here too, each
//! as its own table with its own update rule.

use crate::game::Move;

/// History scores saturate here, so they never outrank killers in the move order.
pub const HISTORY_MAX: i32 = 1 << 20;
/// At the start of each search, every score is divided by this.
const HISTORY_AGE_DIVISOR: i32 = 2;

/// The history tables of one search thread.
pub struct History {
    /// Quiet moves that caused cut-offs: `[side][from/to]`, rewarded by depth squared.
    butterfly: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        History { butterfly: vec![0; 2 * Move::INDEX_SPACE] }
    }
}

impl History {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.butterfly.fill(0);
    }

    /// Halves every score: called as each search starts, so that what was learned moves ago
    /// counts less than what the search learns now, and scores that rose to the cap become
    /// distinguishable again.
    pub fn age(&mut self) {
        for h in &mut self.butterfly {
            *h /= HISTORY_AGE_DIVISOR;
        }
    }

    /// The butterfly score of quiet move `m` by `side`.
    #[inline]
    pub fn quiet(&self, side: usize, m: Move) -> i32 {
        self.butterfly[side * Move::INDEX_SPACE + m.index()]
    }

    /// Rewards quiet move `m` by `side` for a cut-off at `depth`.
    #[inline]
    pub fn reward_quiet(&mut self, side: usize, m: Move, depth: i32) {
        let h = &mut self.butterfly[side * Move::INDEX_SPACE + m.index()];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

    /// The quiet move with the highest score: `(side, move, score)`.
    #[cfg(test)]
    pub fn best_quiet(&self) -> (usize, Move, i32) {
        let (i, &v) = self.butterfly.iter().enumerate().max_by_key(|&(_, v)| *v).unwrap_or((0, &0));
        (i / Move::INDEX_SPACE, Move::from_raw((i % Move::INDEX_SPACE) as u16), v)
    }
}
