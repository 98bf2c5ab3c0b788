//! Whole games analysed: every position of a game searched once through the session, each
//! move judged by how much winning chance it gave away, and each side summed up.
//!
//! A game of `n` moves has `n + 1` positions. Each is searched once: its search gives the best
//! move and score there, and, negated, the score of the move that led to it. A move's drop is
//! the mover's expected score (win plus half the draws, from the WDL model the protocols
//! report) after the best move less that after the move played; a move the search itself
//! chose drops nothing, so that the noise between two searches is never called a mistake.
//! Nothing here prints: the command formats what [`analyse`] returns.

use crate::command::{BenchLimit, Limits};
use crate::game::{Inspect, MATE, MATE_BOUND, Move, MoveList, Score, Side};
use crate::nnue::Networked;
use crate::search::pool::wdl;
use crate::session::{Job, Outcome, Session};

/// A drop in expected score (0 to 1) from which a move is an inaccuracy (NAG `$6`).
pub const INACCURACY: f64 = 0.10;
/// A drop from which a move is a mistake (`$2`).
pub const MISTAKE: f64 = 0.20;
/// A drop from which a move is a blunder (`$4`).
pub const BLUNDER: f64 = 0.30;
/// The largest loss a single move counts for in a side's average loss, centipawns (a mate
/// missed would otherwise outweigh a whole game).
pub const LOSS_CAP_CP: i32 = 1000;

/// How bad a move was.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// Gave away [`INACCURACY`] or more.
    Inaccuracy,
    /// Gave away [`MISTAKE`] or more.
    Mistake,
    /// Gave away [`BLUNDER`] or more.
    Blunder,
}

impl Judgement {
    /// The judgement of a drop in expected score, if it is one.
    pub fn of(drop: f64) -> Option<Judgement> {
        match drop {
            d if d >= BLUNDER => Some(Judgement::Blunder),
            d if d >= MISTAKE => Some(Judgement::Mistake),
            d if d >= INACCURACY => Some(Judgement::Inaccuracy),
            _ => None,
        }
    }

    /// Its numeric annotation glyph: `$6` (dubious), `$2` (poor) or `$4` (very poor).
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

/// A score for people, from the first side's view (white, red).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Centipawns (chess) or UCCI units (xiangqi: a horse is 100).
    Cp(i32),
    /// A forced mate in this many moves: positive when the first side mates (0: mate on
    /// the board).
    Mate(i32),
    /// The first side has been mated (or, in xiangqi, has no move): mate on the board.
    Mated,
}

/// One searched position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The best move, when the position has one.
    pub best: Option<Move>,
    /// The score for the side to move, internal units.
    pub score: Score,
    /// The depth reached.
    pub depth: u32,
    /// The nodes searched.
    pub nodes: u64,
}

/// One move of the game, judged.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Ply {
    /// The move played.
    pub mv: Move,
    /// Who played it.
    pub side: Side,
    /// The search of the position it was played in.
    pub before: Searched,
    /// The score after it for the side that played it, internal units.
    pub after: Score,
    /// The mover's expected score (0 to 1) after the best move.
    pub best_chance: f64,
    /// The mover's expected score after the move played.
    pub chance: f64,
    /// The loss for the mover, centipawns (at most [`LOSS_CAP_CP`], at least 0).
    pub loss_cp: i32,
    /// How bad it was, if it was.
    pub judgement: Option<Judgement>,
}

impl Ply {
    /// The drop in the mover's expected score: what the judgement is made of.
    pub fn drop(&self) -> f64 {
        (self.best_chance - self.chance).max(0.0)
    }

    /// The best move, when it is not the move played.
    pub fn better(&self) -> Option<Move> {
        self.before.best.filter(|&b| b != self.mv)
    }

    /// The score after the move as people read it, from the first side's view; `units` is
    /// the game's internal units per centipawn.
    pub fn verdict(&self, units: Score) -> Verdict {
        let first = if self.side == Side::First { self.after } else { -self.after };
        verdict(first, units)
    }

    /// The accuracy of the move (0 to 100), from its drop in expected score, as lichess
    /// computes it from win percentages.
    pub fn accuracy(&self) -> f64 {
        let drop = 100.0 * self.drop();
        (103.1668 * (-0.04354 * drop).exp() - 3.1669 + 1.0).clamp(0.0, 100.0)
    }
}

/// A score from the first side's view (internal units) as people read it.
pub fn verdict(first: Score, units: Score) -> Verdict {
    if first >= MATE_BOUND {
        Verdict::Mate(((MATE - first + 1) / 2).max(0))
    } else if first <= -MATE_BOUND {
        if first <= -MATE { Verdict::Mated } else { Verdict::Mate(-((MATE + first + 1) / 2)) }
    } else {
        Verdict::Cp(first / units.max(1))
    }
}

/// The expected score (0 to 1) of the side to move at `score` (internal units, `units` of
/// them a centipawn). The WDL model is read on the protocols' scale, centipawns or UCCI units
/// (a horse is 100): xiangqi's internal quarter units would make it four times as steep, and
/// a third of a horse would already be an even chance to win.
pub fn chance(score: Score, units: Score) -> f64 {
    let cp = if score.abs() >= MATE_BOUND { score } else { score / units.max(1) };
    let [win, draw, _] = wdl(cp);
    (f64::from(win) + f64::from(draw) / 2.0) / 1000.0
}

/// A side's moves summed up.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Summary {
    /// Moves played.
    pub moves: usize,
    /// The mean accuracy of the moves (0 to 100; 100 without a move).
    pub accuracy: f64,
    /// The mean loss per move, centipawns.
    pub average_loss: f64,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
}

impl Summary {
    /// The summary of `side`'s moves among `plies`.
    pub fn of(plies: &[Ply], side: Side) -> Summary {
        let own: Vec<&Ply> = plies.iter().filter(|p| p.side == side).collect();
        let n = own.len();
        let count = |j: Judgement| own.iter().filter(|p| p.judgement == Some(j)).count();
        let mean = |f: &dyn Fn(&Ply) -> f64, empty: f64| {
            if n == 0 { empty } else { own.iter().map(|p| f(p)).sum::<f64>() / n as f64 }
        };
        Summary {
            moves: n,
            accuracy: mean(&|p| p.accuracy(), 100.0),
            average_loss: mean(&|p| f64::from(p.loss_cp), 0.0),
            inaccuracies: count(Judgement::Inaccuracy),
            mistakes: count(Judgement::Mistake),
            blunders: count(Judgement::Blunder),
        }
    }
}

/// A game analysed.
#[derive(Clone, Debug, Default)]
pub struct Analysis {
    /// Each move, judged.
    pub plies: Vec<Ply>,
    /// The search of the last position (none when it has no move: its score is the rules').
    pub last: Option<Searched>,
    /// Nodes searched in all.
    pub nodes: u64,
}

/// The limits of a search per position.
pub fn limits(limit: BenchLimit) -> Limits {
    match limit {
        BenchLimit::Depth(d) => Limits { depth: Some(d.max(1)), ..Default::default() },
        BenchLimit::Nodes(n) => Limits { nodes: Some(n.max(1)), ..Default::default() },
        BenchLimit::Movetime(t) => Limits { movetime: Some(t.max(1)), ..Default::default() },
    }
}

/// Searches `board` once within `limit` in `session`: the session's one way of running a
/// search. A position without a legal move gets the rules' score and no move.
pub fn search<G: Inspect + Networked>(
    session: &mut Session,
    board: &G,
    limit: BenchLimit,
) -> Searched {
    let mut legal = MoveList::new();
    board.legal_moves(&mut legal);
    if legal.is_empty() {
        return Searched { best: None, score: board.no_move_score(0), depth: 0, nodes: 0 };
    }
    let limits = limits(limit);
    let budget = session.plan(G::VARIANT, &limits, board.side_to_move().index(), 0, false);
    let job = Job { budget, ..Job::quiet(board.clone(), limits) };
    match session.run(job) {
        Outcome::Move { found: Some(f), .. } => {
            Searched { best: f.mv, score: f.score, depth: f.depth, nodes: f.nodes }
        }
        // Cannot happen for a position with a move; scored as even rather than lost.
        _ => Searched { best: None, score: 0, depth: 0, nodes: 0 },
    }
}

/// Analyses the game of `moves` (legal, in order) from `start` in `session`, which it clears
/// first, so that a game's analysis does not depend on the games before it. `done` hears
/// after each position searched.
pub fn analyse<G: Inspect + Networked>(
    session: &mut Session,
    start: &G,
    moves: &[Move],
    limit: BenchLimit,
    done: &mut dyn FnMut(),
) -> Analysis {
    session.clear();
    let mut board = start.clone();
    let mut analysis = Analysis::default();
    let mut before = search(session, &board, limit);
    analysis.nodes += before.nodes;
    done();
    for &mv in moves {
        let side = board.side_to_move();
        board.make(mv);
        let after = search(session, &board, limit);
        analysis.nodes += after.nodes;
        done();
        let (best_score, played) = (before.score, -after.score);
        let chosen = before.best == Some(mv);
        let best_chance = chance(best_score, G::UNITS_PER_CP);
        let chance = if chosen { best_chance } else { chance(played, G::UNITS_PER_CP) };
        let cp = |s: Score| (s / G::UNITS_PER_CP).clamp(-LOSS_CAP_CP, LOSS_CAP_CP);
        let loss_cp = if chosen { 0 } else { (cp(best_score) - cp(played)).clamp(0, LOSS_CAP_CP) };
        let mut ply =
            Ply { mv, side, before, after: played, best_chance, chance, loss_cp, judgement: None };
        ply.judgement = Judgement::of(ply.drop());
        analysis.plies.push(ply);
        before = after;
    }
    analysis.last = before.best.is_some().then_some(before);
    analysis
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judgements_and_verdicts() {
        assert_eq!(Judgement::of(0.05), None);
        assert_eq!(Judgement::of(0.12).map(Judgement::nag), Some(6));
        assert_eq!(Judgement::of(0.25).map(Judgement::nag), Some(2));
        assert_eq!(Judgement::of(0.9).map(Judgement::nag), Some(4));
        assert_eq!(verdict(MATE - 5, 1), Verdict::Mate(3));
        assert_eq!(verdict(-(MATE - 4), 1), Verdict::Mate(-2));
        assert_eq!(verdict(-MATE, 1), Verdict::Mated);
        assert_eq!(verdict(MATE, 1), Verdict::Mate(0));
        assert_eq!(verdict(-37, 4), Verdict::Cp(-9));
        assert!((chance(0, 1) - 0.5).abs() < 1e-9);
        assert!(chance(300, 1) > 0.9 && chance(-300, 1) < 0.1);
        assert_eq!(chance(1200, 4), chance(300, 1));
        assert_eq!(chance(MATE - 3, 4), 1.0);
    }
}
