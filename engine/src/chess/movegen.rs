//! Legal move generation with check and pin masks (no make-and-test).
//!
//! One generator, monomorphised over the side to move, over whether quiet moves are wanted,
//! and over a [`Sink`] that either stores moves or only counts them: perft's last ply counts
//! whole target sets with a popcount instead of building a list.
//!
//! Legality without trying moves:
//! - the king may step only to squares the enemy does not attack with the king lifted off the
//!   board (so a slider's ray through the king's square still counts);
//! - in double check only the king moves; in single check other pieces must capture the checker
//!   or land between it and the king (the check mask);
//! - a pinned piece stays on the line through its king and itself;
//! - en passant, rare and full of odd discovered checks (both pawns leave one rank), is tested
//!   by recomputing slider attacks on the king with the resulting occupancy.

use super::bitboard::*;
use super::board::Board;
use super::moves::{self, CASTLE, EN_PASSANT, NORMAL, PROMO_KNIGHT, PROMO_QUEEN};
use super::tables;
use crate::game::{Move, MoveList};

/// Where generated moves go.
pub trait Sink {
    /// Moves from `from` to every square of `to`.
    fn moves(&mut self, from: usize, to: Bitboard);
    /// Pawn moves to every square of `to`, each from `to - delta`.
    fn pawn(&mut self, to: Bitboard, delta: i32);
    /// Promotions to every square of `to`, each from `to - delta`; to all four pieces when
    /// `all`, else to a queen only.
    fn promotions(&mut self, to: Bitboard, delta: i32, all: bool);
    /// One move given in full.
    fn one(&mut self, from: usize, to: usize, flag: u16);
}

impl Sink for MoveList {
    #[inline(always)]
    fn moves(&mut self, from: usize, to: Bitboard) {
        for sq in Squares(to) {
            self.push(moves::encode(from, sq, NORMAL));
        }
    }

    #[inline(always)]
    fn pawn(&mut self, to: Bitboard, delta: i32) {
        for sq in Squares(to) {
            self.push(moves::encode((sq as i32 - delta) as usize, sq, NORMAL));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, delta: i32, all: bool) {
        for sq in Squares(to) {
            let from = (sq as i32 - delta) as usize;
            self.push(moves::encode(from, sq, PROMO_QUEEN));
            if all {
                for flag in PROMO_KNIGHT..PROMO_QUEEN {
                    self.push(moves::encode(from, sq, flag));
                }
            }
        }
    }

    #[inline(always)]
    fn one(&mut self, from: usize, to: usize, flag: u16) {
        self.push(moves::encode(from, to, flag));
    }
}

/// A sink that only counts moves (perft's last ply).
pub struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn moves(&mut self, _from: usize, to: Bitboard) {
        self.0 += to.count_ones() as u64;
    }

    #[inline(always)]
    fn pawn(&mut self, to: Bitboard, _delta: i32) {
        self.0 += to.count_ones() as u64;
    }

    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, _delta: i32, all: bool) {
        self.0 += to.count_ones() as u64 * if all { 4 } else { 1 };
    }

    #[inline(always)]
    fn one(&mut self, _from: usize, _to: usize, _flag: u16) {
        self.0 += 1;
    }
}

/// Generates the legal moves of `b` into `sink`: all of them when `QUIETS`, else only captures
/// and queen promotions (including capture-promotions, to a queen only).
#[inline(always)]
pub fn generate<const QUIETS: bool, S: Sink>(b: &Board, sink: &mut S) {
    if b.side == WHITE {
        generate_for::<true, QUIETS, S>(b, sink)
    } else {
        generate_for::<false, QUIETS, S>(b, sink)
    }
}

/// Shifts a bitboard one rank towards the enemy.
#[inline(always)]
fn up<const WHITE_MOVES: bool>(b: Bitboard) -> Bitboard {
    if WHITE_MOVES { b << 8 } else { b >> 8 }
}

#[inline(always)]
fn generate_for<const WHITE_MOVES: bool, const QUIETS: bool, S: Sink>(b: &Board, sink: &mut S) {
    let us = if WHITE_MOVES { WHITE } else { BLACK };
    let them = us ^ 1;
    let ours = b.colours[us];
    let theirs = b.colours[them];
    let occ = ours | theirs;
    let ksq = b.king_sq(us);
    let checkers = b.checkers();

    // King steps, tested with the king lifted so it cannot hide behind itself.
    let wanted = if QUIETS { !ours } else { theirs };
    let occ_no_king = occ ^ bit(ksq);
    let mut safe = 0;
    for to in Squares(tables::king(ksq) & wanted) {
        if !b.attacked_by(to, them, occ_no_king) {
            safe |= bit(to);
        }
    }
    sink.moves(ksq, safe);

    if checkers & (checkers.wrapping_sub(1)) != 0 {
        return; // double check
    }
    let check_mask =
        if checkers != 0 { tables::between(ksq, lsb(checkers)) | checkers } else { !0 };
    let target = wanted & check_mask;

    // Pins: enemy sliders that see the king through exactly one of our pieces.
    let their_rq = (b.kinds[ROOK] | b.kinds[QUEEN]) & theirs;
    let their_bq = (b.kinds[BISHOP] | b.kinds[QUEEN]) & theirs;
    let snipers = (tables::rook(ksq, theirs) & their_rq) | (tables::bishop(ksq, theirs) & their_bq);
    let mut pinned = 0;
    for s in Squares(snipers) {
        let blockers = tables::between(ksq, s) & ours;
        if blockers & blockers.wrapping_sub(1) == 0 {
            pinned |= blockers;
        }
    }

    // Pieces. A pinned piece can never answer a check, and a pinned knight never moves.
    let movable = if checkers != 0 { ours & !pinned } else { ours };
    for from in Squares(b.kinds[KNIGHT] & ours & !pinned) {
        sink.moves(from, tables::knight(from) & target);
    }
    for from in Squares(b.kinds[BISHOP] & movable) {
        let mut to = tables::bishop(from, occ) & target;
        if pinned & bit(from) != 0 {
            to &= tables::line(ksq, from);
        }
        sink.moves(from, to);
    }
    for from in Squares(b.kinds[ROOK] & movable) {
        let mut to = tables::rook(from, occ) & target;
        if pinned & bit(from) != 0 {
            to &= tables::line(ksq, from);
        }
        sink.moves(from, to);
    }
    for from in Squares(b.kinds[QUEEN] & movable) {
        let mut to = tables::queen(from, occ) & target;
        if pinned & bit(from) != 0 {
            to &= tables::line(ksq, from);
        }
        sink.moves(from, to);
    }

    // Pawns: unpinned ones set-wise by shifts, pinned ones one by one along their pin line.
    let (push, left, right) = if WHITE_MOVES { (8, 7, 9) } else { (-8, -9, -7) };
    let last = if WHITE_MOVES { RANK_7 } else { RANK_2 };
    let third = if WHITE_MOVES { RANK_3 } else { RANK_6 };
    let pawns = b.kinds[PAWN] & ours;
    let empty = !occ;
    let free = pawns & !pinned;
    // Capturing towards the a-file must not start on it, towards the h-file not on the h-file.
    let caps_left = |p: Bitboard| up::<WHITE_MOVES>(p & !FILE_A) >> 1;
    let caps_right = |p: Bitboard| up::<WHITE_MOVES>(p & !FILE_H) << 1;

    let plain = free & !last;
    if QUIETS {
        let one = up::<WHITE_MOVES>(plain) & empty;
        let two = up::<WHITE_MOVES>(one & third) & empty;
        sink.pawn(one & check_mask, push);
        sink.pawn(two & check_mask, 2 * push);
    }
    sink.pawn(caps_left(plain) & theirs & check_mask, left);
    sink.pawn(caps_right(plain) & theirs & check_mask, right);

    let promoting = free & last;
    if promoting != 0 {
        sink.promotions(up::<WHITE_MOVES>(promoting) & empty & check_mask, push, QUIETS);
        sink.promotions(caps_left(promoting) & theirs & check_mask, left, QUIETS);
        sink.promotions(caps_right(promoting) & theirs & check_mask, right, QUIETS);
    }

    if checkers == 0 {
        for from in Squares(pawns & pinned) {
            let line = tables::line(ksq, from);
            let one = up::<WHITE_MOVES>(bit(from)) & empty;
            let mut to = tables::pawn(us, from) & theirs & line;
            if QUIETS || bit(from) & last != 0 {
                to |= (one | (up::<WHITE_MOVES>(one & third) & empty)) & line;
            }
            if bit(from) & last != 0 {
                for sq in Squares(to) {
                    sink.promotions(bit(sq), sq as i32 - from as i32, QUIETS);
                }
            } else {
                sink.moves(from, to);
            }
        }
    }

    // En passant: rare, so simply test the king's safety on the resulting occupancy.
    if b.ep != NO_SQUARE {
        let ep = b.ep as usize;
        let captured = ep ^ 8;
        for from in Squares(tables::pawn(them, ep) & pawns) {
            let after = (occ ^ bit(from) ^ bit(captured)) | bit(ep);
            let rest = theirs ^ bit(captured);
            let attacked = (tables::knight(ksq) & b.kinds[KNIGHT] & rest)
                | (tables::pawn(us, ksq) & b.kinds[PAWN] & rest)
                | (tables::rook(ksq, after) & their_rq)
                | (tables::bishop(ksq, after) & their_bq);
            if attacked == 0 {
                sink.one(from, ep, EN_PASSANT);
            }
        }
    }

    // Castling: king and rook paths empty (but for each other), no square the king crosses
    // or lands on attacked with both lifted off. Paths are computed from the squares, so
    // Chess960 placements work unchanged.
    if QUIETS && checkers == 0 {
        for rook in Squares(b.castle & ours) {
            let (kto, rto) = Board::castle_targets(ksq, rook);
            let king_path = tables::between(ksq, kto) | bit(kto);
            let rook_path = tables::between(rook, rto) | bit(rto);
            if (king_path | rook_path) & occ & !(bit(ksq) | bit(rook)) != 0 {
                continue;
            }
            let lifted = occ ^ bit(ksq) ^ bit(rook);
            if Squares(king_path).all(|sq| !b.attacked_by(sq, them, lifted)) {
                sink.one(ksq, rook, CASTLE);
            }
        }
    }
}

/// True when the side to move in `b` has at least one legal move.
pub fn has_moves(b: &Board) -> bool {
    let mut c = Counter(0);
    generate::<true, _>(b, &mut c);
    c.0 != 0
}

/// True when `m` is legal in `b`, without generating the move list: the move must be one the
/// piece on its from-square can make (pseudo-legal), and our king must not be attacked once it
/// is played. Castling and en passant, rare, are looked up in the generated list instead.
pub fn is_legal(b: &Board, m: Move) -> bool {
    let (from, to, flag) = (moves::from_sq(m), moves::to_sq(m), moves::flag(m));
    let us = b.side;
    let ours = b.colours[us];
    let theirs = b.colours[us ^ 1];
    let p = b.squares[from];
    if ours & bit(from) == 0 {
        return false;
    }
    if flag == CASTLE || flag == EN_PASSANT {
        let mut list = MoveList::new();
        generate::<true, _>(b, &mut list);
        return list.contains(m);
    }
    if ours & bit(to) != 0 || (flag != NORMAL && moves::promotion(m).is_none()) {
        return false;
    }
    let occ = ours | theirs;
    let kind = kind_of(p);
    let promoting = kind == PAWN && bit(to) & (RANK_1 | RANK_8) != 0;
    if promoting != moves::promotion(m).is_some() {
        return false;
    }
    let reachable = match kind {
        PAWN => {
            let push = if us == WHITE { 8 } else { -8 };
            let one = (from as i32 + push) as usize;
            let start = if us == WHITE { RANK_2 } else { RANK_7 };
            (tables::pawn(us, from) & theirs & bit(to) != 0)
                || (to == one && occ & bit(to) == 0)
                || (bit(from) & start != 0
                    && to as i32 == from as i32 + 2 * push
                    && occ & (bit(one) | bit(to)) == 0)
        }
        KNIGHT => tables::knight(from) & bit(to) != 0,
        BISHOP => tables::bishop(from, occ) & bit(to) != 0,
        ROOK => tables::rook(from, occ) & bit(to) != 0,
        QUEEN => tables::queen(from, occ) & bit(to) != 0,
        _ => tables::king(from) & bit(to) != 0,
    };
    if !reachable {
        return false;
    }
    // Play it on the bitboards and look at our king.
    let after = (occ ^ bit(from)) | bit(to);
    let rest = theirs & !bit(to);
    let ksq = if kind == KING { to } else { b.king_sq(us) };
    let attackers = (tables::pawn(us, ksq) & b.kinds[PAWN])
        | (tables::knight(ksq) & b.kinds[KNIGHT])
        | (tables::king(ksq) & b.kinds[KING])
        | (tables::rook(ksq, after) & (b.kinds[ROOK] | b.kinds[QUEEN]))
        | (tables::bishop(ksq, after) & (b.kinds[BISHOP] | b.kinds[QUEEN]));
    attackers & rest == 0
}
