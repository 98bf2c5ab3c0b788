//! Precomputed tables: leaper and slider attacks, square relations, Zobrist keys and the
//! piece-square scores, built once at first use.
//!
//! Sliders use "fancy" magic bitboards: each square's relevant occupancy is multiplied by a
//! magic number whose top bits index a dense per-square slice of one shared attack table. The
//! magic numbers are constants found by the fixed-seed random search kept here (which also
//! stands in for any constant that fails); the attack table itself is computed at start-up.
//!
//! Hot code fetches `&Tables` once through [`tables`] and passes it down, so the `OnceLock`
//! check is paid per call into the module, not per lookup.

use super::bitboard::*;
use crate::rng::SplitMix;
use std::sync::OnceLock;

/// The seed of the random search for magics and of the Zobrist keys; fixed so that keys (and
/// thus any hash-dependent behaviour) are identical from run to run.
const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The four rook directions and the four bishop directions as (file, rank) steps.
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Rook magics found by [`build_magics`]'s search from [`SEED`]; kept as constants because the
/// search costs a quarter of a second at start-up. A wrong entry would only make that square
/// fall back to the search.
#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x0080021620804001, 0x0040001000200041, 0x0200102200088040, 0x4080040800821000,
    0x2200020004200810, 0x4B00020C000D0008, 0x01000C4183000600, 0x2080010000402C80,
    0x8002800826864000, 0x0410802000884000, 0x0C01004010200100, 0x020300100100203C,
    0x0450800801040080, 0x4010800200040080, 0x8804000208048110, 0x0C40800080004100,
    0xA2018880024004A0, 0x0080848020004004, 0x1010410010200101, 0x2010008008008010,
    0x0A08010004110008, 0x0802080104209040, 0x0080040090010802, 0x0280020000841069,
    0x080C400080248000, 0x2048850100224008, 0x00200800C0300040, 0x11400D0100201000,
    0x0041001100080204, 0x4802000200040810, 0x0100080C00103601, 0x0020084200043085,
    0x0100804000800022, 0x0460401000402002, 0x8309002001001044, 0x0000800800801000,
    0x0000800800800400, 0xB542040080800200, 0x1041000401000200, 0x000318B04A000401,
    0x0280082000484000, 0x0080400081010030, 0x0010002000108080, 0x012010002101000A,
    0x0801000408010012, 0x0004008002008004, 0x0AD1005200110014, 0x4000004110820004,
    0x9400400080003080, 0x0000802200490200, 0x1521100080200280, 0x9021000824100100,
    0x0081080080840280, 0x0002000904100200, 0x0130024801302400, 0x0102008100442200,
    0x0080984063800101, 0x0016810201412812, 0x40200101603008C1, 0x2851100004082101,
    0x1049001002880005, 0x0081000804000201, 0x100020901208410C, 0x0101064400813102,
];

/// Bishop magics, found the same way.
#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0x24E0440C00802202, 0x00881808841A4500, 0x29C1021085004190, 0x18C4041080042020,
    0x0841104000008108, 0x890828080880C088, 0x0006021024062018, 0x2000404044104040,
    0x09000504104A0210, 0x0088390204040820, 0x4001420082008402, 0x028108048B001142,
    0x1C00140421001008, 0x0008021212200400, 0x080000581A082004, 0x3000048208027204,
    0x0120004044148482, 0x4021000808108090, 0x0084011808009452, 0x11C802242020E000,
    0x0124002210140002, 0x4009008200420200, 0x0000830202100202, 0x9002042500420200,
    0x0A60200004480210, 0x0402481020480080, 0x8001100101004200, 0x6240104004004080,
    0x1124848014002000, 0x00180200204100A0, 0x8020890844880800, 0x0000802009040204,
    0x0410042041100280, 0x0804022000020440, 0x2418280400480024, 0x0801080800420A00,
    0x4002248400020020, 0x3020004102038084, 0x84280110601C0200, 0x2004004208088080,
    0x0008022220041210, 0x00820E0120000440, 0x0002002201020822, 0x0000002019000804,
    0x0211204C10101100, 0x0604808081001200, 0x1010029204030041, 0x1008090102110621,
    0x0002015002100C00, 0x06002C040404400A, 0xC030002201100011, 0x4040008020884000,
    0x0248000903040100, 0xC010092008008040, 0x6008084108020494, 0x28102182008E0042,
    0x0010210820842002, 0x4080020111491002, 0x0108100084008800, 0x0022242100420221,
    0x10A8008110020210, 0x400019122A900102, 0x00800A1051080300, 0x0420222088008080,
];

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

/// Every precomputed table of the chess rules: the attacks (magic tables for the sliders), the
/// squares between and along two squares, and the Zobrist keys. The evaluation's piece-square
/// table is a constant of its own (`eval::PSQ`), so that the rules do not depend on it.
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
}

/// The process-wide tables, built on first use.
#[inline(always)]
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::build)
}

/// A magic candidate: few set bits make good ones.
fn sparse(rng: &mut SplitMix) -> u64 {
    rng.next_u64() & rng.next_u64() & rng.next_u64()
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

/// Builds every square's magic and fills its slice of `table`: the known magic when it works,
/// else one found by random search.
fn build_magics(
    dirs: &[(i32, i32); 4],
    known: &[u64; 64],
    rng: &mut SplitMix,
    table: &mut Vec<Bitboard>,
) -> [Magic; 64] {
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
        let mut candidate = Some(known[sq]);
        loop {
            let m = match candidate.take() {
                Some(m) => m,
                None => sparse(rng),
            };
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
        let mut rng = SplitMix::new(SEED);
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
        let rook_magics = build_magics(&ROOK_DIRS, &ROOK_MAGICS, &mut rng, &mut slider);
        let bishop_magics = build_magics(&BISHOP_DIRS, &BISHOP_MAGICS, &mut rng, &mut slider);

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
                *k = rng.next_u64();
            }
        }
        let zobrist_side = rng.next_u64();
        let mut zobrist_castle = [0; 64];
        for k in zobrist_castle.iter_mut() {
            *k = rng.next_u64();
        }
        let mut zobrist_ep = [0; 8];
        for k in zobrist_ep.iter_mut() {
            *k = rng.next_u64();
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
        let mut rng = SplitMix::new(7);
        for _ in 0..20_000 {
            let occ = rng.next_u64() & rng.next_u64();
            let sq = (rng.next_u64() % 64) as usize;
            assert_eq!(t.rook(sq, occ), slide(sq, occ, &ROOK_DIRS));
            assert_eq!(t.bishop(sq, occ), slide(sq, occ, &BISHOP_DIRS));
        }
    }

    #[test]
    fn magic_search_fallback() {
        // With every known magic rejected, the search must still find working ones.
        let mut table = Vec::new();
        let magics = build_magics(&BISHOP_DIRS, &[0; 64], &mut SplitMix::new(SEED), &mut table);
        let mut rng = SplitMix::new(3);
        for _ in 0..5_000 {
            let occ = rng.next_u64() & rng.next_u64();
            let sq = (rng.next_u64() % 64) as usize;
            assert_eq!(table[magics[sq].index(occ)], slide(sq, occ, &BISHOP_DIRS));
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
