//! The transposition table, shared by every search thread without locks.
//!
//! Contract:
//! - An entry is two `AtomicU64`s: the packed data, and the position key XOR the data. A reader
//!   accepts an entry only when `check ^ data == key`, so a torn write (two threads storing at
//!   once) reads as a miss instead of as another position's data. Loads and stores are
//!   `Relaxed`: a racy read costs at most a miss, never undefined behaviour.
//! - Buckets hold `BUCKET` entries. A store overwrites the entry with the same key if present,
//!   otherwise the entry whose depth, discounted by its age in searches, is smallest.
//! - Scores of mates are stored relative to the node (plies to mate from here), and converted
//!   back with the ply of the probing node, so that they stay right on other paths.
//! - The table is resized or cleared only between searches (`&mut self`), so a resize can never
//!   race a search.

mod pages;

use crate::game::{MATE_BOUND, Move, Score};
use pages::Pages;
use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Entries per bucket: four 16-byte entries fill one 64-byte cache line.
const BUCKET: usize = 4;
/// Bytes per bucket.
const BUCKET_BYTES: usize = 64;

/// What a stored score means relative to the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact = 1,
    /// The true value is at least the score (a fail high).
    Lower = 2,
    /// The true value is at most the score (a fail low).
    Upper = 3,
}

/// A decoded entry.
#[derive(Copy, Clone, Debug)]
pub struct Hit {
    /// The best move found, or [`Move::NONE`].
    pub mv: Move,
    /// The score, already converted to the probing node's ply.
    pub score: Score,
    /// The static evaluation stored with it.
    pub eval: Score,
    /// Depth of the search that produced the score.
    pub depth: i32,
    /// How the score bounds the truth.
    pub bound: Bound,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// The entries one key may occupy, aligned to a cache line so that a probe reads one line,
/// not the two that a bucket straddling a line boundary would cost.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Entry; BUCKET]);

const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET_BYTES);

/// The shared table.
pub struct Table {
    buckets: Pages<Bucket>,
    generation: u8,
}

// data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 + generation 6
fn pack(mv: Move, score: Score, eval: Score, depth: i32, bound: Bound, generation: u8) -> u64 {
    (mv.raw() as u64)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | ((depth.clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | (((generation & 0x3F) as u64) << 58)
}

fn unpack_depth(data: u64) -> i32 {
    ((data >> 48) & 0xFF) as i32
}

fn unpack_generation(data: u64) -> u8 {
    ((data >> 58) & 0x3F) as u8
}

/// Converts a score to "plies from this node" before storing.
fn to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// Converts a stored score back to "plies from the root".
fn from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket); a smaller one if that much
    /// memory cannot be had.
    pub fn new(mb: usize) -> Self {
        let mut t = Table { buckets: Pages::empty(), generation: 0 };
        // On failure the table falls back to a bucket; a bigger one is asked for by option.
        let _ = t.resize(mb);
        t
    }

    /// Reallocates to about `mb` megabytes, emptying the table. When that much memory cannot
    /// be had, the old size is restored (emptied) and the error returned: a GUI asking for more
    /// hash than the machine has must not end the session.
    pub fn resize(&mut self, mb: usize) -> Result<(), TryReserveError> {
        let wanted = (mb.max(1) * 1024 * 1024 / BUCKET_BYTES).max(1);
        let old = self.buckets.len();
        self.generation = 0;
        // The old table goes first, so that two never live at once (resident size stays
        // within the hash size asked for).
        self.buckets = Pages::empty();
        match Pages::new(wanted) {
            Ok(buckets) => {
                self.buckets = buckets;
                Ok(())
            }
            Err(e) => {
                self.buckets = Pages::new(old.max(1)).unwrap_or_else(|_| {
                    // Not even the old size: one bucket, without which no search can run.
                    Pages::from(vec![Bucket::default()])
                });
                Err(e)
            }
        }
    }

    /// The table's size in whole megabytes (0 for a table under one).
    pub fn megabytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES / (1024 * 1024)
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            *b = Bucket::default();
        }
        self.generation = 0;
    }

    /// Marks the start of a new search, so that older entries age.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3F;
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Entry; BUCKET] {
        // Multiply-high maps the key onto the bucket range without a division.
        let index = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index].0
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe soon after finds it
    /// there instead of waiting for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let line = self.bucket(key).as_ptr().cast::<i8>();
            // SAFETY: a prefetch is a hint that never faults, and `line` points into the
            // table; the SSE it needs is part of every x86-64 CPU.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
    }

    /// Looks up `key`; `ply` converts mate scores.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        for e in self.bucket(key) {
            let data = e.data.load(Relaxed);
            if e.check.load(Relaxed) ^ data == key && data != 0 {
                let bound = match (data >> 56) & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    3 => Bound::Upper,
                    _ => return None,
                };
                return Some(Hit {
                    mv: Move::from_raw(data as u16),
                    score: from_tt((data >> 16) as u16 as i16 as Score, ply),
                    eval: (data >> 32) as u16 as i16 as Score,
                    depth: unpack_depth(data),
                    bound,
                });
            }
        }
        None
    }

    /// Stores a search result for `key`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Move,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
    ) {
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut worst = i32::MAX;
        for e in bucket {
            let data = e.data.load(Relaxed);
            if e.check.load(Relaxed) ^ data == key {
                victim = e;
                // Keep a known best move when this store has none.
                let old_move = Move::from_raw(data as u16);
                let mv = if mv.is_none() { old_move } else { mv };
                // Do not let a shallow non-exact result replace a deeper one of this search.
                if bound != Bound::Exact
                    && unpack_generation(data) == self.generation
                    && unpack_depth(data) > depth + 2
                {
                    return;
                }
                let new = pack(mv, to_tt(score, ply), eval, depth, bound, self.generation);
                victim.data.store(new, Relaxed);
                victim.check.store(key ^ new, Relaxed);
                return;
            }
            let age = (self.generation.wrapping_sub(unpack_generation(data)) & 0x3F) as i32;
            let worth = if data == 0 { -1000 } else { unpack_depth(data) - 8 * age };
            if worth < worst {
                worst = worth;
                victim = e;
            }
        }
        let new = pack(mv, to_tt(score, ply), eval, depth, bound, self.generation);
        victim.data.store(new, Relaxed);
        victim.check.store(key ^ new, Relaxed);
    }

    /// Permille of a sample of entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = (self.buckets.len() * BUCKET).min(1000);
        let used = self
            .buckets
            .iter()
            .flat_map(|b| b.0.iter())
            .take(sample)
            .filter(|e| {
                let d = e.data.load(Relaxed);
                d != 0 && unpack_generation(d) == self.generation
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MATE;

    #[test]
    fn store_and_probe_round_trip() {
        let t = Table::new(1);
        let key = 0x1234_5678_9abc_def0;
        t.store(key, 0, Move::from_raw(77), -123, 45, 9, Bound::Lower);
        let hit = t.probe(key, 0).expect("stored entry");
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (Move::from_raw(77), -123, 45, 9, Bound::Lower)
        );
        assert!(t.probe(key ^ 1, 0).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let t = Table::new(1);
        // Mate in 7 plies from the root, found at ply 3: 4 plies from the node.
        t.store(42, 3, Move::NONE, MATE - 7, 0, 5, Bound::Exact);
        // Probed at ply 5 on another path: mate in 5 + 4 = 9 plies from the root.
        assert_eq!(t.probe(42, 5).map(|h| h.score), Some(MATE - 9));
    }
}
