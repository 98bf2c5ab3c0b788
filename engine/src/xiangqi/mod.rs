//! Xiangqi (Chinese chess): the board, its rules, and a first evaluation.
//!
//! - [`bitboard`]: squares, `u128` bitboards and compile-time attack tables.
//! - [`position`]: pieces, Zobrist keys, make/unmake and the history stack.
//! - [`movegen`]: legal move generation and perft.
//! - [`fen`]: UCCI FEN reading (validated) and writing.
//! - [`eval`]: material and piece-square tables.
//! - [`rules`]: the move limit, repetitions (perpetual check and chase), insufficient material.
//! - `see`: static exchange evaluation, and the move facts and keys search tables index by.
//!
//! Moves are written in ICCS coordinates: files `a`-`i` from red's left, ranks `0`-`9` from
//! red's back rank, e.g. `h2e2`. A [`Move`] holds `from | to << 7` with `sq = rank * 9 + file`.

pub mod bitboard;
pub mod eval;
pub mod fen;
mod inspect;
pub mod movegen;
pub mod position;
pub mod rules;
mod see;
#[cfg(test)]
mod tests;

use crate::game::*;
use bitboard::*;
use movegen::{Pusher, decode, encode};
use position::*;

/// The standard starting position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The number of coloured pieces, `colour * 7 + kind`: the range of
/// [`Xiangqi::moved_piece`] and [`Xiangqi::captured_piece`].
pub const PIECES: usize = 2 * position::kind::COUNT;

/// The piece-square pairs a position can hold ([`fen::reachable`]), per side: the general on
/// 9 squares, advisors on 5, elephants on 7, horses, chariots and cannons on all 90, soldiers
/// on the 63 on or past their start rank; 708 in all, against 14 × 90 = 1,260. The
/// continuation history, keyed by two of them, is 1.0 MB a thread so, against 3.2 MB.
const PIECE_SQUARES: usize = 2 * (9 + 5 + 7 + 3 * SQUARES + 63);
/// Each coloured piece's squares numbered in turn, `[piece * SQUARES + square]`; a pair that
/// cannot occur maps to 0, any index in range.
const PIECE_SQUARE_INDEX: [u16; PIECES * SQUARES] = piece_square_index();

/// Whether coloured piece `piece` (`colour * 7 + kind`) can ever stand on `square`: the
/// pairs [`PIECE_SQUARE_INDEX`] numbers.
pub(crate) const fn can_stand(piece: usize, square: usize) -> bool {
    let (colour, kind) = (piece / position::kind::COUNT, (piece % position::kind::COUNT) as u8);
    piece < PIECES && square < SQUARES && fen::reachable(colour, kind, square)
}

const fn piece_square_index() -> [u16; PIECES * SQUARES] {
    let mut index = [0; PIECES * SQUARES];
    let mut next = 0;
    let mut piece = 0;
    while piece < PIECES {
        let mut square = 0;
        while square < SQUARES {
            if can_stand(piece, square) {
                index[piece * SQUARES + square] = next as u16;
                next += 1;
            }
            square += 1;
        }
        piece += 1;
    }
    assert!(next == PIECE_SQUARES, "PIECE_SQUARES counts the reachable pairs");
    index
}

/// Victim ranks for MVV-LVA by kind (general, advisor, elephant, horse, chariot, cannon,
/// soldier).
const VICTIM_RANK: [i32; position::kind::COUNT] = [7, 2, 2, 4, 6, 4, 1];
/// Attacker order for MVV-LVA: cheaper attackers first.
const ATTACKER_ORDER: [i32; position::kind::COUNT] = [6, 2, 2, 3, 5, 4, 1];

/// A xiangqi position with its history and rule settings.
#[derive(Clone)]
pub struct Xiangqi {
    pos: Position,
    move_limit: u32,
    rules: rules::RuleSet,
}

impl Xiangqi {
    /// Perft on the portable code path only (see [`Position::perft_portable`]).
    pub fn perft_portable(&mut self, depth: u32) -> u64 {
        self.pos.perft_portable(depth)
    }

    /// Sets the natural move limit: plies without a capture before the game is drawn (0: no
    /// limit).
    pub fn set_move_limit(&mut self, plies: u32) {
        self.move_limit = plies;
    }

    /// Chooses which repetitions lose.
    pub fn set_rules(&mut self, rules: rules::RuleSet) {
        self.rules = rules;
    }

    /// The board, for tests and tools.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    fn from_position(pos: Position) -> Xiangqi {
        Xiangqi { pos, move_limit: rules::DEFAULT_MOVE_LIMIT, rules: rules::RuleSet::default() }
    }
}

/// Parses an ICCS square (`e0`); letters may be upper case.
fn parse_square(file: u8, rank: u8) -> Option<usize> {
    let file = file.to_ascii_lowercase();
    if (b'a'..=b'i').contains(&file) && rank.is_ascii_digit() {
        Some(square((rank - b'0') as usize, (file - b'a') as usize))
    } else {
        None
    }
}

fn square_text(sq: usize) -> [char; 2] {
    [char::from(b'a' + file_of(sq) as u8), char::from(b'0' + rank_of(sq) as u8)]
}

impl Game for Xiangqi {
    const VARIANT: Variant = Variant::Xiangqi;
    const UNITS_PER_CP: Score = 4;
    /// Off: at 2+0.02 it scored 72-84-44 (-20.9 ± 42.4, 200 games) where chess gained;
    /// cannon screens may need a better exchange model first.
    const QS_SEE_PRUNING: bool = false;

    fn startpos() -> Self {
        match fen::parse(START_FEN) {
            Ok(pos) => Xiangqi::from_position(pos),
            Err(e) => unreachable!("the start FEN is valid: {e}"),
        }
    }

    fn from_fen(text: &str) -> Result<Self, FenError> {
        fen::parse(text).map(Xiangqi::from_position)
    }

    fn fen(&self) -> String {
        fen::write(&self.pos)
    }

    fn side_to_move(&self) -> Side {
        if self.pos.side == RED { Side::First } else { Side::Second }
    }

    #[inline]
    fn key(&self) -> u64 {
        self.pos.key
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.pos.checked
    }

    fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        self.pos.generate::<_, false>(&mut Pusher(list));
    }

    fn legal_captures(&self, list: &mut MoveList) {
        list.clear();
        self.pos.generate::<_, true>(&mut Pusher(list));
    }

    #[inline]
    fn is_tactical(&self, m: Move) -> bool {
        let (_, to) = decode(m);
        to < SQUARES && self.pos.board[to] != EMPTY
    }

    fn mvv_lva(&self, m: Move) -> i32 {
        let (from, to) = decode(m);
        if from >= SQUARES || to >= SQUARES {
            return 0;
        }
        let (attacker, victim) = (self.pos.board[from], self.pos.board[to]);
        if victim == EMPTY || attacker == EMPTY {
            return 0;
        }
        VICTIM_RANK[kind_of(victim) as usize] * 8 - ATTACKER_ORDER[kind_of(attacker) as usize]
    }

    fn is_legal(&self, m: Move) -> bool {
        self.pos.is_legal(m)
    }

    #[inline]
    fn make(&mut self, m: Move) {
        self.pos.make(m.raw());
    }

    #[inline]
    fn unmake(&mut self) {
        self.pos.unmake();
    }

    fn make_null(&mut self) {
        self.pos.make_null();
    }

    fn unmake_null(&mut self) {
        self.pos.unmake_null();
    }

    fn has_null_material(&self) -> bool {
        self.pos.has_major(self.pos.side)
    }

    type Eval = crate::nnue::Hybrid<eval::Accumulator>;

    fn evaluate(&self) -> Score {
        eval::evaluate(&self.pos)
    }

    fn rule_score(&mut self, ply: usize) -> Option<Score> {
        self.pos.rule_score(ply, self.move_limit, self.rules)
    }

    fn no_move_score(&self, ply: usize) -> Score {
        -(MATE - ply as Score)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let b = text.as_bytes();
        let syntax = || MoveError::Syntax(text.to_string(), "ICCS");
        if b.len() != 4 {
            return Err(syntax());
        }
        let from = parse_square(b[0], b[1]).ok_or_else(syntax)?;
        let to = parse_square(b[2], b[3]).ok_or_else(syntax)?;
        if from == to {
            return Err(MoveError::Illegal(text.to_string()));
        }
        let m = encode(from, to);
        if self.pos.is_legal(m) { Ok(m) } else { Err(MoveError::Illegal(text.to_string())) }
    }

    fn move_text(&self, m: Move) -> String {
        let (from, to) = decode(m);
        if m.is_none() || from >= SQUARES || to >= SQUARES {
            return "0000".to_string();
        }
        square_text(from).iter().chain(square_text(to).iter()).collect()
    }

    fn perft(&mut self, depth: u32) -> u64 {
        self.pos.perft(depth)
    }

    const PIECES: usize = PIECES;
    const SQUARES: usize = SQUARES;
    const FILES: usize = bitboard::FILES;
    const KING_KIND: usize = position::kind::GENERAL as usize;
    const PIECE_SQUARES: usize = PIECE_SQUARES;

    #[inline]
    fn piece_square(piece: usize, square: usize) -> usize {
        PIECE_SQUARE_INDEX[piece * SQUARES + square] as usize
    }

    #[inline]
    fn moved_piece(&self, m: Move) -> usize {
        Xiangqi::moved_piece(self, m)
    }

    #[inline]
    fn captured_piece(&self, m: Move) -> Option<usize> {
        Xiangqi::captured_piece(self, m)
    }

    #[inline]
    fn target(m: Move) -> usize {
        Xiangqi::target(m)
    }

    #[inline]
    fn source(m: Move) -> usize {
        decode(m).0
    }

    /// Xiangqi keeps one butterfly history for every quiet move: the split by threats lost
    /// here (docs/tried.csv row 148) while it gained in chess (row 147).
    const THREAT_HISTORY: bool = false;

    /// Never asked by the search ([`Game::THREAT_HISTORY`] is false): xiangqi has no
    /// attack map (the one tried is in docs/patches/threats.patch).
    #[inline]
    fn threats(&self) -> u128 {
        0
    }

    fn see_ge(&self, m: Move, threshold: Score) -> bool {
        Xiangqi::see_ge(self, m, threshold)
    }

    fn pawn_key(&self) -> u64 {
        self.pos.pawn_key()
    }

    fn non_pawn_key(&self, side: Side) -> u64 {
        self.pos.non_pawn_key(side.index())
    }

    fn for_each_piece(&self, mut f: impl FnMut(usize, usize)) {
        for sq in 0..SQUARES {
            let p = self.pos.board[sq];
            if p != EMPTY {
                f(see::piece_index(p), sq);
            }
        }
    }

    #[inline(always)]
    fn flip_square(sq: usize) -> usize {
        square(RANKS - 1 - rank_of(sq), file_of(sq))
    }

    #[inline]
    fn changes(&self, m: Move) -> Changes {
        Xiangqi::changes(self, m)
    }
}
