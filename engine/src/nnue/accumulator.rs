//! The accumulators: each side's first-layer sums, kept move by move beside the board.
//!
//! Updates are lazy: a push records what the move changes and computes nothing; an
//! evaluation walks back to the last position whose sums are known and applies the changes
//! from there. Nodes that are cut before they evaluate (by the table, a rule, a
//! mate-distance bound) never pay for their move.

use super::network::{InputMap, Layout, Network};
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
    let (pieces, _) = fill(net, board, &mut white, &mut black);
    let bucket = net.bucket(pieces);
    match board.side_to_move() {
        Side::First => simd::output(net, &white, &black, bucket),
        Side::Second => simd::output(net, &black, &white, bucket),
    }
}

/// The squares of both sides' kings on `board` (0 for a missing one).
fn kings<G: Game>(board: &G, layout: &Layout) -> [u8; 2] {
    let mut kings = [0; 2];
    board.for_each_piece(|piece, sq| {
        for side in [Side::First, Side::Second] {
            if piece == layout.king(side) {
                kings[side.index()] = sq as u8;
            }
        }
    });
    kings
}

/// Calls `f(piece, square)` for every piece of `board` as it stands once `changes` are made.
fn for_each_after<G: Game>(board: &G, changes: &Changes, mut f: impl FnMut(usize, usize)) {
    board.for_each_piece(|piece, sq| {
        let gone =
            changes.removed().iter().any(|&(p, s)| (usize::from(p), usize::from(s)) == (piece, sq));
        if !gone {
            f(piece, sq);
        }
    });
    for &(piece, sq) in changes.added() {
        f(usize::from(piece), usize::from(sq));
    }
}

/// Computes `side`'s sums from scratch into `out`, for `board` once `changes` are made with
/// `side`'s king on `king`, and returns the number of pieces.
fn fill_view<G: Game>(
    net: &Network,
    layout: &Layout,
    (board, changes): (&G, &Changes),
    (side, king): (Side, u8),
    out: &mut [i16],
) -> u32 {
    let h = net.hidden;
    out.copy_from_slice(&net.ft_bias);
    let view = net.view(layout, side, usize::from(king));
    let mut pieces = 0;
    for_each_after(board, changes, |piece, sq| {
        let f = layout.feature_in(piece, sq, side, view);
        simd::add(out, &net.ft_weights[f * h..(f + 1) * h]);
        pieces += 1;
    });
    pieces
}

/// Computes both sides' sums of `board` from scratch into `white` and `black`, and returns
/// the number of pieces and the kings' squares.
fn fill<G: Game>(net: &Network, board: &G, white: &mut [i16], black: &mut [i16]) -> (u32, [u8; 2]) {
    let layout = Layout::of::<G>();
    let kings = kings(board, &layout);
    let none = Changes::default();
    fill_view(net, &layout, (board, &none), (Side::First, kings[0]), white);
    let pieces = fill_view(net, &layout, (board, &none), (Side::Second, kings[1]), black);
    (pieces, kings)
}

/// What one push did: the pieces its move changed, whether each side's sums are computed,
/// the number of pieces on the board after it (which picks the output bucket), and where the
/// kings stand (which, with a king map, decides how each side sees the board).
#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    changes: Changes,
    computed: [bool; 2],
    pieces: u8,
    kings: [u8; 2],
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
        let (pieces, kings) = fill(&self.net, board, white, black);
        let computed = [true; 2];
        self.entries[0] =
            Entry { changes: Changes::default(), computed, pieces: pieces as u8, kings };
    }

    /// Records `m`, about to be played on `board`.
    #[inline]
    pub fn push<G: Game>(&mut self, board: &G, m: Move) {
        let changes = board.changes(m);
        self.push_changes(changes);
        if self.net.input_map != InputMap::Plain {
            self.follow_kings(board, &changes);
        }
    }

    /// Moves the kings of the entry just pushed for `changes`, about to be made on `board`;
    /// a side whose king crosses to the other half of the board or into another king bucket
    /// sees it another way, so its sums are computed from scratch at once (the lazy update
    /// can only add and remove rows within one view of the board, and later it would no longer
    /// have this board).
    fn follow_kings<G: Game>(&mut self, board: &G, changes: &Changes) {
        let top = self.top;
        let before = self.entries[top - 1].kings;
        let mut kings = before;
        for &(piece, sq) in changes.added() {
            for side in [Side::First, Side::Second] {
                if usize::from(piece) == self.layout.king(side) {
                    kings[side.index()] = sq;
                }
            }
        }
        self.entries[top].kings = kings;
        let h = self.net.hidden;
        for side in [Side::First, Side::Second] {
            let v = side.index();
            let was = self.net.view(&self.layout, side, usize::from(before[v]));
            if was != self.net.view(&self.layout, side, usize::from(kings[v])) {
                let out = &mut self.sums[(2 * top + v) * h..(2 * top + v + 1) * h];
                fill_view(&self.net, &self.layout, (board, changes), (side, kings[v]), out);
                self.entries[top].computed[v] = true;
            }
        }
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
        let parent = self.entries[self.top - 1];
        // A capture removes one more piece than it adds; a promotion swaps one for another.
        let pieces = (parent.pieces + changes.added().len() as u8)
            .saturating_sub(changes.removed().len() as u8);
        let kings = parent.kings;
        self.entries[self.top] = Entry { changes, computed: [false; 2], pieces, kings };
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

    /// Brings the current position's sums up to date, each side's from its last computed
    /// ancestor, both sides in one walk down the line (usually both were computed at the same
    /// ancestor; one walk halves the bookkeeping of a walk per side).
    fn update(&mut self) {
        let top = self.top;
        if self.entries[top].computed == [true; 2] {
            return;
        }
        // Each side's last computed ancestor: the first position of the stack always is.
        let mut from = [top; 2];
        for (v, f) in from.iter_mut().enumerate() {
            while !self.entries[*f].computed[v] {
                *f -= 1;
            }
        }
        let h = self.net.hidden;
        let (net, layout) = (&*self.net, &self.layout);
        let w = &net.ft_weights;
        let row = |f: usize| &w[f * h..(f + 1) * h];
        for i in from[0].min(from[1]) + 1..=top {
            let Entry { changes, kings, .. } = self.entries[i];
            let (added, removed) = (changes.added(), changes.removed());
            let (before, after) = self.sums.split_at_mut(i * 2 * h);
            let parent = &before[(i - 1) * 2 * h..];
            for side in [Side::First, Side::Second] {
                let v = side.index();
                if i <= from[v] {
                    continue;
                }
                // The same as the parent's: a side whose view changes is computed at its push.
                let seen = net.view(layout, side, usize::from(kings[v]));
                let feature = |&(p, sq): &(u8, u8)| {
                    layout.feature_in(usize::from(p), usize::from(sq), side, seen)
                };
                let src = &parent[v * h..(v + 1) * h];
                let dst = &mut after[v * h..(v + 1) * h];
                match (added, removed) {
                    ([], []) => dst.copy_from_slice(src),
                    ([a], [s]) => simd::add_sub(dst, src, row(feature(a)), row(feature(s))),
                    ([a], [s1, s2]) => simd::add_sub2(
                        dst,
                        src,
                        row(feature(a)),
                        row(feature(s1)),
                        row(feature(s2)),
                    ),
                    _ => {
                        dst.copy_from_slice(src);
                        for a in added {
                            simd::add(dst, row(feature(a)));
                        }
                        for s in removed {
                            simd::sub(dst, row(feature(s)));
                        }
                    }
                }
                self.entries[i].computed[v] = true;
            }
        }
    }
}
