//! History tables: what the search learned about moves, kept per thread from one `go` to the
//! next within a game and cleared by a new game.
//!
//! Tables: the butterfly history of quiet moves (by side, threat slot and from/to), the
//! capture history (by moving piece, target square and captured piece) and the continuation
//! history of quiet moves (by the piece and target of a move one or two plies earlier and
//! those of the move). Each is updated with gravity. Beside them, the correction history of
//! the static evaluation: by side to move and pawn (soldier) structure, how far searches
//! found the evaluation off.

use crate::game::{Game, Move, Score};

/// History scores stay within `±HISTORY_MAX`: every update moves a score towards the bound
/// in proportion to how far from it the score still is ("gravity"), so a score that has been
/// high for long falls quickly once its move stops cutting off.
pub const HISTORY_MAX: i32 = 16_384;
/// Piece-square pairs of the largest game (xiangqi: 14 coloured pieces on 90 squares): the
/// index space of the capture history, and the most any game's [`Game::PIECE_SQUARES`] is.
const PIECE_SQUARES: usize = 14 * 90;
/// The butterfly history's threat slots: whether the opponent attacks the square a quiet
/// move leaves and the one it lands on ([`threat_slot`]).
const THREAT_SLOTS: usize = 4;
/// Slots for the captured piece in the capture history: every coloured piece of either game,
/// and one for a promotion that captures nothing.
const CAPTURED_SLOTS: usize = 16;
const NO_CAPTURE: usize = CAPTURED_SLOTS - 1;

/// The continuation history's row for "no earlier move" (the root, a null move) in game `G`:
/// the row after the last piece-square, never updated, so it adds nothing.
#[inline]
pub const fn no_piece_square<G: Game>() -> usize {
    G::PIECE_SQUARES
}

/// The continuation table's length for game `G`: a row for each piece-square and one for
/// "no earlier move", each as long as the game has piece-squares.
const fn continuation_len<G: Game>() -> usize {
    (G::PIECE_SQUARES + 1) * G::PIECE_SQUARES
}

/// Correction history: entries per side (a power of two, indexed by the pawn key); the
/// fixed-point scale of an entry; the scale of an observation's weight (the search's
/// parameters set the weight).
const CORRECTION_ENTRIES: usize = 16_384;
const CORRECTION_GRAIN: i32 = 256;
const CORRECTION_WEIGHT_SCALE: i32 = 256;

/// The history tables of one search thread.
pub struct History {
    /// Quiet moves that caused cut-offs: `[threat slot][side][from/to]`, see [`threat_slot`].
    /// Entries of 16 bits (gravity keeps them within ±[`HISTORY_MAX`]): four slots of 32
    /// bits would make the table 512 KB a thread. Slot-major, so that a game without the
    /// split keeps only slot 0's quarter ([`History::fit`]).
    butterfly: Vec<i16>,
    /// Captures (and promotions) that caused cut-offs: `[piece, target][captured]`, see
    /// [`capture_key`].
    capture: Vec<i32>,
    /// Quiet moves that cut off after a given move: `[earlier piece-square][piece-square]`,
    /// see [`piece_square`]; one table serves the move one ply back and two plies back. Sized
    /// for the game being searched ([`History::fit`]): 1.2 MB a thread for chess, 1.0 MB
    /// for xiangqi, of which a search makes resident what it touches.
    continuation: Vec<i16>,
    /// What searches found the static evaluation to be off by, in `CORRECTION_GRAIN`ths of
    /// a unit: `[side][pawn key]`.
    pawn_correction: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: vec![0; 2 * THREAT_SLOTS * Move::INDEX_SPACE],
            capture: vec![0; PIECE_SQUARES * CAPTURED_SLOTS],
            // Sized by `fit` for the game searched.
            continuation: Vec::new(),
            pawn_correction: vec![0; 2 * CORRECTION_ENTRIES],
        }
    }
}

/// Entries that [`zero`] and [`History::age`] look at together: one 4 KB page of the
/// continuation table. A chunk of zeros is left unwritten (so never-touched memory stays
/// unresident), and the test for one vectorises, where a test per entry would not.
const SPARSE_CHUNK: usize = 2048;

/// True when every entry of `chunk` is zero; an OR over the chunk, which vectorises.
#[inline]
fn all_zero<T: Copy + Default + PartialEq + std::ops::BitOr<Output = T>>(chunk: &[T]) -> bool {
    chunk.iter().fold(T::default(), |any, &h| any | h) == T::default()
}

/// Sets every entry of `table` to zero, writing only the chunks that hold one that is not.
fn zero<T: Copy + Default + PartialEq + std::ops::BitOr<Output = T>>(table: &mut [T]) {
    for chunk in table.chunks_mut(SPARSE_CHUNK) {
        if !all_zero(chunk) {
            chunk.fill(T::default());
        }
    }
}

/// The index of move `m` on `board` by moving piece and target square
/// ([`Game::piece_square`]).
#[inline]
pub fn piece_square<G: Game>(board: &G, m: Move) -> usize {
    const { assert!(G::PIECE_SQUARES <= PIECE_SQUARES) };
    G::piece_square(board.moved_piece(m), G::target(m))
}

/// The butterfly history's threat slot of quiet move `m` given `threats`, the squares the
/// opponent attacks ([`Game::threats`]): 2 when it attacks the square the move leaves, plus 1
/// when it attacks the one it lands on. A move that steps out of an attack, one that steps
/// into one and one that does neither are different moves to the search, and each keeps its
/// own score (Berserk's idea; Viridithas, Stormphrax and Berserk measured +7 to +10 from it).
/// Always 0 in a game without the split ([`Game::THREAT_HISTORY`]), at no cost: the test is
/// on a constant.
#[inline]
pub fn threat_slot<G: Game>(threats: u128, m: Move) -> usize {
    if !G::THREAT_HISTORY {
        return 0;
    }
    let (from, to) = (G::source(m), G::target(m));
    if G::SQUARES <= 64 {
        // Chess: shifts of 64 bits, a third of the instructions of 128-bit ones (this runs
        // for every quiet move the picker scores).
        let threats = threats as u64;
        ((threats >> from & 1) << 1 | (threats >> to & 1)) as usize
    } else {
        ((threats >> from & 1) << 1 | (threats >> to & 1)) as usize
    }
}

/// The butterfly table's index of quiet move `m` by `side` in threat slot `slot`.
#[inline]
fn butterfly_index(side: usize, slot: usize, m: Move) -> usize {
    (slot * 2 + side) * Move::INDEX_SPACE + m.index()
}

/// The butterfly table's length for game `G`: every threat slot where the game splits quiet
/// moves by threats ([`Game::THREAT_HISTORY`]), slot 0 alone where it does not.
const fn butterfly_len<G: Game>() -> usize {
    let slots = if G::THREAT_HISTORY { THREAT_SLOTS } else { 1 };
    2 * slots * Move::INDEX_SPACE
}

/// The capture history's index of the tactical move `m` on `board`.
#[inline]
pub fn capture_key<G: Game>(board: &G, m: Move) -> usize {
    const { assert!(G::PIECES * G::SQUARES <= PIECE_SQUARES && G::PIECES < NO_CAPTURE) };
    let piece_square = board.moved_piece(m) * G::SQUARES + G::target(m);
    piece_square * CAPTURED_SLOTS + board.captured_piece(m).unwrap_or(NO_CAPTURE)
}

impl History {
    /// Forgets everything (a new game). Only chunks that hold an entry that is not zero are
    /// written (see [`SPARSE_CHUNK`]): the
    /// memory of a zeroed allocation is not resident until written, and most of the
    /// continuation history (pieces on squares they never reach) never is, so that eight
    /// threads' tables cost resident memory only for what their searches touched.
    pub fn clear(&mut self) {
        zero(&mut self.butterfly);
        zero(&mut self.capture);
        zero(&mut self.continuation);
        zero(&mut self.pawn_correction);
    }

    /// Sizes the tables for game `G`, called as each search starts and needed before the
    /// continuation history is read. The butterfly table (see [`butterfly_len`]): xiangqi's
    /// is a quarter of chess's, 64 KB a thread against 256 KB, and [`History::age`] goes over
    /// a quarter as much; switching games keeps slot 0, where both games' quiet moves are,
    /// and zeroes any slot gained. The continuation table (see [`continuation_len`]) is made
    /// anew for another game, told apart by its length (chess's and xiangqi's differ): its
    /// rows are another length, and the old scores would mean nothing.
    pub fn fit<G: Game>(&mut self) {
        let len = butterfly_len::<G>();
        if self.butterfly.len() != len {
            self.butterfly.resize(len, 0);
            self.butterfly.shrink_to_fit();
        }
        let len = continuation_len::<G>();
        if self.continuation.len() != len {
            // The old table goes before the new one is made: never both at once.
            self.continuation = Vec::new();
            self.continuation = vec![0; len];
        }
    }

    /// Divides every score by `divisor`: called as each search starts, so that what was
    /// learned moves ago counts less than what the search learns now, and scores that rose to
    /// the cap become distinguishable again.
    pub fn age(&mut self, divisor: i32) {
        let divisor = divisor.max(1);
        // Two loops, not one over a chain of both: each vectorises, the chain would not.
        self.butterfly.iter_mut().for_each(|h| *h /= divisor as i16);
        self.capture.iter_mut().for_each(|h| *h /= divisor);
        // Only chunks already written are written again, for the reason given at `clear`.
        for chunk in self.continuation.chunks_mut(SPARSE_CHUNK) {
            if !all_zero(chunk) {
                chunk.iter_mut().for_each(|h| *h /= divisor as i16);
            }
        }
    }

    /// The butterfly score of quiet move `m` by `side` in threat slot `slot`.
    #[inline]
    pub fn quiet(&self, side: usize, slot: usize, m: Move) -> i32 {
        i32::from(self.butterfly[butterfly_index(side, slot, m)])
    }

    /// Updates the score of quiet move `m` by `side` in threat slot `slot` by the cut-off's
    /// `bonus`: up when `m` cut off, down when it was tried before the move that did.
    #[inline]
    pub fn update_quiet(&mut self, side: usize, slot: usize, m: Move, b: i32, good: bool) {
        let entry = &mut self.butterfly[butterfly_index(side, slot, m)];
        let mut h = i32::from(*entry);
        gravity(&mut h, if good { b } else { -b });
        // Gravity keeps `h` within ±HISTORY_MAX, which fits an i16.
        *entry = h as i16;
    }

    /// The order of quiet move `m` by `side` in threat slot `slot`, with piece-square `ps`,
    /// after the moves with piece-squares `earlier` (one and two plies back;
    /// [`no_piece_square`] for none), in game `G`.
    #[inline]
    pub fn quiet_order<G: Game>(
        &self,
        side: usize,
        slot: usize,
        m: Move,
        ps: usize,
        earlier: [usize; 2],
    ) -> i32 {
        debug_assert_eq!(self.continuation.len(), continuation_len::<G>(), "History::fit::<G>");
        self.quiet(side, slot, m)
            + i32::from(self.continuation[earlier[0] * G::PIECE_SQUARES + ps])
            + i32::from(self.continuation[earlier[1] * G::PIECE_SQUARES + ps])
    }

    /// Updates the continuation history of a quiet move with piece-square `ps` after the
    /// moves `earlier`, as [`History::update_quiet`] does its butterfly score, in game `G`.
    #[inline]
    pub fn update_continuation<G: Game>(
        &mut self,
        ps: usize,
        earlier: [usize; 2],
        b: i32,
        good: bool,
    ) {
        debug_assert_eq!(self.continuation.len(), continuation_len::<G>(), "History::fit::<G>");
        for e in earlier {
            if e != no_piece_square::<G>() {
                let entry = &mut self.continuation[e * G::PIECE_SQUARES + ps];
                let mut h = i32::from(*entry);
                gravity(&mut h, if good { b } else { -b });
                // Gravity keeps `h` within ±HISTORY_MAX, which fits an i16.
                *entry = h as i16;
            }
        }
    }

    /// The capture history of the move with [`capture_key`] `key`.
    #[inline]
    pub fn capture(&self, key: usize) -> i32 {
        self.capture[key]
    }

    /// Updates the capture history of the move with [`capture_key`] `key` by a cut-off's
    /// bonus `b`: up when it cut off, down when it was tried before the move that did.
    #[inline]
    pub fn update_capture(&mut self, key: usize, b: i32, good: bool) {
        gravity(&mut self.capture[key], if good { b } else { -b });
    }

    /// The correction to the static evaluation for `side` to move with pawn key `pawn_key`.
    #[inline]
    pub fn correction(&self, side: usize, pawn_key: u64) -> Score {
        self.pawn_correction[correction_index(side, pawn_key)] / CORRECTION_GRAIN
    }

    /// Learns that a search found the static evaluation off by `error` (the score minus the
    /// static evaluation), with `weight` out of 256, the correction staying within `±limit`.
    #[inline]
    pub fn update_correction(
        &mut self,
        side: usize,
        pawn_key: u64,
        weight: i32,
        error: Score,
        limit: Score,
    ) {
        let entry = &mut self.pawn_correction[correction_index(side, pawn_key)];
        let target = error.clamp(-limit, limit) * CORRECTION_GRAIN;
        *entry = (*entry * (CORRECTION_WEIGHT_SCALE - weight) + target * weight)
            / CORRECTION_WEIGHT_SCALE;
    }

    /// The quiet move with the highest score: `(side, threat slot, move, score)`.
    #[cfg(test)]
    pub fn best_quiet(&self) -> (usize, usize, Move, i32) {
        let (i, &v) = self.butterfly.iter().enumerate().max_by_key(|&(_, v)| *v).unwrap_or((0, &0));
        let (table, m) = (i / Move::INDEX_SPACE, Move::from_raw((i % Move::INDEX_SPACE) as u16));
        (table % 2, table / 2, m, i32::from(v))
    }
}

/// Moves `entry` by `delta`, less the nearer it already is to the bound `delta` points to: the
/// score never leaves `±HISTORY_MAX`.
#[inline]
fn gravity(entry: &mut i32, delta: i32) {
    *entry += delta - *entry * delta.abs() / HISTORY_MAX;
}

/// The correction history's index for `side` and pawn key `key`.
#[inline]
fn correction_index(side: usize, key: u64) -> usize {
    side * CORRECTION_ENTRIES + (key as usize & (CORRECTION_ENTRIES - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;

    #[test]
    fn threat_slots_say_which_squares_are_attacked() {
        // Black's knight f6 attacks d5, e4, g4, h5, d7, e8, g8 and h7, its pawn b6 a5 and c5.
        let fen = "4k3/8/1p3n2/8/2B1N3/8/8/4K3 w - - 0 1";
        let board = Chess::from_fen(fen).expect("test FEN");
        let threats = board.threats();
        let slot = |text: &str| threat_slot::<Chess>(threats, board.parse_move(text).expect(text));
        assert_eq!(slot("c4b3"), 0, "neither square attacked");
        assert_eq!(slot("c4d5"), 1, "lands on an attacked square");
        assert_eq!(slot("e4c3"), 2, "leaves an attacked square");
        assert_eq!(slot("e4c5"), 3, "leaves one attacked square for another");
        assert_eq!(slot("e1d2"), 0);
    }

    #[test]
    fn a_game_without_the_split_keeps_every_quiet_move_in_slot_zero() {
        let board = crate::xiangqi::Xiangqi::startpos();
        let m = board.parse_move("h2e2").expect("cannon to the centre");
        assert_eq!(
            threat_slot::<crate::xiangqi::Xiangqi>(u128::MAX, m),
            0,
            "every square attacked"
        );
    }

    #[test]
    fn a_game_without_the_split_keeps_a_quarter_of_the_table_and_switching_keeps_slot_zero() {
        use crate::xiangqi::Xiangqi;
        let mut history = History::default();
        history.fit::<Chess>();
        assert_eq!(history.butterfly.len(), 2 * THREAT_SLOTS * Move::INDEX_SPACE);
        let (m, n) = (Move::from_raw(77), Move::from_raw(78));
        history.update_quiet(1, 0, m, 500, true);
        history.update_quiet(1, 3, n, 500, true);
        history.fit::<Xiangqi>();
        assert_eq!(history.butterfly.len(), 2 * Move::INDEX_SPACE, "slot 0 alone");
        assert_eq!(history.quiet(1, 0, m), 500, "slot 0 kept");
        history.fit::<Chess>();
        assert_eq!(history.butterfly.len(), 2 * THREAT_SLOTS * Move::INDEX_SPACE);
        assert_eq!(history.quiet(1, 0, m), 500, "slot 0 kept again");
        assert_eq!(history.quiet(1, 3, n), 0, "a regained slot starts at zero");
        assert_eq!(history.best_quiet(), (1, 0, m, 500));
    }

    #[test]
    fn the_continuation_table_is_sized_for_the_game_and_made_anew_for_another() {
        use crate::xiangqi::Xiangqi;
        let mut history = History::default();
        history.fit::<Chess>();
        assert_eq!(history.continuation.len(), 769 * 768, "chess: 12 pieces on 64 squares");
        let ps = Chess::piece_square(11, 63);
        history.update_continuation::<Chess>(ps, [0, 767], 400, true);
        let order = |h: &History| h.quiet_order::<Chess>(0, 0, Move::from_raw(1), ps, [0, 767]);
        assert_eq!(order(&history), 800, "both earlier moves count");
        history.fit::<Chess>();
        assert_eq!(order(&history), 800, "the same game keeps its scores");
        history.fit::<Xiangqi>();
        assert_eq!(history.continuation.len(), 709 * 708, "xiangqi: 708 reachable pairs");
        assert!(history.continuation.iter().all(|&h| h == 0), "another game starts afresh");
        history.fit::<Chess>();
        assert_eq!(order(&history), 0);
    }

    #[test]
    fn xiangqi_numbers_each_piece_square_a_position_can_hold_once() {
        use crate::game::MoveList;
        use crate::xiangqi::{Xiangqi, can_stand};
        // Distinct pairs that can occur get distinct indices, and they fill the range.
        let mut indices: Vec<usize> = (0..Xiangqi::PIECES)
            .flat_map(|p| (0..Xiangqi::SQUARES).map(move |s| (p, s)))
            .filter(|&(p, s)| can_stand(p, s))
            .map(|(p, s)| Xiangqi::piece_square(p, s))
            .collect();
        let n = indices.len();
        indices.sort_unstable();
        indices.dedup();
        assert_eq!((n, indices.len()), (Xiangqi::PIECE_SQUARES, Xiangqi::PIECE_SQUARES));
        assert!(indices.iter().all(|&i| i < Xiangqi::PIECE_SQUARES));
        // No move takes a piece where the numbering has no place for it: random games.
        let mut rng = crate::rng::Stream::new(7, 0);
        for _ in 0..40 {
            let mut board = Xiangqi::startpos();
            for _ in 0..80 {
                board.for_each_piece(|piece, square| {
                    assert!(can_stand(piece, square), "piece {piece} on {square}");
                });
                let mut moves = MoveList::new();
                board.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                board.make(moves.as_slice()[rng.below(moves.len())]);
            }
        }
    }

    /// The largest history bonus of the search's parameters.
    const BONUS: i32 = crate::search::params::Params::CHESS.history_cap;

    #[test]
    fn gravity_keeps_scores_within_bounds() {
        let mut h = 0;
        for _ in 0..1000 {
            gravity(&mut h, BONUS);
        }
        assert!(h > HISTORY_MAX - 100 && h <= HISTORY_MAX, "saturates below the bound: {h}");
        let high = h;
        gravity(&mut h, -BONUS);
        assert!(high - h > BONUS, "a high score falls faster than a low one rises: {h}");
        for _ in 0..1000 {
            gravity(&mut h, -BONUS);
        }
        assert!((-HISTORY_MAX..-HISTORY_MAX + 100).contains(&h), "and the same below: {h}");
    }
}
