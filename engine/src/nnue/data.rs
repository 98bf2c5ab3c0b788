//! The training data format that `chariot datagen` writes and `chariot train` reads.
//!
//! A file is a plain sequence of 40-byte records with no header, so files can be appended to
//! and concatenated. Every number is little-endian:
//!
//! | offset | bytes | field |
//! |-------:|------:|-------|
//! | 0 | 16 | occupancy, a `u128`: bit `s` is set when square `s` holds a piece (chess: `a1` = 0 ... `h8` = 63; xiangqi: `rank * 9 + file`, rank 0 red's back rank) |
//! | 16 | 16 | the coloured piece on each occupied square, in increasing square order, one nibble each, low nibble first (`colour * kinds + kind`, as [`Game::moved_piece`]) |
//! | 32 | 2 | score, an `i16`: the search's score in internal units from white's (red's) view |
//! | 34 | 1 | result from white's (red's) view: 0 loss, 1 draw, 2 win |
//! | 35 | 1 | side to move: 0 white (red), 1 black |
//! | 36 | 1 | game: 0 chess, 1 xiangqi |
//! | 37 | 1 | reserved, 0 |
//! | 38 | 2 | ply of the game at which the position arose, a `u16` |
//!
//! Both games have at most 32 pieces, so 16 bytes of nibbles always suffice.

use crate::game::{Game, Side, Variant};

/// The size of one record in bytes.
pub const RECORD_BYTES: usize = 40;
/// The most pieces a record holds.
const MAX_PIECES: usize = 32;

/// The result of a game from white's (red's) view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// Black won.
    Loss = 0,
    /// Drawn.
    Draw = 1,
    /// White (red) won.
    Win = 2,
}

impl GameResult {
    /// The training target of the result: 0, 0.5 or 1.
    pub fn value(self) -> f32 {
        match self {
            GameResult::Loss => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Win => 1.0,
        }
    }
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A field holds a value outside its range.
    #[error("record field '{0}' holds {1}, which is out of range")]
    Field(&'static str, u32),
    /// More pieces than the format can hold.
    #[error("a record holds at most 32 pieces, this position has {0}")]
    TooManyPieces(u32),
}

/// One position with its score and its game's result, in the on-disk layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Bit `s` set when square `s` is occupied.
    pub occupancy: u128,
    /// The pieces on the occupied squares in square order, one nibble each.
    pub pieces: u128,
    /// Score in internal units from white's (red's) view.
    pub score: i16,
    /// The game's result from white's (red's) view.
    pub result: GameResult,
    /// The side to move.
    pub side: Side,
    /// The game.
    pub variant: Variant,
    /// The ply of the game at which the position arose.
    pub ply: u16,
}

impl Record {
    /// The record of `board` with the search's `score` (internal units, from the side to
    /// move's view), the game's `result` and the game `ply`.
    pub fn new<G: Game>(
        board: &G,
        score: i32,
        result: GameResult,
        ply: u32,
    ) -> Result<Record, RecordError> {
        let mut squares = [(0usize, 0usize); MAX_PIECES];
        let mut n = 0;
        let mut too_many = false;
        board.for_each_piece(|piece, sq| {
            if n < MAX_PIECES {
                squares[n] = (sq, piece);
                n += 1;
            } else {
                too_many = true;
            }
        });
        if too_many {
            return Err(RecordError::TooManyPieces(n as u32 + 1));
        }
        squares[..n].sort_unstable();
        let mut occupancy = 0u128;
        let mut pieces = 0u128;
        for (i, &(sq, piece)) in squares[..n].iter().enumerate() {
            occupancy |= 1u128 << sq;
            pieces |= (piece as u128 & 0xF) << (4 * i);
        }
        let side = board.side_to_move();
        let white_score = if side == Side::First { score } else { -score };
        Ok(Record {
            occupancy,
            pieces,
            score: white_score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            result,
            side,
            variant: G::VARIANT,
            ply: ply.min(u16::MAX as u32) as u16,
        })
    }

    /// The occupied squares and their pieces, `(square, piece)` in square order.
    pub fn squares(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut occ = self.occupancy;
        let mut i = 0;
        std::iter::from_fn(move || {
            if occ == 0 {
                return None;
            }
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            let piece = ((self.pieces >> (4 * i)) & 0xF) as usize;
            i += 1;
            Some((sq, piece))
        })
    }

    /// The record's bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[0..16].copy_from_slice(&self.occupancy.to_le_bytes());
        b[16..32].copy_from_slice(&self.pieces.to_le_bytes());
        b[32..34].copy_from_slice(&self.score.to_le_bytes());
        b[34] = self.result as u8;
        b[35] = self.side.index() as u8;
        b[36] = match self.variant {
            Variant::Chess => 0,
            Variant::Xiangqi => 1,
        };
        b[38..40].copy_from_slice(&self.ply.to_le_bytes());
        b
    }

    /// Reads a record, checking every field.
    pub fn from_bytes(b: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
        let mut word = [0u8; 16];
        word.copy_from_slice(&b[0..16]);
        let occupancy = u128::from_le_bytes(word);
        word.copy_from_slice(&b[16..32]);
        let pieces = u128::from_le_bytes(word);
        let result = match b[34] {
            0 => GameResult::Loss,
            1 => GameResult::Draw,
            2 => GameResult::Win,
            x => return Err(RecordError::Field("result", x.into())),
        };
        let side = match b[35] {
            0 => Side::First,
            1 => Side::Second,
            x => return Err(RecordError::Field("side to move", x.into())),
        };
        let (variant, squares, kinds) = match b[36] {
            0 => (Variant::Chess, 64, 12),
            1 => (Variant::Xiangqi, 90, 14),
            x => return Err(RecordError::Field("game", x.into())),
        };
        let count = occupancy.count_ones();
        if count as usize > MAX_PIECES {
            return Err(RecordError::TooManyPieces(count));
        }
        if squares < 128 && occupancy >> squares != 0 {
            return Err(RecordError::Field("occupancy", 128 - occupancy.leading_zeros() - 1));
        }
        let record = Record {
            occupancy,
            pieces,
            score: i16::from_le_bytes([b[32], b[33]]),
            result,
            side,
            variant,
            ply: u16::from_le_bytes([b[38], b[39]]),
        };
        if let Some((_, p)) = record.squares().find(|&(_, p)| p >= kinds) {
            return Err(RecordError::Field("piece", p as u32));
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;
    use crate::xiangqi::Xiangqi;

    fn round_trip<G: Game>(fen: &str, score: i32) -> Record {
        let board = G::from_fen(fen).expect("valid FEN");
        let r = Record::new(&board, score, GameResult::Draw, 7).expect("fits");
        let back = Record::from_bytes(&r.to_bytes()).expect("readable");
        assert_eq!(r, back);
        let mut pieces = Vec::new();
        board.for_each_piece(|p, sq| pieces.push((sq, p)));
        pieces.sort_unstable();
        assert_eq!(back.squares().collect::<Vec<_>>(), pieces);
        back
    }

    #[test]
    fn records_keep_every_piece_and_the_score_from_whites_view() {
        let r = round_trip::<Chess>("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", 50);
        // White to move would be +50 for white; black to move scoring +50 is -50 for white.
        assert_eq!(r.score, -50);
        assert_eq!(r.side, Side::Second);
        assert_eq!(r.squares().collect::<Vec<_>>(), vec![(4, 5), (12, 0), (60, 11)]);
        round_trip::<Chess>(crate::chess::START_FEN, 0);
        let x = round_trip::<Xiangqi>(crate::xiangqi::START_FEN, 40);
        assert_eq!(x.squares().count(), 32);
        assert_eq!(x.variant, Variant::Xiangqi);
    }

    #[test]
    fn bad_records_are_refused() {
        let board = Chess::startpos();
        let mut b = Record::new(&board, 0, GameResult::Win, 0).expect("fits").to_bytes();
        b[34] = 3;
        assert_eq!(Record::from_bytes(&b), Err(RecordError::Field("result", 3)));
        b[34] = 2;
        b[36] = 9;
        assert_eq!(Record::from_bytes(&b), Err(RecordError::Field("game", 9)));
        b[36] = 0;
        b[15] = 1; // a piece on square 120 of a chess board
        assert!(Record::from_bytes(&b).is_err());
    }
}
