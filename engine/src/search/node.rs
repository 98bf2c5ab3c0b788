//! The node search: principal-variation alpha-beta with the kind of node as a type, and the
//! quiescence search below it.

use super::Worker;
use super::history::{capture_key, no_piece_square, piece_square, threat_slot};
use super::movepick::Picker;
use super::params::Params;
use super::tb::STORED_DEPTH_BONUS;
use super::tt::Bound;
use crate::game::{DRAW, Game, INFINITE, MATE, MATE_BOUND, MAX_PLY, Move, Score};

/// How many quiet moves a node remembers having searched, to lower their history when a later
/// one cuts off.
const MAX_QUIETS: usize = 64;
/// How many tactical moves a node remembers having searched, for the same reason.
const MAX_CAPTURES: usize = 32;

/// Late move pruning: how many quiet moves a node at `depth` searches before it skips the
/// quiet moves left; half as many when the static evaluation is not improving.
#[inline]
fn lmp_count(p: &Params, depth: i32, improving: bool) -> usize {
    ((p.lmp_base + depth * depth) / (2 - i32::from(improving))) as usize
}

/// The base late-move reductions of a parameter set, by depth and move number (each below 64):
/// `lmr_base + ln(depth) · ln(move number) / lmr_divisor` plies, so that deep nodes and late
/// moves are reduced more, both slowly.
pub(super) struct LmrTable([[u8; 64]; 64]);

impl LmrTable {
    pub(super) fn new(p: &Params) -> Self {
        let (base, divisor) = (f64::from(p.lmr_base) / 100.0, f64::from(p.lmr_divisor) / 100.0);
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                let x = base + (d as f64).ln() * (i as f64).ln() / divisor;
                *r = x.max(0.0) as u8;
            }
        }
        LmrTable(t)
    }

    #[inline]
    pub(super) fn get(&self, depth: i32, i: usize) -> i32 {
        i32::from(self.0[depth.clamp(0, 63) as usize][i.min(63)])
    }
}

/// The kind of a node, as a type: the search is compiled once per kind, with no flag tests.
pub(super) trait NodeKind {
    /// A node on the principal variation, searched with an open window.
    const PV: bool;
}

/// A principal-variation node.
pub(super) struct Pv;
/// A node searched with a null window (cut and all nodes).
pub(super) struct NonPv;

impl NodeKind for Pv {
    const PV: bool = true;
}
impl NodeKind for NonPv {
    const PV: bool = false;
}

impl<G: Game> Worker<'_, G> {
    /// The main alpha-beta search (negamax, principal variation search). Wraps
    /// [`Worker::node`] to keep track of whether its score rests on a path-dependent verdict.
    pub(super) fn negamax<N: NodeKind>(
        &mut self,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
    ) -> Score {
        let outer = std::mem::take(&mut self.path_dependent);
        let score = self.node::<N>(alpha, beta, depth, ply);
        self.path_dependent |= outer;
        score
    }

    /// One node of [`Worker::negamax`], `ply` plies from the root (`ply >= 1`).
    fn node<N: NodeKind>(
        &mut self,
        mut alpha: Score,
        beta: Score,
        mut depth: i32,
        ply: usize,
    ) -> Score {
        self.data.pv.clear(ply);
        self.ply_now = ply;
        // In a singular extension search, the table's move is left out: the node's result
        // describes the other moves only, so it cuts off nothing and is never stored.
        let excluded = self.data.stack[ply].excluded;
        let singular_search = !excluded.is_none();

        // Step 1. Rules: repetition, the move limit, dead material.
        if let Some(score) = self.board.rule_score(ply) {
            if score == DRAW {
                return self.draw_score(ply);
            }
            // A rule win or loss (perpetual check or chase) belongs to this path only.
            self.path_dependent = true;
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }

        // Step 2. Mate distance pruning: no line from here can beat a shorter mate.
        let alpha_md = alpha.max(-MATE + ply as Score);
        let beta_md = beta.min(MATE - ply as Score - 1);
        if alpha_md >= beta_md {
            return alpha_md;
        }

        if depth <= 0 {
            return self.quiescence(alpha, beta, ply);
        }

        self.count_node();
        if self.aborted {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        self.data.stack[ply + 2].cutoffs = 0;

        // Step 3. Transposition table: cut off on a deep enough bound outside PV nodes.
        let key = self.board.key();
        let hit = self.shared.tt.probe(key, ply);
        let mut tt_move = Move::NONE;
        if let Some(h) = hit {
            if !h.mv.is_none() && self.board.is_legal(h.mv) {
                tt_move = h.mv;
            }
            if !N::PV && !singular_search && h.depth >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if cut {
                    if ply == 1 {
                        self.reply = tt_move;
                    }
                    return h.score;
                }
            }
        }

        // Step 3a. Tablebases: a position the tables hold has its value without a search. A
        // win or loss that does not cut off still bounds a PV node's value.
        let (mut tb_floor, mut tb_cap) = (-INFINITE, INFINITE);
        if let Some(tb) = self.shared.config.tablebases
            && !singular_search
            && let Some(men) = self.board.tablebase_men()
            && tb.probes(men, depth)
            && let Some(wdl) = self.board.probe_wdl(tb.men)
        {
            self.shared.signals.tbhit();
            let (score, bound) = tb.score(wdl, ply, self.draw_score(ply));
            let cut = match bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                let stored_depth = (depth + STORED_DEPTH_BONUS).min(MAX_PLY as i32 - 1);
                self.shared.tt.store(key, ply, Move::NONE, score, -INFINITE, stored_depth, bound);
                return score;
            }
            if N::PV {
                if bound == Bound::Lower {
                    tb_floor = score;
                    alpha = alpha.max(score);
                } else {
                    tb_cap = score;
                }
            }
        }

        // Step 3b. Internal iterative reduction: a node the table knows no move for is likely
        // new to the search and badly ordered; search it a ply shallower, and the next
        // iteration finds it with a move.
        if depth >= self.params().iir_depth && tt_move.is_none() && !singular_search {
            depth -= 1;
        }

        // Step 4. Static evaluation, corrected by what searches found it off by in similar
        // positions, kept on the stack. The table keeps the evaluation uncorrected.
        let in_check = self.board.in_check();
        let (raw_eval, eval) = if in_check {
            (-INFINITE, -INFINITE)
        } else {
            let raw = match hit {
                Some(h) if h.eval.abs() < MATE_BOUND => h.eval,
                _ => self.evaluate(),
            };
            (raw, self.corrected(raw))
        };
        let frame = &mut self.data.stack[ply];
        frame.in_check = in_check;
        frame.static_eval = eval;
        // Whether the evaluation is better than two plies before (the same side to move); near
        // the root, where that is not known, it counts as improving, which prunes less.
        let improving = !in_check && (ply < 2 || eval > self.data.stack[ply - 2].static_eval);

        // Step 4b. Hindsight depth adjustment: the parent chose this node's reduction before
        // either side's evaluation here was known. Deeper when it reduced much and its move
        // did not worsen the position for the side that played it (the two evaluations, each
        // from its own side, sum to at most 0); shallower when it reduced some and the move
        // clearly worsened it.
        if !in_check && !singular_search && ply >= 1 && !self.data.stack[ply - 1].in_check {
            let p = self.params();
            let prior = self.data.stack[ply - 1].reduction;
            let sum = eval + self.data.stack[ply - 1].static_eval;
            if prior >= p.hindsight_deeper && sum <= 0 {
                depth += 1;
            } else if prior >= p.hindsight_shallower && depth >= 2 && sum > p.hindsight_margin {
                depth -= 1;
            }
        }

        if !N::PV && !in_check && !singular_search {
            // Steps 5 and 6 trust the static evaluation or a pass to stand for the best move,
            // which zugzwang makes false: a search for a mate's proof (`go mate`) does without.
            // Step 5. Reverse futility pruning: far above beta with little depth left.
            if !self.shared.signals.proof_search()
                && depth <= self.params().rfp_depth
                && eval - self.params().rfp_margin * (depth - i32::from(improving)) >= beta
                && beta.abs() < MATE_BOUND
            {
                // Halfway to beta: the evaluation's margin above the bar is an estimate.
                return (eval + beta) / 2;
            }

            // Step 5b. Razoring: so far below alpha with little depth left that only a capture
            // could save the node; the quiescence search says whether one does.
            if !self.shared.signals.proof_search()
                && depth <= self.params().razor_depth
                && alpha.abs() < MATE_BOUND
                && eval + self.params().razor_base + self.params().razor_margin * depth * depth
                    < alpha
            {
                let score = self.quiescence(alpha, beta, ply);
                if self.aborted {
                    return DRAW;
                }
                if score <= alpha {
                    return score;
                }
            }

            // Step 6. Null move: if passing still fails high, a real move surely would. Never
            // twice in a row: the parent's move is none after a null move.
            let after_null = self.data.stack[ply - 1].mv.is_none();
            if !self.shared.signals.proof_search()
                && !after_null
                && depth >= self.params().nmp_depth
                && eval >= beta
                && eval >= beta - self.params().nmp_eval_slope * depth + self.params().nmp_eval_base
                && beta.abs() < MATE_BOUND
                && self.board.has_null_material()
            {
                let p = self.params();
                let r = p.nmp_base
                    + depth / p.nmp_depth_divisor
                    + ((eval - beta) / p.nmp_eval_divisor).min(3);
                self.play_null(ply);
                let score = -self.negamax::<NonPv>(-beta, -beta + 1, depth - 1 - r, ply + 1);
                self.take_back_null();
                if self.aborted {
                    return DRAW;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }

            // Step 6b. ProbCut: a capture that wins enough to stay well above beta in a
            // shallower search would almost surely cut off in the full one. Not when the table
            // already says the node scores below that bar at about this depth.
            let pc_beta = beta + self.params().probcut_margin;
            let pc_reduction = self.params().probcut_reduction;
            let table_says_no = hit.is_some_and(|h| {
                h.depth > depth - pc_reduction && h.score < pc_beta && h.bound != Bound::Lower
            });
            if depth >= self.params().probcut_depth && beta.abs() < MATE_BOUND && !table_says_no {
                let victim_weight = self.params().capture_victim_weight;
                let mut picker = Picker::quiescence(
                    &mut self.data.moves[ply],
                    &self.board,
                    &self.data.history,
                    false,
                    victim_weight,
                );
                while let Some(m) =
                    picker.next_move(&mut self.data.moves[ply], &self.board, &self.data.history)
                {
                    if !self.board.see_ge(m, pc_beta - eval) {
                        continue;
                    }
                    self.play(m, ply);
                    let mut score = -self.quiescence(-pc_beta, -pc_beta + 1, ply + 1);
                    if score >= pc_beta {
                        score = -self.negamax::<NonPv>(
                            -pc_beta,
                            -pc_beta + 1,
                            depth - pc_reduction,
                            ply + 1,
                        );
                    }
                    self.take_back();
                    if self.aborted {
                        return DRAW;
                    }
                    if score >= pc_beta && score < MATE_BOUND {
                        // What the verification proved, for the next visit: a lower bound at
                        // its depth.
                        if !self.path_dependent {
                            let d = depth - pc_reduction + 1;
                            self.shared.tt.store(key, ply, m, score, raw_eval, d, Bound::Lower);
                        }
                        return score;
                    }
                }
            }
        }

        // Step 6c. Singular extension: when the table's move is the only one that holds its
        // score (every other move fails well below it in a shallower search), it is searched a
        // ply deeper. When even the others beat beta, the node is cut off (multi-cut); when
        // the table's move alone is above beta but not singular, it is searched a ply less.
        let mut tt_extension = 0;
        if let Some(h) = hit
            && !singular_search
            && !tt_move.is_none()
            && depth >= self.params().se_depth
            && h.depth >= depth - self.params().se_tt_depth_slack
            && h.bound != Bound::Upper
            && h.score.abs() < MATE_BOUND
            && ply < (self.params().se_ply_factor * self.depth_in_progress.max(1)) as usize
        {
            let s_beta = h.score - self.params().se_margin * depth;
            self.data.stack[ply].excluded = tt_move;
            let score = self.node::<NonPv>(s_beta - 1, s_beta, (depth - 1) / 2, ply);
            self.data.stack[ply].excluded = Move::NONE;
            if self.aborted {
                return DRAW;
            }
            let p = self.params();
            if score < s_beta {
                // Singular by far more: two plies, three for a quiet move, a few times a line.
                let doubles = self.data.stack[ply].double_extensions;
                tt_extension = if !N::PV
                    && i32::from(doubles) < p.se_double_cap
                    && score < s_beta - p.se_double_margin
                {
                    if !self.board.is_tactical(tt_move) && score < s_beta - p.se_triple_margin {
                        3
                    } else {
                        2
                    }
                } else {
                    1
                };
            } else if s_beta >= beta {
                return s_beta;
            } else if h.score >= beta {
                tt_extension = -2;
            }
        }

        // Step 7. The move loop, in the picker's order.
        let killers = self.data.stack[ply].killers;
        let earlier = self.earlier_moves(ply);
        let victim_weight = self.params().capture_victim_weight;
        let mut picker = Picker::main(
            &mut self.data.moves[ply],
            &self.board,
            &self.data.history,
            tt_move,
            killers,
            earlier,
            victim_weight,
        );
        // What the opponent attacks: a quiet move's butterfly history is kept by whether it
        // leaves a square the opponent attacks and whether it lands on one.
        let threats = picker.threats();
        if picker.is_empty() {
            return self.board.no_move_score(ply);
        }
        let side = self.board.side_to_move().index();
        let original_alpha = alpha;
        let mut best = tb_floor;
        let mut best_move = Move::NONE;
        let mut searched = 0;
        // The quiet moves searched, so that the one that cuts off can punish those before it.
        let mut quiets = [Move::NONE; MAX_QUIETS];
        let mut quiets_len = 0;
        // The capture-history keys of the tactical moves searched, likewise.
        let mut captures = [0; MAX_CAPTURES];
        let mut captures_len = 0;
        while let Some(m) =
            picker.next_move(&mut self.data.moves[ply], &self.board, &self.data.history)
        {
            if m == excluded {
                continue;
            }
            let tactical = self.board.is_tactical(m);
            // Late move pruning: at shallow depth, once enough quiet moves have been searched
            // and no mate is being warded off, the quiet moves left are skipped; the losing
            // captures the picker keeps for last are still served.
            if !N::PV
                && !in_check
                && !tactical
                && best > -MATE_BOUND
                && depth <= self.params().lmp_depth
                && quiets_len >= lmp_count(self.params(), depth, improving)
            {
                picker.skip_quiets();
                continue;
            }
            // Futility pruning: at a shallow reduced depth a quiet move cannot lift a node
            // whose evaluation is far below alpha; a move that gives check is still searched.
            if !N::PV
                && !in_check
                && !tactical
                && searched > 0
                && best > -MATE_BOUND
                && alpha.abs() < MATE_BOUND
            {
                let p = self.params();
                let slot = threat_slot::<G>(threats, m);
                let history = self.data.history.quiet_order::<G>(
                    side,
                    slot,
                    m,
                    piece_square(&self.board, m),
                    earlier,
                );
                let reduced = (depth - 1 - self.lmr_base(depth, searched)
                    + history / p.lmr_history_divisor)
                    .max(0);
                if reduced <= p.fp_depth && eval + p.fp_base + p.fp_margin * reduced <= alpha {
                    self.play(m, ply);
                    let checks = self.board.in_check();
                    self.take_back();
                    if !checks {
                        continue;
                    }
                }
            }
            // SEE pruning: at shallow depth a move that loses more material in the exchange
            // on its square than the depth left can win back is skipped.
            if !N::PV
                && searched > 0
                && best > -MATE_BOUND
                && depth <= self.params().see_prune_depth
            {
                let margin = if tactical {
                    self.params().see_capture_margin * depth
                } else {
                    self.params().see_quiet_margin * depth * depth
                };
                if !self.board.see_ge(m, -margin) {
                    continue;
                }
            }
            let i = searched;
            searched += 1;
            let capture = if tactical { capture_key(&self.board, m) } else { 0 };
            // Step 8 (below) reduces late quiet moves; such a move's history is read before
            // the move is made.
            let reducible = depth >= self.params().lmr_depth
                && i >= self.params().lmr_moves as usize
                && !tactical
                && !in_check;
            let history = if reducible {
                let slot = threat_slot::<G>(threats, m);
                self.data.history.quiet_order::<G>(
                    side,
                    slot,
                    m,
                    piece_square(&self.board, m),
                    earlier,
                )
            } else {
                0
            };
            self.play(m, ply);
            self.shared.tt.prefetch(self.board.key());
            let gives_check = self.board.in_check();
            let extension = if m == tt_move && tt_extension != 0 {
                tt_extension
            } else {
                i32::from(gives_check)
            };
            let new_depth = depth - 1 + extension;
            self.data.stack[ply + 1].double_extensions =
                self.data.stack[ply].double_extensions + u8::from(extension >= 2);

            let score = if i == 0 {
                -self.negamax::<N>(-beta, -alpha, new_depth, ply + 1)
            } else {
                // Step 8. Late move reductions for quiet moves ordered late.
                let r = if reducible && !gives_check {
                    let p = self.params();
                    let r = self.lmr_base(depth, i) - i32::from(N::PV) + i32::from(!improving)
                        - history / p.lmr_history_divisor
                        + i32::from(self.data.stack[ply + 1].cutoffs > p.lmr_cutoffs as u32);
                    r.clamp(0, new_depth - 1)
                } else {
                    0
                };
                self.data.stack[ply].reduction = r;
                let mut s = -self.negamax::<NonPv>(-alpha - 1, -alpha, new_depth - r, ply + 1);
                self.data.stack[ply].reduction = 0;
                if s > alpha && r > 0 && !self.aborted {
                    s = -self.negamax::<NonPv>(-alpha - 1, -alpha, new_depth, ply + 1);
                }
                if N::PV && s > alpha && s < beta && !self.aborted {
                    s = -self.negamax::<Pv>(-beta, -alpha, new_depth, ply + 1);
                }
                s
            };
            self.take_back();
            if self.aborted {
                return DRAW;
            }

            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    if N::PV {
                        self.data.pv.update(ply, m);
                    }
                    if score >= beta {
                        self.data.stack[ply].cutoffs += 1;
                        let bonus = self.history_bonus(depth);
                        if tactical {
                            self.data.history.update_capture(capture, bonus, true);
                        } else {
                            self.reward_quiet(
                                m,
                                threats,
                                bonus,
                                ply,
                                earlier,
                                &quiets[..quiets_len],
                            );
                        }
                        // Every capture tried before the move that cut off failed here.
                        for &c in &captures[..captures_len] {
                            self.data.history.update_capture(c, bonus, false);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if tactical {
                if captures_len < MAX_CAPTURES {
                    captures[captures_len] = capture;
                    captures_len += 1;
                }
            } else if quiets_len < MAX_QUIETS {
                quiets[quiets_len] = m;
                quiets_len += 1;
            }
        }

        if singular_search {
            // Nothing but the excluded move: the other moves score no better than alpha.
            return if searched == 0 { alpha } else { best };
        }
        if ply == 1 {
            self.reply = best_move;
        }

        // Step 9. Store the result.
        let best = best.min(tb_cap);
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A score that rests on a repetition verdict in the subtree would be wrong when the
        // position is reached by another path: it is neither stored nor learned from.
        let stored_eval = if in_check { 0 } else { raw_eval };
        if !self.path_dependent {
            self.shared.tt.store(key, ply, best_move, best, stored_eval, depth, bound);
            // Correction history learns from scores that say something about the evaluation
            // of a quiet position: not after a capture (the evaluation never claimed to see
            // it), and only bounds on the informative side of the evaluation.
            let informative = match bound {
                Bound::Exact => true,
                Bound::Lower => best > eval,
                Bound::Upper => best < eval,
            };
            if !in_check
                && informative
                && best.abs() < MATE_BOUND
                && (best_move.is_none() || !self.board.is_tactical(best_move))
            {
                self.data.history.update_correction(
                    side,
                    self.board.pawn_key(),
                    self.correction_weight(depth),
                    best - eval,
                    self.params().correction_limit,
                );
            }
        }
        best
    }

    /// Quiescence search: only captures (all moves when in check), so that the static
    /// evaluation is taken in quiet positions.
    pub(super) fn quiescence(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
        self.ply_now = ply;
        self.count_node();
        if self.aborted {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let in_check = self.board.in_check();
        let mut best;
        if in_check {
            best = -INFINITE;
        } else {
            // Stand pat: the side to move may decline every capture.
            let raw = self.evaluate();
            best = self.corrected(raw);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let victim_weight = self.params().capture_victim_weight;
        let mut picker = Picker::quiescence(
            &mut self.data.moves[ply],
            &self.board,
            &self.data.history,
            in_check,
            victim_weight,
        );
        if in_check && picker.is_empty() {
            return self.board.no_move_score(ply);
        }
        while let Some(m) =
            picker.next_move(&mut self.data.moves[ply], &self.board, &self.data.history)
        {
            // A capture that loses material in the exchange on its square cannot raise the
            // stand-pat score: skip it (never when in check, where every move is an evasion), in
            // the games where that has shown a gain.
            if G::QS_SEE_PRUNING && !in_check && !self.board.see_ge(m, self.params().qs_see_margin)
            {
                continue;
            }
            self.play(m, ply);
            let score = -self.quiescence(-beta, -alpha, ply + 1);
            self.take_back();
            if self.aborted {
                return DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        best
    }

    /// The size of a history update after a cut-off at `depth`.
    #[inline]
    fn history_bonus(&self, depth: i32) -> i32 {
        let p = self.params();
        (p.history_slope * depth - p.history_offset).clamp(0, p.history_cap)
    }

    /// The weight (out of 256) of what a search at `depth` says about the evaluation.
    #[inline]
    fn correction_weight(&self, depth: i32) -> i32 {
        (depth + 1).min(self.params().correction_weight_max)
    }

    /// The static evaluation `raw` corrected by the correction history.
    #[inline]
    fn corrected(&self, raw: Score) -> Score {
        let side = self.board.side_to_move().index();
        let c = self.data.history.correction(side, self.board.pawn_key());
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// A quiet move cut off: it becomes a killer at `ply` and gains the history `bonus`, and
    /// the quiet moves tried before it (`tried`) lose as much, each in its threat slot of the
    /// node's `threats`.
    fn reward_quiet(
        &mut self,
        m: Move,
        threats: u128,
        bonus: i32,
        ply: usize,
        earlier: [usize; 2],
        tried: &[Move],
    ) {
        let k = &mut self.data.stack[ply].killers;
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let side = self.board.side_to_move().index();
        let history = &mut self.data.history;
        history.update_quiet(side, threat_slot::<G>(threats, m), m, bonus, true);
        history.update_continuation::<G>(piece_square(&self.board, m), earlier, bonus, true);
        for &q in tried {
            history.update_quiet(side, threat_slot::<G>(threats, q), q, bonus, false);
            history.update_continuation::<G>(piece_square(&self.board, q), earlier, bonus, false);
        }
    }

    /// The piece-squares of the moves one and two plies before `ply`, the keys of the
    /// continuation history ([`no_piece_square`] before the root and for a null move).
    #[inline]
    fn earlier_moves(&self, ply: usize) -> [usize; 2] {
        let at = |back: usize| {
            if ply < back {
                return no_piece_square::<G>();
            }
            let frame = &self.data.stack[ply - back];
            if frame.mv.is_none() {
                no_piece_square::<G>()
            } else {
                G::piece_square(frame.piece, frame.to)
            }
        };
        [at(1), at(2)]
    }
}
