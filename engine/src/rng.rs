//! Random numbers: the two generators every part of Chariot draws from.
//!
//! [`SplitMix`] (SplitMix64) gives the fixed sequences that keys and files depend on, so they
//! never change: both games' Zobrist keys, chess's magic numbers, the trainer's initial weights
//! and shuffles, the match runner's opening order, the fuzz and stress inputs of a seed.
//! [`Stream`] (xorshift64*, its state a SplitMix64 mix of a seed and a stream number) is the fast
//! stream of choices: datagen's random plies and starts, one per game, and the book's and the
//! levels' move choices, seeded from the clock. Neither is cryptographic; both give the same
//! numbers on every machine.

/// The golden-ratio increment of SplitMix64 (2⁶⁴/φ), also used to spread stream numbers.
const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a well-mixed 64-bit value from any input, 0 included.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A number in `0..n` from 64 random bits by multiply-shift (no division, no bias worth the
/// name for any `n` a caller here uses).
const fn scale(bits: u64, n: usize) -> usize {
    ((bits as u128 * n as u128) >> 64) as usize
}

/// SplitMix64: a fixed sequence from a seed, good from every seed (0 included). `const`, so
/// that tables built at compile time (xiangqi's Zobrist keys) draw from it too.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// The generator started from `seed`.
    pub const fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    /// The next value and the generator after it, for `const` code.
    pub const fn step(self) -> (SplitMix, u64) {
        let state = self.0.wrapping_add(GOLDEN);
        (SplitMix(state), mix(state))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let (next, value) = self.clone().step();
        *self = next;
        value
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        scale(self.next_u64(), n)
    }
}

/// xorshift64*: a fast stream of choices, several independent ones from one seed.
#[derive(Clone, Debug)]
pub struct Stream(u64);

impl Stream {
    /// Stream number `stream` of `seed` (datagen: one per game), so that a game's choices do not
    /// depend on how many games ran before it or on which thread.
    pub fn new(seed: u64, stream: u64) -> Stream {
        // The state must not be 0, a fixed point of xorshift.
        Stream(mix(seed ^ stream.wrapping_mul(GOLDEN)) | 1)
    }

    /// A stream seeded from the clock: choices that differ from run to run (a book's weighted
    /// choice, a level's mistakes).
    pub fn from_clock() -> Stream {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(GOLDEN, |d| d.as_nanos() as u64);
        Stream::new(nanos, 0)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        scale(self.next_u64(), n)
    }

    /// A uniform number in `[0, 1)` from the top 53 bits (exact in an `f64`, so the same on
    /// every machine).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64's published first outputs from seed 0 (Vigna's reference implementation).
    #[test]
    fn splitmix_is_splitmix64() {
        let mut r = SplitMix::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(r.next_u64(), 0x06C4_5D18_8009_454F);
    }

    /// The `const` step and the method give one sequence.
    #[test]
    fn step_and_next_agree() {
        let (mut a, mut b) = (SplitMix::new(42), SplitMix::new(42));
        for _ in 0..100 {
            let (next, value) = a.step();
            a = next;
            assert_eq!(value, b.next_u64());
        }
    }

    /// Every `below` stays below its bound, and a stream's numbers spread over it.
    #[test]
    fn below_and_unit_stay_in_range() {
        let mut s = Stream::new(7, 3);
        let mut seen = [0u32; 10];
        for _ in 0..10_000 {
            seen[s.below(10)] += 1;
            let u = s.unit();
            assert!((0.0..1.0).contains(&u));
        }
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        let mut r = SplitMix::new(9);
        assert!((0..1000).all(|_| r.below(3) < 3));
    }

    /// Different streams of one seed differ from the first number on.
    #[test]
    fn streams_differ() {
        let firsts: Vec<u64> = (0..8).map(|k| Stream::new(1, k).next_u64()).collect();
        let mut unique = firsts.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), firsts.len());
    }
}
