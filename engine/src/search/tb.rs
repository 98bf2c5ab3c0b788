//! Endgame tablebases in the search: which positions are probed, what their values score, and
//! which root moves a tablebase position keeps. The tables themselves are the game's (chess's
//! Syzygy, [`crate::chess::tb`]); a game without them answers no probe and none of this runs.

use super::tt::Bound;
use crate::game::{DRAW, Game, MAX_PLY, Move, Score, TB_WIN, TbMove, Wdl};

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
    pub fn score(&self, wdl: Wdl, ply: usize, draw: Score) -> (Score, Bound) {
        let v = wdl.signed();
        let margin = i32::from(self.rule50);
        if v > margin {
            (TB_WIN - ply as Score, Bound::Lower)
        } else if v < -margin {
            (-TB_WIN + ply as Score, Bound::Upper)
        } else {
            (draw + 2 * v * margin, Bound::Exact)
        }
    }
}

/// The rank of a certain result: above any distance a rank can subtract.
const CERTAIN: i32 = 1 << 18;

/// A root move's rank, as Stockfish ranks them: every win within the fifty-move rule from the
/// root's `clock` ranks alike (the search chooses among them), and so does every loss the
/// rule cannot save; past that, the nearer zeroing (for a win) or the nearer fifty-move draw
/// (for a loss) ranks higher, so that a win with no plies to spare is played out by the
/// shortest distance. Without distances, the value alone: a cursed win or blessed loss ranks
/// between the certain ones and a draw.
fn rank(m: &TbMove, clock: i32) -> i32 {
    match m.dtz {
        Some(dtz) if dtz > 0 => {
            if dtz + clock <= 99 {
                CERTAIN
            } else {
                CERTAIN - (dtz + clock)
            }
        }
        Some(dtz) if dtz < 0 => {
            if -dtz * 2 + clock < 100 {
                -CERTAIN
            } else {
                -CERTAIN + (-dtz + clock)
            }
        }
        Some(_) => 0,
        None => match m.wdl {
            Wdl::Win => CERTAIN,
            Wdl::CursedWin => CERTAIN - 200,
            Wdl::Draw => 0,
            Wdl::BlessedLoss => -CERTAIN + 200,
            Wdl::Loss => -CERTAIN,
        },
    }
}

/// The root moves a tablebase position keeps, and the score to report for them: when the
/// tables hold the root, only the moves of the best rank are searched (see [`rank`]). A rank
/// a win's distance still makes a win under the fifty-move rule (or any win, the rule not
/// counted) scores as one; a cursed win or blessed loss as a draw two centipawns off. `None`
/// when the tables do not hold the root.
pub fn rank_root<G: Game>(board: &G, root: &[Move], tb: &Tablebases) -> Option<(Vec<Move>, Score)> {
    let values = board.probe_root(tb.men)?;
    let clock = board.fifty_move_clock().min(1000) as i32;
    let ranked: Vec<(Move, i32)> = root
        .iter()
        .map(|&m| values.iter().find(|v| v.mv == m).map(|v| (m, rank(v, clock))))
        .collect::<Option<_>>()?;
    let best = ranked.iter().map(|&(_, r)| r).max()?;
    let kept = ranked.iter().filter(|&&(_, r)| r == best).map(|&(m, _)| m).collect();
    // A rank within this of certain is a win (or loss) the fifty-move rule lets stand.
    let bound = if tb.rule50 { CERTAIN - 100 } else { 1 };
    let score = if best >= bound {
        TB_WIN - 1
    } else if best <= -bound {
        -TB_WIN + 1
    } else {
        DRAW + 2 * best.signum()
    };
    Some((kept, score))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(dtz: i32) -> TbMove {
        TbMove { mv: Move::from_raw(dtz.unsigned_abs() as u16), wdl: Wdl::Win, dtz: Some(dtz) }
    }

    /// Wins with plies to spare rank alike; with none to spare, the shortest ranks first; a
    /// loss far from the fifty-move rule is certain, near it the longest ranks first.
    #[test]
    fn ranks_are_stockfish_s() {
        assert_eq!(rank(&win(30), 10), rank(&win(60), 10));
        assert_eq!(rank(&win(30), 10), CERTAIN);
        assert!(rank(&win(7), 92) > rank(&win(8), 92));
        assert!(rank(&win(8), 92) >= CERTAIN - 100, "a mate on the hundredth ply wins");
        assert!(rank(&win(9), 92) < CERTAIN - 100, "one ply later it is cursed");
        let loss = |dtz| TbMove { mv: Move::from_raw(1), wdl: Wdl::Loss, dtz: Some(dtz) };
        assert_eq!(rank(&loss(-10), 20), -CERTAIN);
        assert!(rank(&loss(-40), 60) > rank(&loss(-30), 60));
        let none = |wdl| TbMove { mv: Move::from_raw(1), wdl, dtz: None };
        assert!(rank(&none(Wdl::CursedWin), 0) > rank(&none(Wdl::Draw), 0));
        assert!(rank(&none(Wdl::CursedWin), 0) < rank(&none(Wdl::Win), 0));
    }
}
