//! Static exchange evaluation, and the move facts a modern search keys its tables on: the piece
//! a move moves and captures, the square it lands on, and Zobrist keys of the soldiers and of
//! each side's other pieces (for correction histories).
//!
//! Nothing here is kept incrementally: attackers are recomputed from the occupancy at each step
//! of an exchange (cannon screens, horse legs and elephant eyes all change as pieces leave), and
//! the keys are computed from the board on demand, so that make/unmake and perft pay nothing.

use super::Xiangqi;
use super::bitboard::*;
use super::movegen::decode;
use super::position::*;
use crate::game::{Changes, Move};

/// Exchange value of an advisor, in internal units (a horse is about 400, UCCI's 100). The
/// exchange values are the evaluation's material values (`eval::VALUE`).
const SEE_ADVISOR: i32 = 160;
/// Exchange value of an elephant.
const SEE_ELEPHANT: i32 = 160;
/// Exchange value of a horse.
const SEE_HORSE: i32 = 400;
/// Exchange value of a chariot.
const SEE_CHARIOT: i32 = 950;
/// Exchange value of a cannon.
const SEE_CANNON: i32 = 450;
/// Exchange value of a soldier on its own side of the river.
const SEE_SOLDIER: i32 = 40;
/// Exchange value of a soldier across the river, where it also moves sideways: the
/// evaluation's soldier plus its crossing bonus. Every capture in an exchange lands on one
/// square, so a soldier is valued by whether that square is across the river for it.
const SEE_SOLDIER_CROSSED: i32 = 100;
/// Exchange value of a general: more than everything else together, so that a (pseudo-legal)
/// general move onto a guarded square is never judged a gain. The exchange itself never lets
/// the general be captured (it recaptures only onto an unguarded square).
const SEE_GENERAL: i32 = 20_000;

/// Exchange values by kind (general, advisor, elephant, horse, chariot, cannon, soldier).
const SEE_VALUE: [i32; kind::COUNT] =
    [SEE_GENERAL, SEE_ADVISOR, SEE_ELEPHANT, SEE_HORSE, SEE_CHARIOT, SEE_CANNON, SEE_SOLDIER];

/// The order in which a side's attackers capture: least valuable first (a soldier is the
/// cheapest on either side of the river).
const CAPTURE_ORDER: [u8; kind::COUNT] = [
    kind::SOLDIER,
    kind::ADVISOR,
    kind::ELEPHANT,
    kind::HORSE,
    kind::CANNON,
    kind::CHARIOT,
    kind::GENERAL,
];

/// Thresholds are clamped to this magnitude, far beyond any exchange, so that the arithmetic
/// cannot overflow whatever the caller passes.
const THRESHOLD_LIMIT: i32 = 1 << 24;

/// The index in `0..PIECES` (`colour * 7 + kind`) of a non-empty piece code.
pub(super) fn piece_index(p: u8) -> usize {
    colour_of(p) * kind::COUNT + usize::from(kind_of(p))
}

impl Xiangqi {
    /// The coloured piece that the legal move `m` moves, as `colour * 7 + kind` in `0..PIECES`
    /// (kinds as in [`kind`]: general, advisor, elephant, horse, chariot, cannon, soldier).
    pub fn moved_piece(&self, m: Move) -> usize {
        let (from, _) = decode(m);
        match self.pos.board[from] {
            EMPTY => {
                debug_assert!(false, "moved_piece: no piece on the from square");
                // Any index in range, so that a move from another position cannot make a
                // table lookup panic.
                0
            }
            p => piece_index(p),
        }
    }

    /// The coloured piece that the legal move `m` captures, indexed as in
    /// [`Xiangqi::moved_piece`]; `None` for a quiet move.
    pub fn captured_piece(&self, m: Move) -> Option<usize> {
        let (_, to) = decode(m);
        match self.pos.board[to] {
            EMPTY => None,
            p => Some(piece_index(p)),
        }
    }

    /// The pieces the legal move `m` takes off the board and puts on it.
    #[inline]
    pub fn changes(&self, m: Move) -> Changes {
        let (from, to) = decode(m);
        let mut c = Changes::default();
        let p = piece_index(self.pos.board[from]);
        c.remove(p, from);
        c.add(p, to);
        let victim = self.pos.board[to];
        if victim != EMPTY {
            c.remove(piece_index(victim), to);
        }
        c
    }

    /// The square (`0..90`) where the legal move `m` lands.
    pub fn target(m: Move) -> usize {
        decode(m).1
    }

    /// Static exchange evaluation: true when the captures on the target square of the legal
    /// move `m`, each side taking with its least valuable piece and free to stop whenever
    /// continuing would not help it, win at least `threshold` for the side to move (in
    /// internal units, a horse being about 400).
    ///
    /// Simplifications: pins are ignored (a piece shielding its general, or the last piece
    /// between the two generals, may still capture), and the flying general counts only as a
    /// guard of the square against the other general, never as a capture. Least valuable
    /// first is not always best here: a soldier that is its own cannon's screen takes first
    /// and so disarms the cannon, where the cannon taking first would keep both in play.
    /// Against an exact minimax over legal captures on random-playout positions the answer
    /// differed for about 0.4% of moves, all from these simplifications.
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        see_ge(&self.pos, m, threshold)
    }
}

/// The exchange value of piece `p` standing on `sq`.
fn value(p: u8, sq: usize) -> i32 {
    let k = kind_of(p);
    let crossed = red_half(sq) != (colour_of(p) == RED);
    if k == kind::SOLDIER && crossed { SEE_SOLDIER_CROSSED } else { SEE_VALUE[usize::from(k)] }
}

/// The occupancy of `file` in `occ` as rank bits, the form the file attack tables take.
fn file_occupancy(occ: Bitboard, file: usize) -> u16 {
    (0..RANKS).filter(|&r| occ & bit(square(r, file)) != 0).fold(0, |acc, r| acc | 1 << r)
}

/// Chariot-like and cannon-capture lines from `sq` given the occupancy `occ`.
fn lines(sq: usize, occ: Bitboard) -> (Bitboard, Bitboard) {
    line_attacks_from(sq, occ, file_occupancy(occ, file_of(sq)))
}

/// The pieces of both colours, among `occ`, that can capture on `to` given the occupancy `occ`.
/// The flying general is not a capture and is left out.
fn attackers(pos: &Position, to: usize, occ: Bitboard) -> Bitboard {
    let t = &TABLES;
    let both = |k: u8| pos.bb(RED, k) | pos.bb(BLACK, k);
    let (chariot, cannon) = lines(to, occ);
    // Horse legs and elephant eyes towards `to` are both diagonal neighbours of `to`.
    let eyes = &t.eyes[to];
    let diagonal =
        (0..4).filter(|&i| occ & bit(usize::from(eyes[i])) != 0).fold(0, |acc, i| acc | 1 << i);
    let found = (chariot & both(kind::CHARIOT))
        | (cannon & both(kind::CANNON))
        | (t.horse_to[to][diagonal] & both(kind::HORSE))
        // Elephant steps are symmetric, and the table keeps both ends on one side of the
        // river, so the steps from `to` are the squares an elephant could take on `to` from.
        | (t.elephant[to][diagonal] & both(kind::ELEPHANT))
        | (t.advisor[to] & both(kind::ADVISOR))
        | (t.general[to] & both(kind::GENERAL))
        | (t.soldier_to[RED][to] & pos.bb(RED, kind::SOLDIER))
        | (t.soldier_to[BLACK][to] & pos.bb(BLACK, kind::SOLDIER));
    found & occ
}

/// The swap algorithm behind [`Xiangqi::see_ge`]; see `chess::see` for the reasoning, which is
/// the same. Here every step recomputes the attackers from the occupancy: a cannon gains or
/// loses its screen, and a horse leg or an elephant eye opens, as pieces leave for the square.
fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (from, to) = decode(m);
    if from >= SQUARES || to >= SQUARES || pos.board[from] == EMPTY {
        return 0 >= threshold;
    }
    let mover = pos.board[from];
    let us = colour_of(mover);

    let mut balance = -threshold.clamp(-THRESHOLD_LIMIT, THRESHOLD_LIMIT);
    if pos.board[to] != EMPTY {
        balance += value(pos.board[to], to);
    }
    let mut at_stake = value(mover, to);
    // Even unanswered the move falls short; or even losing the mover for nothing it does not.
    if balance < 0 {
        return false;
    }
    if balance - at_stake >= 0 {
        return true;
    }

    let mut occ = (pos.occ & !bit(from)) | bit(to);
    let mut side = us ^ 1;
    loop {
        let ours = attackers(pos, to, occ) & pos.colours[side];
        let Some(k) = CAPTURE_ORDER.into_iter().find(|&k| ours & pos.bb(side, k) != 0) else {
            break;
        };
        let sq = (ours & pos.bb(side, k)).trailing_zeros() as usize;
        let sign = if side == us { 1 } else { -1 };
        balance += sign * at_stake;
        if k == kind::GENERAL {
            // The general may take only onto a square nothing of the opponent's attacks once it
            // has left its own, nor facing the other general; then the exchange ends here.
            let after = occ & !bit(sq);
            let them = side ^ 1;
            let facing = lines(to, after).0 & pos.bb(them, kind::GENERAL) != 0;
            if facing || attackers(pos, to, after) & pos.colours[them] != 0 {
                break;
            }
            return balance >= 0;
        }
        at_stake = value(piece(side, k), to);
        // The capturing side is through if it stays on its side of the threshold even when its
        // piece is taken in turn.
        if side == us && balance - at_stake >= 0 {
            return true;
        }
        if side != us && balance + at_stake < 0 {
            return false;
        }
        occ &= !bit(sq);
        side ^= 1;
    }
    side != us
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::xiangqi::PIECES;

    fn game(fen: &str) -> Xiangqi {
        Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn parse(g: &Xiangqi, text: &str) -> Move {
        g.parse_move(text).unwrap_or_else(|e| panic!("{}: {text}: {e}", g.fen()))
    }

    /// (FEN, move, threshold, expected), each checked by hand in its comment. Values: soldier 40
    /// (100 across the river), advisor 160, elephant 160, horse 400, cannon 450, chariot 950.
    const SEE_CASES: &[(&str, &str, i32, bool)] = &[
        // Undefended capture: RxH wins the whole horse, 400 >= 400...
        ("3k5/9/n8/9/9/R8/9/9/9/4K4 w - - 0 1", "a4a7", 400, true),
        // ...and not one more.
        ("3k5/9/n8/9/9/R8/9/9/9/4K4 w - - 0 1", "a4a7", 401, false),
        // RxH defended by a chariot (a dearer piece takes): +400 -950 = -550 < 0.
        ("r2k5/9/n8/9/9/R8/9/9/9/4K4 w - - 0 1", "a4a7", 0, false),
        // Same, -550 >= -550.
        ("r2k5/9/n8/9/9/R8/9/9/9/4K4 w - - 0 1", "a4a7", -550, true),
        // Same, -550 < -549.
        ("r2k5/9/n8/9/9/R8/9/9/9/4K4 w - - 0 1", "a4a7", -549, false),
        // Chariots doubled on the file (x-ray): RxH RxR RxR = +400 -950 +950; black stops
        // after RxH instead, which leaves red 400 >= 0.
        ("r2k5/9/9/n8/9/9/9/9/R8/R3K4 w - - 0 1", "a1a6", 0, true),
        // Same, 400 >= 400.
        ("r2k5/9/9/n8/9/9/9/9/R8/R3K4 w - - 0 1", "a1a6", 400, true),
        // Chariots doubled on both sides: RxH RxR RxR RxR; red stops before the last, so
        // +400 -950 = -550 < 0.
        ("r2k5/r8/9/9/n8/9/9/9/R8/R3K4 w - - 0 1", "a1a5", 0, false),
        // Same, -550 >= -550.
        ("r2k5/r8/9/9/n8/9/9/9/R8/R3K4 w - - 0 1", "a1a5", -550, true),
        // The cannon's screen leaves: the chariot on a2 was the a0 cannon's only screen, so
        // after RxH RxR the cannon cannot recapture: +400 -950 = -550 < 0.
        ("r2k5/9/9/n8/9/9/9/R8/9/C3K4 w - - 0 1", "a2a6", 0, false),
        // The other way round, the cannon takes over its chariot and the chariot backs it
        // up: CxH, and RxC RxR would leave black -500, so black stops: 400 >= 400.
        ("r2k5/9/9/n8/9/9/9/R8/9/C3K4 w - - 0 1", "a0a6", 400, true),
        // Same, 400 < 401.
        ("r2k5/9/9/n8/9/9/9/R8/9/C3K4 w - - 0 1", "a0a6", 401, false),
        // A cannon becomes a capturer: behind two screens (elephant a2, chariot a5) it cannot
        // reach a7, but once the chariot has taken there the elephant is its one screen:
        // RxH RxR CxR, or black stops; red 400 >= 400 either way.
        ("r2k5/9/n8/9/R8/9/9/B8/9/C3K4 w - - 0 1", "a5a7", 400, true),
        // Same, 400 >= 0.
        ("r2k5/9/n8/9/R8/9/9/B8/9/C3K4 w - - 0 1", "a5a7", 0, true),
        // Without the elephant the cannon has no screen left after RxH RxR: -550 < 0.
        ("r2k5/9/n8/9/R8/9/9/9/9/C3K4 w - - 0 1", "a5a7", 0, false),
        // The black cannon's only screen was the capturing chariot (a7 to a5 along the
        // file): it cannot recapture, 400 >= 400.
        ("c2k5/9/R8/9/n8/9/9/9/9/4K4 w - - 0 1", "a7a5", 400, true),
        // The chariot takes from the side instead; the cannon recaptures over the elephant on
        // a7: +400 -950 = -550 < 0.
        ("c2k5/9/b8/9/n3R4/9/9/9/9/4K4 w - - 0 1", "e5a5", 0, false),
        // Same, -550 >= -550.
        ("c2k5/9/b8/9/n3R4/9/9/9/9/4K4 w - - 0 1", "e5a5", -550, true),
        // Quiet chariot move onto a square the c7 horse attacks (leg c6 free): 0 -950 < 0.
        ("3k5/9/2n6/9/9/9/9/9/9/1R2K4 w - - 0 1", "b0b5", 0, false),
        // Quiet chariot move onto a safe square: 0 >= 0...
        ("3k5/9/2n6/9/9/9/9/9/9/1R2K4 w - - 0 1", "b0b4", 0, true),
        // ...but it gains nothing: 0 < 1.
        ("3k5/9/2n6/9/9/9/9/9/9/1R2K4 w - - 0 1", "b0b4", 1, false),
        // RxC, the d7 horse recaptures over its free leg d6: +450 -950 = -500 < 0.
        ("5k3/9/3n5/9/4c4/9/9/9/4R4/3K5 w - - 0 1", "e1e5", 0, false),
        // Same, -500 >= -500.
        ("5k3/9/3n5/9/4c4/9/9/9/4R4/3K5 w - - 0 1", "e1e5", -500, true),
        // The horse's leg d6 is blocked (by a soldier): it does not count, 450 >= 450.
        ("5k3/9/3n5/3p5/4c4/9/9/9/4R4/3K5 w - - 0 1", "e1e5", 450, true),
        // RxH, the c5 elephant recaptures over its free eye d6: +400 -950 = -550 < 0.
        ("5k3/9/4n4/9/2b6/9/9/9/4R4/3K5 w - - 0 1", "e1e7", 0, false),
        // The elephant's eye d6 is blocked: it does not count, 400 >= 400.
        ("5k3/9/4n4/3p5/2b6/9/9/9/4R4/3K5 w - - 0 1", "e1e7", 400, true),
        // A soldier before the river takes a horse defended by a chariot: +400 -40 = 360 >=
        // 360...
        ("3k5/4r4/9/9/9/4n4/4P4/9/9/4K4 w - - 0 1", "e3e4", 360, true),
        // ...and 360 < 361.
        ("3k5/4r4/9/9/9/4n4/4P4/9/9/4K4 w - - 0 1", "e3e4", 361, false),
        // A soldier across the river takes sideways, a chariot defended by a horse: the
        // soldier is worth 100 there, +950 -100 = 850 >= 850...
        ("3k5/9/9/1n7/3rP4/9/9/9/9/4K4 w - - 0 1", "e5d5", 850, true),
        // ...and 850 < 851.
        ("3k5/9/9/1n7/3rP4/9/9/9/9/4K4 w - - 0 1", "e5d5", 851, false),
        // A black soldier before the river (e5) does not guard sideways: RxC wins 450.
        ("5k3/9/9/9/R2cp4/9/9/9/9/4K4 w - - 0 1", "a5d5", 450, true),
        // A black soldier guards the square straight ahead of it (e5 guards e4): +400 -950 =
        // -550 < 0.
        ("5k3/9/9/9/4p4/R3n4/9/9/9/4K4 w - - 0 1", "a4e4", 0, false),
        // Across the river (e4) it does: +450 -950 = -500 < 0...
        ("5k3/9/9/9/9/R2cp4/9/9/9/4K4 w - - 0 1", "a4d4", 0, false),
        // ...and -500 >= -500.
        ("5k3/9/9/9/9/R2cp4/9/9/9/4K4 w - - 0 1", "a4d4", -500, true),
        // RxA beside the black general, the square also covered by the d6 horse: the general
        // cannot recapture, 160 >= 160...
        ("4k4/4a4/9/3N5/9/9/9/9/4R4/3K5 w - - 0 1", "e1e8", 160, true),
        // ...and 160 < 161.
        ("4k4/4a4/9/3N5/9/9/9/9/4R4/3K5 w - - 0 1", "e1e8", 161, false),
        // Without the horse the general recaptures: +160 -950 = -790 < 0...
        ("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1", "e1e8", 0, false),
        // ...and -790 >= -790.
        ("4k4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1", "e1e8", -790, true),
        // With the red general on the open e-file the black general cannot recapture either
        // (the generals would face each other): 160 >= 160.
        ("4k4/4a4/9/9/9/9/9/9/4R4/4K4 w - - 0 1", "e1e8", 160, true),
        // HxR defended by the advisor (the cheaper defender takes first, not the general):
        // +950 -400 = 550 >= 550...
        ("3ak4/4r4/9/3N5/9/9/9/9/9/3K5 w - - 0 1", "d6e8", 550, true),
        // ...and 550 < 551.
        ("3ak4/4r4/9/3N5/9/9/9/9/9/3K5 w - - 0 1", "d6e8", 551, false),
        // Black to move: RxH defended by a chariot, +400 -950 = -550 < 0...
        ("3k3r1/9/9/9/9/9/7N1/9/9/4K2R1 b - - 0 1", "h9h3", 0, false),
        // ...and -550 >= -550.
        ("3k3r1/9/9/9/9/9/7N1/9/9/4K2R1 b - - 0 1", "h9h3", -550, true),
        // The general takes an undefended horse: 400 >= 400.
        ("3k5/9/9/9/9/9/9/9/4n4/4K4 w - - 0 1", "e0e1", 400, true),
    ];

    #[test]
    fn see_cases() {
        for &(fen, text, threshold, expected) in SEE_CASES {
            let g = game(fen);
            let m = parse(&g, text);
            assert_eq!(g.see_ge(m, threshold), expected, "{fen} {text} >= {threshold}");
        }
    }

    /// The index of `colour`'s piece of `k`.
    fn code(colour: usize, k: u8) -> usize {
        piece_index(piece(colour, k))
    }

    #[test]
    fn move_facts() {
        let mut g = Xiangqi::startpos();
        let m = parse(&g, "h2e2");
        assert_eq!(g.moved_piece(m), code(RED, kind::CANNON));
        assert_eq!(g.captured_piece(m), None);
        assert_eq!(Xiangqi::target(m), square(2, 4));
        // The cannon jumps the h7 cannon onto the h9 horse.
        let m = parse(&g, "h2h9");
        assert_eq!(g.moved_piece(m), code(RED, kind::CANNON));
        assert_eq!(g.captured_piece(m), Some(code(BLACK, kind::HORSE)));
        assert_eq!(Xiangqi::target(m), square(9, 7));
        g.make(parse(&g, "h2e2"));
        let m = parse(&g, "c6c5");
        assert_eq!(g.moved_piece(m), code(BLACK, kind::SOLDIER));
        assert_eq!(Xiangqi::target(m), square(5, 2));
        // Every index is in range and the two colours do not overlap.
        assert_eq!(code(BLACK, kind::SOLDIER), PIECES - 1);
        assert_eq!(code(BLACK, kind::GENERAL), kind::COUNT);
    }
}
