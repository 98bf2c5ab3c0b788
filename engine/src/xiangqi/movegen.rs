//! Legal move generation.
//!
//! Pseudo-legal targets come from the tables; legality is decided per node by a cheap filter.
//! When the side to move is not in check, a move can only expose its general if it leaves a
//! square on one of the general's rank/file rays that hold an enemy chariot, cannon or general
//! (an unblocked line, or a cannon screen removed), enters a ray holding an enemy cannon (a new
//! screen), or leaves a diagonal neighbour of the general that is the leg of an enemy horse.
//! Moves touching those "risky" squares, general moves, and every move when in check get an
//! exact test ([`Position::safe_after`]); the rest are legal as a set, which lets perft count
//! them with a popcount.

use super::bitboard::*;
use super::position::*;
use crate::game::{Move, MoveList};

/// Receives legal moves: one at a time, or as a set of targets from one square.
pub trait Sink {
    /// One legal move.
    fn one(&mut self, from: usize, to: usize);
    /// Legal moves from `from` to every square of `targets`.
    fn many(&mut self, from: usize, targets: Bitboard);
}

/// Counts moves without listing them (perft's last ply).
pub struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn one(&mut self, _from: usize, _to: usize) {
        self.0 += 1;
    }
    #[inline(always)]
    fn many(&mut self, _from: usize, targets: Bitboard) {
        self.0 += targets.count_ones() as u64;
    }
}

/// Appends moves to a [`MoveList`].
pub struct Pusher<'a>(pub &'a mut MoveList);

/// Encodes a move: from in the low 7 bits, to in the next 7.
#[inline(always)]
pub fn encode(from: usize, to: usize) -> Move {
    Move::from_raw((from | (to << 7)) as u16)
}

/// The (from, to) squares of a move; either may be out of range for a corrupt move.
#[inline(always)]
pub fn decode(m: Move) -> (usize, usize) {
    let raw = m.raw() as usize;
    (raw & 0x7F, (raw >> 7) & 0x7F)
}

impl Sink for Pusher<'_> {
    #[inline(always)]
    fn one(&mut self, from: usize, to: usize) {
        self.0.push(encode(from, to));
    }
    #[inline(always)]
    fn many(&mut self, from: usize, targets: Bitboard) {
        for to in squares(targets) {
            self.0.push(encode(from, to));
        }
    }
}

/// The legality filter of one node (see the module documentation).
struct Risk {
    /// Squares whose vacating may expose the general.
    from: Bitboard,
    /// Squares whose filling may expose the general.
    to: Bitboard,
    /// The general's square.
    ksq: usize,
}

impl Position {
    /// The index of the occupied squares among `sqs` as a 4-bit number (bit i for `sqs[i]`).
    #[inline(always)]
    fn occupancy4(&self, sqs: &[u8; 4]) -> usize {
        (self.board[sqs[0] as usize] != EMPTY) as usize
            | ((self.board[sqs[1] as usize] != EMPTY) as usize) << 1
            | ((self.board[sqs[2] as usize] != EMPTY) as usize) << 2
            | ((self.board[sqs[3] as usize] != EMPTY) as usize) << 3
    }

    /// The squares the piece `p` on `from` could move to ignoring its own general's safety
    /// (including squares held by its own side, which the caller masks off).
    #[inline(always)]
    pub fn pseudo_targets(&self, p: u8, from: usize) -> Bitboard {
        let t = &TABLES;
        match kind_of(p) {
            kind::GENERAL => t.general[from],
            kind::ADVISOR => t.advisor[from],
            kind::ELEPHANT => t.elephant[from][self.occupancy4(&t.eyes[from])],
            kind::HORSE => t.horse[from][self.occupancy4(&t.legs[from])],
            kind::CHARIOT => line_attacks_from(from, self.occ, self.files[file_of(from)]).0,
            kind::CANNON => {
                let (rook, cannon) = line_attacks_from(from, self.occ, self.files[file_of(from)]);
                (rook & !self.occ) | (cannon & self.colours[colour_of(p) ^ 1])
            }
            _ => t.soldier[colour_of(p)][from],
        }
    }

    /// The squares whose vacating (first) or filling (second) may expose the side to move's
    /// general on `ksq`; everything when in check.
    #[inline(always)]
    fn risky(&self, ksq: usize) -> (Bitboard, Bitboard) {
        if self.checked {
            return (!0, !0);
        }
        let them = self.side ^ 1;
        let t = &TABLES;
        let cannons = self.bb(them, kind::CANNON);
        let sliders = self.bb(them, kind::CHARIOT) | self.bb(them, kind::GENERAL) | cannons;
        let horses = self.bb(them, kind::HORSE);
        let (mut from, mut to) = (0, 0);
        for d in 0..4 {
            let ray = t.rays[ksq][d];
            if ray & sliders != 0 {
                from |= ray;
                if ray & cannons != 0 {
                    to |= ray;
                }
            }
            if t.horse_via[ksq][d] & horses != 0 {
                from |= bit(t.eyes[ksq][d] as usize);
            }
        }
        (from, to)
    }

    /// The pseudo-legal targets of our piece of kind `K` on `from`, within `mask` (the
    /// enemy's pieces for captures, else every square not ours).
    #[inline(always)]
    fn targets<const CAPTURES: bool, const K: u8>(&self, from: usize, mask: Bitboard) -> Bitboard {
        let t = &TABLES;
        match K {
            kind::CHARIOT => line_attacks_from(from, self.occ, self.files[file_of(from)]).0 & mask,
            kind::CANNON => {
                let (rook, cannon) = line_attacks_from(from, self.occ, self.files[file_of(from)]);
                let enemy = self.colours[self.side ^ 1];
                if CAPTURES { cannon & enemy } else { (rook & !self.occ) | (cannon & enemy) }
            }
            kind::HORSE => t.horse[from][self.occupancy4(&t.legs[from])] & mask,
            kind::ELEPHANT => t.elephant[from][self.occupancy4(&t.eyes[from])] & mask,
            kind::ADVISOR => t.advisor[from] & mask,
            _ => t.soldier[self.side][from] & mask,
        }
    }

    /// Generates the legal moves of our pieces of kind `K` (not the general): pieces off the
    /// risky squares send their safe targets as a set, everything else is tested exactly.
    #[inline(always)]
    fn generate_kind<S: Sink, const CAPTURES: bool, const K: u8>(
        &self,
        sink: &mut S,
        risk: &Risk,
        mask: Bitboard,
    ) {
        let pieces = self.bb(self.side, K);
        for from in squares(pieces & !risk.from) {
            let targets = self.targets::<CAPTURES, K>(from, mask);
            sink.many(from, targets & !risk.to);
            if targets & risk.to != 0 {
                for to in squares(targets & risk.to) {
                    if self.safe_after(self.side, risk.ksq, from, to) {
                        sink.one(from, to);
                    }
                }
            }
        }
        for from in squares(pieces & risk.from) {
            for to in squares(self.targets::<CAPTURES, K>(from, mask)) {
                if self.safe_after(self.side, risk.ksq, from, to) {
                    sink.one(from, to);
                }
            }
        }
    }

    /// Generates the legal moves (only captures when `CAPTURES`) into `sink`.
    #[inline(always)]
    pub fn generate<S: Sink, const CAPTURES: bool>(&self, sink: &mut S) {
        let us = self.side;
        let mask = if CAPTURES { self.colours[us ^ 1] } else { !self.colours[us] };
        let ksq = self.general(us);
        let (from, to) = self.risky(ksq);
        let risk = Risk { from, to, ksq };
        self.generate_kind::<S, CAPTURES, { kind::CHARIOT }>(sink, &risk, mask);
        self.generate_kind::<S, CAPTURES, { kind::CANNON }>(sink, &risk, mask);
        self.generate_kind::<S, CAPTURES, { kind::HORSE }>(sink, &risk, mask);
        self.generate_kind::<S, CAPTURES, { kind::SOLDIER }>(sink, &risk, mask);
        self.generate_kind::<S, CAPTURES, { kind::ELEPHANT }>(sink, &risk, mask);
        self.generate_kind::<S, CAPTURES, { kind::ADVISOR }>(sink, &risk, mask);
        for to in squares(TABLES.general[ksq] & mask) {
            if self.safe_after(us, ksq, ksq, to) {
                sink.one(ksq, to);
            }
        }
    }

    /// True when `m` is a legal move in this position.
    pub fn is_legal(&self, m: Move) -> bool {
        let (from, to) = decode(m);
        if from >= SQUARES || to >= SQUARES {
            return false;
        }
        let p = self.board[from];
        if p == EMPTY || colour_of(p) != self.side {
            return false;
        }
        let dest = self.board[to];
        if dest != EMPTY && colour_of(dest) == self.side {
            return false;
        }
        if self.pseudo_targets(p, from) & bit(to) == 0 {
            return false;
        }
        self.safe_after(self.side, self.general(self.side), from, to)
    }

    /// The number of legal moves, without listing them.
    #[inline(always)]
    fn count_legal_generic(&self) -> u64 {
        let mut c = Counter(0);
        self.generate::<_, false>(&mut c);
        c.0
    }

    /// [`Position::count_legal_generic`] compiled with the `popcnt` instruction: the default
    /// x86-64 target lacks it, and the software popcount of the target sets was a fifth of
    /// perft's instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn count_legal_popcnt(&self) -> u64 {
        self.count_legal_generic()
    }

    /// The number of legal moves, with the fastest popcount the CPU offers.
    #[inline(always)]
    pub fn count_legal(&self) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports popcnt, as just checked, which is the only requirement
            // of `count_legal_popcnt` beyond those of the safe generic code it inlines.
            return unsafe { self.count_legal_popcnt() };
        }
        self.count_legal_generic()
    }

    /// Counts the leaves of the legal move tree `depth` plies deep, counting the last ply
    /// without making its moves.
    pub fn perft(&mut self, depth: u32) -> u64 {
        self.perft_with::<false>(depth)
    }

    /// Perft that counts the last ply with the portable code only, whatever the CPU, so that
    /// tests cover the fallback that [`Position::perft`] skips on CPUs with POPCNT.
    pub fn perft_portable(&mut self, depth: u32) -> u64 {
        self.perft_with::<true>(depth)
    }

    fn perft_with<const PORTABLE: bool>(&mut self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 if PORTABLE => self.count_legal_generic(),
            1 => self.count_legal(),
            _ => {
                let mut list = MoveList::new();
                self.generate::<_, false>(&mut Pusher(&mut list));
                let mut nodes = 0;
                for &m in list.iter() {
                    self.make(m.raw());
                    nodes += self.perft_with::<PORTABLE>(depth - 1);
                    self.unmake();
                }
                nodes
            }
        }
    }
}
