//! Western chess (and Chess960): the [`Chess`] board implementing [`Game`].
//!
//! - [`bitboard`]: squares, pieces, bit helpers;
//! - [`mod@tables`]: attack tables (magic bitboards), square relations and Zobrist keys, all
//!   computed at compile time;
//! - [`board`]: the position and copy-make of a move;
//! - [`movegen`]: legal move generation with check and pin masks;
//! - [`moves`]: the bits of a chess [`Move`];
//! - [`fen`]: FEN reading and writing;
//! - [`eval`]: the static evaluation;
//! - `see`: static exchange evaluation, and the move facts and keys search tables index by;
//! - [`tb`]: Syzygy tablebases (loading, and probing a [`Board`]).

pub mod bitboard;
pub mod board;
pub mod eval;
pub mod fen;
mod inspect;
pub mod movegen;
pub mod moves;
mod see;
pub mod tables;
pub mod tb;
#[cfg(test)]
mod tests;

use crate::game::*;
use bitboard::*;
use board::Board;
use movegen::{Counter, generate};
use moves::{CASTLE, EN_PASSANT};

/// The standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The number of coloured pieces, `colour * 6 + kind`: the range of
/// [`Chess::moved_piece`] and [`Chess::captured_piece`].
pub const PIECES: usize = 12;

/// Ordering value of each kind as a victim or promotion (king never captured).
const ORDER_VALUE: [i32; 6] = [1, 3, 3, 5, 9, 0];

/// A chess position with the history of the moves that led to it.
#[derive(Clone)]
pub struct Chess {
    board: Board,
    /// The boards before each move played, most recent last, are `history[..plies]`:
    /// `unmake` takes the last back, and repetition detection reads their keys. Slots past
    /// `plies` are kept (stale) rather than popped, so that `make` overwrites one in place: a
    /// push and a pop each copied the board twice through a temporary, three calls to
    /// `memcpy` a move and its unmake (4.7% of a chess search's instructions, callgrind).
    history: Vec<Board>,
    /// The moves made and not unmade: the live part of `history`.
    plies: usize,
    /// Write castling as king-takes-rook (`e1h1`) and FEN rights in X-FEN form.
    chess960: bool,
}

impl Chess {
    /// Keeps the board as it is before a move, in the first free slot of the history.
    #[inline]
    fn save(&mut self) {
        if self.plies < self.history.len() {
            self.history[self.plies] = self.board;
        } else {
            self.history.push(self.board);
        }
        self.plies += 1;
    }

    /// Switches Chess960 notation on or off: castling moves print as king-takes-rook
    /// (`e1h1`) and FEN castling rights use X-FEN letters. The rules themselves are the same
    /// code either way.
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// True when Chess960 notation is on.
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// Perft on the portable code path only, whatever the CPU; lets tests check the fallback
    /// that [`Game::perft`] skips on CPUs with POPCNT.
    pub fn perft_portable(&self, depth: u32) -> u64 {
        if depth == 0 { 1 } else { perft_portable(&self.board, depth) }
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// True when neither side can ever mate: K v K, K+minor v K, or bishops only, all on
    /// squares of one colour (which covers K+B v K+B with same-coloured bishops).
    fn insufficient_material(&self) -> bool {
        let b = &self.board;
        if b.kinds[PAWN] | b.kinds[ROOK] | b.kinds[QUEEN] != 0 {
            return false;
        }
        let minors = b.kinds[KNIGHT] | b.kinds[BISHOP];
        if minors.count_ones() <= 1 {
            return true;
        }
        const DARK: Bitboard = 0xAA55_AA55_AA55_AA55;
        b.kinds[KNIGHT] == 0 && (minors & DARK == 0 || minors & !DARK == 0)
    }

    /// The text of `m` in the given castling notation.
    fn text(&self, m: Move, chess960: bool) -> String {
        if m.is_none() {
            return "0000".to_string();
        }
        let from = moves::from_sq(m);
        let mut to = moves::to_sq(m);
        if moves::flag(m) == CASTLE && !chess960 {
            // King-to-square, unless the king lands next to (or on) its own square: then the
            // text could be a king step's (Chess960 starts), so it stays king-takes-rook.
            let king_to = Board::castle_targets(from, to).0;
            if king_to.abs_diff(from) > 1 {
                to = king_to;
            }
        }
        let mut s = square_name(from) + &square_name(to);
        if let Some(kind) = moves::promotion(m) {
            s.push(PIECE_CHARS[piece(BLACK, kind) as usize] as char);
        }
        s
    }
}

/// Counts the leaves `depth` plies below `b` (`depth >= 1`); the last ply is counted from the
/// generator's target sets without making or listing moves. `recurse` is the function to call
/// for the children, so that each compiled variant below stays within itself.
#[inline(always)]
fn perft_node(b: &Board, depth: u32, recurse: impl Fn(&Board, u32) -> u64) -> u64 {
    if depth == 1 {
        let mut c = Counter(0);
        generate::<true, _>(b, &mut c);
        return c.0;
    }
    let mut list = MoveList::new();
    generate::<true, _>(b, &mut list);
    let mut n = 0;
    for &m in list.iter() {
        let mut child = *b;
        child.make(m);
        n += recurse(&child, depth - 1);
    }
    n
}

/// Perft for any CPU.
fn perft_portable(b: &Board, depth: u32) -> u64 {
    perft_node(b, depth, perft_portable)
}

/// Perft compiled for CPUs with POPCNT and BMI1: the baseline x86-64 target has neither, and
/// the bulk count at the last ply is mostly popcounts (measured: about 25% faster).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1")]
fn perft_popcnt(b: &Board, depth: u32) -> u64 {
    perft_node(b, depth, |b, d| perft_popcnt(b, d))
}

/// Perft from `b`, on the fastest variant the CPU supports.
fn perft_from(b: &Board, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("popcnt") && std::is_x86_feature_detected!("bmi1") {
        // SAFETY: the features `perft_popcnt` is compiled for were detected just above.
        return unsafe { perft_popcnt(b, depth) };
    }
    perft_portable(b, depth)
}

impl Game for Chess {
    const VARIANT: Variant = Variant::Chess;
    const UNITS_PER_CP: Score = 1;
    /// SPRT [0, 10] at 2+0.02: 541-451-539, +20.7 ± 14.3 (1531 games).
    const QS_SEE_PRUNING: bool = true;

    fn startpos() -> Self {
        Chess::from_fen(START_FEN).expect("the start position FEN is valid")
    }

    fn from_fen(fen: &str) -> Result<Self, FenError> {
        let parsed = fen::parse(fen)?;
        Ok(Chess {
            board: parsed.board,
            history: Vec::with_capacity(256),
            plies: 0,
            chess960: parsed.chess960,
        })
    }

    fn fen(&self) -> String {
        fen::write(&self.board, self.chess960)
    }

    fn side_to_move(&self) -> Side {
        if self.board.side == WHITE { Side::First } else { Side::Second }
    }

    fn key(&self) -> u64 {
        self.board.key
    }

    fn in_check(&self) -> bool {
        self.board.checkers() != 0
    }

    fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        generate::<true, _>(&self.board, list);
    }

    /// Captures and queen promotions only: underpromotions almost never matter in quiescence.
    fn legal_captures(&self, list: &mut MoveList) {
        list.clear();
        generate::<false, _>(&self.board, list);
    }

    fn is_tactical(&self, m: Move) -> bool {
        match moves::flag(m) {
            EN_PASSANT => true,
            CASTLE => false,
            _ => moves::promotion(m).is_some() || self.board.squares[moves::to_sq(m)] != NO_PIECE,
        }
    }

    fn mvv_lva(&self, m: Move) -> i32 {
        let b = &self.board;
        let flag = moves::flag(m);
        if flag == CASTLE {
            return 0;
        }
        let victim = match flag {
            EN_PASSANT => ORDER_VALUE[PAWN],
            _ => match b.squares[moves::to_sq(m)] {
                NO_PIECE => 0,
                p => ORDER_VALUE[kind_of(p)],
            },
        };
        let gain = victim + moves::promotion(m).map_or(0, |k| ORDER_VALUE[k] - ORDER_VALUE[PAWN]);
        if gain == 0 {
            return 0;
        }
        let attacker = match b.squares[moves::from_sq(m)] {
            NO_PIECE => KING,
            p => kind_of(p),
        };
        // Victim first; among equal victims the cheaper attacker (kind order) sorts higher.
        gain * 8 + (KING + 1 - attacker) as i32
    }

    fn is_legal(&self, m: Move) -> bool {
        movegen::is_legal(&self.board, m)
    }

    fn make(&mut self, m: Move) {
        self.save();
        self.board.make(m);
    }

    fn unmake(&mut self) {
        debug_assert!(self.plies > 0, "unmake without a move");
        if self.plies > 0 {
            self.plies -= 1;
            self.board = self.history[self.plies];
        }
    }

    fn make_null(&mut self) {
        self.save();
        self.board.make_null();
    }

    fn unmake_null(&mut self) {
        self.unmake();
    }

    fn has_null_material(&self) -> bool {
        let b = &self.board;
        (b.kinds[KNIGHT] | b.kinds[BISHOP] | b.kinds[ROOK] | b.kinds[QUEEN]) & b.colours[b.side]
            != 0
    }

    type Eval = crate::nnue::Hybrid<eval::Accumulator>;

    fn evaluate(&self) -> Score {
        eval::evaluate(&self.board)
    }

    fn rule_score(&mut self, ply: usize) -> Option<Score> {
        let b = &self.board;
        if b.halfmove >= 100 {
            // Mate on the hundredth ply still wins; the search scores it once it finds no move.
            if b.checkers() != 0 && !movegen::has_moves(b) {
                return None;
            }
            return Some(DRAW);
        }

        // Repetition: only positions since the last irreversible or null move can recur, and
        // only with the same side to move, so look back 4, 6, 8... plies.
        let n = self.plies;
        let window = (b.window as usize).min(n);
        let mut earlier = 0;
        for back in (4..=window).step_by(2) {
            if self.history[n - back].key == b.key {
                // Inside the search tree a single recurrence is a draw (the side that can
                // repeat could repeat again); before the root it takes a threefold one.
                if back < ply {
                    return Some(DRAW);
                }
                earlier += 1;
                if earlier >= 2 {
                    return Some(DRAW);
                }
            }
        }

        if self.insufficient_material() {
            return Some(DRAW);
        }
        None
    }

    fn no_move_score(&self, ply: usize) -> Score {
        if self.in_check() { -(MATE - ply as Score) } else { DRAW }
    }

    /// Reads coordinate notation leniently, as GUIs expect: upper-case letters (`e7e8Q`, as
    /// Stockfish accepts) and castling written either king-to-square (`e1g1`) or
    /// king-takes-rook (`e1h1`), whatever the Chess960 setting.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string(), "chess coordinate");
        let illegal = || MoveError::Illegal(text.to_string());
        let lower = text.to_ascii_lowercase();
        let text = lower.as_str();
        let bytes = text.as_bytes();
        let well_formed = matches!(bytes.len(), 4 | 5)
            && parse_square(&bytes[0..2]).is_some()
            && parse_square(&bytes[2..4]).is_some()
            && (bytes.len() == 4 || b"nbrq".contains(&bytes[4]));
        if !well_formed {
            return Err(syntax());
        }
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        if let Some(&m) = list.iter().find(|&&m| self.text(m, self.chess960) == text) {
            return Ok(m);
        }
        // Also take castling in the other notation (e1h1 in standard chess, e1g1 in Chess960);
        // nothing else can have that text, as the exact match above found nothing.
        list.iter()
            .find(|&&m| moves::flag(m) == CASTLE && self.text(m, !self.chess960) == text)
            .copied()
            .ok_or_else(illegal)
    }

    fn move_text(&self, m: Move) -> String {
        self.text(m, self.chess960)
    }

    fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 { 1 } else { perft_from(&self.board, depth) }
    }

    const PIECES: usize = PIECES;
    const SQUARES: usize = 64;
    const FILES: usize = 8;
    const KING_KIND: usize = bitboard::KING;

    #[inline]
    fn moved_piece(&self, m: Move) -> usize {
        Chess::moved_piece(self, m)
    }

    #[inline]
    fn captured_piece(&self, m: Move) -> Option<usize> {
        Chess::captured_piece(self, m)
    }

    #[inline]
    fn target(m: Move) -> usize {
        Chess::target(m)
    }

    #[inline]
    fn source(m: Move) -> usize {
        moves::from_sq(m)
    }

    const THREAT_HISTORY: bool = true;

    #[inline]
    fn threats(&self) -> u128 {
        u128::from(self.board.attacks_of(self.board.side ^ 1))
    }

    fn see_ge(&self, m: Move, threshold: Score) -> bool {
        Chess::see_ge(self, m, threshold)
    }

    fn pawn_key(&self) -> u64 {
        self.board.pawn_key()
    }

    fn non_pawn_key(&self, side: Side) -> u64 {
        self.board.non_pawn_key(side.index())
    }

    fn tablebase_men(&self) -> Option<u32> {
        let b = self.board();
        (b.halfmove == 0 && b.castle == 0).then(|| b.occupied().count_ones())
    }

    fn fifty_move_clock(&self) -> u32 {
        self.board().halfmove
    }

    fn probe_wdl(&self, men: u32) -> Option<Wdl> {
        self.board().probe_wdl(men)
    }

    fn probe_root(&self, men: u32) -> Option<Vec<TbMove>> {
        let b = self.board();
        if let Some(moves) = b.probe_root(men) {
            let value = |m: tb::RootMove| TbMove { mv: m.mv, wdl: m.wdl, dtz: Some(m.dtz) };
            return Some(moves.into_iter().map(value).collect());
        }
        // Without the distance-to-zero tables: each move's value in the WDL tables after it,
        // exact after a capture or pawn move and blind to the clock otherwise (Stockfish's
        // fallback too).
        b.probe_wdl(men)?;
        let mut legal = MoveList::new();
        self.legal_moves(&mut legal);
        legal
            .iter()
            .map(|&m| {
                let mut after = *b;
                after.make(m);
                after.probe_wdl(men).map(|w| TbMove { mv: m, wdl: w.flip(), dtz: None })
            })
            .collect()
    }

    fn for_each_piece(&self, mut f: impl FnMut(usize, usize)) {
        let mut occ = self.board.occupied();
        while occ != 0 {
            let sq = occ.trailing_zeros() as usize;
            occ &= occ - 1;
            f(usize::from(self.board.squares[sq]), sq);
        }
    }

    #[inline(always)]
    fn flip_square(square: usize) -> usize {
        square ^ 56
    }

    #[inline]
    fn changes(&self, m: Move) -> Changes {
        Chess::changes(self, m)
    }
}
