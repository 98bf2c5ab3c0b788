//! Syzygy endgame tablebases: loading the files `SyzygyPath` names and probing them for a
//! [`Board`] (win/draw/loss, distance to zeroing, and every root move's value).
//!
//! The prober is the `pyrrhic-rs` crate (MIT), which reads the bitboards through the
//! [`EngineAdapter`] trait with Chariot's own attack tables (a1 = bit 0, as here). It keeps its
//! tables in process-wide state and allows one instance at a time, so this module holds that
//! instance in [`TABLES`]: **the library's one mutable static** (`engine/tests/layout.rs`
//! allows it in this file and nowhere else). Consequences, by design:
//! - the tables are the process's, not a session's: a path set in one session is seen by
//!   every session of the process (the controller sets it; `bench`, `datagen` and the tests
//!   never do, and the search is to probe only when its own settings name a path);
//! - loading takes the write lock, so a path change waits until every probe in flight has
//!   ended and then drops the old tables before the new ones are read;
//! - the tests that load tables run in a test binary of their own (`engine/tests/syzygy.rs`).
//!
//! Before the prober sees a path, [`load`] checks every table file in it itself: the size of a
//! complete file (16 more than a multiple of 64) and its magic number. The prober does not
//! reject an incomplete file (it prints a line to stdout and reads it anyway), so a truncated
//! or foreign file is refused here and nothing is loaded. The count of files and the largest
//! piece count come from that check too: the prober's own figures are not public.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;

use parking_lot::RwLock;
use pyrrhic_rs::{DtzProbeValue, EngineAdapter, TableBases, WdlProbeResult};

use super::bitboard::*;
use super::board::Board;
use super::moves;
use super::tables;
use crate::game::{Move, MoveList};
use crate::text::excerpt;

/// The tables in use, if any: the library's one mutable static (see the module's notes).
/// Probes take the read lock; loading, unloading and root probes (which the prober does not
/// allow concurrently) take the write lock.
static TABLES: RwLock<Option<Loaded>> = RwLock::new(None);

/// The most pieces any Syzygy table has.
pub const MAX_PIECES: u32 = 7;

/// The first four bytes of a WDL file (`.rtbw`) and of a DTZ file (`.rtbz`).
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// What separates the folders of `SyzygyPath`, as Stockfish reads it. (The prober splits the
/// folders again on `:`, so a Windows folder with a drive letter does not load.)
const SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// Loaded tables: the prober's one instance and what the check of the files found.
struct Loaded {
    prober: TableBases<Adapter>,
    found: Census,
}

/// What [`load`] found: the number of WDL and DTZ files and the most pieces in a WDL table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Census {
    /// WDL files (`.rtbw`), each table counted once (the first folder that has it).
    pub wdl: usize,
    /// DTZ files (`.rtbz`).
    pub dtz: usize,
    /// The most pieces, kings included, of a WDL table found.
    pub largest: u32,
}

impl Census {
    /// WDL and DTZ files together: the `N` of `Found N tablebases`.
    pub fn files(&self) -> usize {
        self.wdl + self.dtz
    }
}

/// Why a `SyzygyPath` was not loaded; nothing is in use then.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A folder of the path cannot be listed.
    #[error("cannot read folder '{}': {error}", excerpt(.folder))]
    Folder {
        /// The folder as given.
        folder: String,
        /// Why.
        error: std::io::Error,
    },
    /// The folders hold no WDL table.
    #[error("no Syzygy tables (.rtbw files) in '{}'", excerpt(.0))]
    NoTables(String),
    /// A table file cannot be read.
    #[error("cannot read '{}': {error}", excerpt(.file))]
    Unreadable {
        /// The file.
        file: String,
        /// Why.
        error: std::io::Error,
    },
    /// A table file has the size of no complete table (a download cut short).
    #[error("'{}' is incomplete ({bytes} bytes)", excerpt(.file))]
    Incomplete {
        /// The file.
        file: String,
        /// Its size.
        bytes: u64,
    },
    /// A table's name on something that is not a regular file (a pipe, a folder).
    #[error("'{}' is not a regular file", excerpt(.file))]
    NotAFile {
        /// The path.
        file: String,
    },
    /// A table file does not start with the Syzygy magic number of its kind.
    #[error("'{}' is not a Syzygy table (wrong magic number)", excerpt(.file))]
    Corrupt {
        /// The file.
        file: String,
    },
    /// The prober refused the path (it found nothing it could use).
    #[error("the prober could not load '{}'", excerpt(.0))]
    Prober(String),
}

/// Drops the tables in use, if any, and loads those of `path` (folders joined by `:`, `;` on
/// Windows). An empty path or `<empty>` loads none: `Ok(None)`. On an error nothing is in use.
pub fn load(path: &str) -> Result<Option<Census>, LoadError> {
    let mut tables = TABLES.write();
    // The old instance goes first: the prober allows only one.
    *tables = None;
    let path = path.trim();
    if path.is_empty() || path == "<empty>" {
        return Ok(None);
    }
    let folders: Vec<&str> = path.split(SEPARATOR).filter(|f| !f.is_empty()).collect();
    let found = check(&folders, path)?;
    let prober = TableBases::<Adapter>::new(folders.join(":"))
        .map_err(|_| LoadError::Prober(path.to_string()))?;
    *tables = Some(Loaded { prober, found });
    Ok(Some(found))
}

/// What is loaded now, if anything.
pub fn found() -> Option<Census> {
    TABLES.read().as_ref().map(|l| l.found)
}

/// The most pieces a probe can have now: 0 when no tables are loaded.
pub fn largest() -> u32 {
    found().map_or(0, |f| f.largest)
}

/// Lists the table files of `folders` and checks each one's size and magic number.
fn check(folders: &[&str], path: &str) -> Result<Census, LoadError> {
    let mut wdl = BTreeSet::new();
    let mut dtz = BTreeSet::new();
    let mut largest = 0;
    for folder in folders {
        let entries = std::fs::read_dir(folder)
            .map_err(|error| LoadError::Folder { folder: folder.to_string(), error })?;
        // Sorted, so that the first bad file reported is the same on every run.
        let mut names: Vec<String> =
            entries.flatten().filter_map(|e| e.file_name().to_str().map(str::to_string)).collect();
        names.sort();
        for name in names {
            let Some((stem, suffix)) = name.rsplit_once('.') else { continue };
            let (set, magic) = match suffix {
                "rtbw" => (&mut wdl, WDL_MAGIC),
                "rtbz" => (&mut dtz, DTZ_MAGIC),
                _ => continue,
            };
            let Some(pieces) = table_pieces(stem) else { continue };
            if set.contains(stem) {
                continue; // the prober reads the first folder's copy
            }
            check_file(&Path::new(folder).join(&name), magic)?;
            if magic == WDL_MAGIC {
                largest = largest.max(pieces);
            }
            set.insert(stem.to_string());
        }
    }
    if wdl.is_empty() {
        return Err(LoadError::NoTables(path.to_string()));
    }
    Ok(Census { wdl: wdl.len(), dtz: dtz.len(), largest })
}

/// The number of pieces of a table named like `KRPvKB`, or `None` for another name. Only the
/// names the prober opens count: at least three pieces, each side's pieces from the strongest
/// down, and the stronger side first (more pieces, or as many and the larger ones), as Syzygy
/// names its files. A folder of other names alone would pass this check and then fail the
/// prober, whose failed start cannot be undone within the process.
fn table_pieces(stem: &str) -> Option<u32> {
    let (strong, weak) = stem.split_once('v')?;
    /// A side's pieces after its king, as ranks from the queen (5) down to the pawn (1).
    fn side(s: &str) -> Option<Vec<u8>> {
        let rest = s.strip_prefix('K')?;
        let ranks: Option<Vec<u8>> = rest
            .bytes()
            .map(|c| b"PNBRQ".iter().position(|&p| p == c).map(|i| i as u8 + 1))
            .collect();
        ranks.filter(|r| r.windows(2).all(|w| w[0] >= w[1]))
    }
    let (strong, weak) = (side(strong)?, side(weak)?);
    let ordered = strong.len() > weak.len() || (strong.len() == weak.len() && strong >= weak);
    let pieces = 2 + strong.len() + weak.len();
    (ordered && !strong.is_empty() && pieces as u32 <= MAX_PIECES).then_some(pieces as u32)
}

/// Checks that `file` has a complete table's size and starts with `magic`.
fn check_file(file: &Path, magic: [u8; 4]) -> Result<(), LoadError> {
    let name = || file.display().to_string();
    let unreadable = |error| LoadError::Unreadable { file: name(), error };
    // Only a regular file is opened: a pipe named like a table would block the session.
    let meta = std::fs::metadata(file).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(LoadError::NotAFile { file: name() });
    }
    let mut handle = std::fs::File::open(file).map_err(unreadable)?;
    let bytes = handle.metadata().map_err(unreadable)?.len();
    if bytes % 64 != 16 {
        return Err(LoadError::Incomplete { file: name(), bytes });
    }
    let mut head = [0u8; 4];
    handle.read_exact(&mut head).map_err(unreadable)?;
    if head != magic {
        return Err(LoadError::Corrupt { file: name() });
    }
    Ok(())
}

pub use crate::game::Wdl;

/// The prober's value as Chariot's.
fn from_prober(r: WdlProbeResult) -> Wdl {
    match r {
        WdlProbeResult::Loss => Wdl::Loss,
        WdlProbeResult::BlessedLoss => Wdl::BlessedLoss,
        WdlProbeResult::Draw => Wdl::Draw,
        WdlProbeResult::CursedWin => Wdl::CursedWin,
        WdlProbeResult::Win => Wdl::Win,
    }
}

/// A position's distance to zeroing: `plies` to the next capture or pawn move with best play,
/// positive when the side to move wins, negative when it loses, 0 in a draw; -1 when it is
/// checkmated (as Stockfish and python-chess count). Positions with `|plies| > 100` are
/// cursed wins and blessed losses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Dtz {
    /// The value the distance leads to.
    pub wdl: Wdl,
    /// The signed distance in plies.
    pub plies: i32,
}

/// One root move's value in the DTZ tables, for the side to move at the root.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// The position's value after it, under the fifty-move rule from the root's clock.
    pub wdl: Wdl,
    /// The signed distance to zeroing after it, counting the move itself (1 for a winning
    /// capture, pawn move or mate; 101 for a cursed one).
    pub dtz: i32,
}

/// The arguments every probe passes: the bitboards, the en-passant square (0 for none) and
/// the side to move (true: white).
struct Args {
    white: u64,
    black: u64,
    kinds: [u64; 6],
    ep: u32,
    white_to_move: bool,
}

impl Board {
    /// The position as the prober reads it, or `None` when the tables cannot answer: castling
    /// rights (the tables have none), or more pieces than `limit` or than the tables have.
    fn tb_args(&self, limit: u32, largest: u32) -> Option<Args> {
        let pieces = self.occupied().count_ones();
        if self.castle != 0 || pieces > limit.min(largest) {
            return None;
        }
        // The square only when a capture there is possible, as the prober expects.
        let ep = if self.ep_capturable() { self.ep as u32 } else { 0 };
        Some(Args {
            white: self.colours[WHITE],
            black: self.colours[BLACK],
            kinds: self.kinds,
            ep,
            white_to_move: self.side == WHITE,
        })
    }

    /// The WDL tables' value of the position for the side to move, when tables are loaded and
    /// the position has at most `limit` pieces and no castling rights.
    pub fn probe_wdl(&self, limit: u32) -> Option<Wdl> {
        let guard = TABLES.read();
        let loaded = guard.as_ref()?;
        let a = self.tb_args(limit, loaded.found.largest)?;
        let k = &a.kinds;
        let r = loaded.prober.probe_wdl(
            a.white,
            a.black,
            k[KING],
            k[QUEEN],
            k[ROOK],
            k[BISHOP],
            k[KNIGHT],
            k[PAWN],
            a.ep,
            a.white_to_move,
        );
        r.ok().map(from_prober)
    }

    /// The DTZ tables' distance to zeroing of the position, as [`Board::probe_wdl`] (and the
    /// position's DTZ table must be loaded). The fifty-move clock plays no part.
    pub fn probe_dtz(&self, limit: u32) -> Option<Dtz> {
        let mut b = *self;
        b.halfmove = 0;
        b.probe_root_dtz(limit).map(|(dtz, _)| dtz)
    }

    /// Every legal move's value in the DTZ tables, for the side to move, with the fifty-move
    /// rule counted from the position's clock; `None` as for [`Board::probe_dtz`]. Empty when
    /// the position is mate or stalemate.
    pub fn probe_root(&self, limit: u32) -> Option<Vec<RootMove>> {
        self.probe_root_dtz(limit).map(|(_, moves)| moves)
    }

    /// The position's DTZ (at the clock of `self`) and every legal move's.
    fn probe_root_dtz(&self, limit: u32) -> Option<(Dtz, Vec<RootMove>)> {
        // The write lock: the prober allows one root probe at a time, alone.
        let guard = TABLES.write();
        let loaded = guard.as_ref()?;
        let a = self.tb_args(limit, loaded.found.largest)?;
        let k = &a.kinds;
        let r = loaded
            .prober
            .probe_root(
                a.white,
                a.black,
                k[KING],
                k[QUEEN],
                k[ROOK],
                k[BISHOP],
                k[KNIGHT],
                k[PAWN],
                self.halfmove.min(255),
                a.ep,
                a.white_to_move,
            )
            .ok()?;
        let root = match r.root {
            DtzProbeValue::DtzResult(d) => {
                let wdl = from_prober(d.wdl);
                Dtz { wdl, plies: signed(wdl, d.dtz) }
            }
            DtzProbeValue::Checkmate => return Some((Dtz { wdl: Wdl::Loss, plies: -1 }, vec![])),
            DtzProbeValue::Stalemate => return Some((Dtz { wdl: Wdl::Draw, plies: 0 }, vec![])),
            DtzProbeValue::Failed => return None,
        };
        let mut legal = MoveList::new();
        super::movegen::generate::<true, _>(self, &mut legal);
        let mut out = Vec::with_capacity(r.num_moves);
        for value in &r.moves[..r.num_moves.min(r.moves.len())] {
            let DtzProbeValue::DtzResult(d) = *value else { return None };
            let promotion = match d.promotion {
                pyrrhic_rs::Piece::Queen => Some(QUEEN),
                pyrrhic_rs::Piece::Rook => Some(ROOK),
                pyrrhic_rs::Piece::Bishop => Some(BISHOP),
                pyrrhic_rs::Piece::Knight => Some(KNIGHT),
                _ => None,
            };
            let mv = legal.iter().copied().find(|&m| {
                moves::from_sq(m) == d.from_square as usize
                    && moves::to_sq(m) == d.to_square as usize
                    && moves::promotion(m) == promotion
            })?;
            let wdl = from_prober(d.wdl);
            out.push(RootMove { mv, wdl, dtz: signed(wdl, d.dtz) });
        }
        // Every legal move has its value, or the answer is not trusted.
        (out.len() == legal.len()).then_some((root, out))
    }
}

/// A distance with the sign of its value.
fn signed(wdl: Wdl, plies: u16) -> i32 {
    match wdl {
        Wdl::Win | Wdl::CursedWin => plies as i32,
        Wdl::Draw => 0,
        Wdl::Loss | Wdl::BlessedLoss => -(plies as i32),
    }
}

/// Chariot's attack tables, as the prober asks for them (squares a1 = 0 .. h8 = 63).
#[derive(Copy, Clone)]
struct Adapter;

impl EngineAdapter for Adapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, square: u64) -> u64 {
        let colour = if color == pyrrhic_rs::Color::White { WHITE } else { BLACK };
        tables::pawn(colour, square as usize & 63)
    }
    fn knight_attacks(square: u64) -> u64 {
        tables::knight(square as usize & 63)
    }
    fn bishop_attacks(square: u64, occupied: u64) -> u64 {
        tables::bishop(square as usize & 63, occupied)
    }
    fn rook_attacks(square: u64, occupied: u64) -> u64 {
        tables::rook(square as usize & 63, occupied)
    }
    fn queen_attacks(square: u64, occupied: u64) -> u64 {
        tables::queen(square as usize & 63, occupied)
    }
    fn king_attacks(square: u64) -> u64 {
        tables::king(square as usize & 63)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only Syzygy's own file names count, as the prober opens no others.
    #[test]
    fn only_the_probers_names_count() {
        for (name, pieces) in [("KQvK", 3), ("KRvKN", 4), ("KBNvK", 4), ("KPvKP", 4), ("KQRvKQ", 5)]
        {
            assert_eq!(table_pieces(name), Some(pieces), "{name}");
        }
        for name in ["KvK", "KvKQ", "KNvKR", "KNBvK", "KPvKQR", "KXvK", "kqvk", "KQK", "KQvKRvK"] {
            assert_eq!(table_pieces(name), None, "{name}");
        }
    }

    #[test]
    fn table_names_are_read() {
        assert_eq!(table_pieces("KRPvKB"), Some(5));
        assert_eq!(table_pieces("KQRBNPvK"), Some(7));
        assert_eq!(table_pieces("KQRBNPPvK"), None);
        assert_eq!(table_pieces("KRvQ"), None);
        assert_eq!(table_pieces("README"), None);
        assert_eq!(table_pieces("KXvK"), None);
    }

    #[test]
    fn the_value_is_signed_as_stockfish_does() {
        assert_eq!(Wdl::Loss.signed(), -2);
        assert_eq!(Wdl::Win.signed(), 2);
        assert_eq!(signed(Wdl::BlessedLoss, 105), -105);
        assert_eq!(signed(Wdl::Draw, 7), 0);
    }
}
