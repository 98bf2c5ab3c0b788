//! The chess meaning of a 16-bit [`Move`]: `from | to << 6 | flag << 12`.
//!
//! Castling is encoded as the king capturing its own rook (`to` is the rook's square), so that
//! Chess960 castling needs no extra encoding: the king's and rook's destinations follow from the
//! side of the board the rook is on.

use crate::game::Move;

/// A quiet move or an ordinary capture.
pub const NORMAL: u16 = 0;
/// An en-passant capture; `to` is the square the capturing pawn lands on.
pub const EN_PASSANT: u16 = 1;
/// Castling; `to` is the castling rook's square.
pub const CASTLE: u16 = 2;
/// Promotion to a knight; the bishop, rook and queen flags follow in kind order, so a
/// promotion's piece kind is `flag - PROMO_KNIGHT + KNIGHT`.
pub const PROMO_KNIGHT: u16 = 4;
/// Promotion to a queen.
pub const PROMO_QUEEN: u16 = 7;

/// Packs a move.
#[inline(always)]
pub const fn encode(from: usize, to: usize, flag: u16) -> Move {
    Move::from_raw(from as u16 | (to as u16) << 6 | flag << 12)
}

/// The square a move starts on.
#[inline(always)]
pub const fn from_sq(m: Move) -> usize {
    (m.raw() & 63) as usize
}

/// The square a move ends on (the rook's square for castling).
#[inline(always)]
pub const fn to_sq(m: Move) -> usize {
    ((m.raw() >> 6) & 63) as usize
}

/// The move's flag.
#[inline(always)]
pub const fn flag(m: Move) -> u16 {
    m.raw() >> 12
}

/// The piece kind a promotion makes, or `None` for other moves.
#[inline(always)]
pub const fn promotion(m: Move) -> Option<usize> {
    let f = flag(m);
    if f >= PROMO_KNIGHT && f <= PROMO_QUEEN {
        Some((f - PROMO_KNIGHT) as usize + super::bitboard::KNIGHT)
    } else {
        None
    }
}
