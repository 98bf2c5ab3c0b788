//! Static evaluation: material and piece-square scores, tapered between middlegame and endgame
//! by the material left on the board.
//!
//! The piece-square tables are not typed in: they are computed from a handful of named shapes
//! (centralisation, pawn advance, king shelter) so that each number has a stated reason. Scores
//! are packed as `eg << 16 + mg` in one `i32` so that a move updates both phases with one add.
//!
//! The board does not keep that sum: perft and move parsing would pay for it on every move.
//! [`evaluate`] recomputes it from the pieces (for tools and tests), while the search keeps it
//! move by move in an [`Accumulator`]; both finish in [`evaluate_with`], so they agree exactly.

use super::Chess;
use super::bitboard::*;
use super::board::Board;
use super::moves::{self, CASTLE, EN_PASSANT};
use crate::game::{Evaluator, Move, Score, SumStack};

/// Material values (middlegame, endgame) in centipawns, by kind; the king's is irrelevant.
const VALUE: [(i32, i32); 6] = [(85, 110), (320, 290), (335, 310), (470, 520), (960, 960), (0, 0)];

/// Phase weight of each kind; the full phase (opening material) is [`PHASE_MAX`].
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the starting material: 4 minors, 4 rooks and 2 queens.
const PHASE_MAX: i32 = 24;

/// Bonus for the side to move: it can improve before the opponent does.
const TEMPO: Score = 10;
/// Bonus for owning both bishops (middlegame, endgame).
const BISHOP_PAIR: (i32, i32) = (25, 45);

/// Pawn bonus by relative rank for advancing (middlegame, endgame): passers become
/// dangerous late, so the endgame column grows faster.
const PAWN_ADVANCE: [(i32, i32); 8] =
    [(0, 0), (0, 0), (2, 4), (6, 10), (12, 22), (20, 42), (30, 70), (0, 0)];
/// Middlegame bonus for a d- or e-pawn on the fourth or fifth rank (central control).
const PAWN_CENTRE: i32 = 12;
/// Per step of centrality (0 at a corner, 6 in the centre): knights hate the rim most.
const KNIGHT_CENTRE: (i32, i32) = (7, 5);
/// Per step of centrality for bishops.
const BISHOP_CENTRE: (i32, i32) = (3, 3);
/// Middlegame bonus for a bishop on one of the two long diagonals.
const BISHOP_LONG_DIAGONAL: i32 = 8;
/// Bonus for a rook on the seventh rank, where pawns and king usually sit.
const ROOK_SEVENTH: (i32, i32) = (15, 20);
/// Middlegame bonus for a rook on the d- or e-file (most often opened first).
const ROOK_CENTRE_FILE: i32 = 5;
/// Per step of centrality for queens: a little in the middlegame, more later.
const QUEEN_CENTRE: (i32, i32) = (2, 4);
/// Middlegame king bonus on its back rank by file: the castled corners are safest, the centre
/// files (where it is exposed once the centre opens) least.
const KING_BACK_RANK: [i32; 8] = [10, 20, 10, -10, -10, -5, 25, 15];
/// Middlegame king penalty per rank advanced.
const KING_ADVANCE: i32 = 20;
/// Endgame king bonus per step of centrality: the king becomes a fighting piece.
const KING_CENTRE: i32 = 8;

/// Packs a middlegame and an endgame score.
pub const fn pack(mg: i32, eg: i32) -> i32 {
    (eg << 16) + mg
}

/// The middlegame half of a packed score.
pub const fn mg(s: i32) -> i32 {
    s as i16 as i32
}

/// The endgame half of a packed score.
pub const fn eg(s: i32) -> i32 {
    ((s + 0x8000) >> 16) as i16 as i32
}

/// Centrality of a square: 0 in a corner up to 6 in the four centre squares.
const fn centrality(sq: usize) -> i32 {
    let f = file_of(sq) as i32;
    let r = rank_of(sq) as i32;
    (7 - (2 * f - 7).abs()) / 2 + (7 - (2 * r - 7).abs()) / 2
}

/// A (middlegame, endgame) weight times a square's centrality, centred around zero so that the
/// material values stay the averages.
const fn centred(w: (i32, i32), centrality: i32) -> (i32, i32) {
    (w.0 * (centrality - 3), w.1 * (centrality - 3))
}

/// The (middlegame, endgame) square bonus of a white piece of `kind` on `sq`.
const fn square_bonus(kind: usize, sq: usize) -> (i32, i32) {
    let f = file_of(sq);
    let r = rank_of(sq);
    let c = centrality(sq);
    match kind {
        PAWN => {
            let (mut m, e) = PAWN_ADVANCE[r];
            if (f == 3 || f == 4) && (r == 3 || r == 4) {
                m += PAWN_CENTRE;
            }
            (m, e)
        }
        KNIGHT => centred(KNIGHT_CENTRE, c),
        BISHOP => {
            let (mut m, e) = centred(BISHOP_CENTRE, c);
            if f == r || f + r == 7 {
                m += BISHOP_LONG_DIAGONAL;
            }
            (m, e)
        }
        ROOK => {
            let mut s = if r == 6 { ROOK_SEVENTH } else { (0, 0) };
            if f == 3 || f == 4 {
                s.0 += ROOK_CENTRE_FILE;
            }
            s
        }
        QUEEN => centred(QUEEN_CENTRE, c),
        _ => {
            let m = if r == 0 { KING_BACK_RANK[f] } else { -KING_ADVANCE * r as i32 };
            (m, KING_CENTRE * (c - 3))
        }
    }
}

/// The packed material plus square score of every coloured piece on every square, from
/// white's view: black's entries are white's mirrored vertically and negated. A constant, made
/// by the compiler, as xiangqi's are.
pub const PSQ: [[i32; 64]; 12] = psq_table();

/// [`PSQ`], computed (at compile time: a `const fn`, hence the `while` loops).
const fn psq_table() -> [[i32; 64]; 12] {
    let mut table = [[0; 64]; 12];
    let mut kind = PAWN;
    while kind <= KING {
        let mut sq = 0;
        while sq < 64 {
            let (bm, be) = square_bonus(kind, sq);
            let s = pack(VALUE[kind].0 + bm, VALUE[kind].1 + be);
            table[piece(WHITE, kind) as usize][sq] = s;
            table[piece(BLACK, kind) as usize][sq ^ 56] = -s;
            sq += 1;
        }
        kind += 1;
    }
    table
}

/// The evaluation's terms for white and black, each tapered by the phase, in centipawns:
/// `(material, piece-square, bishop pair, tempo)`. White's sum minus black's is [`evaluate`]
/// from white's view, give or take the rounding of tapering each term separately.
pub fn trace(b: &Board) -> [(&'static str, [i32; 2]); 4] {
    let phase = (KNIGHT..=QUEEN)
        .map(|k| PHASE_WEIGHT[k] * b.kinds[k].count_ones() as i32)
        .sum::<i32>()
        .min(PHASE_MAX);
    let taper = |(m, e): (i32, i32)| (m * phase + e * (PHASE_MAX - phase)) / PHASE_MAX;
    let mut material = [0; 2];
    let mut squares = [0; 2];
    let mut pair = [0; 2];
    for colour in [WHITE, BLACK] {
        let (mut value, mut bonus) = ((0, 0), (0, 0));
        for (kind, &(vm, ve)) in VALUE.iter().enumerate() {
            let mut bb = b.pieces(colour, kind);
            while bb != 0 {
                let sq = bb.trailing_zeros() as usize;
                bb &= bb - 1;
                let relative = if colour == WHITE { sq } else { sq ^ 56 };
                let (bm, be) = square_bonus(kind, relative);
                value = (value.0 + vm, value.1 + ve);
                bonus = (bonus.0 + bm, bonus.1 + be);
            }
        }
        material[colour] = taper(value);
        squares[colour] = taper(bonus);
        if b.pieces(colour, BISHOP).count_ones() >= 2 {
            pair[colour] = taper(BISHOP_PAIR);
        }
    }
    let mut tempo = [0; 2];
    tempo[b.side] = TEMPO;
    [("material", material), ("piece-square", squares), ("bishop pair", pair), ("tempo", tempo)]
}

/// The packed material plus piece-square sum of the pieces on `b`, from white's view,
/// recomputed from scratch.
pub fn psq_sum(b: &Board) -> i32 {
    Squares(b.occupied()).map(|sq| PSQ[b.squares[sq] as usize][sq]).sum()
}

/// How the legal move `m` changes the packed sum of `b`, the position before `m`.
#[inline(always)]
pub fn psq_delta(b: &Board, m: Move) -> i32 {
    let from = moves::from_sq(m);
    let to = moves::to_sq(m);
    let us = b.side;
    let p = b.squares[from] as usize;
    let psq = &PSQ;
    match moves::flag(m) {
        CASTLE => {
            // The king "captures" its own rook; both land on the castling targets. In Chess960
            // a target may be a square one of them left, so each piece's leaving and landing
            // are counted on their own rather than as a shift.
            let rook = piece(us, ROOK) as usize;
            let (king_to, rook_to) = Board::castle_targets(from, to);
            psq[p][king_to] - psq[p][from] + psq[rook][rook_to] - psq[rook][to]
        }
        // The captured pawn stands behind the landing square, not on it.
        EN_PASSANT => psq[p][to] - psq[p][from] - psq[piece(us ^ 1, PAWN) as usize][to ^ 8],
        _ => {
            let victim = b.squares[to];
            let captured = if victim == NO_PIECE { 0 } else { psq[victim as usize][to] };
            // A promotion removes the pawn and lands the new piece, capture or not.
            let lands = moves::promotion(m).map_or(p, |kind| piece(us, kind) as usize);
            psq[lands][to] - psq[p][from] - captured
        }
    }
}

/// Evaluates `b` from the side to move's point of view, in centipawns, recomputing the
/// piece-square sum: the slow path for tools and tests.
pub fn evaluate(b: &Board) -> Score {
    evaluate_with(b, psq_sum(b))
}

/// Evaluates `b` from the side to move's point of view, in centipawns, given its packed
/// piece-square sum `psq` (however it was obtained).
#[inline]
pub fn evaluate_with(b: &Board, psq: i32) -> Score {
    let mut s = psq;
    if b.pieces(WHITE, BISHOP).count_ones() >= 2 {
        s += pack(BISHOP_PAIR.0, BISHOP_PAIR.1);
    }
    if b.pieces(BLACK, BISHOP).count_ones() >= 2 {
        s -= pack(BISHOP_PAIR.0, BISHOP_PAIR.1);
    }
    let phase = (KNIGHT..=QUEEN)
        .map(|k| PHASE_WEIGHT[k] * b.kinds[k].count_ones() as i32)
        .sum::<i32>()
        .min(PHASE_MAX);
    let v = (mg(s) * phase + eg(s) * (PHASE_MAX - phase)) / PHASE_MAX;
    (if b.side == WHITE { v } else { -v }) + TEMPO
}

/// The chess evaluation state the search keeps beside the board: the packed material and
/// piece-square sum, moved on by each move's [`psq_delta`] instead of summed over every piece.
#[derive(Clone, Debug)]
pub struct Accumulator(SumStack);

impl Evaluator<Chess> for Accumulator {
    /// The classic evaluation reads the board alone.
    type Net = ();

    fn new(board: &Chess, _: &()) -> Self {
        Accumulator(SumStack::new(psq_sum(board.board())))
    }

    fn reset(&mut self, board: &Chess) {
        self.0.reset(psq_sum(board.board()));
    }

    #[inline]
    fn push(&mut self, board: &Chess, m: Move) {
        self.0.push(psq_delta(board.board(), m));
    }

    #[inline]
    fn push_null(&mut self, _: &Chess) {
        self.0.push(0);
    }

    #[inline]
    fn pop(&mut self) {
        self.0.pop();
    }

    #[inline]
    fn evaluate(&mut self, board: &Chess) -> Score {
        evaluate_with(board.board(), self.0.current())
    }
}
