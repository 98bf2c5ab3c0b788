//! Iterative deepening, aspiration windows and the root move loop.

use super::node::{NonPv, Pv};
use super::tt::Bound;
use super::{Line, Worker};
use crate::game::{Game, INFINITE, MATE_BOUND, MAX_PLY, Move, Score};

/// Helper threads skip every depth `d` with `(d + thread index)` a multiple of this, so that
/// they diverge from the main thread (Lazy SMP); not a parameter, as tuning plays one thread.
const HELPER_SKIP_CYCLE: i32 = 4;

impl<G: Game> Worker<'_, G> {
    /// Runs iterative deepening until `max_depth` or a stop. On the main thread, `report` is
    /// called after every completed iteration (`None`) and on every aspiration failure
    /// (`Some(bound)`, for the line at `pv_idx`), with the depth and the line index.
    pub fn iterate(
        &mut self,
        max_depth: i32,
        mut report: impl FnMut(&Self, i32, usize, Option<Bound>),
    ) -> Line {
        let mut completed = 0;
        for depth in 1..=max_depth.min(MAX_PLY as i32 - 1) {
            self.seldepth = 0;
            // Helper threads skip some depths so that they diverge from the main thread.
            if self.id > 0 && depth > 1 && (depth + self.id as i32) % HELPER_SKIP_CYCLE == 0 {
                continue;
            }
            let lines = self.multipv.min(self.root_moves.len());
            for pv_idx in 0..lines {
                let mut delta: Score = self.params().aspiration_delta;
                let centre = self.root_moves[pv_idx].prev_score;
                let (mut alpha, mut beta) =
                    if depth >= self.params().aspiration_depth && centre.abs() < MATE_BOUND {
                        (centre - delta, centre + delta)
                    } else {
                        (-INFINITE, INFINITE)
                    };
                loop {
                    let s = self.root(depth, alpha, beta, pv_idx);
                    if self.aborted {
                        break;
                    }
                    if s <= alpha {
                        report(self, depth, pv_idx, Some(Bound::Upper));
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INFINITE);
                    } else if s >= beta {
                        report(self, depth, pv_idx, Some(Bound::Lower));
                        beta = (s + delta).min(INFINITE);
                    } else {
                        break;
                    }
                    delta += delta / 2;
                }
                if self.aborted {
                    break;
                }
            }
            // A cut-short iteration still reorders the root: a move that finished before the
            // stop and beat the others is first. Otherwise the old order stands.
            if self.aborted {
                break;
            }
            completed = depth;
            // MultiPV: a later line can come out better than an earlier one, which saw that
            // move only through a null window; the lines are reported ranked, best first.
            self.root_moves[..lines].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            report(self, depth, lines, None);
            if self.shared.signals.iteration_done(
                self.id,
                depth,
                self.root_moves[0].score,
                self.nodes,
            ) {
                break;
            }
        }
        let best = &self.root_moves[0];
        // A depth 1 cut short before any move was scored answers its first move with a
        // neutral score (never one that would look like a mate or make the engine resign).
        let score = best.known_score().unwrap_or(crate::game::DRAW);
        Line { depth: completed, score, pv: best.pv.clone() }
    }

    /// Searches one iteration at the root over `root_moves[pv_idx..]` with the window
    /// `(alpha, beta)`. Returns the best score and leaves those moves sorted best first.
    fn root(&mut self, depth: i32, mut alpha: Score, beta: Score, pv_idx: usize) -> Score {
        self.depth_in_progress = depth;
        self.data.stack[1].cutoffs = 0;
        self.data.stack[2].cutoffs = 0;
        let mut best = -INFINITE;
        // A move keeps its last score until it is searched again: when a stop cuts a re-search
        // short, the move that just failed high stays first with its bound, not with -INFINITE.
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.id == 0 {
                self.shared.signals.set_currmove(m, i + 1);
            }
            self.reply = Move::NONE;
            self.play(m, 0);
            let extension = i32::from(self.board.in_check());
            let new_depth = depth - 1 + extension;
            let score = if i == pv_idx {
                -self.negamax::<Pv>(-beta, -alpha, new_depth, 1)
            } else {
                let mut s = -self.negamax::<NonPv>(-alpha - 1, -alpha, new_depth, 1);
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax::<Pv>(-beta, -alpha, new_depth, 1);
                }
                s
            };
            self.take_back();
            if self.aborted {
                break;
            }
            let reply = self.reply;
            let rm = &mut self.root_moves[i];
            rm.reply = reply;
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(self.data.pv.line(1));
            } else {
                rm.score = -INFINITE;
            }
            best = best.max(score);
            if score > alpha {
                if score >= beta {
                    break;
                }
                alpha = score;
            }
        }
        // Stable: moves not (re)searched keep their order behind the ones that proved better.
        self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        best
    }

    /// The quiescence score of the root: the static evaluation once captures have settled.
    pub fn static_score(&mut self) -> Score {
        self.quiescence(-INFINITE, INFINITE, 0)
    }
}
