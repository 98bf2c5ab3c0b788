//! The board: pieces in bitboards and a mailbox, Zobrist keys, and make/unmake with a history
//! stack of per-ply states that the repetition and move-limit rules read.

use super::bitboard::*;
use crate::rng::SplitMix;

/// Piece kinds. A piece code is `colour << 3 | (kind + 1)`, so 0 is an empty square.
pub mod kind {
    /// The general (king).
    pub const GENERAL: u8 = 0;
    /// The advisor (guard).
    pub const ADVISOR: u8 = 1;
    /// The elephant (minister).
    pub const ELEPHANT: u8 = 2;
    /// The horse.
    pub const HORSE: u8 = 3;
    /// The chariot (rook).
    pub const CHARIOT: u8 = 4;
    /// The cannon.
    pub const CANNON: u8 = 5;
    /// The soldier (pawn).
    pub const SOLDIER: u8 = 6;
    /// The number of kinds.
    pub const COUNT: usize = 7;
}

/// Red, who moves first.
pub const RED: usize = 0;
/// Black.
pub const BLACK: usize = 1;
/// The code of an empty square.
pub const EMPTY: u8 = 0;

/// The piece code of `kind` for `colour`.
#[inline(always)]
pub const fn piece(colour: usize, kind: u8) -> u8 {
    ((colour as u8) << 3) | (kind + 1)
}

/// The kind of a (non-empty) piece code.
#[inline(always)]
pub const fn kind_of(p: u8) -> u8 {
    (p & 7) - 1
}

/// The colour of a (non-empty) piece code.
#[inline(always)]
pub const fn colour_of(p: u8) -> usize {
    (p >> 3) as usize
}

/// Zobrist keys: one per (piece code, square), and one for black to move.
pub struct Zobrist {
    /// `[piece code][square]`; codes 0 and 8 are unused.
    pub piece: [[u64; SQUARES]; 16],
    /// XORed in when black is to move.
    pub side: u64,
}

const fn zobrist() -> Zobrist {
    let mut z = Zobrist { piece: [[0; SQUARES]; 16], side: 0 };
    let mut rng = SplitMix::new(0x5851_F42D_4C95_7F2D);
    let mut p = 0;
    while p < 16 {
        let mut sq = 0;
        while sq < SQUARES {
            let (next, v) = rng.step();
            rng = next;
            z.piece[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    z.side = rng.step().1;
    z
}

/// The Zobrist keys, computed at compile time.
pub static ZOBRIST: Zobrist = zobrist();

/// What a ply leaves behind: enough to undo it and to judge repetitions.
#[derive(Copy, Clone, Debug, Default)]
pub struct State {
    /// The key of the position before the move.
    pub key: u64,
    /// Its soldiers' key ([`Position::pawn_key`]).
    pub pawn_key: u64,
    /// The move played from that position (raw bits; 0 for a null move).
    pub mv: u16,
    /// The piece captured by the move, or [`EMPTY`].
    pub captured: u8,
    /// Whether the side to move was in check before the move.
    pub in_check: bool,
    /// Plies since the last capture, before the move.
    pub halfmove: u16,
    /// Plies since the last null move, before the move (repetitions never span a null move).
    pub from_null: u16,
    /// Checks given by each colour since the last capture, before the move.
    pub checks: [u16; 2],
}

/// A xiangqi position with its history.
#[derive(Clone)]
pub struct Position {
    /// Piece code per square; index [`NO_SQ`] and beyond are always empty. The array spans
    /// every `u8` so that lookups through the `u8` leg and eye tables need no bounds check.
    pub board: [u8; 256],
    /// Bitboard per piece code.
    pub pieces: [Bitboard; 16],
    /// Bitboard per colour.
    pub colours: [Bitboard; 2],
    /// All pieces.
    pub occ: Bitboard,
    /// Occupancy of each file as rank bits: the rotated view for file attacks.
    pub files: [u16; FILES],
    /// The side to move ([`RED`] or [`BLACK`]).
    pub side: usize,
    /// Zobrist key.
    pub key: u64,
    /// The Zobrist key of the soldiers of both colours (their piece keys alone): the
    /// correction history's index, read at every node that evaluates, so kept by make and
    /// unmake rather than computed on each read.
    pawn_key: u64,
    /// Whether the side to move is in check.
    pub checked: bool,
    /// Plies since the last capture.
    pub halfmove: u16,
    /// Plies since the last null move.
    pub from_null: u16,
    /// Checks given by each colour since the last capture (the move limit discounts them).
    pub checks: [u16; 2],
    /// The fullmove number, for FEN output.
    pub fullmove: u32,
    /// One state per move made, oldest first.
    pub history: Vec<State>,
}

/// Room reserved in the history so that a search never reallocates.
const HISTORY_RESERVE: usize = 1024;

impl Position {
    /// A Zobrist key of the soldiers of both colours on their squares, from the position's
    /// piece keys.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.pawn_key
    }

    /// [`Position::pawn_key`] computed from the pieces (tests compare the two).
    pub fn compute_pawn_key(&self) -> u64 {
        self.piece_key(self.bb(RED, kind::SOLDIER) | self.bb(BLACK, kind::SOLDIER))
    }

    /// A Zobrist key of `colour`'s pieces other than soldiers (general included) on their
    /// squares, computed from the board on each call.
    pub fn non_pawn_key(&self, colour: usize) -> u64 {
        self.piece_key(self.colours[colour] & !self.bb(colour, kind::SOLDIER))
    }

    /// The XOR of the piece keys of the pieces on `set`.
    fn piece_key(&self, set: Bitboard) -> u64 {
        squares(set)
            .map(|sq| ZOBRIST.piece[usize::from(self.board[sq])][sq])
            .fold(0, |key, k| key ^ k)
    }

    /// An empty board, red to move.
    pub fn empty() -> Position {
        Position {
            board: [EMPTY; 256],
            pieces: [0; 16],
            colours: [0; 2],
            occ: 0,
            files: [0; FILES],
            side: RED,
            key: 0,
            pawn_key: 0,
            checked: false,
            halfmove: 0,
            from_null: 0,
            checks: [0; 2],
            fullmove: 1,
            history: Vec::with_capacity(HISTORY_RESERVE),
        }
    }

    /// Puts piece `p` on the empty square `sq`, updating every view but not the check flag.
    pub fn put(&mut self, p: u8, sq: usize) {
        debug_assert_eq!(self.board[sq], EMPTY);
        let b = bit(sq);
        self.board[sq] = p;
        self.pieces[p as usize] |= b;
        self.colours[colour_of(p)] |= b;
        self.occ |= b;
        self.files[file_of(sq)] |= 1 << rank_of(sq);
        self.toggle_key(p, ZOBRIST.piece[p as usize][sq]);
    }

    /// Applies the piece keys `z` of piece `p` to the key, and to the soldiers' key when `p`
    /// is a soldier.
    #[inline(always)]
    fn toggle_key(&mut self, p: u8, z: u64) {
        self.key ^= z;
        if kind_of(p) == kind::SOLDIER {
            self.pawn_key ^= z;
        }
    }

    /// The bitboard of `colour`'s pieces of `kind`.
    #[inline(always)]
    pub fn bb(&self, colour: usize, kind: u8) -> Bitboard {
        self.pieces[piece(colour, kind) as usize]
    }

    /// The square of `colour`'s general (the position always has one).
    #[inline(always)]
    pub fn general(&self, colour: usize) -> usize {
        self.bb(colour, kind::GENERAL).trailing_zeros() as usize
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == BLACK { ZOBRIST.side } else { 0 };
        for sq in 0..SQUARES {
            let p = self.board[sq];
            if p != EMPTY {
                key ^= ZOBRIST.piece[p as usize][sq];
            }
        }
        key
    }

    /// True when `colour`'s general on `ksq` is attacked, with the board occupancy `occ`,
    /// `ksq`'s file occupancy `file_occ`, and enemy pieces on `removed` ignored (captured).
    #[inline(always)]
    pub fn attacked(
        &self,
        colour: usize,
        ksq: usize,
        occ: Bitboard,
        file_occ: u16,
        removed: Bitboard,
    ) -> bool {
        let them = colour ^ 1;
        let t = &TABLES;
        let keep = !removed;
        let (rook, cannon) = line_attacks_from(ksq, occ, file_occ);
        // The enemy general "attacks" along an open file (flying general); the generals can
        // never share a rank, so the chariot mask serves for both.
        if rook & (self.bb(them, kind::CHARIOT) | self.bb(them, kind::GENERAL)) & keep != 0 {
            return true;
        }
        if cannon & self.bb(them, kind::CANNON) & keep != 0 {
            return true;
        }
        let eyes = &t.eyes[ksq];
        let legs = (occ & bit(eyes[0] as usize) != 0) as usize
            | ((occ & bit(eyes[1] as usize) != 0) as usize) << 1
            | ((occ & bit(eyes[2] as usize) != 0) as usize) << 2
            | ((occ & bit(eyes[3] as usize) != 0) as usize) << 3;
        if t.horse_to[ksq][legs] & self.bb(them, kind::HORSE) & keep != 0 {
            return true;
        }
        t.soldier_to[them][ksq] & self.bb(them, kind::SOLDIER) & keep != 0
    }

    /// True when the side to move's general is attacked in the current position.
    pub fn compute_checked(&self) -> bool {
        let k = self.general(self.side);
        self.attacked(self.side, k, self.occ, self.files[file_of(k)], 0)
    }

    /// True when `colour`'s general would be safe after moving a piece from `from` to `to`.
    #[inline(always)]
    pub fn safe_after(&self, colour: usize, ksq: usize, from: usize, to: usize) -> bool {
        let (fb, tb) = (bit(from), bit(to));
        let occ = (self.occ ^ fb) | tb;
        let k = if from == ksq { to } else { ksq };
        let kf = file_of(k);
        let mut file_occ = self.files[kf];
        if file_of(from) == kf {
            file_occ ^= 1 << rank_of(from);
        }
        if file_of(to) == kf {
            file_occ |= 1 << rank_of(to);
        }
        !self.attacked(colour, k, occ, file_occ, tb)
    }

    /// Plays the move `from` -> `to` (assumed legal), pushing a [`State`].
    #[inline(always)]
    pub fn make(&mut self, raw: u16) {
        let from = (raw & 0x7F) as usize;
        let to = (raw >> 7) as usize;
        let p = self.board[from];
        let cap = self.board[to];
        self.history.push(State {
            key: self.key,
            pawn_key: self.pawn_key,
            mv: raw,
            captured: cap,
            in_check: self.checked,
            halfmove: self.halfmove,
            from_null: self.from_null,
            checks: self.checks,
        });
        let (fb, tb) = (bit(from), bit(to));
        let us = self.side;
        let z = &ZOBRIST;
        if cap != EMPTY {
            self.pieces[cap as usize] ^= tb;
            self.colours[us ^ 1] ^= tb;
            self.toggle_key(cap, z.piece[cap as usize][to]);
            self.halfmove = 0;
            self.checks = [0; 2];
        } else {
            self.occ |= tb;
            self.files[file_of(to)] |= 1 << rank_of(to);
            self.halfmove = self.halfmove.saturating_add(1);
        }
        self.occ ^= fb;
        self.files[file_of(from)] ^= 1 << rank_of(from);
        self.pieces[p as usize] ^= fb | tb;
        self.colours[us] ^= fb | tb;
        self.board[from] = EMPTY;
        self.board[to] = p;
        self.toggle_key(p, z.piece[p as usize][from] ^ z.piece[p as usize][to]);
        self.key ^= z.side;
        self.from_null = self.from_null.saturating_add(1);
        if us == BLACK {
            self.fullmove += 1;
        }
        self.side = us ^ 1;
        self.checked = self.compute_checked();
        self.checks[us] = self.checks[us].saturating_add(u16::from(self.checked));
    }

    /// Takes back the last [`Position::make`].
    #[inline(always)]
    pub fn unmake(&mut self) {
        let Some(st) = self.history.pop() else {
            debug_assert!(false, "unmake with an empty history");
            return;
        };
        let from = (st.mv & 0x7F) as usize;
        let to = (st.mv >> 7) as usize;
        let them = self.side;
        let us = them ^ 1;
        let p = self.board[to];
        let cap = st.captured;
        let (fb, tb) = (bit(from), bit(to));
        self.pieces[p as usize] ^= fb | tb;
        self.colours[us] ^= fb | tb;
        self.occ ^= fb;
        self.files[file_of(from)] ^= 1 << rank_of(from);
        if cap != EMPTY {
            self.pieces[cap as usize] ^= tb;
            self.colours[them] ^= tb;
        } else {
            self.occ ^= tb;
            self.files[file_of(to)] ^= 1 << rank_of(to);
        }
        self.board[from] = p;
        self.board[to] = cap;
        if us == BLACK {
            self.fullmove -= 1;
        }
        self.side = us;
        self.restore(&st);
    }

    fn restore(&mut self, st: &State) {
        self.key = st.key;
        self.pawn_key = st.pawn_key;
        self.checked = st.in_check;
        self.halfmove = st.halfmove;
        self.from_null = st.from_null;
        self.checks = st.checks;
    }

    /// Passes the turn.
    pub fn make_null(&mut self) {
        self.history.push(State {
            key: self.key,
            pawn_key: self.pawn_key,
            mv: 0,
            captured: EMPTY,
            in_check: self.checked,
            halfmove: self.halfmove,
            from_null: self.from_null,
            checks: self.checks,
        });
        if self.side == BLACK {
            self.fullmove += 1;
        }
        self.side ^= 1;
        self.key ^= ZOBRIST.side;
        self.halfmove = self.halfmove.saturating_add(1);
        self.from_null = 0;
        self.checked = self.compute_checked();
    }

    /// Takes back [`Position::make_null`].
    pub fn unmake_null(&mut self) {
        let Some(st) = self.history.pop() else {
            debug_assert!(false, "unmake_null with an empty history");
            return;
        };
        self.side ^= 1;
        if self.side == BLACK {
            self.fullmove -= 1;
        }
        self.restore(&st);
    }
}
