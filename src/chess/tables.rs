//! Precomputed tables: leaper and slider attacks, square relations, Zobrist keys and the
//! piece-square scores, built once at first use.
//!
//! Sliders use "fancy" magic bitboards: each square's relevant occupancy is multiplied by a
//! magic number whose top bits index a dense per-square slice of one shared attack table. The
//! magics are found at start-up by a fixed-seed random search (a few milliseconds in release),
//! so nothing generated is committed and every run builds identical tables.
//!
//! Hot code fetches `&Tables` once through [`tables`] and passes it down, so the `OnceLock`
//! check is paid per call into the module, not per lookup.

use super::bitboard::*;
use super::eval;
use std::sync::OnceLock;

/// The seed of the random search for magics and of the Zobrist keys; fixed so that keys (and
/// thus any hash-dependent behaviour) are identical from run to run.
const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The four rook directions and the four bishop directions as (file, rank) steps.
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// One square's magic: relevant-occupancy mask, multiplier, shift and where its slice starts.
#[derive(Copy, Clone, Default)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    offset: u32,
    shift: u32,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occ: Bitboard) -> usize {
        self.offset as usize + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// Every precomputed table of the chess rules and evaluation.
pub struct Tables {
    knight: [Bitboard; 64],
    king: [Bitboard; 64],
    pawn: [[Bitboard; 64]; 2],
    rook_magics: [Magic; 64],
    bishop_magics: [Magic; 64],
    slider: Vec<Bitboard>,
    between: Box<[[Bitboard; 64]; 64]>,
    line: Box<[[Bitboard; 64]; 64]>,
    /// Zobrist keys of each coloured piece on each square.
    pub zobrist_piece: [[u64; 64]; 12],
    /// Zobrist key toggled when black is to move.
    pub zobrist_side: u64,
    /// Zobrist key of a castling right, indexed by the square of the rook that keeps it.
    pub zobrist_castle: [u64; 64],
    /// Zobrist key of an en-passant file, hashed only when a capture there is possible.
    pub zobrist_ep: [u64; 8],
    /// Packed (middlegame, endgame) material plus piece-square score of each coloured piece on
    /// each square, from white's point of view; see [`eval`].
    pub psq: [[i32; 64]; 12],
}

/// The process-wide tables, built on first use.
#[inline(always)]
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::build)
}

/// A small fixed-seed generator (SplitMix64): enough for magics and Zobrist keys.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Few set bits make good magic candidates.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Slider attacks from `sq` along `dirs`, stopping at (and including) the first blocker.
fn slide(sq: usize, occ: Bitboard, dirs: &[(i32, i32); 4]) -> Bitboard {
    let mut att = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (file_of(sq) as i32 + df, rank_of(sq) as i32 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) {
            let s = square(f as usize, r as usize);
            att |= bit(s);
            if occ & bit(s) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    att
}

/// Squares reached by single steps `(df, dr)` from `sq` that stay on the board.
fn leaps(sq: usize, steps: &[(i32, i32)]) -> Bitboard {
    let mut att = 0;
    for &(df, dr) in steps {
        let (f, r) = (file_of(sq) as i32 + df, rank_of(sq) as i32 + dr);
        if (0..8).contains(&f) && (0..8).contains(&r) {
            att |= bit(square(f as usize, r as usize));
        }
    }
    att
}

/// The occupancy bits that matter for a slider on `sq`: its empty-board rays minus the last
/// square of each ray (a piece on the edge blocks nothing further).
fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> Bitboard {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (file_of(sq) as i32 + df, rank_of(sq) as i32 + dr);
        while (0..8).contains(&(f + df)) && (0..8).contains(&(r + dr)) {
            mask |= bit(square(f as usize, r as usize));
            f += df;
            r += dr;
        }
    }
    mask
}

/// Finds a magic for every square and fills its slice of `table`.
fn build_magics(dirs: &[(i32, i32); 4], rng: &mut Rng, table: &mut Vec<Bitboard>) -> [Magic; 64] {
    let mut magics = [Magic::default(); 64];
    let mut occs = Vec::with_capacity(4096);
    let mut refs = Vec::with_capacity(4096);
    let mut epoch = vec![0u32; 4096];
    let mut used = vec![0 as Bitboard; 4096];
    let mut attempt = 0u32;
    for (sq, magic) in magics.iter_mut().enumerate() {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        // Enumerate every subset of the mask (carry-rippler) with its true attack set.
        occs.clear();
        refs.clear();
        let mut occ: Bitboard = 0;
        loop {
            occs.push(occ);
            refs.push(slide(sq, occ, dirs));
            occ = occ.wrapping_sub(mask) & mask;
            if occ == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let size = 1usize << bits;
        loop {
            let m = rng.sparse();
            // A magic must spread the mask's bits into the index; few high bits never work.
            if (mask.wrapping_mul(m) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for (&o, &a) in occs.iter().zip(&refs) {
                let idx = (o.wrapping_mul(m) >> shift) as usize;
                if epoch[idx] < attempt {
                    epoch[idx] = attempt;
                    used[idx] = a;
                } else if used[idx] != a {
                    ok = false;
                    break;
                }
            }
            if ok {
                *magic = Magic { mask, magic: m, offset: table.len() as u32, shift };
                table.extend_from_slice(&used[..size]);
                break;
            }
        }
    }
    magics
}

impl Tables {
    fn build() -> Tables {
        let mut rng = Rng(SEED);
        let mut knight = [0; 64];
        let mut king = [0; 64];
        let mut pawn = [[0; 64]; 2];
        for sq in 0..64 {
            knight[sq] = leaps(
                sq,
                &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)],
            );
            king[sq] =
                leaps(sq, &[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
            pawn[WHITE][sq] = leaps(sq, &[(-1, 1), (1, 1)]);
            pawn[BLACK][sq] = leaps(sq, &[(-1, -1), (1, -1)]);
        }
        let mut slider = Vec::with_capacity(102_400 + 5_248);
        let rook_magics = build_magics(&ROOK_DIRS, &mut rng, &mut slider);
        let bishop_magics = build_magics(&BISHOP_DIRS, &mut rng, &mut slider);

        let mut between = Box::new([[0; 64]; 64]);
        let mut line = Box::new([[0; 64]; 64]);
        for a in 0..64 {
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                let empty_a = slide(a, 0, dirs);
                for b in Squares(empty_a) {
                    between[a][b] = slide(a, bit(b), dirs) & slide(b, bit(a), dirs);
                    line[a][b] = (empty_a & slide(b, 0, dirs)) | bit(a) | bit(b);
                }
            }
        }

        let mut zobrist_piece = [[0; 64]; 12];
        for row in zobrist_piece.iter_mut() {
            for k in row.iter_mut() {
                *k = rng.next();
            }
        }
        let zobrist_side = rng.next();
        let mut zobrist_castle = [0; 64];
        for k in zobrist_castle.iter_mut() {
            *k = rng.next();
        }
        let mut zobrist_ep = [0; 8];
        for k in zobrist_ep.iter_mut() {
            *k = rng.next();
        }

        Tables {
            knight,
            king,
            pawn,
            rook_magics,
            bishop_magics,
            slider,
            between,
            line,
            zobrist_piece,
            zobrist_side,
            zobrist_castle,
            zobrist_ep,
            psq: eval::psq_table(),
        }
    }

    /// Knight moves from `sq`.
    #[inline(always)]
    pub fn knight(&self, sq: usize) -> Bitboard {
        self.knight[sq]
    }

    /// King steps from `sq`.
    #[inline(always)]
    pub fn king(&self, sq: usize) -> Bitboard {
        self.king[sq]
    }

    /// Squares a pawn of `colour` on `sq` attacks.
    #[inline(always)]
    pub fn pawn(&self, colour: usize, sq: usize) -> Bitboard {
        self.pawn[colour][sq]
    }

    /// Rook attacks from `sq` given the occupancy `occ`.
    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: Bitboard) -> Bitboard {
        self.slider[self.rook_magics[sq].index(occ)]
    }

    /// Bishop attacks from `sq` given the occupancy `occ`.
    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: Bitboard) -> Bitboard {
        self.slider[self.bishop_magics[sq].index(occ)]
    }

    /// Queen attacks from `sq` given the occupancy `occ`.
    #[inline(always)]
    pub fn queen(&self, sq: usize, occ: Bitboard) -> Bitboard {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }

    /// The squares strictly between `a` and `b` when they share a line, else empty.
    #[inline(always)]
    pub fn between(&self, a: usize, b: usize) -> Bitboard {
        self.between[a][b]
    }

    /// The whole line (edge to edge) through `a` and `b` when they share one, else empty.
    #[inline(always)]
    pub fn line(&self, a: usize, b: usize) -> Bitboard {
        self.line[a][b]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_match_slow_slides() {
        let t = tables();
        let mut rng = Rng(7);
        for _ in 0..20_000 {
            let occ = rng.next() & rng.next();
            let sq = (rng.next() % 64) as usize;
            assert_eq!(t.rook(sq, occ), slide(sq, occ, &ROOK_DIRS));
            assert_eq!(t.bishop(sq, occ), slide(sq, occ, &BISHOP_DIRS));
        }
    }

    #[test]
    fn between_and_line() {
        let t = tables();
        // a1..h8 diagonal, a1 and d4.
        assert_eq!(t.between(0, 27), bit(9) | bit(18));
        assert_eq!(t.line(0, 27).count_ones(), 8);
        assert_eq!(t.between(0, 17), 0);
        assert_eq!(t.line(0, 17), 0);
        assert_eq!(t.between(4, 7), bit(5) | bit(6));
    }
}
