//! Static evaluation: material plus piece-square bonuses, kept incrementally by the position.
//!
//! The tables are computed from a few rules of thumb rather than typed in, so that they are
//! symmetric by construction: a file's bonus depends only on its distance from the centre
//! file, and black's table is red's with the ranks mirrored. Units: a horse is about 400, so
//! UCCI's "horse = 100" is a quarter of our scale.

use super::bitboard::*;
use super::position::{colour_of, kind, kind_of};

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
