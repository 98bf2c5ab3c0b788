//! The search stack: one frame per ply from the root, what a node tells its children and what
//! they tell it back. It lives with its thread and is reset at the start of every search.

use crate::game::{MAX_PLY, Move, Score};

/// Frames beyond [`MAX_PLY`], so that a node may look a few plies ahead or behind without a
/// bounds check.
const SPARE: usize = 4;

/// What the search knows about one ply of the line it is searching.
#[derive(Copy, Clone, Debug)]
pub struct Frame {
    /// The move played from this ply ([`Move::NONE`] for a null move or none yet).
    pub mv: Move,
    /// The coloured piece that move moved (see [`Game::moved_piece`](crate::game::Game)).
    pub piece: usize,
    /// The square it moved to: with `piece`, the index of continuation histories.
    pub to: usize,
    /// The static evaluation here (`-INFINITE` when in check).
    pub static_eval: Score,
    /// A move to leave out here (singular extension search); [`Move::NONE`] for none.
    pub excluded: Move,
    /// Whether the side to move here is in check.
    pub in_check: bool,
    /// Two quiet moves that recently cut off at this ply, newest first.
    pub killers: [Move; 2],
    /// Beta cut-offs of the nodes at this ply since the node two plies up began: many of
    /// them say the moves at the ply above are refuted easily (see the late move reductions).
    pub cutoffs: u32,
    /// The late-move reduction, in plies, of the search of this ply's move now under way (0
    /// when it is searched at full depth): the child's hindsight depth adjustment reads it.
    pub reduction: i32,
    /// Double and triple extensions on the line from the root to here, so that they stay few.
    pub double_extensions: u8,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            mv: Move::NONE,
            piece: 0,
            to: 0,
            static_eval: 0,
            excluded: Move::NONE,
            in_check: false,
            killers: [Move::NONE; 2],
            cutoffs: 0,
            reduction: 0,
            double_extensions: 0,
        }
    }
}

/// The frames of one search thread, indexed by ply.
pub struct Stack {
    frames: Vec<Frame>,
}

impl Default for Stack {
    fn default() -> Self {
        Stack { frames: vec![Frame::default(); MAX_PLY + SPARE] }
    }
}

impl Stack {
    /// Empties every frame (the start of a search).
    pub fn reset(&mut self) {
        self.frames.fill(Frame::default());
    }
}

impl std::ops::Index<usize> for Stack {
    type Output = Frame;
    #[inline(always)]
    fn index(&self, ply: usize) -> &Frame {
        &self.frames[ply]
    }
}

impl std::ops::IndexMut<usize> for Stack {
    #[inline(always)]
    fn index_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply]
    }
}
