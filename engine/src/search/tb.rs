//! Endgame tablebases in the search: which positions are probed, what their values score, and
//! which root moves a tablebase position keeps. The tables themselves are the game's (chess's
//! Syzygy, [`crate::chess::tb`]); a game without them answers no probe and none of this runs.

use crate::game::{DRAW, Game, MAX_PLY, Move, Score, TB_WIN, Wdl};

/// Plies added to the depth of a tablebase value stored in the table: a probe's value is
/// exact, deeper than any search of the node.
pub const STORED_DEPTH_BONUS: i32 = 6;

/// How the search uses the tablebases, from the session's options (`SyzygyProbeLimit`,
/// `SyzygyProbeDepth`, `Syzygy50MoveRule`) and the tables loaded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tablebases {
    /// Positions of at most this many pieces are probed (the limit, and no more than the
    /// largest table loaded).
    pub men: u32,
    /// Positions of exactly `men` pieces are probed only at this depth (plies) or deeper;
    /// with fewer pieces, at every depth.
    pub depth: i32,
    /// Whether the fifty-move rule counts: a cursed win or blessed loss then scores as a draw
    /// (almost: two centipawns towards the side the tables favour).
    pub rule50: bool,
}

impl Tablebases {
    /// The use of tables of at most `largest` pieces under the options' `limit`, `depth` and
    /// fifty-move rule. As in Stockfish, a limit above the tables makes every depth probe.
    pub fn new(limit: u32, largest: u32, depth: u32, rule50: bool) -> Tablebases {
        let depth = if limit > largest { 0 } else { depth.min(MAX_PLY as u32) as i32 };
        Tablebases { men: limit.min(largest), depth, rule50 }
    }

    /// Whether a node `depth` plies from the horizon with `men` pieces is probed.
    #[inline]
    pub fn probes(&self, men: u32, depth: i32) -> bool {
        men < self.men || (men == self.men && depth >= self.depth)
    }

    /// The score of a tablebase value `ply` plies from the root, and whether it is a lower
    /// bound (a win: a mate may score more), an upper bound (a loss) or exact (a draw, valued
    /// at `draw`, the draw score with contempt there).
    pub fn score(&self, wdl: Wdl, ply: usize, draw: Score) -> (Score, Value) {
        let v = wdl.signed();
        let margin = i32::from(self.rule50);
        if v > margin {
            (TB_WIN - ply as Score, Value::AtLeast)
        } else if v < -margin {
            (-TB_WIN + ply as Score, Value::AtMost)
        } else {
            (draw + 2 * v * margin, Value::Exact)
        }
    }
}

/// How a tablebase score bounds a node's value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// The value is the score.
    Exact,
    /// The value is at least the score.
    AtLeast,
    /// The value is at most the score.
    AtMost,
}

/// The root moves a tablebase position keeps, and the score to report for them: when the
/// tables hold the root, only the moves of its best value are searched (the search then
/// chooses among equally won, drawn or lost moves). `None` when the tables do not hold it.
pub fn rank_root<G: Game>(board: &G, root: &[Move], tb: &Tablebases) -> Option<(Vec<Move>, Score)> {
    let values = board.probe_root(tb.men)?;
    let rank = |w: Wdl| if tb.rule50 { w.signed() } else { 2 * w.signed().signum() };
    let ranked: Vec<(Move, i32)> = root
        .iter()
        .map(|&m| values.iter().find(|(v, _)| *v == m).map(|&(_, w)| (m, rank(w))))
        .collect::<Option<_>>()?;
    let best = ranked.iter().map(|&(_, r)| r).max()?;
    let kept = ranked.iter().filter(|&&(_, r)| r == best).map(|&(m, _)| m).collect();
    let score = match best {
        2 => TB_WIN - 1,
        -2 => -TB_WIN + 1,
        r => DRAW + 2 * r,
    };
    Some((kept, score))
}
