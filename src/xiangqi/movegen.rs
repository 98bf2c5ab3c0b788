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

    /// Sends the legal subset of `targets` from `from` to `sink`: exact tests for the risky
    /// moves, the rest as a set.
    #[inline(always)]
    fn emit<S: Sink>(&self, sink: &mut S, risk: &Risk, from: usize, targets: Bitboard) {
        if risk.from & bit(from) != 0 {
            for to in squares(targets) {
                if self.safe_after(self.side, risk.ksq, from, to) {
                    sink.one(from, to);
                }
            }
        } else {
            sink.many(from, targets & !risk.to);
            for to in squares(targets & risk.to) {
                if self.safe_after(self.side, risk.ksq, from, to) {
                    sink.one(from, to);
                }
            }
        }
    }

    /// Generates the legal moves (only captures when `CAPTURES`) into `sink`.
    #[inline(always)]
    pub fn generate<S: Sink, const CAPTURES: bool>(&self, sink: &mut S) {
        let t = &TABLES;
        let us = self.side;
        let them = us ^ 1;
        let occ = self.occ;
        let enemy = self.colours[them];
        let mask = if CAPTURES { enemy } else { !self.colours[us] };
        let ksq = self.general(us);
        let (from_risky, to_risky) = self.risky(ksq);

        let risk = Risk { from: from_risky, to: to_risky, ksq };
        let mut emit = |from: usize, targets: Bitboard| self.emit(sink, &risk, from, targets);

        for from in squares(self.bb(us, kind::CHARIOT)) {
            let (rook, _) = line_attacks_from(from, occ, self.files[file_of(from)]);
            emit(from, rook & mask);
        }
        for from in squares(self.bb(us, kind::CANNON)) {
            let (rook, cannon) = line_attacks_from(from, occ, self.files[file_of(from)]);
            let quiet = if CAPTURES { 0 } else { rook & !occ };
            emit(from, quiet | (cannon & enemy));
        }
        for from in squares(self.bb(us, kind::HORSE)) {
            emit(from, t.horse[from][self.occupancy4(&t.legs[from])] & mask);
        }
        for from in squares(self.bb(us, kind::SOLDIER)) {
            emit(from, t.soldier[us][from] & mask);
        }
        for from in squares(self.bb(us, kind::ELEPHANT)) {
            emit(from, t.elephant[from][self.occupancy4(&t.eyes[from])] & mask);
        }
        for from in squares(self.bb(us, kind::ADVISOR)) {
            emit(from, t.advisor[from] & mask);
        }
        for to in squares(t.general[ksq] & mask) {
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

    /// Counts the leaves of the legal move tree `depth` plies deep, counting the last ply
    /// without making its moves.
    pub fn perft(&mut self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => {
                let mut c = Counter(0);
                self.generate::<_, false>(&mut c);
                c.0
            }
            _ => {
                let mut list = MoveList::new();
                self.generate::<_, false>(&mut Pusher(&mut list));
                let mut nodes = 0;
                for &m in list.iter() {
                    self.make(m.raw());
                    nodes += self.perft(depth - 1);
                    self.unmake();
                }
                nodes
            }
        }
    }
}
