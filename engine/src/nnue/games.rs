//! The compact training data format: whole games, each a start position followed by every move
//! played with its search score: 4.6 bytes a move and about 6 a training position (measured
//! below) against the 40 of a [`data`] record.
//!
//! It is Chariot's own, after the idea of viriformat (Viridithas's and Stormphrax's game
//! format), not viriformat itself: viriformat packs a chess board and chess moves and knows
//! neither xiangqi's 90 squares and 14 pieces nor a way to say which game a file holds. A FEN
//! for the start and moves matched against the game's own legal moves make one reader and one
//! writer, written over [`Game`], serve both games, castling in Chess960 included.
//!
//! A file is a sequence of games with no file header, so files can be appended to and
//! concatenated (`.games` is their extension). A game, every number little-endian:
//!
//! | bytes | field |
//! |------:|-------|
//! | 1 | [`MAGIC`], `0xC7`: checked at every game, so that a misread is caught where it starts |
//! | 1 | [`VERSION`], 1 |
//! | 1 | game: 0 chess, 1 xiangqi |
//! | 1 | result from white's (red's) view: 0 loss, 1 draw, 2 win |
//! | 1 | `n`, the length of the start FEN (1 to 255) |
//! | `n` | the start position as FEN (ASCII): castling rights (Shredder letters for Chess960), en passant square and clocks included |
//! | 4 each | one per move played: the move's code, a `u16` (below), and the search's score of the position before it, an `i16` in internal units from white's (red's) view |
//! | 4 | zero: the end of the game |
//!
//! A move's code (see [`MoveCode`]): chess `from | to << 6 | promotion << 12` (squares `a1` = 0
//! to `h8` = 63; promotion 0 none, 1 knight, 2 bishop, 3 rook, 4 queen; castling is the king
//! taking its own rook, which says Chess960 castling as well); xiangqi `from | to << 7` (squares
//! `rank * 9 + file`). Bit 15 set marks a position datagen did not train on (in check, a capture
//! or promotion to play; see `chariot datagen`): its score is kept all the same, so that a later
//! filter may choose otherwise. No move has code 0, so four zero bytes cannot be a move.
//!
//! Reading replays each game from its start, matching each code against the legal moves, and
//! gives the same [`Record`]s as the 40-byte file of the same datagen run: for each kept
//! position, the position before its move, its score, the game's result, the side to move and
//! its ply, counted from the game's recorded start as datagen counts it (its start is ply 0,
//! whatever the FEN's move number says).
//!
//! A game cut off by the end of the input is what a writer stopped mid-write leaves: the
//! reader reports it ([`GamesError::Truncated`], with its number and byte offset) after the
//! complete games before it, and [`complete_bytes`] says where to cut the file before
//! appending to it again. Anything else out of place is [`GamesError::Corrupt`], naming the
//! game and the byte.
//!
//! Measured on `chariot datagen --nodes 5000 --threads 1 --seed 1` (the first 60 chess and 49
//! xiangqi games of a run of 200, stopped for time): chess 31,510 bytes for 6,769 moves and
//! 5,188 training positions, 6.07 bytes a training position (4.66 a move); xiangqi 30,503 bytes
//! for 6,659 moves and 5,212 positions, 5.85 (4.58 a move). The 4 bytes a move are most of it;
//! the start FEN (65-70 bytes) and the header add 0.6 a move over games of 113-136 moves, and a
//! quarter of the positions are stored but not trained on (in check, or a capture to play).
//!
//! [`data`]: crate::nnue::data

use crate::chess::{self, Chess};
use crate::game::{FenError, Game, Move, MoveList, Side, Variant};
use crate::nnue::data::{GameResult, Record, RecordError};
use crate::xiangqi::{self, Xiangqi};
use std::io::{Read, Write};
use std::ops::ControlFlow;

/// The first byte of every game.
pub const MAGIC: u8 = 0xC7;
/// The format's version, the second byte of every game.
pub const VERSION: u8 = 1;
/// The extension of files in this format (without the dot).
pub const EXTENSION: &str = "games";
/// The bytes of a game's header before its FEN: magic, version, game, result, FEN length.
const HEADER_BYTES: usize = 5;
/// The bytes of one move: its code and its score.
pub const MOVE_BYTES: usize = 4;
/// The longest start FEN: its length is one byte.
pub const MAX_FEN_BYTES: usize = u8::MAX as usize;
/// The most moves a game holds: a record's ply is a `u16`. It also bounds what a damaged file
/// whose end marker is lost makes the reader hold.
pub const MAX_MOVES: usize = u16::MAX as usize;
/// The bit of a move's code that marks a position not trained on.
const SKIPPED: u16 = 1 << 15;

/// A game whose moves have a code in this format: the move's squares and promotion, apart from
/// the engine's internal move bits so that files outlive changes to them.
pub trait MoveCode: Game {
    /// The code of the legal move `m`: never 0, below `1 << 15`.
    fn code(m: Move) -> u16;
}

impl MoveCode for Chess {
    fn code(m: Move) -> u16 {
        use chess::moves;
        let promotion = moves::promotion(m).map_or(0, |kind| kind + 1 - chess::bitboard::KNIGHT);
        (moves::from_sq(m) | moves::to_sq(m) << 6 | promotion << 12) as u16
    }
}

impl MoveCode for Xiangqi {
    fn code(m: Move) -> u16 {
        let (from, to) = xiangqi::movegen::decode(m);
        (from | to << 7) as u16
    }
}

/// One move of a game as stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The move's code ([`MoveCode::code`]), without the skip bit.
    pub code: u16,
    /// The search's score of the position before the move, internal units, from white's (red's)
    /// view.
    pub score: i16,
    /// True when the position before the move is a training position.
    pub kept: bool,
}

/// One game of the format: its game, result, start and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game.
    pub variant: Variant,
    /// The result from white's (red's) view.
    pub result: GameResult,
    /// The start position as FEN.
    pub start: String,
    /// The moves in the order played.
    pub entries: Vec<Entry>,
    /// The game's number in its file, 0 the first (and for one being written): errors name it.
    pub number: u64,
    /// Where the game begins in its file (0 for one being written): error offsets count from
    /// it.
    pub offset: u64,
}

/// Where the input ends inside a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The number of the game cut off (0 the first of the file).
    pub game: u64,
    /// The byte it begins at: the length of the complete games before it.
    pub offset: u64,
}

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "game {} (from byte {}) is cut off by the end of the file (an interrupted write)",
            self.game, self.offset
        )
    }
}

/// What is wrong with a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    /// The first byte is not [`MAGIC`].
    #[error("{0:#04x} where a game begins with {MAGIC:#04x} (not a .games file, or damaged)")]
    Magic(u8),
    /// A version this build does not read.
    #[error("format version {0}, and this build reads version {VERSION}")]
    Version(u8),
    /// The game byte is neither chess nor xiangqi.
    #[error("game {0}, neither 0 (chess) nor 1 (xiangqi)")]
    Game(u8),
    /// The result byte is out of range.
    #[error("result {0}, not 0, 1 or 2")]
    Result(u8),
    /// The start FEN's length byte is 0.
    #[error("an empty start position")]
    EmptyStart,
    /// The start FEN is longer than its length byte can say.
    #[error("a start position of {0} bytes, and the format holds at most {MAX_FEN_BYTES}")]
    LongStart(usize),
    /// The start is not ASCII text.
    #[error("the start position is not ASCII text")]
    NotText,
    /// The start is not a position of the game.
    #[error("start position: {0}")]
    Fen(FenError),
    /// A move's code matches no legal move.
    #[error("move {ply}: code {code:#06x} is no legal move in the position")]
    Illegal {
        /// The move's number in the game, 0 the first.
        ply: usize,
        /// Its code.
        code: u16,
    },
    /// A code of 0 with a score: the end marker has both zero.
    #[error("a move code of 0 with score {0} (the end of a game is four zero bytes)")]
    ZeroCode(i16),
    /// More moves than [`MAX_MOVES`].
    #[error("more than {MAX_MOVES} moves")]
    TooLong,
    /// A code that no move has (0, or the skip bit set), given to the writer.
    #[error("move {ply}: code {code:#06x} is no move code")]
    Code {
        /// The move's number in the game.
        ply: usize,
        /// Its code.
        code: u16,
    },
    /// The game read is not of the game asked for.
    #[error("a {} game replayed as {}", .0.name(), .1.name())]
    OtherGame(Variant, Variant),
    /// A kept position does not fit a record.
    #[error("position {ply}: {error}")]
    Record {
        /// The position's number in the game.
        ply: usize,
        /// Why it does not fit.
        error: RecordError,
    },
}

/// Why games could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum GamesError {
    /// The input ends inside a game: its writer stopped mid-write.
    #[error("{0}")]
    Truncated(Cut),
    /// A game holds what the format does not allow.
    #[error("game {game}, byte {offset}: {fault}")]
    Corrupt {
        /// The game's number in its file, 0 the first.
        game: u64,
        /// The byte at fault.
        offset: u64,
        /// What is wrong.
        fault: Fault,
    },
    /// A game cannot be written in the format.
    #[error("cannot write the game: {0}")]
    Unwritable(Fault),
    /// Reading or writing failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// `score`, from the side to move's view in `side`, as white (red) sees it and an `i16` holds
/// it: as [`Record::new`] stores it.
fn white_score(score: i32, side: Side) -> i16 {
    let white = if side == Side::First { score } else { -score };
    white.clamp(i16::MIN.into(), i16::MAX.into()) as i16
}

impl GameRecord {
    /// A game of `G` starting at `start`, with no move yet and a draw for result.
    pub fn new<G: Game>(start: &G) -> GameRecord {
        GameRecord {
            variant: G::VARIANT,
            result: GameResult::Draw,
            start: start.fen(),
            entries: Vec::new(),
            number: 0,
            offset: 0,
        }
    }

    /// Adds the move `m` played on `board` (the position before it), whose search scored
    /// `score` in internal units from the side to move's view; `kept` when the position is
    /// trained on.
    pub fn push<G: MoveCode>(&mut self, board: &G, m: Move, score: i32, kept: bool) {
        let score = white_score(score, board.side_to_move());
        self.entries.push(Entry { code: G::code(m), score, kept });
    }

    /// The number of training positions.
    pub fn kept(&self) -> usize {
        self.entries.iter().filter(|e| e.kept).count()
    }

    /// The game's bytes, checked: a start FEN of 1 to 255 bytes, at most [`MAX_MOVES`] moves,
    /// move codes that moves can have.
    pub fn to_bytes(&self) -> Result<Vec<u8>, GamesError> {
        let fen = self.start.as_bytes();
        if fen.is_empty() {
            return Err(GamesError::Unwritable(Fault::EmptyStart));
        }
        if fen.len() > MAX_FEN_BYTES {
            return Err(GamesError::Unwritable(Fault::LongStart(fen.len())));
        }
        if self.entries.len() > MAX_MOVES {
            return Err(GamesError::Unwritable(Fault::TooLong));
        }
        let mut out =
            Vec::with_capacity(HEADER_BYTES + fen.len() + MOVE_BYTES * (self.entries.len() + 1));
        out.extend_from_slice(&[
            MAGIC,
            VERSION,
            self.variant.index() as u8,
            self.result as u8,
            fen.len() as u8,
        ]);
        out.extend_from_slice(fen);
        for (ply, e) in self.entries.iter().enumerate() {
            if e.code == 0 || e.code & SKIPPED != 0 {
                return Err(GamesError::Unwritable(Fault::Code { ply, code: e.code }));
            }
            let code = if e.kept { e.code } else { e.code | SKIPPED };
            out.extend_from_slice(&code.to_le_bytes());
            out.extend_from_slice(&e.score.to_le_bytes());
        }
        out.extend_from_slice(&[0; MOVE_BYTES]);
        Ok(out)
    }

    /// The byte offset of move `ply` in the game's file.
    fn entry_offset(&self, ply: usize) -> u64 {
        self.offset + (HEADER_BYTES + self.start.len() + MOVE_BYTES * ply) as u64
    }

    /// A corruption of this game at byte `offset`.
    fn fault(&self, offset: u64, fault: Fault) -> GamesError {
        GamesError::Corrupt { game: self.number, offset, fault }
    }

    /// Replays the game as `G` and hands each training position's record to `f` until it
    /// breaks; returns how it ended. A code that matches no legal move, a start that is no
    /// position of `G`, or a kept position that fits no record is [`GamesError::Corrupt`].
    pub fn replay<G: MoveCode>(
        &self,
        mut f: impl FnMut(Record) -> ControlFlow<()>,
    ) -> Result<ControlFlow<()>, GamesError> {
        // The start FEN sits right after the fixed header.
        let fen_at = self.offset + HEADER_BYTES as u64;
        if self.variant != G::VARIANT {
            return Err(self.fault(self.offset, Fault::OtherGame(self.variant, G::VARIANT)));
        }
        let mut board = G::from_fen(&self.start).map_err(|e| self.fault(fen_at, Fault::Fen(e)))?;
        let mut list = MoveList::new();
        for (ply, e) in self.entries.iter().enumerate() {
            board.legal_moves(&mut list);
            let Some(&m) = list.iter().find(|&&m| G::code(m) == e.code) else {
                let fault = Fault::Illegal { ply, code: e.code };
                return Err(self.fault(self.entry_offset(ply), fault));
            };
            if e.kept {
                // Back to the side to move's view, which `Record::new` takes.
                let side = board.side_to_move();
                let score = if side == Side::First { e.score.into() } else { -i32::from(e.score) };
                let record =
                    Record::new(&board, score, self.result, ply as u32).map_err(|error| {
                        self.fault(self.entry_offset(ply), Fault::Record { ply, error })
                    })?;
                if f(record).is_break() {
                    return Ok(ControlFlow::Break(()));
                }
            }
            board.make(m);
        }
        Ok(ControlFlow::Continue(()))
    }

    /// The records of the game's training positions, replayed as its own game.
    pub fn records(&self) -> Result<Vec<Record>, GamesError> {
        let mut out = Vec::with_capacity(self.kept());
        let push = |r| {
            out.push(r);
            ControlFlow::Continue(())
        };
        // The closure never breaks: every record is taken.
        let _every = match self.variant {
            Variant::Chess => self.replay::<Chess>(push),
            Variant::Xiangqi => self.replay::<Xiangqi>(push),
        }?;
        Ok(out)
    }
}

/// Reads `buf.len()` bytes, or fewer when the input ends first: how many were read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut done = 0;
    while done < buf.len() {
        match input.read(&mut buf[done..]) {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// Reads games one at a time, checking the layout of each (its moves are checked only when it
/// is replayed).
pub struct GameReader<R> {
    input: R,
    /// The number of the next game.
    game: u64,
    /// The bytes of the complete games read.
    offset: u64,
    /// Set after an error: what follows a fault cannot be found again.
    failed: bool,
}

impl<R: Read> GameReader<R> {
    /// A reader at the beginning of `input` (buffered: it reads a few bytes at a time).
    pub fn new(input: R) -> GameReader<R> {
        GameReader { input, game: 0, offset: 0, failed: false }
    }

    /// The number of complete games read.
    pub fn games(&self) -> u64 {
        self.game
    }

    /// The bytes of the complete games read.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next game, or `None` at the end of the input (and after an error).
    pub fn next_game(&mut self) -> Result<Option<GameRecord>, GamesError> {
        if self.failed {
            return Ok(None);
        }
        let read = self.read_game();
        match &read {
            Ok(Some(game)) => {
                self.game += 1;
                self.offset = game.entry_offset(game.entries.len()) + MOVE_BYTES as u64;
            }
            Ok(None) => {}
            Err(_) => self.failed = true,
        }
        read
    }

    fn read_game(&mut self) -> Result<Option<GameRecord>, GamesError> {
        let (game, start) = (self.game, self.offset);
        let cut = || GamesError::Truncated(Cut { game, offset: start });
        let corrupt =
            |at: usize, fault| GamesError::Corrupt { game, offset: start + at as u64, fault };
        let mut head = [0u8; HEADER_BYTES];
        match read_full(&mut self.input, &mut head)? {
            0 => return Ok(None),
            HEADER_BYTES => {}
            _ => return Err(cut()),
        }
        if head[0] != MAGIC {
            return Err(corrupt(0, Fault::Magic(head[0])));
        }
        if head[1] != VERSION {
            return Err(corrupt(1, Fault::Version(head[1])));
        }
        let variant = match head[2] {
            0 => Variant::Chess,
            1 => Variant::Xiangqi,
            x => return Err(corrupt(2, Fault::Game(x))),
        };
        let result = match head[3] {
            0 => GameResult::Loss,
            1 => GameResult::Draw,
            2 => GameResult::Win,
            x => return Err(corrupt(3, Fault::Result(x))),
        };
        let len = usize::from(head[4]);
        if len == 0 {
            return Err(corrupt(4, Fault::EmptyStart));
        }
        let mut fen = vec![0u8; len];
        if read_full(&mut self.input, &mut fen)? < len {
            return Err(cut());
        }
        if !fen.is_ascii() {
            return Err(corrupt(HEADER_BYTES, Fault::NotText));
        }
        let start_fen =
            String::from_utf8(fen).map_err(|_| corrupt(HEADER_BYTES, Fault::NotText))?;
        let mut entries = Vec::new();
        loop {
            let at = HEADER_BYTES + len + MOVE_BYTES * entries.len();
            let mut bytes = [0u8; MOVE_BYTES];
            if read_full(&mut self.input, &mut bytes)? < MOVE_BYTES {
                return Err(cut());
            }
            let code = u16::from_le_bytes([bytes[0], bytes[1]]);
            let score = i16::from_le_bytes([bytes[2], bytes[3]]);
            if code == 0 {
                if score != 0 {
                    return Err(corrupt(at, Fault::ZeroCode(score)));
                }
                break;
            }
            if code == SKIPPED {
                // The skipped mark on no move: code 0 with bit 15, which no writer makes.
                return Err(corrupt(at, Fault::Code { ply: entries.len(), code }));
            }
            if entries.len() == MAX_MOVES {
                return Err(corrupt(at, Fault::TooLong));
            }
            entries.push(Entry { code: code & !SKIPPED, score, kept: code & SKIPPED == 0 });
        }
        Ok(Some(GameRecord {
            variant,
            result,
            start: start_fen,
            entries,
            number: game,
            offset: start,
        }))
    }
}

/// Writes games one at a time.
pub struct GameWriter<W> {
    output: W,
    games: u64,
    bytes: u64,
}

impl<W: Write> GameWriter<W> {
    /// A writer appending to `output`.
    pub fn new(output: W) -> GameWriter<W> {
        GameWriter { output, games: 0, bytes: 0 }
    }

    /// Writes one game whole.
    pub fn write(&mut self, game: &GameRecord) -> Result<(), GamesError> {
        let bytes = game.to_bytes()?;
        self.output.write_all(&bytes)?;
        self.games += 1;
        self.bytes += bytes.len() as u64;
        Ok(())
    }

    /// The games written.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The bytes written.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Flushes and returns the output.
    pub fn finish(mut self) -> Result<W, GamesError> {
        self.output.flush()?;
        Ok(self.output)
    }
}

/// What [`read_records`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadSummary {
    /// Complete games read, of both games.
    pub games: u64,
    /// Training positions handed over.
    pub positions: u64,
    /// Training positions of the other game, not replayed.
    pub skipped: u64,
    /// The game cut off at the end of the input, if one was: skipped, the games before it read.
    pub cut: Option<Cut>,
    /// True when the caller stopped the reading.
    pub stopped: bool,
}

/// Reads the games of `input`, replays those of `variant` and hands each training position's
/// record to `f` until it breaks. A game cut off at the end of the input is skipped and noted
/// in the summary: the complete games before it are the file's data. Any other fault is an
/// error naming the game and the byte.
pub fn read_records(
    input: impl Read,
    variant: Variant,
    f: impl FnMut(Record) -> ControlFlow<()>,
) -> Result<ReadSummary, GamesError> {
    match variant {
        Variant::Chess => read_game_records::<Chess>(input, f),
        Variant::Xiangqi => read_game_records::<Xiangqi>(input, f),
    }
}

fn read_game_records<G: MoveCode>(
    input: impl Read,
    mut f: impl FnMut(Record) -> ControlFlow<()>,
) -> Result<ReadSummary, GamesError> {
    let mut reader = GameReader::new(input);
    let mut summary = ReadSummary::default();
    loop {
        let game = match reader.next_game() {
            Ok(Some(game)) => game,
            Ok(None) => break,
            Err(GamesError::Truncated(cut)) => {
                summary.cut = Some(cut);
                break;
            }
            Err(e) => return Err(e),
        };
        summary.games += 1;
        if game.variant != G::VARIANT {
            summary.skipped += game.kept() as u64;
            continue;
        }
        let flow = game.replay::<G>(|r| {
            summary.positions += 1;
            f(r)
        })?;
        if flow.is_break() {
            summary.stopped = true;
            break;
        }
    }
    Ok(summary)
}

/// The bytes of the complete games at the beginning of `input`: its whole length, or where a
/// game cut off at its end begins (where to cut the file before appending to it). The layout
/// is checked, not the moves; a fault other than the cut is an error, since cutting there
/// would drop the complete games after it.
pub fn complete_bytes(input: impl Read) -> Result<u64, GamesError> {
    let mut reader = GameReader::new(input);
    loop {
        match reader.next_game() {
            Ok(Some(_)) => {}
            Ok(None) => return Ok(reader.offset()),
            Err(GamesError::Truncated(cut)) => return Ok(cut.offset),
            Err(e) => return Err(e),
        }
    }
}

/// True when `path` names a file of this format (its extension is [`EXTENSION`]).
pub fn is_games_path(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e == EXTENSION)
}

#[cfg(test)]
mod tests;
