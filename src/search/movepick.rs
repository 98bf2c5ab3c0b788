//! The move picker: hands the search one move at a time, best guess first.
//!
//! Stages: the hash move, then everything else in order of score: captures by most valuable
//! victim and least valuable attacker, then the killers, then quiet moves by history. The
//! quiescence picker serves captures (every move when in check) by victim and attacker.
//!
//! The moves are generated and scored when the picker is made, before the hash move is
//! searched, and then selected best first with ties in generation order. That is exactly the
//! order the search has always used, so `bench` is unchanged; generating lazily after the hash
//! move (and splitting good from bad captures by SEE) changes the order and is a functional
//! change with a match of its own.

use super::history::History;
use crate::game::{Game, MAX_MOVES, Move, MoveList};

/// Ordering scores: the hash move first, then captures, killers, then quiet history.
const ORDER_HASH: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 28;
const ORDER_KILLER: i32 = 1 << 27;

/// Where the picker is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Stage {
    /// The scored moves, best first.
    Scored,
    /// Nothing left.
    Done,
}

/// Room for the moves of one node and their scores. Each thread keeps one per ply in its
/// [`ThreadData`](super::ThreadData), so that a node neither copies nor clears 1.5 KB to
/// start (callgrind on `bench`: a picker owning its list was copied at 7% of all
/// instructions; clearing fresh lists cost another 1%).
pub struct Moves {
    list: MoveList,
    scores: [i32; MAX_MOVES],
}

impl Default for Moves {
    fn default() -> Moves {
        Moves { list: MoveList::new(), scores: [0; MAX_MOVES] }
    }
}

/// Serves the moves of one node from that node's room.
pub struct Picker {
    stage: Stage,
    next: usize,
}

impl Picker {
    /// The picker of a main-search node: every legal move, `tt_move` first when it is one.
    #[inline]
    pub fn main<G: Game>(
        room: &mut Moves,
        board: &G,
        tt_move: Move,
        killers: [Move; 2],
        history: &History,
    ) -> Picker {
        room.list.clear();
        board.legal_moves(&mut room.list);
        let side = board.side_to_move().index();
        for (i, &m) in room.list.iter().enumerate() {
            room.scores[i] = if m == tt_move {
                ORDER_HASH
            } else if board.is_tactical(m) {
                ORDER_CAPTURE + board.mvv_lva(m)
            } else if m == killers[0] || m == killers[1] {
                ORDER_KILLER
            } else {
                history.quiet(side, m)
            };
        }
        Picker::start(room)
    }

    /// The picker of a quiescence node: captures, or every move when `in_check`, by victim and
    /// attacker.
    #[inline]
    pub fn quiescence<G: Game>(room: &mut Moves, board: &G, in_check: bool) -> Picker {
        room.list.clear();
        if in_check {
            board.legal_moves(&mut room.list);
        } else {
            board.legal_captures(&mut room.list);
        }
        for (i, &m) in room.list.iter().enumerate() {
            room.scores[i] = board.mvv_lva(m);
        }
        Picker::start(room)
    }

    fn start(room: &Moves) -> Picker {
        let stage = if room.list.is_empty() { Stage::Done } else { Stage::Scored };
        Picker { stage, next: 0 }
    }

    /// True when the position has no move of the kind served (asked before any move is taken).
    pub fn is_empty(&self) -> bool {
        self.stage == Stage::Done && self.next == 0
    }

    /// The next move from `room` (the room the picker was made with), or `None` when all have
    /// been served.
    #[inline]
    pub fn next_move(&mut self, room: &mut Moves) -> Option<Move> {
        match self.stage {
            Stage::Scored => {
                let i = self.next;
                let moves = room.list.as_mut_slice();
                if i >= moves.len() {
                    self.stage = Stage::Done;
                    return None;
                }
                // Selection: the best remaining move to the front; the first of equals wins.
                let mut best = i;
                for j in i + 1..moves.len() {
                    if room.scores[j] > room.scores[best] {
                        best = j;
                    }
                }
                moves.swap(i, best);
                room.scores.swap(i, best);
                self.next += 1;
                Some(moves[i])
            }
            Stage::Done => None,
        }
    }
}
