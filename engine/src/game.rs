//! The contract between the search and a game.
//!
//! Search, transposition table, time manager and controller are written once and monomorphised
//! over [`Game`]; chess and xiangqi each supply a board that implements it. Nothing here knows a
//! protocol: moves and positions cross this boundary as values, and text only through the
//! game's own notation (`e2e4`, ICCS `h2e2`) and FEN.

use crate::text::excerpt;
use std::fmt;

/// A score in the game's internal units, from the side to move's point of view.
pub type Score = i32;

/// The score of delivering mate now; a mate in `n` plies scores `MATE - n`.
pub const MATE: Score = 30_000;
/// Any score at or beyond this magnitude is a forced mate (or a loss under a game rule).
pub const MATE_BOUND: Score = MATE - 1_000;
/// Bigger than every real score; the initial alpha-beta window.
pub const INFINITE: Score = 31_000;
/// The score of a drawn position.
pub const DRAW: Score = 0;
/// The score of a tablebase win reached now; one `n` plies away scores `TB_WIN - n`. Below
/// every mate, above every evaluation: UCI shows it as `cp 20000 - n`, as Stockfish does.
pub const TB_WIN: Score = 20_000;

/// The longest line the search may reach, in plies; also bounds per-ply stacks.
pub const MAX_PLY: usize = 128;

/// The most moves a legal position of either game can have (chess: 218, xiangqi: well under).
pub const MAX_MOVES: usize = 256;

/// How many plies into the game a FEN is, from its move number and side to move (a move
/// number from input may be huge: the count saturates).
pub fn fen_ply(fen: &str) -> u32 {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let black = fields.get(1).is_some_and(|s| *s == "b");
    let fullmove = fields.last().and_then(|n| n.parse::<u32>().ok()).unwrap_or(1).max(1);
    (fullmove - 1).saturating_mul(2).saturating_add(u32::from(black))
}

/// Which game a board plays; chosen once per command, never per node.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Western chess on an 8x8 board.
    Chess,
    /// Xiangqi (Chinese chess) on a 10x9 board.
    Xiangqi,
}

/// The size of a game's board and piece set: what tables keyed by piece and square (the
/// networks' inputs) are sized by before a board of the game exists. Each game's [`Game`]
/// constants are the same numbers (its tests hold them equal).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Squares of the board.
    pub squares: usize,
    /// Files of the board.
    pub files: usize,
    /// Coloured piece kinds, both sides together.
    pub pieces: usize,
    /// The royal piece's kind.
    pub king_kind: usize,
}

impl Shape {
    /// The shape of game `G`, from its constants.
    pub const fn of<G: Game>() -> Shape {
        Shape { squares: G::SQUARES, files: G::FILES, pieces: G::PIECES, king_kind: G::KING_KIND }
    }
}

impl Variant {
    /// The size of the game's board and piece set.
    pub const fn shape(self) -> Shape {
        match self {
            Variant::Chess => Shape { squares: 64, files: 8, pieces: 12, king_kind: 5 },
            Variant::Xiangqi => Shape { squares: 90, files: 9, pieces: 14, king_kind: 0 },
        }
    }

    /// 0 for chess, 1 for xiangqi: an index into per-game tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The name protocols use for the variant (`UCI_Variant`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Xiangqi => "xiangqi",
        }
    }
}

/// The two sides: white/red moves first, black second.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// White in chess, red in xiangqi.
    First = 0,
    /// Black in both games.
    Second = 1,
}

impl Side {
    /// The other side.
    #[inline]
    pub const fn flip(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for the first side, 1 for the second: an index into per-side tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A move, packed in 16 bits so that the transposition table can store it.
///
/// Each game owns the meaning of the bits (chess: from, to and a flag; xiangqi: from and to).
/// The only shared facts are that the raw value 0 is [`Move::NONE`], and that the low 14 bits
/// identify the move's from/to pair well enough to index history tables ([`Move::index`]).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// No move: an empty TT slot, a missing PV entry.
    pub const NONE: Move = Move(0);
    /// The number of distinct values [`Move::index`] can take.
    pub const INDEX_SPACE: usize = 1 << 14;

    /// Wraps raw bits produced by a game.
    #[inline]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// The raw bits, as stored in the transposition table.
    #[inline]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// True for [`Move::NONE`].
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// An index below [`Move::INDEX_SPACE`] for history tables: the low 14 bits (xiangqi: from
    /// and to; chess: from, to and the low two bits of the flag, so a promotion's piece and
    /// an en-passant capture keep entries of their own).
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 0x3FFF) as usize
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({:#06x})", self.0)
    }
}

/// A fixed-capacity list of moves, filled by move generation without allocating.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    #[inline(always)]
    fn default() -> Self {
        MoveList { moves: [Move::NONE; MAX_MOVES], len: 0 }
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a move. Generators never exceed [`MAX_MOVES`] for a legal position.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the list holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering in place).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Keeps only the moves for which `keep` returns true (root `searchmoves`, `banmoves`).
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            if keep(self.moves[i]) {
                self.moves[kept] = self.moves[i];
                kept += 1;
            }
        }
        self.len = kept;
    }

    /// True when `m` is in the list.
    #[inline]
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Why a FEN was rejected; the message names the field at fault, quoting at most
/// [`EXCERPT_CHARS`](crate::text::EXCERPT_CHARS) characters of it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The FEN has no piece-placement field at all.
    #[error("empty FEN")]
    Empty,
    /// The piece-placement field is malformed (wrong rank count, bad character, overfull rank...).
    #[error("bad piece placement '{}': {reason}", excerpt(.field))]
    Board {
        /// The offending field as given.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The side-to-move field is not one of the accepted letters.
    #[error("bad side to move '{}' (expected w or b)", excerpt(.0))]
    Side(String),
    /// The castling field is malformed or names a right the position cannot have.
    #[error("bad castling rights '{}': {reason}", excerpt(.field))]
    Castling {
        /// The offending field as given.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The en-passant field is malformed or impossible.
    #[error("bad en passant square '{}': {reason}", excerpt(.field))]
    EnPassant {
        /// The offending field as given.
        field: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The halfmove clock is not a number.
    #[error("bad halfmove clock '{}'", excerpt(.0))]
    Halfmove(String),
    /// The fullmove number is not a positive number.
    #[error("bad fullmove number '{}'", excerpt(.0))]
    Fullmove(String),
    /// The fields parse but the position is impossible (missing king, side not to move in check...).
    #[error("illegal position: {}", excerpt(.0))]
    Illegal(String),
}

/// Why a move text was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in the game's notation.
    #[error("'{}' is not a move in {} notation", excerpt(.0), .1)]
    Syntax(String, &'static str),
    /// The text is well formed but not legal in the position.
    #[error("'{}' is not a legal move here", excerpt(.0))]
    Illegal(String),
}

/// A game the search can play: board, rules, move generation, hashing and evaluation.
///
/// Implementations keep their own history stack, so [`Game::make`] and [`Game::unmake`] nest
/// like a stack and the board can answer repetition questions.
pub trait Game: Clone + Send + Sync + 'static {
    /// Which game this is.
    const VARIANT: Variant;
    /// Internal score units per protocol unit (chess: a pawn is 100 cp; xiangqi: a horse is
    /// 100 in UCCI's unit). The protocol divides by this when it prints a score.
    const UNITS_PER_CP: Score;
    /// Whether the quiescence search skips captures that lose material by [`Game::see_ge`].
    /// A search heuristic tuned per game: each game turns it on when a match shows a gain.
    const QS_SEE_PRUNING: bool;

    /// The standard starting position.
    fn startpos() -> Self;
    /// Reads a FEN, validating every field.
    fn from_fen(fen: &str) -> Result<Self, FenError>;
    /// Writes the position as FEN.
    fn fen(&self) -> String;

    /// The side to move.
    fn side_to_move(&self) -> Side;
    /// The Zobrist key of the position (pieces, side, and the rights that change move generation).
    fn key(&self) -> u64;
    /// True when the side to move is in check.
    fn in_check(&self) -> bool;

    /// Replaces the contents of `list` with all legal moves.
    fn legal_moves(&self, list: &mut MoveList);
    /// Replaces the contents of `list` with the legal captures (chess: and queen promotions),
    /// for quiescence search.
    fn legal_captures(&self, list: &mut MoveList);
    /// True when `m` captures (or, in chess, promotes).
    fn is_tactical(&self, m: Move) -> bool;
    /// Ordering value of a tactical move: most valuable victim, then least valuable attacker.
    /// Only compared with other moves' values; 0 for quiet moves.
    fn mvv_lva(&self, m: Move) -> i32;
    /// True when `m` is legal here; used to check a move from the transposition table.
    fn is_legal(&self, m: Move) -> bool;

    /// Plays a legal move.
    fn make(&mut self, m: Move);
    /// Takes back the last move played by [`Game::make`].
    fn unmake(&mut self);
    /// Passes the turn (null-move pruning). Never called when in check.
    fn make_null(&mut self);
    /// Takes back [`Game::make_null`].
    fn unmake_null(&mut self);
    /// True when the side to move has material beyond king and pawns/soldiers, so that a null
    /// move is unlikely to hide zugzwang.
    fn has_null_material(&self) -> bool;

    /// The evaluation state the search keeps beside the board (see [`Evaluator`]).
    type Eval: Evaluator<Self>;

    /// The classic static evaluation from the side to move's view, in internal units,
    /// computed from the board alone. Tools and tests use it; the search asks its
    /// [`Game::Eval`] state, which must give the same number when it reads no network.
    fn evaluate(&self) -> Score;
    /// A verdict of the game's rules on the current position other than "no legal move":
    /// repetition, the move limit, insufficient material. `ply` is the distance from the search
    /// root, so that a repetition inside the search counts at its first recurrence while one
    /// before the root needs a third occurrence. `None` when play goes on. A verdict other than
    /// a draw depends on the path (who checked or chased in the cycle), so the search keeps it
    /// out of the transposition table. Judging may make and unmake moves; the board is left as
    /// it was found.
    fn rule_score(&mut self, ply: usize) -> Option<Score>;
    /// The score when the side to move has no legal move, `ply` plies from the root
    /// (chess: mated or stalemate; xiangqi: always lost).
    fn no_move_score(&self, ply: usize) -> Score;

    /// Parses a move in the game's notation and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError>;
    /// Writes a move in the game's notation (`e2e4`, `e7e8q`; ICCS `h2e2`).
    fn move_text(&self, m: Move) -> String;

    /// Counts the leaf nodes of the legal move tree `depth` plies deep.
    fn perft(&mut self, depth: u32) -> u64;

    /// The number of coloured pieces (chess 12, xiangqi 14): the range of
    /// [`Game::moved_piece`], for piece-to history tables.
    const PIECES: usize;
    /// The number of squares (chess 64, xiangqi 90): the range of [`Game::target`].
    const SQUARES: usize;
    /// Files of the board (chess 8, xiangqi 9): square `s` lies on file `s % FILES`.
    const FILES: usize;
    /// The kind of the royal piece (the king, the general) among a side's `PIECES / 2`.
    const KING_KIND: usize;
    /// The coloured piece that the legal move `m` moves, below [`Game::PIECES`] (a promotion
    /// moves a pawn, castling the king).
    fn moved_piece(&self, m: Move) -> usize;
    /// The coloured piece that `m` captures (en passant: the pawn), if any.
    fn captured_piece(&self, m: Move) -> Option<usize>;
    /// The square the moving piece lands on, below [`Game::SQUARES`] (castling: the king's).
    fn target(m: Move) -> usize;
    /// The square the moving piece leaves, below [`Game::SQUARES`] (castling: the king's).
    fn source(m: Move) -> usize;
    /// The number of piece-square pairs a game's positions can hold: the range of
    /// [`Game::piece_square`], and the length of a row of the continuation history.
    const PIECE_SQUARES: usize = Self::PIECES * Self::SQUARES;
    /// The index of `piece` (as [`Game::moved_piece`] numbers it) on `square` among those
    /// pairs, below [`Game::PIECE_SQUARES`]. A game whose pieces cannot reach every square
    /// numbers only the pairs that can occur, so that tables keyed by two of them shrink by
    /// the square of what it leaves out. `piece` and `square` must be in range; a pair that
    /// no position can hold may share an index with one that can.
    #[inline]
    fn piece_square(piece: usize, square: usize) -> usize {
        piece * Self::SQUARES + square
    }
    /// Whether the search keys quiet moves' butterfly history by [`Game::threats`]. A game
    /// whose search measured no gain from that says false: its quiet moves share one slot,
    /// and the search neither finds the threats nor works out a slot.
    const THREAT_HISTORY: bool;
    /// The squares the side not to move attacks, bit `s` for square `s`: where its pieces
    /// could capture were an enemy piece there (its own pieces' squares included; pins and
    /// its own king's safety ignored). The search asks only when
    /// [`Game::THREAT_HISTORY`] is true; a game without the split may return 0.
    fn threats(&self) -> u128;
    /// Static exchange evaluation: true when the exchange of captures that `m` starts on its
    /// target square, each side taking with its least valuable piece and free to stop, gains
    /// at least `threshold` internal units for the side to move.
    fn see_ge(&self, m: Move, threshold: Score) -> bool;
    /// A key of the pawns (soldiers) of both sides and their squares, for correction history.
    fn pawn_key(&self) -> u64;
    /// A key of `side`'s pieces other than pawns (soldiers), for correction history.
    fn non_pawn_key(&self, side: Side) -> u64;

    /// Calls `f(piece, square)` for every piece on the board, pieces indexed as
    /// [`Game::moved_piece`] (`colour * PIECES / 2 + kind`).
    fn for_each_piece(&self, f: impl FnMut(usize, usize));
    /// `square` as the second side sees it: the board mirrored rank for rank, so that each
    /// side's own back rank is rank 0 of its view.
    fn flip_square(square: usize) -> usize;
    /// The pieces the legal move `m` takes off the board and puts on it.
    fn changes(&self, m: Move) -> Changes;

    /// The number of pieces (kings included) when the game has endgame tablebases and they
    /// could hold the position now: in chess, just after a capture or pawn move (a table's
    /// win is a win under the fifty-move rule then) and without castling rights. `None`
    /// otherwise, and always in a game without tables.
    fn tablebase_men(&self) -> Option<u32> {
        None
    }
    /// The loaded tablebases' value of the position for the side to move, when they hold it
    /// and it has at most `men` pieces.
    fn probe_wdl(&self, _men: u32) -> Option<Wdl> {
        None
    }
    /// Every legal move's tablebase value for the side to move, under the fifty-move rule
    /// from the position's clock, when the tables hold the position and it has at most `men`
    /// pieces.
    fn probe_root(&self, _men: u32) -> Option<Vec<TbMove>> {
        None
    }
    /// Plies since the last capture or pawn move, for the fifty-move rule (0 in a game
    /// without it).
    fn fifty_move_clock(&self) -> u32 {
        0
    }
}

/// A root move's value in the tablebases, for the side to move at the root.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TbMove {
    /// The move.
    pub mv: Move,
    /// The value after it, under the fifty-move rule from the root's clock.
    pub wdl: Wdl,
    /// The signed distance to zeroing after it, counting the move itself (positive when the
    /// root's side wins); `None` without distance-to-zero tables.
    pub dtz: Option<i32>,
}

/// A position's value in endgame tablebases, for the side to move. A cursed win is a win that
/// the fifty-move rule makes a draw; a blessed loss, a loss it saves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    /// Lost, within the fifty-move rule.
    Loss,
    /// Lost, but saved by the fifty-move rule.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but not within the fifty-move rule.
    CursedWin,
    /// Won, within the fifty-move rule.
    Win,
}

impl Wdl {
    /// -2 (loss) to 2 (win), as Stockfish and python-chess number them.
    pub fn signed(self) -> i32 {
        self as i32 - 2
    }

    /// The value for the other side.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }
}

/// The pieces a move takes off the board and puts on it, as `(piece, square)` pairs with pieces
/// indexed as [`Game::moved_piece`]: what an incrementally updated evaluation needs to know.
/// At most two of each: castling moves king and rook; a capturing promotion removes the pawn
/// and the victim and adds the new piece.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    removed: [(u8, u8); 2],
    added: [(u8, u8); 2],
    removed_len: u8,
    added_len: u8,
}

impl Changes {
    /// Records `piece` leaving `square`.
    #[inline(always)]
    pub fn remove(&mut self, piece: usize, square: usize) {
        self.removed[usize::from(self.removed_len)] = (piece as u8, square as u8);
        self.removed_len += 1;
    }

    /// Records `piece` arriving on `square`.
    #[inline(always)]
    pub fn add(&mut self, piece: usize, square: usize) {
        self.added[usize::from(self.added_len)] = (piece as u8, square as u8);
        self.added_len += 1;
    }

    /// The pieces taken off, `(piece, square)`.
    #[inline(always)]
    pub fn removed(&self) -> &[(u8, u8)] {
        &self.removed[..usize::from(self.removed_len)]
    }

    /// The pieces put on, `(piece, square)`.
    #[inline(always)]
    pub fn added(&self) -> &[(u8, u8)] {
        &self.added[..usize::from(self.added_len)]
    }
}

/// An evaluation state that the search updates move by move beside the board: an accumulator
/// stack for a neural network, or material and piece-square sums.
///
/// Only the search drives it: before it plays `m` it calls [`Evaluator::push`] with the board
/// still showing the position before `m`, and after taking `m` back it calls
/// [`Evaluator::pop`]. Perft, move parsing and the rules judge play moves on the board alone,
/// so they never pay for the evaluation.
pub trait Evaluator<G: ?Sized>: Send + 'static {
    /// What the evaluation reads besides the board, shared by every search thread: a network,
    /// or nothing. The session that owns it hands it to each search.
    type Net: Clone + Send + Sync + 'static;
    /// A state describing `board`, evaluating with `net`.
    fn new(board: &G, net: &Self::Net) -> Self
    where
        Self: Sized;
    /// Describes `board` afresh (a new search root), forgetting every push; the state keeps
    /// what it evaluates with.
    fn reset(&mut self, board: &G);
    /// Records that `m` is about to be played on `board` (called before [`Game::make`]).
    fn push(&mut self, board: &G, m: Move);
    /// Records a null move about to be played on `board` (before [`Game::make_null`]).
    fn push_null(&mut self, board: &G);
    /// Forgets the last push (after [`Game::unmake`] or [`Game::unmake_null`]).
    fn pop(&mut self);
    /// The evaluation of `board`, the position the pushes since the last reset led to, from
    /// the side to move's view; equal to [`Game::evaluate`].
    fn evaluate(&mut self, board: &G) -> Score;
}

/// Room kept beyond [`MAX_PLY`] in a [`SumStack`]: the search may push a null move and a
/// quiescence line past its nominal depth, and reallocating mid-search would be a stall.
const SUM_STACK_SLACK: usize = 64;

/// A running sum (material and piece-square scores, say) with the value before each push
/// saved, so that a pop restores it without recomputing: the state shared by the games'
/// incremental evaluators.
#[derive(Clone, Debug)]
pub struct SumStack {
    /// The sum for the current position.
    current: i32,
    /// The sums before each push still in force, oldest first.
    saved: Vec<i32>,
}

impl SumStack {
    /// A stack whose sum is `sum`, with room for a whole search line.
    pub fn new(sum: i32) -> SumStack {
        SumStack { current: sum, saved: Vec::with_capacity(MAX_PLY + SUM_STACK_SLACK) }
    }

    /// Forgets every push and starts again from `sum`.
    #[inline]
    pub fn reset(&mut self, sum: i32) {
        self.saved.clear();
        self.current = sum;
    }

    /// Saves the current sum and adds `delta` to it.
    #[inline(always)]
    pub fn push(&mut self, delta: i32) {
        self.saved.push(self.current);
        self.current += delta;
    }

    /// Restores the sum before the last push.
    #[inline(always)]
    pub fn pop(&mut self) {
        match self.saved.pop() {
            Some(sum) => self.current = sum,
            None => debug_assert!(false, "pop without a push"),
        }
    }

    /// The sum for the current position.
    #[inline(always)]
    pub fn current(&self) -> i32 {
        self.current
    }
}

/// Counts leaves under each root move: `(move text, count)` in generation order.
pub fn perft_divide<G: Game>(game: &mut G, depth: u32) -> Vec<(String, u64)> {
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    let mut out = Vec::with_capacity(list.len());
    for &m in list.iter() {
        let text = game.move_text(m);
        let count = if depth <= 1 {
            1
        } else {
            game.make(m);
            let n = game.perft(depth - 1);
            game.unmake();
            n
        };
        out.push((text, count));
    }
    out
}

/// Mirrors a FEN's colours: ranks in reverse order with the case of every piece swapped, and
/// the other side to move. Returns the fields, so that a game can mirror what else it has
/// (castling rights, the en-passant square); the fields after the side are left as they are.
pub fn mirror_fen(fen: &str) -> Vec<String> {
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }
            })
            .collect()
    };
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(board) = fields.first_mut() {
        *board = board.split('/').rev().map(swap).collect::<Vec<_>>().join("/");
    }
    if let Some(side) = fields.get_mut(1) {
        *side = if side == "w" { "b".into() } else { "w".into() };
    }
    fields
}

/// How `d` draws pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// FEN letters (ASCII).
    #[default]
    Letters,
    /// Symbols: Unicode chess pieces, or Chinese characters for xiangqi.
    Symbols,
}

/// One term of the static evaluation, for each side, in internal units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// What the term measures.
    pub name: &'static str,
    /// The first side's share (white, red).
    pub first: Score,
    /// The second side's share (black).
    pub second: Score,
}

/// Human-facing views of a position, for people at a terminal (`d`, `eval`, `flip`) and for
/// move names in the game's own tradition. Not used by the search.
pub trait Inspect: Game {
    /// The board as text with coordinates.
    fn board_text(&self, style: Style) -> String;
    /// The squares of the pieces giving check, in the game's coordinates.
    fn checkers(&self) -> Vec<String>;
    /// The classic evaluation's terms; first-side totals minus second-side totals, from the
    /// side to move's view, add up to [`Inspect::classic_evaluate`] (give or take rounding).
    fn eval_terms(&self) -> Vec<Term>;
    /// The classic evaluation (material and piece-square terms) from the side to move's
    /// view, whatever evaluation the search uses.
    fn classic_evaluate(&self) -> Score;
    /// The colour-mirrored position: the same game with the sides swapped (history dropped).
    fn flipped(&self) -> Self;
    /// A move's name for people (xiangqi: Chinese notation such as 炮二平五); by default the
    /// move's notation.
    fn move_name(&self, m: Move) -> String {
        self.move_text(m)
    }
}

/// Walks the legal move tree `depth` plies below `board`, driving `eval` as the search does
/// (push before make, pop after unmake, and a null move wherever the side to move is not in
/// check), and asserts at every node that it agrees with [`Game::evaluate`]. `seen` is shown
/// every move before it is played, so that a test can check which kinds of move it covered.
/// Returns the number of nodes checked.
#[cfg(test)]
pub(crate) fn check_evaluator<G: Game, E: Evaluator<G>>(
    board: &mut G,
    eval: &mut E,
    depth: u32,
    seen: &mut impl FnMut(&G, Move),
) -> u64 {
    fn walk<G: Game, E: Evaluator<G>>(
        board: &mut G,
        eval: &mut E,
        depth: u32,
        null_ok: bool,
        seen: &mut impl FnMut(&G, Move),
    ) -> u64 {
        assert_eq!(eval.evaluate(board), board.evaluate(), "{}", board.fen());
        if depth == 0 {
            return 1;
        }
        let mut nodes = 1;
        let mut list = MoveList::new();
        board.legal_moves(&mut list);
        for &m in list.iter() {
            seen(board, m);
            eval.push(board, m);
            board.make(m);
            nodes += walk(board, eval, depth - 1, true, seen);
            board.unmake();
            eval.pop();
        }
        // Two null moves in a row only waste a ply, and the search never plays them.
        if null_ok && !board.in_check() {
            eval.push_null(board);
            board.make_null();
            nodes += walk(board, eval, depth - 1, false, seen);
            board.unmake_null();
            eval.pop();
        }
        nodes
    }
    walk(board, eval, depth, true, seen)
}
