//! Game records as people have them: chess PGN (many games, comments, variations, NAGs,
//! `FEN`/`SetUp`, Chess960 by its `Variant` tag, SAN or long algebraic moves) and xiangqi
//! records in the same frame (chariot-match's, with ICCS moves, and with moves in Chinese
//! notation as Chariot prints them).
//!
//! Reading is in two steps, so that a fault in one game costs only that game: [`split`] cuts a
//! file into [`Raw`] games (tags, main-line move tokens, result) without knowing the rules;
//! [`start`] sets up a game's first position and [`replay`] plays its moves, stopping at the
//! first one that is not legal there. Every fault is a [`ReadError`] naming the game and the
//! move; nothing here prints.

pub mod notation;
pub mod san;

pub use notation::{Notation, Script};

use crate::chess::Chess;
use crate::game::{Game, Move, MoveError, Variant, fen_ply};
use crate::text::excerpt;
use crate::xiangqi::Xiangqi;

/// Where a file ended that should not have.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Cut {
    /// Inside a tag (`[Event "...`).
    Tag,
    /// Inside a comment (`{ ...`).
    Comment,
    /// Inside a variation (`( ...`).
    Variation,
    /// Before the game's result.
    Result,
}

impl Cut {
    /// Where, in words.
    pub fn place(self) -> &'static str {
        match self {
            Cut::Tag => "inside a tag",
            Cut::Comment => "inside a comment",
            Cut::Variation => "inside a variation",
            Cut::Result => "before the game's result",
        }
    }
}

/// One game of a file as written, before any rule is applied.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Raw {
    /// The game's number in its file, from 1.
    pub number: usize,
    /// The tags, in the file's order.
    pub tags: Vec<(String, String)>,
    /// The main line's move tokens (move numbers, comments, variations and NAGs dropped).
    pub moves: Vec<String>,
    /// The result that ended the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: Option<String>,
    /// Where the file ended, when it ended inside this game.
    pub cut: Option<Cut>,
}

impl Raw {
    /// The value of the tag `name` (any case), if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// Why a move token was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It is not a move in any notation the game's records use.
    Unreadable,
    /// It is a move, but not a legal one in the position (or an ambiguous one).
    Illegal,
}

/// A fault in a record; each names the game, and the move when there is one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The `Variant` tag names a game Chariot does not play.
    #[error("game {game}: unknown variant '{}' (chess, chess960 or xiangqi)", excerpt(.name))]
    Variant {
        /// The game's number in its file.
        game: usize,
        /// The tag's value.
        name: String,
    },
    /// The `FEN` tag is not a position of the game (the reason quotes what is wrong in it,
    /// so the message does not quote the tag again).
    #[error("game {game}: FEN tag: {why}")]
    Fen {
        /// The game's number in its file.
        game: usize,
        /// The tag's value.
        fen: String,
        /// What is wrong with it.
        why: String,
    },
    /// A move token that cannot be played.
    #[error("game {game}, move {}: {}", excerpt(.at), match .fault {
        Fault::Unreadable => "cannot be read as a move",
        Fault::Illegal => "not a legal move in this position",
    })]
    Move {
        /// The game's number in its file.
        game: usize,
        /// The move as the record numbers it (`5. Nxf7`, `12... e5`).
        at: String,
        /// Why it was refused.
        fault: Fault,
    },
    /// The file ended in the middle of the game.
    #[error("game {game}: the file ends {} after {}", .cut.place(), .after.as_deref().map_or("no move".to_string(), |m| format!("move {}", excerpt(m))))]
    Truncated {
        /// The game's number in its file.
        game: usize,
        /// Where the file ended.
        cut: Cut,
        /// The last move read (`12... e5`), if any.
        after: Option<String>,
    },
}

/// The results that end a game's movetext.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// A reader of one file's games, character by character (see [`split`]).
#[derive(Default)]
struct Splitter {
    games: Vec<Raw>,
    game: Raw,
    /// The game has a tag or a move.
    begun: bool,
    /// Variations open at this point.
    depth: usize,
    word: String,
}

impl Splitter {
    /// Ends the word read so far: a move, a move number, a NAG or a result.
    fn flush(&mut self) {
        let word = std::mem::take(&mut self.word);
        if self.depth > 0 {
            return;
        }
        // A move number glued to its move (`12.e4`, `12...e5`) is dropped.
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
        let word = if digits > 0 && dots > 0 { &word[digits + dots..] } else { word.as_str() };
        // Annotations glued to a move (`a6!?`) are the annotator's, not the move's.
        let word = if word.len() > 2 { word.trim_end_matches(['!', '?']) } else { word };
        let annotation = word.bytes().all(|b| b == b'!' || b == b'?');
        if word.is_empty() || annotation || word.starts_with('$') {
            return;
        }
        if RESULTS.contains(&word) {
            self.game.result = Some(word.to_string());
            self.end();
        } else if !word.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            self.game.moves.push(word.to_string());
            self.begun = true;
        }
    }

    /// Ends the game read so far.
    fn end(&mut self) {
        let mut game = std::mem::take(&mut self.game);
        game.number = self.games.len() + 1;
        self.games.push(game);
        self.begun = false;
    }

    /// Reads a tag after its `[`; false when the file ended inside it.
    fn tag(&mut self, chars: &mut impl Iterator<Item = char>) -> bool {
        let (mut text, mut quoted, mut escaped) = (String::new(), false, false);
        for c in chars.by_ref() {
            match c {
                _ if escaped => {
                    escaped = false;
                    text.push(c);
                }
                '\\' if quoted => escaped = true,
                '"' => {
                    quoted = !quoted;
                    text.push(c);
                }
                ']' if !quoted => {
                    let (name, value) =
                        text.trim().split_once(char::is_whitespace).unwrap_or((&text, ""));
                    let value = value.trim();
                    let value =
                        value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value);
                    self.game.tags.push((name.trim().to_string(), value.to_string()));
                    return true;
                }
                _ => text.push(c),
            }
        }
        false
    }
}

/// The games of a record file's text, in order. A game ends at its result, or where the next
/// tag section begins; a game the file ends inside is marked with its [`Cut`].
pub fn split(text: &str) -> Vec<Raw> {
    let mut s = Splitter::default();
    let mut chars = text.trim_start_matches('\u{feff}').chars();
    let mut line_start = true;
    let mut cut = None;
    while let Some(c) = chars.next() {
        let was_line_start = std::mem::replace(&mut line_start, c == '\n');
        match c {
            // A line opened by `%` is an escape for other programs.
            '%' if was_line_start => {
                chars.by_ref().find(|&c| c == '\n');
                line_start = true;
            }
            '{' => {
                s.flush();
                if !chars.by_ref().any(|c| c == '}') {
                    cut = Some(Cut::Comment);
                }
            }
            ';' => {
                s.flush();
                chars.by_ref().find(|&c| c == '\n');
                line_start = true;
            }
            '(' => {
                s.flush();
                s.depth += 1;
            }
            ')' => {
                s.flush();
                s.depth = s.depth.saturating_sub(1);
            }
            '[' if s.depth == 0 => {
                s.flush();
                // Tags after moves without a result: the next game has begun.
                if !s.game.moves.is_empty() {
                    s.end();
                }
                s.begun = true;
                if !s.tag(&mut chars) {
                    cut = Some(Cut::Tag);
                }
            }
            c if c.is_whitespace() => s.flush(),
            c => s.word.push(c),
        }
    }
    s.flush();
    if s.depth > 0 && cut.is_none() {
        cut = Some(Cut::Variation);
    }
    if s.begun {
        s.game.cut = Some(cut.unwrap_or(Cut::Result));
        s.end();
    }
    // A file that ends inside a comment after a result has lost nothing of its games.
    s.games
}

/// A game's first position, in its game.
#[derive(Clone)]
pub enum Start {
    /// A chess game (Chess960 notation on when its `Variant` tag says so), boxed as xiangqi's
    /// is: its board is held inline (its history is on the heap), which unboxed would make
    /// this variant far larger than the other's box, past clippy's `large_enum_variant` bound.
    Chess(Box<Chess>),
    /// A xiangqi game (boxed: its board is three times a chess board's).
    Xiangqi(Box<Xiangqi>),
}

/// The game's first position: the game from its `Variant` tag (or `Game "Chinese Chess"`, or
/// a 10-rank `FEN` tag, or else `default`, or else chess), the position from its `FEN` tag or
/// the game's start.
pub fn start(raw: &Raw, default: Option<Variant>) -> Result<Start, ReadError> {
    let game = raw.number;
    let fen = raw.tag("FEN").map(str::trim).filter(|f| !f.is_empty());
    let (variant, chess960) = match raw.tag("Variant").map(|v| v.trim().to_ascii_lowercase()) {
        Some(v) => match v.as_str() {
            "" | "chess" | "standard" | "normal" => (Variant::Chess, false),
            "chess960" | "chess 960" | "fischerandom" | "fischer random" | "960" => {
                (Variant::Chess, true)
            }
            "xiangqi" | "chinese chess" | "chinese" => (Variant::Xiangqi, false),
            _ => {
                return Err(ReadError::Variant {
                    game,
                    name: raw.tag("Variant").unwrap_or("").to_string(),
                });
            }
        },
        None if raw.tag("Game").is_some_and(|g| g.eq_ignore_ascii_case("chinese chess")) => {
            (Variant::Xiangqi, false)
        }
        None => match fen.map(crate::session::board::variant_of_fen) {
            Some(Some(v)) => (v, false),
            _ => (default.unwrap_or(Variant::Chess), false),
        },
    };
    let bad = |why: String| ReadError::Fen { game, fen: fen.unwrap_or("").to_string(), why };
    Ok(match variant {
        Variant::Chess => {
            let mut board = match fen {
                Some(f) => Chess::from_fen(f).map_err(|e| bad(e.to_string()))?,
                None => Chess::startpos(),
            };
            if chess960 {
                board.set_chess960(true);
            }
            Start::Chess(Box::new(board))
        }
        Variant::Xiangqi => Start::Xiangqi(Box::new(match fen {
            Some(f) => Xiangqi::from_fen(f).map_err(|e| bad(e.to_string()))?,
            None => Xiangqi::startpos(),
        })),
    })
}

/// A game played from its record: the moves that could be played, and what stopped it.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The moves played, in order.
    pub moves: Vec<Move>,
    /// The script of the record's first move (the game's own when it has none).
    pub script: Script,
    /// Why the game stops before its end, if it does.
    pub error: Option<ReadError>,
}

/// The move number of the `index`th move of a game that starts at `first_ply`, with `token`:
/// `5. Nxf7` or `5... Qg5`.
pub fn label(first_ply: u32, index: usize, token: &str) -> String {
    let ply = first_ply as usize + index;
    let dots = if ply.is_multiple_of(2) { "." } else { "..." };
    format!("{}{dots} {token}", ply / 2 + 1)
}

/// Plays the moves of `raw` from `start` as far as they are legal.
pub fn replay<G: Notation>(raw: &Raw, start: &G) -> Replay {
    let mut board = start.clone();
    let first_ply = fen_ply(&start.fen());
    let mut replay = Replay { moves: Vec::new(), script: G::SCRIPT, error: None };
    for (i, token) in raw.moves.iter().enumerate() {
        match board.read_move(token) {
            Ok((m, script)) => {
                if i == 0 {
                    replay.script = script;
                }
                board.make(m);
                replay.moves.push(m);
            }
            Err(e) => {
                let fault = match e {
                    MoveError::Syntax(..) => Fault::Unreadable,
                    MoveError::Illegal(_) => Fault::Illegal,
                };
                let at = label(first_ply, i, token);
                replay.error = Some(ReadError::Move { game: raw.number, at, fault });
                return replay;
            }
        }
    }
    if let Some(cut) = raw.cut {
        let after = raw.moves.len().checked_sub(1).map(|i| label(first_ply, i, &raw.moves[i]));
        replay.error = Some(ReadError::Truncated { game: raw.number, cut, after });
    }
    replay
}

#[cfg(test)]
mod tests;
