//! Static evaluation: material plus piece-square bonuses.
//!
//! The position does not keep their sum: perft and move parsing would pay for it on every
//! move. [`evaluate`] recomputes it from the pieces (for tools and tests), while the search
//! keeps it move by move in an [`Accumulator`]; both finish in [`evaluate_with`], so they agree
//! exactly.
//!
//! The tables are computed from a few rules of thumb rather than typed in, so that they are
//! symmetric by construction: a file's bonus depends only on its distance from the centre
//! file, and black's table is red's with the ranks mirrored. Units: a horse is about 400, so
//! UCCI's "horse = 100" is a quarter of our scale.

use super::Xiangqi;
use super::bitboard::*;
use super::movegen::decode;
use super::position::{Position, RED, colour_of, kind, kind_of};
use crate::game::{Evaluator, Move, Score, SumStack};

/// Material values by kind (general, advisor, elephant, horse, chariot, cannon, soldier).
pub const VALUE: [i32; kind::COUNT] = [0, 160, 160, 400, 950, 450, 40];

/// A soldier's extra value once across the river.
const SOLDIER_CROSSED: i32 = 60;
/// Extra value for a crossed soldier by how far it has advanced (relative ranks 5..9); the
/// ranks just in front of and inside the enemy palace are the most dangerous, the last rank
/// the least (it can only move sideways).
const SOLDIER_ADVANCE: [i32; 5] = [0, 25, 45, 55, 10];
/// Per file nearer the centre, for a crossed soldier.
const SOLDIER_CENTRE: i32 = 7;
/// A soldier on the centre file before crossing (it opens the centre and guards it).
const SOLDIER_CENTRE_HOME: i32 = 5;
/// Horse: per file nearer the centre (the edge halves its reach).
const HORSE_CENTRE: i32 = 6;
/// Horse: bonus per rank advanced into the enemy half.
const HORSE_ADVANCE: i32 = 6;
/// Horse: bonus in front of the enemy palace, where it threatens the general (and the same
/// as a penalty on the enemy back rank, where it has few squares left).
const HORSE_PALACE: i32 = 20;
/// Chariot: bonus for standing on the enemy's side (ranks 5..8).
const CHARIOT_ENEMY_SIDE: i32 = 15;
/// Chariot: bonus per file nearer the centre.
const CHARIOT_CENTRE: i32 = 3;
/// Cannon: bonus on the centre file (the central cannon opening).
const CANNON_CENTRE_FILE: i32 = 15;
/// Cannon: bonus on its own back ranks, where it supports the defence without blocking.
const CANNON_HOME: i32 = 5;
/// Advisor/elephant on the centre of the palace or the centre elephant square.
const GUARD_CENTRE: i32 = 10;
/// General: penalty per rank it has climbed out of the back rank.
const GENERAL_CLIMB: i32 = 12;

/// The bonus of a piece of `kind` on a square at relative rank `rr` (0 = its own back rank)
/// and distance `cd` from the centre file.
const fn bonus(k: u8, rr: i32, cd: i32) -> i32 {
    match k {
        kind::GENERAL => -GENERAL_CLIMB * rr,
        kind::ADVISOR => {
            if cd == 0 {
                GUARD_CENTRE
            } else {
                0
            }
        }
        kind::ELEPHANT => {
            if cd == 0 {
                GUARD_CENTRE
            } else {
                0
            }
        }
        kind::HORSE => {
            let mut b = HORSE_CENTRE * (4 - cd) - HORSE_CENTRE * 2;
            if rr >= 5 {
                b += HORSE_ADVANCE * (rr - 4);
            }
            if rr >= 6 && rr <= 8 && cd <= 2 {
                b += HORSE_PALACE;
            }
            if rr == 9 {
                b -= HORSE_PALACE;
            }
            b
        }
        kind::CHARIOT => {
            let mut b = CHARIOT_CENTRE * (4 - cd);
            if rr >= 5 && rr <= 8 {
                b += CHARIOT_ENEMY_SIDE;
            }
            b
        }
        kind::CANNON => {
            let mut b = 0;
            if cd == 0 {
                b += CANNON_CENTRE_FILE;
            }
            if rr <= 2 {
                b += CANNON_HOME;
            }
            b
        }
        _ => {
            if rr >= 5 {
                SOLDIER_CROSSED + SOLDIER_ADVANCE[(rr - 5) as usize] + SOLDIER_CENTRE * (4 - cd)
            } else if cd == 0 {
                SOLDIER_CENTRE_HOME
            } else {
                0
            }
        }
    }
}

/// `[piece code][square]`: value + bonus, positive for both colours.
const fn build() -> [[i32; SQUARES]; 16] {
    let mut t = [[0; SQUARES]; 16];
    let mut code = 1;
    while code < 16 {
        if code != 8 {
            let k = kind_of(code as u8);
            let colour = colour_of(code as u8);
            let mut sq = 0;
            while sq < SQUARES {
                let r = rank_of(sq) as i32;
                let rr = if colour == 0 { r } else { 9 - r };
                let cd = (file_of(sq) as i32 - 4).abs();
                t[code][sq] = VALUE[k as usize] + bonus(k, rr, cd);
                sq += 1;
            }
        }
        code += 1;
    }
    t
}

static PSQ: [[i32; SQUARES]; 16] = build();

/// The signed contribution (red positive) of piece code `p` on `sq`.
#[inline(always)]
pub fn psq(p: u8, sq: usize) -> i32 {
    let v = PSQ[p as usize][sq];
    if colour_of(p) == 0 { v } else { -v }
}

/// The material and piece-square balance of `pos` (red minus black), recomputed from scratch.
pub fn psq_sum(pos: &Position) -> i32 {
    squares(pos.occ).map(|sq| psq(pos.board[sq], sq)).sum()
}

/// How the legal move `m` changes the balance of `pos`, the position before `m`.
#[inline(always)]
pub fn psq_delta(pos: &Position, m: Move) -> i32 {
    let (from, to) = decode(m);
    let p = pos.board[from];
    // An empty square's entry is 0, so a quiet move needs no branch.
    psq(p, to) - psq(p, from) - psq(pos.board[to], to)
}

/// Evaluates `pos` from the side to move's point of view, recomputing the balance: the slow
/// path for tools and tests.
pub fn evaluate(pos: &Position) -> Score {
    evaluate_with(pos, psq_sum(pos))
}

/// Evaluates `pos` from the side to move's point of view, given its balance `psq` (red minus
/// black, however it was obtained).
#[inline]
pub fn evaluate_with(pos: &Position, psq: i32) -> Score {
    if pos.side == RED { psq } else { -psq }
}

/// The xiangqi evaluation state the search keeps beside the board: the material and
/// piece-square balance, moved on by each move's [`psq_delta`] instead of summed over every
/// piece.
#[derive(Clone, Debug)]
pub struct Accumulator(SumStack);

impl Evaluator<Xiangqi> for Accumulator {
    /// The classic evaluation reads the board alone.
    type Net = ();

    fn new(board: &Xiangqi, _: &()) -> Self {
        Accumulator(SumStack::new(psq_sum(board.position())))
    }

    fn reset(&mut self, board: &Xiangqi) {
        self.0.reset(psq_sum(board.position()));
    }

    #[inline]
    fn push(&mut self, board: &Xiangqi, m: Move) {
        self.0.push(psq_delta(board.position(), m));
    }

    #[inline]
    fn push_null(&mut self, _: &Xiangqi) {
        self.0.push(0);
    }

    #[inline]
    fn pop(&mut self) {
        self.0.pop();
    }

    #[inline]
    fn evaluate(&mut self, board: &Xiangqi) -> Score {
        evaluate_with(board.position(), self.0.current())
    }
}
