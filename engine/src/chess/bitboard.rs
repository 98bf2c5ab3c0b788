//! Squares, pieces and 64-bit bitboards: the vocabulary of the chess board.
//!
//! Squares run a1 = 0, b1 = 1, ..., h8 = 63, so that bit `sq` of a `u64` is that square and
//! "one rank up" is a shift left by 8.

/// A set of squares, one bit per square.
pub type Bitboard = u64;

/// The a-file.
pub const FILE_A: Bitboard = 0x0101_0101_0101_0101;
/// The h-file.
pub const FILE_H: Bitboard = FILE_A << 7;
/// The first rank.
pub const RANK_1: Bitboard = 0xFF;
/// The second rank.
pub const RANK_2: Bitboard = RANK_1 << 8;
/// The third rank.
pub const RANK_3: Bitboard = RANK_1 << 16;
/// The sixth rank.
pub const RANK_6: Bitboard = RANK_1 << 40;
/// The seventh rank.
pub const RANK_7: Bitboard = RANK_1 << 48;
/// The eighth rank.
pub const RANK_8: Bitboard = RANK_1 << 56;

/// White, the side that moves first; an index into per-colour arrays.
pub const WHITE: usize = 0;
/// Black.
pub const BLACK: usize = 1;

/// Piece kinds, used as indices into per-kind arrays.
pub const PAWN: usize = 0;
/// A knight.
pub const KNIGHT: usize = 1;
/// A bishop.
pub const BISHOP: usize = 2;
/// A rook.
pub const ROOK: usize = 3;
/// A queen.
pub const QUEEN: usize = 4;
/// A king.
pub const KING: usize = 5;

/// A coloured piece is `colour * 6 + kind`; this code marks an empty square in the mailbox.
pub const NO_PIECE: u8 = 12;
/// An impossible square, used for "no en-passant square".
pub const NO_SQUARE: u8 = 64;

/// FEN letters of the coloured pieces, indexed by piece code.
pub const PIECE_CHARS: &[u8; 12] = b"PNBRQKpnbrqk";

/// The coloured piece code of `kind` for `colour`.
#[inline(always)]
pub const fn piece(colour: usize, kind: usize) -> u8 {
    (colour * 6 + kind) as u8
}

/// The kind of a coloured piece code (which must not be [`NO_PIECE`]).
#[inline(always)]
pub const fn kind_of(p: u8) -> usize {
    (p % 6) as usize
}

/// The colour of a coloured piece code (which must not be [`NO_PIECE`]).
#[inline(always)]
pub const fn colour_of(p: u8) -> usize {
    (p / 6) as usize
}

/// The bitboard holding only `sq`.
#[inline(always)]
pub const fn bit(sq: usize) -> Bitboard {
    1u64 << sq
}

/// The squares strictly above `sq` in index order (later files of its rank, higher ranks).
#[inline(always)]
pub const fn squares_above(sq: usize) -> Bitboard {
    !1u64 << sq
}

/// The squares strictly below `sq` in index order.
#[inline(always)]
pub const fn squares_below(sq: usize) -> Bitboard {
    bit(sq) - 1
}

/// The lowest square of a non-empty bitboard.
#[inline(always)]
pub const fn lsb(b: Bitboard) -> usize {
    b.trailing_zeros() as usize
}

/// The file (0 = a) of a square.
#[inline(always)]
pub const fn file_of(sq: usize) -> usize {
    sq & 7
}

/// The rank (0 = first) of a square.
#[inline(always)]
pub const fn rank_of(sq: usize) -> usize {
    sq >> 3
}

/// The square on `file` and `rank`.
#[inline(always)]
pub const fn square(file: usize, rank: usize) -> usize {
    rank * 8 + file
}

/// The back rank of `colour`.
#[inline(always)]
pub const fn back_rank(colour: usize) -> Bitboard {
    if colour == WHITE { RANK_1 } else { RANK_8 }
}

/// Iterates over the squares of a bitboard, lowest first.
#[derive(Copy, Clone)]
pub struct Squares(pub Bitboard);

impl Iterator for Squares {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let sq = lsb(self.0);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

/// The name of a square, `a1` to `h8`.
pub fn square_name(sq: usize) -> String {
    let file = (b'a' + file_of(sq) as u8) as char;
    let rank = (b'1' + rank_of(sq) as u8) as char;
    format!("{file}{rank}")
}

/// Parses a square name such as `e4`; `None` unless it is exactly a file letter and a rank digit.
pub fn parse_square(text: &[u8]) -> Option<usize> {
    match text {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            Some(square((f - b'a') as usize, (r - b'1') as usize))
        }
        _ => None,
    }
}
