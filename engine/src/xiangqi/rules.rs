//! Game-ending rules other than "no legal move loses": the natural move limit, repetition
//! judged by the asian rule (perpetual check, perpetual chase), and insufficient material.
//!
//! A repetition is judged over its cycle, the moves between the two occurrences of the
//! position. Checks are recorded as moves are made, so the perpetual-check rule costs a scan
//! of the history. Chases are worked out only when a cycle without any check has to be judged:
//! the board is walked back to the start of the cycle and replayed, and each move's chases are
//! computed from the positions before and after it. That keeps the cost off every `make`, where
//! the search spends its time, and puts it on the rare node that repeats.
//!
//! The rule book follows the "computer rule" used by xiangqi engine tournaments (as Pikafish
//! describes it), in our own words:
//!
//! - A side that checked with every one of its moves in the cycle, while the other did not,
//!   loses. Both checking throughout is a draw.
//! - Only when no move of the cycle was a check: a side that chased the same enemy piece with
//!   every one of its moves, while the other side did not chase throughout, loses.
//! - A move chases when it creates an attack (by its own piece or by discovery) on an enemy
//!   piece it could win: one without a legal recapture, or one worth more than the attacker
//!   (horse or cannon on a chariot; advisor or elephant on a chariot, horse or cannon). The
//!   general and soldiers never chase; the general and soldiers on their own side of the river
//!   are never chased. Pieces of the same kind attacking each other do not chase unless the
//!   victim cannot take back (a lame horse, a pin). The capture itself must be legal, so a
//!   pinned piece chases only its pinner.
//! - Everything else that repeats is a draw.

use super::bitboard::*;
use super::movegen::encode;
use super::position::*;
use crate::game::{DRAW, MATE, Score};

/// Plies without a capture after which the game is drawn (60 moves each).
pub const DEFAULT_MOVE_LIMIT: u32 = 120;
/// Checks each side may give after the last capture that still count towards the move limit;
/// further checks do not advance it, so a side cannot run the clock out by checking.
pub const COUNTED_CHECKS: u16 = 10;

/// Ranks 5-9: black's half, where a red soldier has crossed the river.
const BLACK_HALF: Bitboard = ((1 << SQUARES) - 1) ^ ((1 << (SQUARES / 2)) - 1);
/// Ranks 0-4.
const RED_HALF: Bitboard = (1 << (SQUARES / 2)) - 1;
/// Every square.
const ALL_SQUARES: Bitboard = (1 << SQUARES) - 1;
/// The kinds whose attacks can chase.
const CHASERS: [u8; 5] = [kind::ADVISOR, kind::ELEPHANT, kind::HORSE, kind::CHARIOT, kind::CANNON];

/// Which repetitions lose, as UCCI's `repetition` option names them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, Hash)]
pub enum RuleSet {
    /// Perpetual check and perpetual chase lose; other repetitions draw.
    #[default]
    Asian,
    /// Only perpetual check loses.
    CheckBan,
    /// Every repetition is a draw.
    AlwaysDraw,
}

impl RuleSet {
    /// Every rule set, in the order options list them.
    pub const ALL: [RuleSet; 3] = [RuleSet::Asian, RuleSet::CheckBan, RuleSet::AlwaysDraw];

    /// The UCCI name (`asianrule`, `checkban`, `alwaysdraw`).
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Asian => "asianrule",
            RuleSet::CheckBan => "checkban",
            RuleSet::AlwaysDraw => "alwaysdraw",
        }
    }

    /// Reads a UCCI name, ignoring case.
    pub fn parse(text: &str) -> Option<RuleSet> {
        RuleSet::ALL.into_iter().find(|r| r.name().eq_ignore_ascii_case(text.trim()))
    }
}

/// A repetition's verdict for one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Verdict {
    Win,
    Loss,
    Draw,
}

impl Verdict {
    /// The side to move loses if only it broke the rule, wins if only the other side did.
    fn of(ours: bool, theirs: bool) -> Verdict {
        match (ours, theirs) {
            (true, false) => Verdict::Loss,
            (false, true) => Verdict::Win,
            _ => Verdict::Draw,
        }
    }

    fn score(self, ply: usize) -> Score {
        match self {
            Verdict::Win => MATE - ply as Score,
            Verdict::Loss => -(MATE - ply as Score),
            Verdict::Draw => DRAW,
        }
    }
}

/// Up to 16 attackers of one side with the enemy pieces each attacks (fixed size: this runs
/// inside the search and must not allocate per move).
struct Attacks {
    from: [u8; 16],
    targets: [Bitboard; 16],
    len: usize,
}

impl Attacks {
    fn targets_of(&self, sq: usize) -> Bitboard {
        (0..self.len).find(|&i| usize::from(self.from[i]) == sq).map_or(0, |i| self.targets[i])
    }
}

impl Position {
    /// True when `colour` has a chariot, horse or cannon.
    #[inline]
    pub fn has_major(&self, colour: usize) -> bool {
        self.bb(colour, kind::CHARIOT)
            | self.bb(colour, kind::HORSE)
            | self.bb(colour, kind::CANNON)
            != 0
    }

    /// True when neither side has anything that can attack a general: no chariot, horse,
    /// cannon or soldier. A soldier still on its own side counts: it crosses in a few moves,
    /// and general and soldier against a bare general win (Fairy-Stockfish and ElephantEye
    /// count every soldier too).
    pub fn insufficient_material(&self) -> bool {
        !self.has_major(RED)
            && !self.has_major(BLACK)
            && self.bb(RED, kind::SOLDIER) | self.bb(BLACK, kind::SOLDIER) == 0
    }

    /// Plies towards the natural move limit: the plies since the last capture, less each
    /// side's checks beyond its first [`COUNTED_CHECKS`].
    pub fn limit_plies(&self) -> u32 {
        let excess = |c: usize| u32::from(self.checks[c].saturating_sub(COUNTED_CHECKS));
        u32::from(self.halfmove).saturating_sub(excess(RED) + excess(BLACK))
    }

    /// Whether the move at history index `i` gave check.
    #[inline]
    fn gave_check(&self, i: usize) -> bool {
        self.history.get(i + 1).map_or(self.checked, |st| st.in_check)
    }

    /// The rules' verdict on the current position, `ply` plies from the search root, given
    /// the natural move limit in plies (0: none) and the repetition rules. Judging a chase
    /// replays the cycle; the board is left as it was found.
    pub fn rule_score(&mut self, ply: usize, move_limit: u32, rules: RuleSet) -> Option<Score> {
        // The limit draws, unless the move that reached it mated.
        if move_limit > 0
            && self.limit_plies() >= move_limit
            && !(self.checked && self.count_legal() == 0)
        {
            return Some(DRAW);
        }
        let n = self.history.len();
        let reach = usize::from(self.halfmove.min(self.from_null)).min(n);
        let mut earlier = 0;
        let mut i = 4;
        while i <= reach {
            if self.history[n - i].key == self.key {
                // A cycle inside the search counts at once, and so does a forbidden one that
                // runs into the search from before the root (the side breaking the rule must
                // not repeat even once more); a cycle wholly before the root, or a drawn one
                // across it, needs a third occurrence.
                if i <= ply || earlier > 0 {
                    return Some(self.judge_cycle(i, rules).score(ply));
                }
                if ply > 0 {
                    let verdict = self.judge_cycle(i, rules);
                    if verdict != Verdict::Draw {
                        return Some(verdict.score(ply));
                    }
                }
                earlier += 1;
            }
            i += 2;
        }
        if self.insufficient_material() {
            return Some(DRAW);
        }
        None
    }

    /// The verdict, for the side to move, on the cycle of the last `len` plies.
    fn judge_cycle(&mut self, len: usize, rules: RuleSet) -> Verdict {
        if rules == RuleSet::AlwaysDraw {
            return Verdict::Draw;
        }
        let n = self.history.len();
        let start = n - len;
        // Moves start, start+2, ... are the side to move's (a cycle has an even length).
        let checked_throughout = |first: usize| (first..n).step_by(2).all(|m| self.gave_check(m));
        let (ours, theirs) = (checked_throughout(start), checked_throughout(start + 1));
        if ours || theirs || rules == RuleSet::CheckBan || (start..n).any(|m| self.gave_check(m)) {
            return Verdict::of(ours, theirs);
        }
        let chased = self.chased_throughout(len);
        Verdict::of(chased[self.side], chased[self.side ^ 1])
    }

    /// For each colour, whether it chased one and the same enemy piece with every one of its
    /// moves in the cycle of the last `len` plies. Replays the cycle; leaves the board as found.
    fn chased_throughout(&mut self, len: usize) -> [bool; 2] {
        let n = self.history.len();
        let mut moves = [0u16; 256];
        if len > moves.len() {
            // Longer than any cycle a real game repeats: judged a draw rather than replayed.
            return [false; 2];
        }
        for (slot, st) in moves.iter_mut().zip(&self.history[n - len..]) {
            *slot = st.mv;
        }
        for _ in 0..len {
            self.unmake();
        }
        // The victims each colour has chased on every move so far, on their current squares.
        let mut victims = [ALL_SQUARES; 2];
        for &mv in &moves[..len] {
            let us = self.side;
            let (from, to) = (usize::from(mv & 0x7F), usize::from(mv >> 7));
            let before = if victims[us] != 0 { Some(self.attacks(us)) } else { None };
            self.make(mv);
            if let Some(before) = before {
                victims[us] &= self.chases(us, from, to, &before);
            }
            // The mover's own piece may be the other side's victim: follow it.
            if victims[us ^ 1] & bit(from) != 0 {
                victims[us ^ 1] = (victims[us ^ 1] & !bit(from)) | bit(to);
            }
        }
        [victims[0] != 0, victims[1] != 0]
    }

    /// The enemy pieces that can be chased: all but the general and uncrossed soldiers.
    fn chaseable(&self, colour: usize) -> Bitboard {
        let home = if colour == RED { RED_HALF } else { BLACK_HALF };
        self.colours[colour]
            & !self.bb(colour, kind::GENERAL)
            & !(self.bb(colour, kind::SOLDIER) & home)
    }

    /// `colour`'s attackers that may chase, with the chaseable enemy pieces each attacks.
    fn attacks(&self, colour: usize) -> Attacks {
        let mut out = Attacks { from: [0; 16], targets: [0; 16], len: 0 };
        let victims = self.chaseable(colour ^ 1);
        for k in CHASERS {
            let p = piece(colour, k);
            for sq in squares(self.pieces[p as usize]) {
                if out.len < out.from.len() {
                    out.from[out.len] = sq as u8;
                    out.targets[out.len] = self.pseudo_targets(p, sq) & victims;
                    out.len += 1;
                }
            }
        }
        out
    }

    /// The pieces chased by `us`'s move `from`-`to`, just made: attacks that did not exist
    /// in the position before it (`before`), on pieces `us` could win.
    fn chases(&mut self, us: usize, from: usize, to: usize, before: &Attacks) -> Bitboard {
        let after = self.attacks(us);
        let mut chased = 0;
        for i in 0..after.len {
            let sq = usize::from(after.from[i]);
            let was = if sq == to { from } else { sq };
            for v in squares(after.targets[i] & !before.targets_of(was)) {
                if self.could_win(us, sq, v) {
                    chased |= bit(v);
                }
            }
        }
        chased
    }

    /// Whether `us`'s piece on `a` could win the enemy piece on `v` it attacks; the other side
    /// is to move.
    fn could_win(&mut self, us: usize, a: usize, v: usize) -> bool {
        let them = us ^ 1;
        if !self.safe_after(us, self.general(us), a, v) {
            return false;
        }
        let (ka, kv) = (kind_of(self.board[a]), kind_of(self.board[v]));
        if ka == kv {
            // Pieces of a kind attacking each other: the victim could take first.
            return !self.can_capture(them, v, a);
        }
        let worth_more = match ka {
            kind::HORSE | kind::CANNON => kv == kind::CHARIOT,
            kind::ADVISOR | kind::ELEPHANT => {
                matches!(kv, kind::CHARIOT | kind::HORSE | kind::CANNON)
            }
            _ => false,
        };
        if worth_more {
            return true;
        }
        // Unprotected: after the capture, nothing of theirs can legally take back.
        self.make_null();
        self.make(encode(a, v).raw());
        let defended = squares(self.colours[them]).any(|s| self.can_capture(them, s, v));
        self.unmake();
        self.unmake_null();
        !defended
    }

    /// Whether `colour`'s piece on `from` can legally capture on `to`, whoever is to move.
    fn can_capture(&self, colour: usize, from: usize, to: usize) -> bool {
        let p = self.board[from];
        p != EMPTY
            && colour_of(p) == colour
            && self.pseudo_targets(p, from) & bit(to) != 0
            && self.safe_after(colour, self.general(colour), from, to)
    }
}
