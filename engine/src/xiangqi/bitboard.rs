//! Squares, `u128` bitboards and the attack tables, all computed by `const fn` at compile time.
//!
//! A square is `rank * 9 + file`, rank 0 being red's back rank and file 0 the a-file (red's
//! left). Bit `sq` of a [`Bitboard`] stands for square `sq`; bits 90..127 are always zero, and
//! square [`NO_SQ`] (90) is used as an always-empty sentinel for off-board neighbours so that
//! leg and eye lookups need no bounds branches.
//!
//! Sliding attacks use "rotated" line occupancies: the 9-bit rank occupancy is a shift of the
//! board bitboard, and the 10-bit file occupancy is kept per file by the position. Edge squares
//! never change a line attack, so only the inner bits index the tables (128 rank and 256 file
//! entries per origin), which keeps every table in L1.

/// A set of squares: bit `sq` for square `sq`.
pub type Bitboard = u128;

/// The number of files.
pub const FILES: usize = 9;
/// The number of ranks.
pub const RANKS: usize = 10;
/// The number of squares.
pub const SQUARES: usize = 90;
/// An always-empty square past the board, the neighbour of edge squares in the leg/eye tables.
pub const NO_SQ: usize = 90;

/// The square on `rank` and `file`.
#[inline(always)]
pub const fn square(rank: usize, file: usize) -> usize {
    rank * FILES + file
}

/// The rank (0 = red's back rank) of a square.
#[inline(always)]
pub const fn rank_of(sq: usize) -> usize {
    sq / FILES
}

/// The file (0 = a) of a square.
#[inline(always)]
pub const fn file_of(sq: usize) -> usize {
    sq % FILES
}

/// The bitboard of one square; [`NO_SQ`] maps to the empty set.
#[inline(always)]
pub fn bit(sq: usize) -> Bitboard {
    TABLES.bit[sq]
}

/// Iterates over the squares of a bitboard, lowest first.
#[inline(always)]
pub fn squares(mut b: Bitboard) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let sq = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(sq)
        }
    })
}

/// The four orthogonal steps (rank, file): up (towards black), down, left, right.
const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, -1), (0, 1)];
/// The four diagonal steps (rank, file).
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The square at (`rank`, `file`) if it is on the board.
const fn on_board(rank: i32, file: i32) -> Option<usize> {
    if rank >= 0 && rank < RANKS as i32 && file >= 0 && file < FILES as i32 {
        Some(square(rank as usize, file as usize))
    } else {
        None
    }
}

/// The square one `step` away from `sq`, or [`NO_SQ`].
const fn neighbour(sq: usize, step: (i32, i32)) -> usize {
    match on_board(rank_of(sq) as i32 + step.0, file_of(sq) as i32 + step.1) {
        Some(s) => s,
        None => NO_SQ,
    }
}

/// True when `sq` is in either palace (files d-f, ranks 0-2 or 7-9).
pub const fn in_palace(sq: usize) -> bool {
    let (r, f) = (rank_of(sq), file_of(sq));
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// True when `sq` is on red's half of the board (ranks 0-4).
pub const fn red_half(sq: usize) -> bool {
    rank_of(sq) <= 4
}

/// The attack and move tables, built once at compile time.
pub struct Tables {
    /// The bitboard of each square, and an empty set for [`NO_SQ`] and beyond (sized for any
    /// `u8` so that lookups through the `u8` leg and eye tables need no bounds check).
    pub bit: [Bitboard; 256],
    /// Chariot attacks along a rank: `[file][inner occupancy]`, 9 bits of the rank.
    pub rank_rook: [[u16; 128]; FILES],
    /// Cannon captures along a rank (the square behind exactly one screen), as `rank_rook`.
    pub rank_cannon: [[u16; 128]; FILES],
    /// Chariot attacks along a file: `[rank][inner occupancy]`, 10 bits, one per rank.
    pub file_rook: [[u16; 256]; RANKS],
    /// Cannon captures along a file, as `file_rook`.
    pub file_cannon: [[u16; 256]; RANKS],
    /// Spreads 10 rank bits of a file line into a bitboard of the a-file.
    pub file_spread: [Bitboard; 1024],
    /// General steps, confined to the palace.
    pub general: [Bitboard; SQUARES],
    /// Advisor steps, confined to the palace.
    pub advisor: [Bitboard; SQUARES],
    /// Elephant eyes: the four diagonal neighbours (or [`NO_SQ`]).
    pub eyes: [[u8; 4]; SQUARES],
    /// Elephant moves by eye occupancy (bit i set when `eyes[sq][i]` is occupied); they never
    /// cross the river.
    pub elephant: [[Bitboard; 16]; SQUARES],
    /// Horse legs: the four orthogonal neighbours (or [`NO_SQ`]).
    pub legs: [[u8; 4]; SQUARES],
    /// Horse moves by leg occupancy (bit i set when `legs[sq][i]` is occupied).
    pub horse: [[Bitboard; 16]; SQUARES],
    /// The squares from which a horse attacks `sq`, by occupancy of the diagonal neighbours of
    /// `sq` (bit i for `eyes[sq][i]`): the attacker's leg is always one of them.
    pub horse_to: [[Bitboard; 16]; SQUARES],
    /// The squares from which a horse could attack `sq` through diagonal neighbour i, whatever
    /// the occupancy.
    pub horse_via: [[Bitboard; 4]; SQUARES],
    /// Soldier moves by colour: forward, and sideways once across the river.
    pub soldier: [[Bitboard; SQUARES]; 2],
    /// The squares from which a soldier of the given colour attacks `sq`.
    pub soldier_to: [[Bitboard; SQUARES]; 2],
    /// Orthogonal rays from a square to the edge, in the order of `ORTHO`, square excluded.
    pub rays: [[Bitboard; 4]; SQUARES],
}

/// Attacks along one line of `len` squares from position `pos`, the line's occupancy given by
/// `occ` (all bits; the bit at `pos` is ignored). Returns (chariot, cannon-capture) masks.
const fn line_attacks(pos: usize, occ: u32, len: usize) -> (u16, u16) {
    let mut rook = 0u16;
    let mut cannon = 0u16;
    let mut dir = 0;
    while dir < 2 {
        let mut q = pos as i32;
        let mut screened = false;
        loop {
            q += if dir == 0 { 1 } else { -1 };
            if q < 0 || q >= len as i32 {
                break;
            }
            let occupied = occ & (1 << q) != 0;
            if !screened {
                rook |= 1 << q;
                if occupied {
                    screened = true;
                }
            } else if occupied {
                cannon |= 1 << q;
                break;
            }
        }
        dir += 1;
    }
    (rook, cannon)
}

/// The occupancy of a whole line from its inner bits; the edges are marked occupied, which
/// never changes a chariot attack, and makes a cannon "capture" the edge square, which the
/// caller masks with the real pieces anyway.
const fn inner_to_line(idx: usize, len: usize) -> u32 {
    ((idx as u32) << 1) | 1 | (1 << (len - 1))
}

impl Tables {
    const fn build() -> Tables {
        let mut t = Tables {
            bit: [0; 256],
            rank_rook: [[0; 128]; FILES],
            rank_cannon: [[0; 128]; FILES],
            file_rook: [[0; 256]; RANKS],
            file_cannon: [[0; 256]; RANKS],
            file_spread: [0; 1024],
            general: [0; SQUARES],
            advisor: [0; SQUARES],
            eyes: [[NO_SQ as u8; 4]; SQUARES],
            elephant: [[0; 16]; SQUARES],
            legs: [[NO_SQ as u8; 4]; SQUARES],
            horse: [[0; 16]; SQUARES],
            horse_to: [[0; 16]; SQUARES],
            horse_via: [[0; 4]; SQUARES],
            soldier: [[0; SQUARES]; 2],
            soldier_to: [[0; SQUARES]; 2],
            rays: [[0; 4]; SQUARES],
        };
        let mut sq = 0;
        while sq < SQUARES {
            t.bit[sq] = 1 << sq;
            sq += 1;
        }

        // Line tables.
        let mut pos = 0;
        while pos < FILES {
            let mut idx = 0;
            while idx < 128 {
                let (r, c) = line_attacks(pos, inner_to_line(idx, FILES), FILES);
                t.rank_rook[pos][idx] = r;
                t.rank_cannon[pos][idx] = c;
                idx += 1;
            }
            pos += 1;
        }
        let mut pos = 0;
        while pos < RANKS {
            let mut idx = 0;
            while idx < 256 {
                let (r, c) = line_attacks(pos, inner_to_line(idx, RANKS), RANKS);
                t.file_rook[pos][idx] = r;
                t.file_cannon[pos][idx] = c;
                idx += 1;
            }
            pos += 1;
        }
        let mut bits = 0;
        while bits < 1024 {
            let mut b: Bitboard = 0;
            let mut r = 0;
            while r < RANKS {
                if bits & (1 << r) != 0 {
                    b |= 1 << square(r, 0);
                }
                r += 1;
            }
            t.file_spread[bits] = b;
            bits += 1;
        }

        let mut sq = 0;
        while sq < SQUARES {
            let (r, f) = (rank_of(sq) as i32, file_of(sq) as i32);
            let mut i = 0;
            while i < 4 {
                let (o, d) = (ORTHO[i], DIAG[i]);
                // General and advisor: one step inside the palace.
                if let Some(s) = on_board(r + o.0, f + o.1)
                    && in_palace(sq)
                    && in_palace(s)
                {
                    t.general[sq] |= 1 << s;
                }
                if let Some(s) = on_board(r + d.0, f + d.1)
                    && in_palace(sq)
                    && in_palace(s)
                {
                    t.advisor[sq] |= 1 << s;
                }
                t.legs[sq][i] = neighbour(sq, o) as u8;
                t.eyes[sq][i] = neighbour(sq, d) as u8;
                // Rays.
                let mut s = neighbour(sq, o);
                while s != NO_SQ {
                    t.rays[sq][i] |= 1 << s;
                    s = neighbour(s, o);
                }
                // A horse attacking `sq` through its leg on diagonal neighbour `sq + d` stands
                // one step beyond that neighbour along either component of `d`.
                if let Some(s) = on_board(r + 2 * d.0, f + d.1) {
                    t.horse_via[sq][i] |= 1 << s;
                }
                if let Some(s) = on_board(r + d.0, f + 2 * d.1) {
                    t.horse_via[sq][i] |= 1 << s;
                }
                i += 1;
            }
            let mut occ = 0;
            while occ < 16 {
                let mut i = 0;
                while i < 4 {
                    if occ & (1 << i) == 0 {
                        // Elephant: two diagonal steps, on its own side of the river.
                        let d = DIAG[i];
                        if let Some(s) = on_board(r + 2 * d.0, f + 2 * d.1)
                            && red_half(s) == red_half(sq)
                        {
                            t.elephant[sq][occ] |= 1 << s;
                        }
                        // Horse: one orthogonal step over the free leg, then one diagonal
                        // step outward.
                        let o = ORTHO[i];
                        let (a, b) = if o.0 != 0 {
                            ((2 * o.0, 1), (2 * o.0, -1))
                        } else {
                            ((1, 2 * o.1), (-1, 2 * o.1))
                        };
                        if let Some(s) = on_board(r + a.0, f + a.1) {
                            t.horse[sq][occ] |= 1 << s;
                        }
                        if let Some(s) = on_board(r + b.0, f + b.1) {
                            t.horse[sq][occ] |= 1 << s;
                        }
                        t.horse_to[sq][occ] |= t.horse_via[sq][i];
                    }
                    i += 1;
                }
                occ += 1;
            }
            // Soldiers: red moves up the ranks, black down; sideways once across the river.
            let mut colour = 0;
            while colour < 2 {
                let fwd = if colour == 0 { 1 } else { -1 };
                let crossed = if colour == 0 { !red_half(sq) } else { red_half(sq) };
                if let Some(s) = on_board(r + fwd, f) {
                    t.soldier[colour][sq] |= 1 << s;
                }
                if crossed {
                    if let Some(s) = on_board(r, f - 1) {
                        t.soldier[colour][sq] |= 1 << s;
                    }
                    if let Some(s) = on_board(r, f + 1) {
                        t.soldier[colour][sq] |= 1 << s;
                    }
                }
                colour += 1;
            }
            sq += 1;
        }
        // Soldier attackers are the inverse relation of soldier moves.
        let mut colour = 0;
        while colour < 2 {
            let mut from = 0;
            while from < SQUARES {
                let mut to = 0;
                while to < SQUARES {
                    if t.soldier[colour][from] & (1 << to) != 0 {
                        t.soldier_to[colour][to] |= 1 << from;
                    }
                    to += 1;
                }
                from += 1;
            }
            colour += 1;
        }
        t
    }
}

/// The tables, evaluated by the compiler.
pub static TABLES: Tables = Tables::build();

/// Chariot attacks and cannon captures from `sq`, given the board occupancy `occ` and the
/// occupancy of `sq`'s file as rank bits (`file_occ`). The cannon set is every square behind
/// exactly one screen (plus possibly empty edge squares): mask it with the pieces of interest.
#[inline(always)]
pub fn line_attacks_from(sq: usize, occ: Bitboard, file_occ: u16) -> (Bitboard, Bitboard) {
    let t = &TABLES;
    let (r, f) = (rank_of(sq), file_of(sq));
    let shift = r * FILES;
    let rank_idx = ((occ >> (shift + 1)) as usize) & 0x7F;
    let file_idx = ((file_occ >> 1) as usize) & 0xFF;
    let rook = ((t.rank_rook[f][rank_idx] as Bitboard) << shift)
        | (t.file_spread[t.file_rook[r][file_idx] as usize] << f);
    let cannon = ((t.rank_cannon[f][rank_idx] as Bitboard) << shift)
        | (t.file_spread[t.file_cannon[r][file_idx] as usize] << f);
    (rook, cannon)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn horse_tables_are_inverse() {
        // A horse on `from` attacks `to` with some leg occupancy iff `from` is in horse_via.
        for to in 0..SQUARES {
            let all: Bitboard = TABLES.horse_via[to].iter().fold(0, |a, b| a | b);
            for from in 0..SQUARES {
                let attacks = TABLES.horse[from][0] & bit(to) != 0;
                assert_eq!(attacks, all & bit(from) != 0, "{from} -> {to}");
            }
        }
    }

    #[test]
    fn palace_and_elephant_squares() {
        assert_eq!(TABLES.general[square(0, 4)].count_ones(), 3);
        assert_eq!(TABLES.advisor[square(1, 4)].count_ones(), 4);
        assert_eq!(TABLES.advisor[square(0, 3)].count_ones(), 1);
        // An elephant on c4 (red's river bank) cannot cross.
        assert_eq!(TABLES.elephant[square(4, 2)][0], bit(square(2, 0)) | bit(square(2, 4)));
    }
}
