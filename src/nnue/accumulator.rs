//! The accumulators: each side's first-layer sums, kept move by move beside the board.
//!
//! Updates are lazy: a push records what the move changes and computes nothing; an
//! evaluation walks back to the last position whose sums are known and applies the changes
//! from there. Nodes that are cut before they evaluate (by the table, a rule, a
//! mate-distance bound) never pay for their move.

use super::network::{Layout, Network};
use super::simd;
use crate::game::{Changes, Game, MAX_PLY, Move, Score, Side};
use std::sync::Arc;

/// Room beyond [`MAX_PLY`] for null moves and quiescence lines past the nominal depth.
const STACK_SLACK: usize = 64;

/// The output of `net` for `board`, computed from scratch without a stack: for tools and
/// tests, and the reference the incremental sums must reproduce.
pub fn evaluate_fresh<G: Game>(net: &Network, board: &G) -> Score {
    let mut white = vec![0; net.hidden];
    let mut black = vec![0; net.hidden];
    let bucket = net.bucket(fill(net, board, &mut white, &mut black));
    match board.side_to_move() {
        Side::First => simd::output(net, &white, &black, bucket),
        Side::Second => simd::output(net, &black, &white, bucket),
    }
}

/// Computes both sides' sums of `board` from scratch into `white` and `black`, and returns
/// the number of pieces.
fn fill<G: Game>(net: &Network, board: &G, white: &mut [i16], black: &mut [i16]) -> u32 {
    let h = net.hidden;
    let layout = Layout::of::<G>();
    white.copy_from_slice(&net.ft_bias);
    black.copy_from_slice(&net.ft_bias);
    let w = &net.ft_weights;
    let mut pieces = 0;
    board.for_each_piece(|piece, sq| {
        let f = layout.feature(piece, sq, Side::First);
        simd::add(white, &w[f * h..(f + 1) * h]);
        let f = layout.feature(piece, sq, Side::Second);
        simd::add(black, &w[f * h..(f + 1) * h]);
        pieces += 1;
    });
    pieces
}

/// What one push did: the pieces its move changed, whether the sums are computed, and the
/// number of pieces on the board after it (which picks the output bucket).
#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    changes: Changes,
    computed: bool,
    pieces: u8,
}

/// Both sides' accumulators for every position of the current line.
#[derive(Clone)]
pub struct Accumulators {
    net: Arc<Network>,
    layout: Layout,
    /// `2 * hidden` values per position: white's (red's) view, then black's.
    sums: Vec<i16>,
    entries: Vec<Entry>,
    /// The index of the current position.
    top: usize,
}

impl Accumulators {
    /// The accumulators of `board` under `net`.
    pub fn new<G: Game>(net: Arc<Network>, board: &G) -> Accumulators {
        let h = net.hidden;
        let size = MAX_PLY + STACK_SLACK;
        let mut acc = Accumulators {
            layout: Layout::of::<G>(),
            sums: vec![0; size * 2 * h],
            entries: vec![Entry::default(); size],
            top: 0,
            net,
        };
        acc.refresh(board);
        acc
    }

    /// The network in use.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Computes the sums of `board` from scratch as the only position.
    pub fn refresh<G: Game>(&mut self, board: &G) {
        self.top = 0;
        let h = self.net.hidden;
        let (white, black) = self.sums[..2 * h].split_at_mut(h);
        let pieces = fill(&self.net, board, white, black) as u8;
        self.entries[0] = Entry { changes: Changes::default(), computed: true, pieces };
    }

    /// Records `m`, about to be played on `board`.
    #[inline]
    pub fn push<G: Game>(&mut self, board: &G, m: Move) {
        self.push_changes(board.changes(m));
    }

    /// Records a null move.
    #[inline]
    pub fn push_null(&mut self) {
        self.push_changes(Changes::default());
    }

    #[inline]
    fn push_changes(&mut self, changes: Changes) {
        self.top += 1;
        if self.top >= self.entries.len() {
            // Past the deepest line the search can reach; keep going rather than fail.
            self.entries.resize(self.top + 1, Entry::default());
            self.sums.resize((self.top + 1) * 2 * self.net.hidden, 0);
        }
        let before = self.entries[self.top - 1].pieces;
        // A capture removes one more piece than it adds; a promotion swaps one for another.
        let pieces =
            (before + changes.added().len() as u8).saturating_sub(changes.removed().len() as u8);
        self.entries[self.top] = Entry { changes, computed: false, pieces };
    }

    /// Forgets the last push.
    #[inline]
    pub fn pop(&mut self) {
        debug_assert!(self.top > 0, "pop without a push");
        self.top = self.top.saturating_sub(1);
    }

    /// The network's output for the current position, `side` to move, in internal units.
    #[inline]
    pub fn evaluate(&mut self, side: Side) -> Score {
        self.update();
        let h = self.net.hidden;
        let at = self.top * 2 * h;
        let (white, black) = self.sums[at..at + 2 * h].split_at(h);
        let (us, them) = match side {
            Side::First => (white, black),
            Side::Second => (black, white),
        };
        simd::output(&self.net, us, them, self.net.bucket(u32::from(self.entries[self.top].pieces)))
    }

    /// Brings the current position's sums up to date from the last computed ancestor.
    fn update(&mut self) {
        if self.entries[self.top].computed {
            return;
        }
        let mut from = self.top;
        while !self.entries[from].computed {
            from -= 1;
        }
        let h = self.net.hidden;
        let w = &self.net.ft_weights;
        let layout = self.layout;
        for i in from + 1..=self.top {
            let changes = self.entries[i].changes;
            let (before, after) = self.sums.split_at_mut(i * 2 * h);
            let parent = &before[(i - 1) * 2 * h..];
            let child = &mut after[..2 * h];
            for (view, side) in [(0, Side::First), (1, Side::Second)] {
                let mut add = [0usize; 2];
                let mut sub = [0usize; 2];
                let added = changes.added();
                let removed = changes.removed();
                for (k, &(p, sq)) in added.iter().enumerate() {
                    add[k] = layout.feature(usize::from(p), usize::from(sq), side);
                }
                for (k, &(p, sq)) in removed.iter().enumerate() {
                    sub[k] = layout.feature(usize::from(p), usize::from(sq), side);
                }
                let row = |f: usize| &w[f * h..(f + 1) * h];
                let src = &parent[view * h..(view + 1) * h];
                let dst = &mut child[view * h..(view + 1) * h];
                match (added.len(), removed.len()) {
                    (0, 0) => dst.copy_from_slice(src),
                    (1, 1) => simd::add_sub(dst, src, row(add[0]), row(sub[0])),
                    (1, 2) => simd::add_sub2(dst, src, row(add[0]), row(sub[0]), row(sub[1])),
                    _ => {
                        dst.copy_from_slice(src);
                        for &f in &add[..added.len()] {
                            simd::add(dst, row(f));
                        }
                        for &f in &sub[..removed.len()] {
                            simd::sub(dst, row(f));
                        }
                    }
                }
            }
            self.entries[i].computed = true;
        }
    }
}
