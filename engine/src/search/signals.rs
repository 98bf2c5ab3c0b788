//! The search's switchboard: flags set from outside (`stop`, `ponderhit`), the limits of one
//! `go`, and the node counters of every thread. The controller holds it while the search runs
//! and never waits for the search to notice a flag.

use super::time::Budget;
use crate::command::Limits;
use crate::game::{MATE, MATE_BOUND, MAX_PLY, Move};
use parking_lot::{Condvar, Mutex};
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64};
use std::time::Instant;

/// How long depth 1 is protected from a stop (ms): it takes far less in any sane position.
const DEPTH_ONE_GRACE_MS: u64 = 100;

/// A node counter on its own cache line, so threads do not share lines while counting.
#[repr(align(64))]
#[derive(Default)]
struct Counter(AtomicU64);

/// The search's switchboard: flags set from outside, limits, and counters.
pub struct Signals {
    stop: AtomicBool,
    halted: AtomicBool,
    pondering: AtomicBool,
    /// `go infinite`, or a `go` without limits: the answer waits for `stop`, even when the
    /// search ends by itself (no legal move, the deepest depth reached in a bare position).
    infinite: bool,
    start: Instant,
    budget: Budget,
    node_limit: Option<u64>,
    /// Past this many nodes, start no new iteration (training-data generation).
    soft_node_limit: Option<u64>,
    pub(super) max_depth: i32,
    mate_limit: Option<u32>,
    nodes: Vec<Counter>,
    pub(super) currmove: AtomicU32,
    pub(super) currmove_number: AtomicU32,
    tbhits: AtomicU64,
    draw_offer: AtomicBool,
    answered: AtomicBool,
    /// Wakes a finished search waiting to answer (pondering, infinite) when `stop` or
    /// `ponderhit` arrives; the mutex orders the flag's change before the wait's check.
    answerable: Condvar,
    gate: Mutex<()>,
}

impl Signals {
    /// True for `go mate`: a search for a proof, which must not assume that the side to move
    /// could pass (chess problems turn on zugzwang, where passing is exactly what it cannot do).
    pub fn proof_search(&self) -> bool {
        self.mate_limit.is_some()
    }

    /// Signals for a search with these limits.
    pub fn new(limits: &Limits, budget: Budget, threads: usize) -> Self {
        let max_depth = match (limits.depth, limits.mate) {
            (Some(d), _) => d.clamp(1, MAX_PLY as u32 - 1) as i32,
            (None, Some(m)) => {
                (m.saturating_mul(2).saturating_add(1)).min(MAX_PLY as u32 - 1) as i32
            }
            _ => MAX_PLY as i32 - 1,
        };
        Signals {
            stop: AtomicBool::new(false),
            halted: AtomicBool::new(false),
            pondering: AtomicBool::new(limits.ponder),
            // Not `limits.infinite` alone: a bare `go` (or `go ponder` after `ponderhit`) has no
            // natural end either, and answering it early would break the one-answer-after-stop
            // promise whenever its search happens to finish.
            infinite: limits.is_unbounded(),
            start: Instant::now(),
            budget,
            node_limit: limits.nodes,
            soft_node_limit: None,
            max_depth,
            mate_limit: limits.mate,
            nodes: (0..threads.max(1)).map(|_| Counter::default()).collect(),
            currmove: AtomicU32::new(0),
            currmove_number: AtomicU32::new(0),
            tbhits: AtomicU64::new(0),
            draw_offer: AtomicBool::new(limits.draw_offer),
            answered: AtomicBool::new(false),
            answerable: Condvar::new(),
            gate: Mutex::new(()),
        }
    }

    /// Lowers the node limit to `nodes` (a weakened level's budget); `go nodes` may lower it
    /// further. Unlike a node limit from `go`, this does not make an unbounded search
    /// answer by itself: `go infinite` still waits for `stop`.
    pub fn cap_nodes(&mut self, nodes: u64) {
        self.node_limit = Some(self.node_limit.map_or(nodes, |n| n.min(nodes)));
    }

    /// Lowers the deepest iteration to `depth` (a weakened level's horizon); `go depth` may
    /// lower it further.
    pub fn cap_depth(&mut self, depth: i32) {
        self.max_depth = self.max_depth.min(depth.max(1));
    }

    /// Starts no new iteration once the main thread has searched `nodes` nodes: a budget
    /// that spends about the same effort on every move while finishing the iteration it is in.
    pub fn set_soft_nodes(&mut self, nodes: u64) {
        self.soft_node_limit = Some(nodes);
    }

    /// Counts a tablebase probe that answered.
    #[inline]
    pub fn tbhit(&self) {
        self.tbhits.fetch_add(1, Relaxed);
    }

    /// Tablebase probes that answered, over every thread.
    pub fn tbhits(&self) -> u64 {
        self.tbhits.load(Relaxed)
    }

    /// Asks the search to stop and answer (`stop`, `quit`, end of input).
    pub fn stop(&self) {
        self.stop.store(true, Relaxed);
        self.wake();
    }

    /// Wakes [`Signals::wait_until_answerable`] to look again. Taking the gate orders the
    /// change of flag before the waiter's next look: it either saw the flag or is waiting.
    fn wake(&self) {
        let _gate = self.gate.lock();
        self.answerable.notify_all();
    }

    /// True once a stop was asked for from outside.
    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    /// Ends the search from inside (a limit was reached, or the main thread finished). Unlike
    /// [`Signals::stop`], this does not release an answer held back by pondering or `infinite`.
    pub(super) fn halt(&self) {
        self.halted.store(true, Relaxed);
    }

    /// True when every thread should unwind.
    fn over(&self) -> bool {
        self.stopped() || self.halted.load(Relaxed)
    }

    /// The predicted move was played: the search goes on as a timed one. As in Stockfish, the
    /// time spent pondering on the move that was played counts: the clock ran from `go`, so a
    /// plan already used up answers at once. A `ponderhit` for a search that does not ponder
    /// changes nothing. `draw_offer`: the opponent offers a draw with it (UCCI `ponderhit draw`).
    pub fn ponderhit(&self, draw_offer: bool) {
        if !self.pondering() {
            return;
        }
        if draw_offer {
            self.draw_offer.store(true, Relaxed);
        }
        self.pondering.store(false, Relaxed);
        if self.budget.soft.is_some_and(|s| self.elapsed_ms() >= s) {
            self.halt();
        }
        self.wake();
    }

    /// Marks the search as answered: called just before its `bestmove` is written, so that a
    /// command the GUI sends in reply is never taken for this search.
    pub fn mark_answered(&self) {
        self.answered.store(true, Release);
    }

    /// True once the search has given (or is giving) its answer.
    pub fn answered(&self) -> bool {
        self.answered.load(Acquire)
    }

    /// True when the opponent offered a draw (`go draw`, `ponderhit draw`).
    pub fn draw_offered(&self) -> bool {
        self.draw_offer.load(Relaxed)
    }

    /// True while pondering.
    pub fn pondering(&self) -> bool {
        self.pondering.load(Relaxed)
    }

    /// Milliseconds since the search began.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Milliseconds on the clock: since `go`, pondering included.
    fn clock_ms(&self) -> u64 {
        self.elapsed_ms()
    }

    /// All threads' nodes.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|c| c.0.load(Relaxed)).sum()
    }

    pub(super) fn publish_nodes(&self, id: usize, nodes: u64) {
        if let Some(c) = self.nodes.get(id) {
            c.0.store(nodes, Relaxed);
        }
    }

    /// True while depth 1 may not be cut short: for the first [`DEPTH_ONE_GRACE_MS`] of the
    /// search, and never beyond the hard time limit.
    pub(super) fn depth_one_protected(&self) -> bool {
        let grace = self.budget.hard.map_or(DEPTH_ONE_GRACE_MS, |h| h.min(DEPTH_ONE_GRACE_MS));
        self.elapsed_ms() < grace
    }

    /// True when thread `id` should look at the limits now (the node limit is exact).
    #[inline]
    pub(super) fn node_limited(&self, id: usize, nodes: u64) -> bool {
        id == 0 && self.node_limit.is_some_and(|limit| nodes >= limit)
    }

    /// Decides, on the main thread, whether the hard limits are reached; every thread obeys.
    pub(super) fn should_stop(&self, id: usize) -> bool {
        if id == 0 && !self.over() {
            let out_of_time =
                !self.pondering() && self.budget.hard.is_some_and(|h| self.clock_ms() >= h);
            let out_of_nodes = self.node_limit.is_some_and(|l| self.total_nodes() >= l);
            if out_of_time || out_of_nodes {
                self.halt();
            }
        }
        self.over()
    }

    pub(super) fn set_currmove(&self, m: Move, number: usize) {
        self.currmove.store(m.raw() as u32, Relaxed);
        self.currmove_number.store(number as u32, Relaxed);
    }

    /// After an iteration: true when thread `id` should not start another one.
    pub(super) fn iteration_done(&self, id: usize, depth: i32, score: i32, nodes: u64) -> bool {
        if self.over() || depth >= self.max_depth {
            return true;
        }
        if id != 0 {
            return false;
        }
        if self.soft_node_limit.is_some_and(|soft| nodes >= soft) {
            return true;
        }
        // `go mate n`: a mate in at most n moves (2n - 1 plies) is what was asked for.
        if let Some(m) = self.mate_limit
            && score >= MATE_BOUND
            && i64::from(MATE - score) < 2 * i64::from(m)
        {
            return true;
        }
        !self.pondering() && self.budget.soft.is_some_and(|s| self.clock_ms() >= s)
    }

    /// Blocks until the search may answer: UCI forbids a `bestmove` while pondering or in an
    /// infinite search before `stop` (or `ponderhit`).
    pub fn wait_until_answerable(&self) {
        let mut gate = self.gate.lock();
        while !self.stopped() && (self.pondering() || self.infinite) {
            self.answerable.wait(&mut gate);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A finished infinite search waits for `stop` and wakes as soon as it comes: the
    /// condition variable is told, the waiter does not poll.
    #[test]
    fn a_waiting_answer_wakes_on_stop_and_on_ponderhit() {
        let infinite = Limits { infinite: true, ..Default::default() };
        let ponder = Limits { ponder: true, movetime: Some(1000), ..Default::default() };
        for (limits, release) in
            [(infinite, Signals::stop as fn(&Signals)), (ponder, |s: &Signals| s.ponderhit(false))]
        {
            let s = std::sync::Arc::new(Signals::new(&limits, Budget::default(), 1));
            let (tx, rx) = crossbeam_channel::bounded(1);
            let waiter = {
                let s = s.clone();
                std::thread::spawn(move || {
                    s.wait_until_answerable();
                    let _ = tx.send(());
                })
            };
            // Still waiting a while later: nothing released it.
            assert!(rx.recv_timeout(std::time::Duration::from_millis(50)).is_err());
            release(&s);
            assert!(rx.recv_timeout(std::time::Duration::from_secs(10)).is_ok());
            waiter.join().expect("the waiter ends");
        }
    }

    /// Numbers from input never overflow: the largest `go mate` and `go depth` are clamped.
    #[test]
    fn extreme_limits_are_clamped() {
        let mate = Limits { mate: Some(u32::MAX), ..Default::default() };
        let s = Signals::new(&mate, Budget::default(), 1);
        assert_eq!(s.max_depth, MAX_PLY as i32 - 1);
        // A mate found is "within n moves" for any n this large.
        assert!(s.iteration_done(0, 3, MATE - 5, 0));
        let depth = Limits { depth: Some(u32::MAX), ..Default::default() };
        assert_eq!(Signals::new(&depth, Budget::default(), 1).max_depth, MAX_PLY as i32 - 1);
    }

    /// A skill's horizon and `go depth` bound the search together: the shallower one holds.
    #[test]
    fn a_depth_cap_keeps_the_shallower_limit() {
        let mut s =
            Signals::new(&Limits { depth: Some(5), ..Default::default() }, Budget::default(), 1);
        s.cap_depth(8);
        assert_eq!(s.max_depth, 5);
        s.cap_depth(1);
        assert_eq!(s.max_depth, 1);
        let mut open = Signals::new(&Limits::default(), Budget::default(), 1);
        open.cap_depth(0);
        assert_eq!(open.max_depth, 1, "at least one iteration, so there is always an answer");
    }
}
