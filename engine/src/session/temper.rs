//! The engine's mood over a game: its recent scores decide draw offers and resigning.

use crate::game::{DRAW, MATE_BOUND};

/// Accept a draw offer at or below this score (protocol units: centipawns, UCCI units).
pub const DRAW_ACCEPT: i32 = 20;
/// Offer a draw when this many searches in a row saw a draw score (zero, give or take the
/// contempt) at depth [`DRAW_OFFER_DEPTH`] or more.
pub const DRAW_OFFER_SEARCHES: usize = 3;
/// The shallowest depth whose draw score counts for an offer.
pub const DRAW_OFFER_DEPTH: u32 = 8;
/// Resign when this many searches in a row scored at or below [`RESIGN_SCORE`].
pub const RESIGN_SEARCHES: usize = 3;
/// A hopeless score (protocol units): about two chariots or two queens down.
pub const RESIGN_SCORE: i32 = -1500;

/// The scores of a game's last searches. The session owns it; a `go` lends it to the search
/// thread that answers (which judges the answer's draw offer and resignation there, at once),
/// and the completion notice brings it back, so that no lock is needed.
#[derive(Default, Debug)]
pub struct Temper {
    /// Scores (internal units, own view) of the last searches, most recent last.
    scores: Vec<i32>,
}

impl Temper {
    /// Records a search's score (internal units, `unit` of them per centipawn) and decides
    /// `(draw, resign)`.
    pub fn judge(
        &mut self,
        score: i32,
        unit: i32,
        depth: u32,
        contempt: i32,
        draw_offered: bool,
        may_resign: bool,
    ) -> (bool, bool) {
        let protocol = score / unit;
        self.scores.push(if depth >= DRAW_OFFER_DEPTH { score } else { i32::MIN });
        let recent = |n: usize| &self.scores[self.scores.len().saturating_sub(n)..];
        let hopeless = |s: &i32| *s != i32::MIN && *s / unit <= RESIGN_SCORE;
        let resign = may_resign
            && (score <= -MATE_BOUND
                || (recent(RESIGN_SEARCHES).len() == RESIGN_SEARCHES
                    && recent(RESIGN_SEARCHES).iter().all(hopeless)));
        let dead_draw = recent(DRAW_OFFER_SEARCHES).len() == DRAW_OFFER_SEARCHES
            && recent(DRAW_OFFER_SEARCHES)
                .iter()
                .all(|s| *s != i32::MIN && (*s - DRAW).abs() <= contempt);
        let draw = !resign && ((draw_offered && protocol <= DRAW_ACCEPT) || dead_draw);
        (draw, resign)
    }
}
