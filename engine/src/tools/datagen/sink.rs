//! Where datagen's games go: a file of 40-byte records ([`data`]) or of whole games
//! ([`games`]), opened for appending with what an interrupted run left half-written cut off.
//!
//! Every game is played into both forms at once (a FEN and a few bytes a move cost nothing
//! beside the searches), so the two formats hold the same training positions by construction
//! and only the writing differs.
//!
//! [`data`]: crate::nnue::data
//! [`games`]: crate::nnue::games

use super::error::DatagenError;
use crate::nnue::data::{RECORD_BYTES, Record};
use crate::nnue::games::{self, GameRecord, GamesError};
use std::io::{BufReader, Seek, SeekFrom};
use std::path::Path;

/// The format datagen writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// 40-byte records, one a training position ([`crate::nnue::data`]).
    Records,
    /// Whole games, a few bytes a move ([`crate::nnue::games`]).
    Games,
}

impl Format {
    /// The format a file's name asks for: games for the `.games` extension, else records (the
    /// older format keeps every name it was given).
    pub fn of_path(path: &Path) -> Format {
        if games::is_games_path(path) { Format::Games } else { Format::Records }
    }

    /// Opens `path` for appending, creating it, after cutting off what a run stopped in the
    /// middle of a write (killed, or out of time) left at its end: a partial record, or a game
    /// without its end. Either would shift everything appended after it. Returns the file and
    /// the number of bytes cut off (for the caller to tell).
    pub(super) fn open(self, path: &Path) -> Result<(std::fs::File, u64), DatagenError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(|source| DatagenError::Open { path: path.to_path_buf(), source })?;
        let repair = |source| DatagenError::Repair { path: path.to_path_buf(), source };
        let len = file.metadata().map_err(repair)?.len();
        let keep = match self {
            Format::Records => len - len % RECORD_BYTES as u64,
            Format::Games => {
                // A damaged game in the middle is an error, not a cut: the complete games
                // after it would be lost.
                (&file).seek(SeekFrom::Start(0)).map_err(repair)?;
                games::complete_bytes(BufReader::new(&file)).map_err(|e| match e {
                    GamesError::Io(source) => repair(source),
                    e => DatagenError::Damaged { path: path.to_path_buf(), source: e },
                })?
            }
        };
        if keep < len {
            file.set_len(keep).map_err(repair)?;
        }
        Ok((file, len - keep))
    }

    /// What is cut off a file in this format by [`Format::open`]: a partial record, or a game
    /// without its end.
    pub fn partial(self) -> &'static str {
        match self {
            Format::Records => "a partial record",
            Format::Games => "a game without its end",
        }
    }

    /// The bytes of a played game in the format.
    pub(super) fn encode(self, played: &Played) -> Result<Vec<u8>, GamesError> {
        match self {
            Format::Records => {
                Ok(played.records.iter().flat_map(|r| r.to_bytes()).collect::<Vec<u8>>())
            }
            Format::Games => played.game.to_bytes(),
        }
    }
}

/// A game as datagen played it: its training records, and the whole game.
pub(super) struct Played {
    /// The records of its training positions, result set.
    pub records: Vec<Record>,
    /// The game: start, every move with its score and whether it is trained on, result.
    pub game: GameRecord,
}
