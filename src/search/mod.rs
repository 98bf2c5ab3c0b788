//! The search, written once for every [`Game`].
//!
//! Iterative deepening over a principal-variation alpha-beta search with a quiescence search at
//! the leaves, a shared transposition table and the usual pruning. [`pool`] runs it on several
//! threads (Lazy SMP); [`time`] plans the clock; [`tt`] is the shared table.

pub mod pool;
pub mod time;
pub mod tt;

use crate::game::{DRAW, Game, INFINITE, MATE, MATE_BOUND, MAX_PLY, Move, MoveList, Score};
use crate::protocol::Eval;
use pool::Signals;
use tt::{Bound, Table};

/// Nodes between two looks at the clock and the stop flag (a power of two).
const CHECK_EVERY: u64 = 1024;
/// With UCCI `idle` on, a thread rests after searching at least this long.
const IDLE_SLICE: std::time::Duration = std::time::Duration::from_millis(10);
/// Depth from which the root search uses an aspiration window.
const ASPIRATION_DEPTH: i32 = 5;
/// Half-width of the first aspiration window, internal units.
const ASPIRATION_DELTA: Score = 30;
/// Reverse futility pruning: the deepest depth it applies at, and its margin per ply.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: Score = 90;
/// Null-move pruning: the shallowest depth it applies at, and its base reduction.
const NMP_DEPTH: i32 = 3;
const NMP_BASE: i32 = 3;
/// Late move reductions: the shallowest depth, and the number of moves searched in full first.
const LMR_DEPTH: i32 = 3;
const LMR_MOVES: usize = 3;
/// Ordering scores: the hash move first, then winning captures, killers, then quiet history.
const ORDER_HASH: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 28;
const ORDER_KILLER: i32 = 1 << 27;
/// History scores saturate here, so they never outrank killers.
const HISTORY_MAX: i32 = 1 << 20;

/// Converts an internal score to the protocol-neutral form for reports.
pub fn to_eval<G: Game>(score: Score) -> Eval {
    if score >= MATE_BOUND {
        Eval::Win((MATE - score) as u32)
    } else if score <= -MATE_BOUND {
        Eval::Loss((MATE + score) as u32)
    } else {
        Eval::Cp(score / G::UNITS_PER_CP)
    }
}

/// The result of one finished (or cleanly interrupted) iteration.
#[derive(Clone, Debug, Default)]
pub struct Line {
    /// Depth of the iteration.
    pub depth: i32,
    /// Score for the side to move at the root.
    pub score: Score,
    /// The principal variation; never empty once depth 1 has finished.
    pub pv: Vec<Move>,
}

/// A root move and what the iterations learned about it.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its score in the iteration in progress: `-INFINITE` once it fails low; a move not yet
    /// searched again keeps its last score (a fail-high bound survives a stop).
    pub score: Score,
    /// Its score in the last completed iteration.
    pub prev_score: Score,
    /// Its principal variation, starting with the move itself.
    pub pv: Vec<Move>,
    /// The opponent's best reply found to it (its refutation when it is not the best move).
    pub reply: Move,
}

impl RootMove {
    fn new(mv: Move) -> Self {
        RootMove { mv, score: -INFINITE, prev_score: -INFINITE, pv: vec![mv], reply: Move::NONE }
    }
}

/// The main thread's periodic callback, given the line being searched.
pub type OnCheck<'a> = dyn Fn(&[Move]) + 'a;

/// One search thread's state.
pub struct Worker<'a, G: Game> {
    /// The board, made and unmade as the search walks the tree.
    pub board: G,
    tt: &'a Table,
    signals: &'a Signals,
    /// This thread's index; 0 is the main thread, which reports and keeps the clock.
    pub id: usize,
    /// Nodes visited by this thread.
    pub nodes: u64,
    /// Deepest ply reached in the current iteration.
    pub seldepth: usize,
    /// Root moves in their current order (best first after each iteration).
    pub root_moves: Vec<RootMove>,
    /// How many best lines to find (MultiPV).
    multipv: usize,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Set once the search must unwind; scores computed after it are garbage.
    aborted: bool,
    /// The iteration in progress; depth 1 always completes, so there is always a move.
    depth_in_progress: i32,
    /// Called on the main thread at every clock check with the line being searched.
    on_check: Option<&'a OnCheck<'a>>,
    /// The moves from the root to the node being searched.
    line: [Move; MAX_PLY + 1],
    /// The ply of the node being searched.
    ply_now: usize,
    /// The best reply found at ply 1, recorded for the root move above it.
    reply: Move,
    /// When this thread last rested (UCCI `idle`).
    busy_since: std::time::Instant,
    /// Set when a score below the current node came from a rule verdict that depends on the
    /// path (who checked or chased in a repetition cycle).
    path_dependent: bool,
}

impl<'a, G: Game> Worker<'a, G> {
    /// A worker searching `board` restricted to `root_moves`.
    pub fn new(
        board: G,
        root_moves: Vec<Move>,
        tt: &'a Table,
        signals: &'a Signals,
        id: usize,
    ) -> Self {
        Worker {
            board,
            tt,
            signals,
            id,
            nodes: 0,
            seldepth: 0,
            root_moves: root_moves.into_iter().map(RootMove::new).collect(),
            multipv: 1,
            killers: vec![[Move::NONE; 2]; MAX_PLY + 1],
            history: vec![0; 2 * Move::INDEX_SPACE],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            aborted: false,
            depth_in_progress: 0,
            on_check: None,
            line: [Move::NONE; MAX_PLY + 1],
            ply_now: 0,
            reply: Move::NONE,
            busy_since: std::time::Instant::now(),
            path_dependent: false,
        }
    }

    /// A draw `ply` plies from the root, with contempt: worse for the root's side to move.
    #[inline]
    fn draw_score(&self, ply: usize) -> Score {
        let c = self.signals.contempt;
        if ply.is_multiple_of(2) { -c } else { c }
    }

    /// Searches for the `n` best lines instead of one.
    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }

    /// Installs the main thread's periodic callback.
    pub fn set_on_check(&mut self, f: &'a OnCheck<'a>) {
        self.on_check = Some(f);
    }

    /// True when the last iteration was cut short.
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Publishes the node count and decides whether to stop.
    fn check_stop(&mut self) {
        self.signals.publish_nodes(self.id, self.nodes);
        if self.depth_in_progress <= 1 {
            return;
        }
        if self.signals.should_stop(self.id) {
            self.aborted = true;
            return;
        }
        if let Some(f) = self.on_check {
            f(&self.line[..self.ply_now]);
        }
        if self.signals.idle > 0 {
            let busy = self.busy_since.elapsed();
            if busy >= IDLE_SLICE {
                self.signals.rest(busy.as_millis() as u64);
                self.busy_since = std::time::Instant::now();
            }
        }
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & (CHECK_EVERY - 1) == 0 || self.signals.node_limited(self.id, self.nodes) {
            self.check_stop();
        }
    }

    /// Searches one iteration at the root over `root_moves[pv_idx..]` with the window
    /// `(alpha, beta)`. Returns the best score and leaves those moves sorted best first.
    pub fn root(&mut self, depth: i32, mut alpha: Score, beta: Score, pv_idx: usize) -> Score {
        self.depth_in_progress = depth;
        let mut best = -INFINITE;
        // A move keeps its last score until it is searched again: when a stop cuts a re-search
        // short, the move that just failed high stays first with its bound, not with -INFINITE.
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if self.id == 0 {
                self.signals.set_currmove(m, i + 1);
            }
            self.line[0] = m;
            self.reply = Move::NONE;
            self.board.make(m);
            let extension = i32::from(self.board.in_check());
            let new_depth = depth - 1 + extension;
            let score = if i == pv_idx {
                -self.negamax(-beta, -alpha, new_depth, 1, true, true)
            } else {
                let mut s = -self.negamax(-alpha - 1, -alpha, new_depth, 1, false, true);
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(-beta, -alpha, new_depth, 1, true, true);
                }
                s
            };
            self.board.unmake();
            if self.aborted {
                break;
            }
            let reply = self.reply;
            let child_pv = &self.pv[1][..self.pv_len[1]];
            let rm = &mut self.root_moves[i];
            rm.reply = reply;
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(child_pv);
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

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = if ply < MAX_PLY { self.pv_len[ply + 1] } else { 0 };
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = m;
        let n = child_len.min(MAX_PLY);
        if n > 0 {
            head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        }
        self.pv_len[ply] = n + 1;
    }

    /// The main alpha-beta search (negamax, principal variation search). Wraps
    /// [`Worker::node`] to keep track of whether its score rests on a path-dependent verdict.
    fn negamax(
        &mut self,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        pv_node: bool,
        null_ok: bool,
    ) -> Score {
        let outer = std::mem::take(&mut self.path_dependent);
        let score = self.node(alpha, beta, depth, ply, pv_node, null_ok);
        self.path_dependent |= outer;
        score
    }

    /// One node of [`Worker::negamax`].
    fn node(
        &mut self,
        mut alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        pv_node: bool,
        null_ok: bool,
    ) -> Score {
        self.pv_len[ply] = 0;
        self.ply_now = ply;

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
            return self.board.evaluate();
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

        // Step 3. Transposition table: cut off on a deep enough bound outside PV nodes.
        let key = self.board.key();
        let hit = self.tt.probe(key, ply);
        let mut tt_move = Move::NONE;
        if let Some(h) = hit {
            if !h.mv.is_none() && self.board.is_legal(h.mv) {
                tt_move = h.mv;
            }
            if !pv_node && h.depth >= depth {
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

        let in_check = self.board.in_check();
        let eval = if in_check {
            -INFINITE
        } else {
            match hit {
                Some(h) if h.eval.abs() < MATE_BOUND => h.eval,
                _ => self.board.evaluate(),
            }
        };

        if !pv_node && !in_check {
            // Step 4. Reverse futility pruning: far above beta with little depth left.
            if depth <= RFP_DEPTH && eval - RFP_MARGIN * depth >= beta && beta.abs() < MATE_BOUND {
                return eval;
            }

            // Step 5. Null move: if passing still fails high, a real move surely would.
            if null_ok
                && depth >= NMP_DEPTH
                && eval >= beta
                && beta.abs() < MATE_BOUND
                && self.board.has_null_material()
            {
                let r = NMP_BASE + depth / 4;
                self.board.make_null();
                let score = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, false, false);
                self.board.unmake_null();
                if self.aborted {
                    return DRAW;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Step 6. Move generation and ordering.
        let mut list = MoveList::new();
        self.board.legal_moves(&mut list);
        if list.is_empty() {
            return self.board.no_move_score(ply);
        }
        let mut scores = [0i32; crate::game::MAX_MOVES];
        self.score_moves(&list, &mut scores, tt_move, ply);

        // Step 7. The move loop.
        let side = self.board.side_to_move().index();
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let n = list.len();
        for i in 0..n {
            let m = pick(&mut list, &mut scores, i);
            let tactical = self.board.is_tactical(m);
            self.line[ply] = m;
            self.board.make(m);
            let gives_check = self.board.in_check();
            let new_depth = depth - 1 + i32::from(gives_check);

            let score = if i == 0 {
                -self.negamax(-beta, -alpha, new_depth, ply + 1, pv_node, true)
            } else {
                // Step 8. Late move reductions for quiet moves ordered late.
                let reduce =
                    depth >= LMR_DEPTH && i >= LMR_MOVES && !tactical && !in_check && !gives_check;
                let r = if reduce {
                    (1 + i32::from(i > 8) + depth / 8 - i32::from(pv_node)).max(0)
                } else {
                    0
                };
                let mut s = -self.negamax(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
                if s > alpha && r > 0 && !self.aborted {
                    s = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, false, true);
                }
                if s > alpha && s < beta && pv_node && !self.aborted {
                    s = -self.negamax(-beta, -alpha, new_depth, ply + 1, true, true);
                }
                s
            };
            self.board.unmake();
            if self.aborted {
                return DRAW;
            }

            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !tactical {
                            self.reward_quiet(m, side, depth, ply);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
        }

        if ply == 1 {
            self.reply = best_move;
        }

        // Step 9. Store the result.
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A score that rests on a repetition verdict in the subtree would be wrong when the
        // position is reached by another path: it is not stored.
        let stored_eval = if in_check { 0 } else { eval };
        if !self.path_dependent {
            self.tt.store(key, ply, best_move, best, stored_eval, depth, bound);
        }
        best
    }

    /// Quiescence search: only captures (all moves when in check), so that the static
    /// evaluation is taken in quiet positions.
    fn quiescence(&mut self, mut alpha: Score, beta: Score, ply: usize) -> Score {
        self.ply_now = ply;
        self.count_node();
        if self.aborted {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.board.evaluate();
        }
        let in_check = self.board.in_check();
        let mut list = MoveList::new();
        let mut best;
        if in_check {
            self.board.legal_moves(&mut list);
            if list.is_empty() {
                return self.board.no_move_score(ply);
            }
            best = -INFINITE;
        } else {
            best = self.board.evaluate();
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            self.board.legal_captures(&mut list);
        }
        let mut scores = [0i32; crate::game::MAX_MOVES];
        for (i, &m) in list.iter().enumerate() {
            scores[i] = self.board.mvv_lva(m);
        }
        for i in 0..list.len() {
            let m = pick(&mut list, &mut scores, i);
            self.line[ply] = m;
            self.board.make(m);
            let score = -self.quiescence(-beta, -alpha, ply + 1);
            self.board.unmake();
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

    fn score_moves(&self, list: &MoveList, scores: &mut [i32], tt_move: Move, ply: usize) {
        let side = self.board.side_to_move().index();
        let killers = self.killers[ply];
        for (i, &m) in list.iter().enumerate() {
            scores[i] = if m == tt_move {
                ORDER_HASH
            } else if self.board.is_tactical(m) {
                ORDER_CAPTURE + self.board.mvv_lva(m)
            } else if m == killers[0] || m == killers[1] {
                ORDER_KILLER
            } else {
                self.history[side * Move::INDEX_SPACE + m.index()]
            };
        }
    }

    fn reward_quiet(&mut self, m: Move, side: usize, depth: i32, ply: usize) {
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        let h = &mut self.history[side * Move::INDEX_SPACE + m.index()];
        *h = (*h + depth * depth).min(HISTORY_MAX);
    }

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
            if self.id > 0 && depth > 1 && (depth + self.id as i32) % 4 == 0 {
                continue;
            }
            let lines = self.multipv.min(self.root_moves.len());
            for pv_idx in 0..lines {
                let mut delta = ASPIRATION_DELTA;
                let centre = self.root_moves[pv_idx].prev_score;
                let (mut alpha, mut beta) =
                    if depth >= ASPIRATION_DEPTH && centre.abs() < MATE_BOUND {
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
            if self.signals.iteration_done(self.id, depth, self.root_moves[0].score) {
                break;
            }
        }
        let best = &self.root_moves[0];
        let score = if best.score > -INFINITE { best.score } else { best.prev_score };
        Line { depth: completed, score, pv: best.pv.clone() }
    }
}

/// Selection sort step: brings the best-scored remaining move to index `i` and returns it.
#[inline]
fn pick(list: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
    let moves = list.as_mut_slice();
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    moves[i]
}
