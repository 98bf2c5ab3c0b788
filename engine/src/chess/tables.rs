//! Precomputed tables: leaper and slider attacks, square relations and Zobrist keys, all
//! computed by `const fn` at compile time, as xiangqi's are (`xiangqi::bitboard::TABLES`).
//!
//! Sliders use "fancy" magic bitboards: each square's relevant occupancy is multiplied by a
//! magic number whose top bits index a dense per-square slice of one shared attack table. The
//! magic numbers are constants (found once by the fixed-seed search kept in the tests); the
//! attack table is filled from them by the compiler, which rejects the build if a magic maps two
//! occupancies with different attacks to one entry. Const evaluation rather than a build script:
//! the whole table (107,648 entries) adds about 3 s of CPU to the engine crate's build
//! (measured: 11 s before, 14 s after), needs no generated file, and stays one language.
//!
//! Every table is an immutable `static`, so lookups are free functions and hot code needs no
//! handle to them: the address of each table is fixed at link time.

use super::bitboard::*;
use crate::rng::SplitMix;

/// The seed of the Zobrist keys (and of the test-only search for magics); fixed so that keys
/// (and thus any hash-dependent behaviour) are identical from build to build.
const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The four rook directions and the four bishop directions as (file, rank) steps.
const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Knight and king steps as (file, rank).
const KNIGHT_STEPS: [(i32, i32); 8] =
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i32, i32); 8] =
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// Rook magics, found by the search in this module's tests from [`SEED`]; a wrong one stops
/// the build (see [`fill_slider`]).
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
#[derive(Copy, Clone)]
struct Magic {
    mask: Bitboard,
    magic: u64,
    offset: u32,
    shift: u32,
}

impl Magic {
    #[inline(always)]
    const fn index(&self, occ: Bitboard) -> usize {
        self.offset as usize + ((occ & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// Slider attacks from `sq` along `dirs`, stopping at (and including) the first blocker.
const fn slide(sq: usize, occ: Bitboard, dirs: &[(i32, i32); 4]) -> Bitboard {
    let mut att = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = (file_of(sq) as i32 + df, rank_of(sq) as i32 + dr);
        while 0 <= f && f < 8 && 0 <= r && r < 8 {
            let s = square(f as usize, r as usize);
            att |= bit(s);
            if occ & bit(s) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    att
}

/// Every square's empty-board ray in each of the directions `dirs`.
const fn rays(dirs: &[(i32, i32); 4]) -> [[Bitboard; 4]; 64] {
    let mut rays = [[0; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 4 {
            let one = [dirs[d]; 4];
            rays[sq][d] = slide(sq, 0, &one);
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// [`slide`] by whole rays, for the compiler's sake: a ray stops at its nearest blocker (the
/// lowest square when the direction climbs, else the highest), and loses what lies beyond it.
/// Filling the slider table with square-by-square slides cost twice the compile time (6 s of
/// CPU against 3 s, measured).
const fn slide_by_rays(
    sq: usize,
    occ: Bitboard,
    dirs: &[(i32, i32); 4],
    rays: &[[Bitboard; 4]; 64],
) -> Bitboard {
    let mut att = 0;
    let mut d = 0;
    while d < 4 {
        let ray = rays[sq][d];
        let blockers = ray & occ;
        att |= if blockers == 0 {
            ray
        } else {
            let climbs = dirs[d].0 + 8 * dirs[d].1 > 0;
            let nearest =
                if climbs { lsb(blockers) } else { 63 - blockers.leading_zeros() as usize };
            ray ^ rays[nearest][d]
        };
        d += 1;
    }
    att
}

/// Each square's set of single steps `steps` that stay on the board.
const fn leaps(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            let (f, r) = (file_of(sq) as i32 + steps[i].0, rank_of(sq) as i32 + steps[i].1);
            if 0 <= f && f < 8 && 0 <= r && r < 8 {
                table[sq] |= bit(square(f as usize, r as usize));
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// The occupancy bits that matter for a slider on `sq`: its empty-board rays minus the last
/// square of each ray (a piece on the edge blocks nothing further).
const fn relevant_mask(sq: usize, dirs: &[(i32, i32); 4]) -> Bitboard {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = (file_of(sq) as i32 + df, rank_of(sq) as i32 + dr);
        while 0 <= f + df && f + df < 8 && 0 <= r + dr && r + dr < 8 {
            mask |= bit(square(f as usize, r as usize));
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

/// Every square's magic for `dirs`, the slices laid out one after another from `start`.
const fn magics(dirs: &[(i32, i32); 4], known: &[u64; 64], start: usize) -> [Magic; 64] {
    let mut magics = [Magic { mask: 0, magic: 0, offset: 0, shift: 0 }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        magics[sq] = Magic { mask, magic: known[sq], offset: offset as u32, shift: 64 - bits };
        offset += 1 << bits;
        sq += 1;
    }
    magics
}

/// Entries of the rook slices (sum over squares of 2^relevant bits), then of the bishop ones.
const ROOK_ENTRIES: usize = 102_400;
const BISHOP_ENTRIES: usize = 5_248;

/// The rook magics; their slices start the shared table.
static ROOK: [Magic; 64] = magics(&ROOK_DIRS, &ROOK_MAGICS, 0);
/// The bishop magics; their slices follow the rooks'.
static BISHOP: [Magic; 64] = magics(&BISHOP_DIRS, &BISHOP_MAGICS, ROOK_ENTRIES);

/// Fills `magics`' slices of `table` with every occupancy's attacks, and stops the build when a
/// magic is unfit: too few high bits to spread the mask (the search's own rejection test), or
/// two occupancies with different attacks sharing an entry.
const fn fill_slider(
    table: &mut [Bitboard; ROOK_ENTRIES + BISHOP_ENTRIES],
    magics: &[Magic; 64],
    dirs: &[(i32, i32); 4],
) {
    let rays = rays(dirs);
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        assert!((m.mask.wrapping_mul(m.magic) >> 56).count_ones() >= 6, "a magic too sparse");
        // Every subset of the mask (carry-rippler); a slider always attacks some square, so an
        // entry still 0 is one no earlier subset claimed.
        let mut occ: Bitboard = 0;
        loop {
            let idx = m.index(occ);
            let attacks = slide_by_rays(sq, occ, dirs, &rays);
            assert!(table[idx] == 0 || table[idx] == attacks, "a magic collides");
            table[idx] = attacks;
            occ = occ.wrapping_sub(m.mask) & m.mask;
            if occ == 0 {
                break;
            }
        }
        sq += 1;
    }
}

/// The shared slider table, computed from the magics.
const fn slider_table() -> [Bitboard; ROOK_ENTRIES + BISHOP_ENTRIES] {
    let last = BISHOP[63];
    assert!(last.offset as usize + (1 << (64 - last.shift)) == ROOK_ENTRIES + BISHOP_ENTRIES);
    let mut table = [0; ROOK_ENTRIES + BISHOP_ENTRIES];
    fill_slider(&mut table, &ROOK, &ROOK_DIRS);
    fill_slider(&mut table, &BISHOP, &BISHOP_DIRS);
    table
}

/// Slider attacks of every square and relevant occupancy (841 KiB), evaluated by the compiler.
static SLIDER: [Bitboard; ROOK_ENTRIES + BISHOP_ENTRIES] = slider_table();

/// Knight moves of every square.
static KNIGHT_ATTACKS: [Bitboard; 64] = leaps(&KNIGHT_STEPS);
/// King steps of every square.
static KING_ATTACKS: [Bitboard; 64] = leaps(&KING_STEPS);
/// Pawn captures of every square, by colour.
static PAWN_ATTACKS: [[Bitboard; 64]; 2] = [leaps(&[(-1, 1), (1, 1)]), leaps(&[(-1, -1), (1, -1)])];

/// The squares between and along two squares on one line: `(between, line)`.
const fn relations() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[0; 64]; 64];
    let mut line = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut k = 0;
        while k < 2 {
            let dirs = if k == 0 { &ROOK_DIRS } else { &BISHOP_DIRS };
            let empty_a = slide(a, 0, dirs);
            let mut rest = empty_a;
            while rest != 0 {
                let b = lsb(rest);
                rest &= rest - 1;
                between[a][b] = slide(a, bit(b), dirs) & slide(b, bit(a), dirs);
                line[a][b] = (empty_a & slide(b, 0, dirs)) | bit(a) | bit(b);
            }
            k += 1;
        }
        a += 1;
    }
    (between, line)
}

/// [`relations`], computed once for both tables.
const RELATIONS: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = relations();
/// The squares strictly between two squares on one line.
static BETWEEN: [[Bitboard; 64]; 64] = RELATIONS.0;
/// The whole line through two squares on one line.
static LINE: [[Bitboard; 64]; 64] = RELATIONS.1;

/// Zobrist keys of the chess position.
pub struct Zobrist {
    /// Each coloured piece on each square.
    pub piece: [[u64; 64]; 12],
    /// Toggled when black is to move.
    pub side: u64,
    /// A castling right, indexed by the square of the rook that keeps it.
    pub castle: [u64; 64],
    /// An en-passant file, hashed only when a capture there is possible.
    pub ep: [u64; 8],
}

/// Draws the keys from [`SEED`] in a fixed order (pieces, side, castling, en passant): the
/// order the keys have always had, so that hashes stay the same.
const fn zobrist() -> Zobrist {
    let mut z = Zobrist { piece: [[0; 64]; 12], side: 0, castle: [0; 64], ep: [0; 8] };
    let mut rng = SplitMix::new(SEED);
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            let (next, v) = rng.step();
            (rng, z.piece[p][sq]) = (next, v);
            sq += 1;
        }
        p += 1;
    }
    let (next, v) = rng.step();
    (rng, z.side) = (next, v);
    let mut sq = 0;
    while sq < 64 {
        let (next, v) = rng.step();
        (rng, z.castle[sq]) = (next, v);
        sq += 1;
    }
    let mut file = 0;
    while file < 8 {
        let (next, v) = rng.step();
        (rng, z.ep[file]) = (next, v);
        file += 1;
    }
    z
}

/// The Zobrist keys, computed at compile time.
pub static ZOBRIST: Zobrist = zobrist();

/// Knight moves from `sq`.
#[inline(always)]
pub fn knight(sq: usize) -> Bitboard {
    KNIGHT_ATTACKS[sq]
}

/// King steps from `sq`.
#[inline(always)]
pub fn king(sq: usize) -> Bitboard {
    KING_ATTACKS[sq]
}

/// Squares a pawn of `colour` on `sq` attacks.
#[inline(always)]
pub fn pawn(colour: usize, sq: usize) -> Bitboard {
    PAWN_ATTACKS[colour][sq]
}

/// Rook attacks from `sq` given the occupancy `occ`.
#[inline(always)]
pub fn rook(sq: usize, occ: Bitboard) -> Bitboard {
    SLIDER[ROOK[sq].index(occ)]
}

/// Bishop attacks from `sq` given the occupancy `occ`.
#[inline(always)]
pub fn bishop(sq: usize, occ: Bitboard) -> Bitboard {
    SLIDER[BISHOP[sq].index(occ)]
}

/// Queen attacks from `sq` given the occupancy `occ`.
#[inline(always)]
pub fn queen(sq: usize, occ: Bitboard) -> Bitboard {
    rook(sq, occ) | bishop(sq, occ)
}

/// The squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: usize, b: usize) -> Bitboard {
    BETWEEN[a][b]
}

/// The whole line (edge to edge) through `a` and `b` when they share one, else empty.
#[inline(always)]
pub fn line(a: usize, b: usize) -> Bitboard {
    LINE[a][b]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A magic for `sq` by random search: sparse candidates from `rng` until one maps every
    /// relevant occupancy to an entry without a conflicting attack set. How the constants
    /// above were found; kept to replace them should the scheme change.
    fn search_magic(sq: usize, dirs: &[(i32, i32); 4], rng: &mut SplitMix) -> u64 {
        let mask = relevant_mask(sq, dirs);
        let shift = 64 - mask.count_ones();
        let mut occs = Vec::new();
        let mut occ: Bitboard = 0;
        loop {
            occs.push((occ, slide(sq, occ, dirs)));
            occ = occ.wrapping_sub(mask) & mask;
            if occ == 0 {
                break;
            }
        }
        loop {
            let m = rng.next_u64() & rng.next_u64() & rng.next_u64();
            if (mask.wrapping_mul(m) >> 56).count_ones() < 6 {
                continue;
            }
            let mut used = vec![0; 1 << mask.count_ones()];
            if occs.iter().all(|&(o, a)| {
                let entry = &mut used[(o.wrapping_mul(m) >> shift) as usize];
                let fits = *entry == 0 || *entry == a;
                *entry = a;
                fits
            }) {
                return m;
            }
        }
    }

    #[test]
    fn magic_lookups_match_slow_slides() {
        let mut rng = SplitMix::new(7);
        for _ in 0..20_000 {
            let occ = rng.next_u64() & rng.next_u64();
            let sq = (rng.next_u64() % 64) as usize;
            assert_eq!(rook(sq, occ), slide(sq, occ, &ROOK_DIRS));
            assert_eq!(bishop(sq, occ), slide(sq, occ, &BISHOP_DIRS));
        }
    }

    #[test]
    fn magic_search_finds_working_magics() {
        let mut rng = SplitMix::new(SEED);
        for (sq, known) in BISHOP.iter().enumerate() {
            let magic = search_magic(sq, &BISHOP_DIRS, &mut rng);
            let m = Magic { magic, offset: 0, ..*known };
            let mut table = vec![0; 1 << (64 - m.shift)];
            let mask = m.mask;
            let mut occ: Bitboard = 0;
            loop {
                table[m.index(occ)] = slide(sq, occ, &BISHOP_DIRS);
                occ = occ.wrapping_sub(mask) & mask;
                if occ == 0 {
                    break;
                }
            }
            let mut probe = SplitMix::new(sq as u64);
            for _ in 0..100 {
                let occ = probe.next_u64() & probe.next_u64();
                assert_eq!(table[m.index(occ)], slide(sq, occ, &BISHOP_DIRS));
            }
        }
    }

    /// FNV-1a over every table entry reachable through the lookups and every Zobrist key.
    fn checksum() -> u64 {
        let mut h = 0xCBF2_9CE4_8422_2325u64;
        let mut eat = |v: u64| {
            for b in v.to_le_bytes() {
                h = (h ^ b as u64).wrapping_mul(0x0100_0000_01B3);
            }
        };
        for sq in 0..64 {
            eat(knight(sq));
            eat(king(sq));
            eat(pawn(WHITE, sq));
            eat(pawn(BLACK, sq));
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                let mask = relevant_mask(sq, dirs);
                let mut occ: Bitboard = 0;
                loop {
                    eat(if dirs == &ROOK_DIRS { rook(sq, occ) } else { bishop(sq, occ) });
                    occ = occ.wrapping_sub(mask) & mask;
                    if occ == 0 {
                        break;
                    }
                }
            }
            for b in 0..64 {
                eat(between(sq, b));
                eat(line(sq, b));
            }
            eat(ZOBRIST.castle[sq]);
        }
        for row in &ZOBRIST.piece {
            row.iter().for_each(|&k| eat(k));
        }
        eat(ZOBRIST.side);
        ZOBRIST.ep.iter().for_each(|&k| eat(k));
        h
    }

    /// The tables, keys included, are bit for bit those the start-up build made before they
    /// became constants (its checksum, recorded then): hashes, and with them the bench's node
    /// count and every stored key, stay the same.
    #[test]
    fn tables_are_unchanged() {
        assert_eq!(checksum(), 0x00A4_11CC_C958_8A88);
    }

    #[test]
    fn between_and_line() {
        // a1..h8 diagonal, a1 and d4.
        assert_eq!(between(0, 27), bit(9) | bit(18));
        assert_eq!(line(0, 27).count_ones(), 8);
        assert_eq!(between(0, 17), 0);
        assert_eq!(line(0, 17), 0);
        assert_eq!(between(4, 7), bit(5) | bit(6));
    }
}
