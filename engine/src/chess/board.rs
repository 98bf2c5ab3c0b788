//! The position: bitboards plus a mailbox, and how a move changes them.
//!
//! [`Board`] is a small `Copy` value, so both the game's history stack and perft use copy-make:
//! a move is applied to a copy and undone by dropping it.

use super::PIECES;
use super::bitboard::*;
use super::moves::{self, CASTLE, EN_PASSANT};
use super::tables::{self, ZOBRIST};
use crate::game::Move;

/// A chess position without its history.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Board {
    /// Pieces of both colours by kind.
    pub kinds: [Bitboard; 6],
    /// Pieces of each colour.
    pub colours: [Bitboard; 2],
    /// The coloured piece code on each square, or [`NO_PIECE`].
    pub squares: [u8; 64],
    /// Squares of the rooks that still carry a castling right (either colour).
    pub castle: Bitboard,
    /// Zobrist key of the position.
    pub key: u64,
    /// The Zobrist key of the pawns of both colours on their squares (the piece keys of the
    /// pawns alone): the correction history's index, read at every node that evaluates, so
    /// kept as pieces are put and removed (computed on each read, it cost 4.7% of a chess
    /// search's instructions, callgrind).
    pawn_key: u64,
    /// The side to move: [`WHITE`] or [`BLACK`].
    pub side: usize,
    /// The square a pawn skipped on the last move, or [`NO_SQUARE`]; kept as given even when
    /// no capture is possible there, but hashed only when one is (pseudo-legally).
    pub ep: u8,
    /// Plies since the last capture or pawn move (50-move rule). A FEN gives at most 65535;
    /// 32 bits let it count on without a check on every move (saturating a 16-bit clock cost
    /// 8% of perft 6), and FENs are written with it capped at 65535.
    pub halfmove: u32,
    /// The move number, starting at 1 and incremented after black moves.
    pub fullmove: u32,
    /// Plies since the last irreversible move or null move: how far back a repetition can be.
    pub window: u32,
    /// The enemy pieces giving check to the side to move, kept by `make` (and set by the FEN
    /// reader): the search asks after every move whether it checks and again at the node it
    /// leads to, and the move generator needs them too (computed on each ask, they cost 4%
    /// of a chess search's instructions, callgrind).
    checkers: Bitboard,
}

impl Board {
    /// A Zobrist key of the pawns of both colours on their squares, from the position's piece
    /// keys.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// [`Board::pawn_key`] computed from the pieces (tests compare the two).
    pub fn compute_pawn_key(&self) -> u64 {
        self.piece_key(self.kinds[PAWN])
    }

    /// A Zobrist key of `side`'s pieces other than pawns (king included) on their squares
    /// (`side` 0 white, 1 black). Computed on demand, like [`Board::pawn_key`].
    pub fn non_pawn_key(&self, side: usize) -> u64 {
        self.piece_key(self.colours[side] & !self.kinds[PAWN])
    }

    /// The XOR of the piece keys of the pieces on `squares`.
    fn piece_key(&self, squares: Bitboard) -> u64 {
        Squares(squares)
            .map(|sq| ZOBRIST.piece[usize::from(self.squares[sq]) % PIECES][sq])
            .fold(0, |key, k| key ^ k)
    }

    /// An empty board, white to move.
    pub fn empty() -> Board {
        Board {
            kinds: [0; 6],
            colours: [0; 2],
            squares: [NO_PIECE; 64],
            castle: 0,
            key: 0,
            pawn_key: 0,
            side: WHITE,
            ep: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            window: 0,
            checkers: 0,
        }
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.colours[WHITE] | self.colours[BLACK]
    }

    /// The pieces of `kind` and `colour`.
    #[inline(always)]
    pub fn pieces(&self, colour: usize, kind: usize) -> Bitboard {
        self.kinds[kind] & self.colours[colour]
    }

    /// The square of `colour`'s king.
    #[inline(always)]
    pub fn king_sq(&self, colour: usize) -> usize {
        lsb(self.pieces(colour, KING))
    }

    /// Pieces of either colour that attack `sq` given occupancy `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: usize, occ: Bitboard) -> Bitboard {
        (tables::pawn(WHITE, sq) & self.pieces(BLACK, PAWN))
            | (tables::pawn(BLACK, sq) & self.pieces(WHITE, PAWN))
            | (tables::knight(sq) & self.kinds[KNIGHT])
            | (tables::king(sq) & self.kinds[KING])
            | (tables::rook(sq, occ) & (self.kinds[ROOK] | self.kinds[QUEEN]))
            | (tables::bishop(sq, occ) & (self.kinds[BISHOP] | self.kinds[QUEEN]))
    }

    /// Every square `by`'s pieces attack on this board, its own pieces' squares included.
    pub fn attacks_of(&self, by: usize) -> Bitboard {
        let occ = self.occupied();
        let them = self.colours[by];
        let pawns = self.kinds[PAWN] & them;
        // Pawns by shifts: up-left and up-right for white (a1 is square 0), down for black.
        let (left, right) = (pawns & !FILE_A, pawns & !FILE_H);
        let mut attacks = if by == WHITE { left << 7 | right << 9 } else { left >> 9 | right >> 7 };
        for sq in Squares(self.kinds[KNIGHT] & them) {
            attacks |= tables::knight(sq);
        }
        for sq in Squares((self.kinds[BISHOP] | self.kinds[QUEEN]) & them) {
            attacks |= tables::bishop(sq, occ);
        }
        for sq in Squares((self.kinds[ROOK] | self.kinds[QUEEN]) & them) {
            attacks |= tables::rook(sq, occ);
        }
        for sq in Squares(self.kinds[KING] & them) {
            attacks |= tables::king(sq);
        }
        attacks
    }

    /// True when `by` attacks `sq` given occupancy `occ`.
    #[inline(always)]
    pub fn attacked_by(&self, sq: usize, by: usize, occ: Bitboard) -> bool {
        let them = self.colours[by];
        (tables::pawn(by ^ 1, sq) & self.kinds[PAWN] & them) != 0
            || (tables::knight(sq) & self.kinds[KNIGHT] & them) != 0
            || (tables::king(sq) & self.kinds[KING] & them) != 0
            || (tables::rook(sq, occ) & (self.kinds[ROOK] | self.kinds[QUEEN]) & them) != 0
            || (tables::bishop(sq, occ) & (self.kinds[BISHOP] | self.kinds[QUEEN]) & them) != 0
    }

    /// The enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// [`Board::checkers`] computed from the pieces.
    #[inline(always)]
    pub fn compute_checkers(&self) -> Bitboard {
        let us = self.side;
        self.attackers_to(self.king_sq(us), self.occupied()) & self.colours[us ^ 1]
    }

    /// Sets the checkers from the pieces, once a board is set up square by square.
    pub fn set_checkers(&mut self) {
        self.checkers = self.compute_checkers();
    }

    /// True when an en-passant capture on `ep` is pseudo-legally possible for the side to move;
    /// only then is the en-passant file part of the key.
    #[inline(always)]
    pub fn ep_capturable(&self) -> bool {
        self.ep != NO_SQUARE
            && tables::pawn(self.side ^ 1, self.ep as usize) & self.pieces(self.side, PAWN) != 0
    }

    /// Puts coloured piece `p` on the empty square `sq`.
    #[inline(always)]
    pub fn put(&mut self, p: u8, sq: usize) {
        let b = bit(sq);
        self.kinds[kind_of(p)] |= b;
        self.colours[colour_of(p)] |= b;
        self.squares[sq] = p;
        self.toggle_key(p, ZOBRIST.piece[p as usize][sq]);
    }

    /// Removes coloured piece `p` from `sq`.
    #[inline(always)]
    pub fn remove(&mut self, p: u8, sq: usize) {
        let b = bit(sq);
        self.kinds[kind_of(p)] ^= b;
        self.colours[colour_of(p)] ^= b;
        self.squares[sq] = NO_PIECE;
        self.toggle_key(p, ZOBRIST.piece[p as usize][sq]);
    }

    /// Moves coloured piece `p` from `from` to the empty square `to`.
    #[inline(always)]
    fn shift(&mut self, p: u8, from: usize, to: usize) {
        let b = bit(from) | bit(to);
        self.kinds[kind_of(p)] ^= b;
        self.colours[colour_of(p)] ^= b;
        self.squares[from] = NO_PIECE;
        self.squares[to] = p;
        self.toggle_key(p, ZOBRIST.piece[p as usize][from] ^ ZOBRIST.piece[p as usize][to]);
    }

    /// Applies the piece keys `z` of coloured piece `p` to the key, and to the pawn key when
    /// `p` is a pawn.
    #[inline(always)]
    fn toggle_key(&mut self, p: u8, z: u64) {
        self.key ^= z;
        if kind_of(p) == PAWN {
            self.pawn_key ^= z;
        }
    }

    /// Where the king and rook land when the king on `king` castles with the rook on `rook`.
    #[inline(always)]
    pub fn castle_targets(king: usize, rook: usize) -> (usize, usize) {
        let base = king & 56;
        if rook > king { (base + 6, base + 5) } else { (base + 2, base + 3) }
    }

    /// Plays the legal move `m`.
    #[inline(always)]
    pub fn make(&mut self, m: Move) {
        let from = moves::from_sq(m);
        let to = moves::to_sq(m);
        let flag = moves::flag(m);
        let us = self.side;
        let p = self.squares[from];
        let kind = kind_of(p);

        if self.ep_capturable() {
            self.key ^= ZOBRIST.ep[file_of(self.ep as usize)];
        }
        self.ep = NO_SQUARE;
        // A FEN starts the clock at 65535 at most: 32 bits cannot overflow in any game.
        self.halfmove += 1;
        self.window += 1;

        // A right goes when its rook moves or is captured, or when the king moves.
        let mut castle = self.castle & !(bit(from) | bit(to));
        if kind == KING {
            castle &= !back_rank(us);
        }
        if castle != self.castle {
            for sq in Squares(castle ^ self.castle) {
                self.key ^= ZOBRIST.castle[sq];
            }
            self.castle = castle;
        }

        if flag == CASTLE {
            let rook = piece(us, ROOK);
            let (kto, rto) = Board::castle_targets(from, to);
            self.remove(p, from);
            self.remove(rook, to);
            self.put(p, kto);
            self.put(rook, rto);
        } else if flag == EN_PASSANT {
            self.remove(piece(us ^ 1, PAWN), to ^ 8);
            self.shift(p, from, to);
            self.halfmove = 0;
        } else {
            let victim = self.squares[to];
            if victim != NO_PIECE {
                self.remove(victim, to);
                self.halfmove = 0;
            }
            if let Some(promo) = moves::promotion(m) {
                self.remove(p, from);
                self.put(piece(us, promo), to);
            } else {
                self.shift(p, from, to);
            }
            if kind == PAWN {
                self.halfmove = 0;
                if from ^ to == 16 {
                    self.ep = ((from + to) / 2) as u8;
                }
            }
        }

        self.side ^= 1;
        self.key ^= ZOBRIST.side;
        if us == BLACK {
            self.fullmove += 1;
        }
        if self.halfmove == 0 {
            self.window = 0;
        }
        if self.ep_capturable() {
            self.key ^= ZOBRIST.ep[file_of(self.ep as usize)];
        }
        self.checkers = self.compute_checkers();
    }

    /// Passes the turn.
    pub fn make_null(&mut self) {
        if self.ep_capturable() {
            self.key ^= ZOBRIST.ep[file_of(self.ep as usize)];
        }
        self.ep = NO_SQUARE;
        self.side ^= 1;
        self.key ^= ZOBRIST.side;
        self.halfmove += 1;
        // A null move breaks any repetition chain: positions before it are not reachable.
        self.window = 0;
        self.checkers = self.compute_checkers();
    }

    /// The Zobrist key recomputed from scratch; equals `key` when incremental updates are right.
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in 0..64 {
            let p = self.squares[sq];
            if p != NO_PIECE {
                key ^= ZOBRIST.piece[p as usize][sq];
            }
        }
        for sq in Squares(self.castle) {
            key ^= ZOBRIST.castle[sq];
        }
        if self.side == BLACK {
            key ^= ZOBRIST.side;
        }
        if self.ep_capturable() {
            key ^= ZOBRIST.ep[file_of(self.ep as usize)];
        }
        key
    }
}
