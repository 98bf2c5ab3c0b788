//! Reading training records into memory: only the chosen game's, each kept in 40 bytes.
//!
//! A file is read as the 40-byte records of `chariot datagen` ([`chariot_engine::nnue::data`]), or,
//! when its name ends in `.games`, as whole games ([`chariot_engine::nnue::games`]), replayed to the
//! same records; a list may mix both.
//!
//! A record is decoded once while loading (every field checked) into a [`Sample`] that keeps
//! the board as the record's two bitboard words and nibbles, with the score and result
//! already turned to the side to move's view. The input features are recomputed from it for
//! every use: a table lookup per piece costs far less than the accumulator rows it selects,
//! and keeping ~30 `u16` features per side instead would triple the memory.

use super::TrainError;
use chariot_engine::game::{Side, Variant};
use chariot_engine::nnue::data::{RECORD_BYTES, Record};
use chariot_engine::nnue::games::{self, Cut, GamesError};
use chariot_engine::nnue::network::{InputMap, Layout};
use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// The most pieces on a board (both games), hence the most features per side.
pub const MAX_FEATURES: usize = 32;
/// Records read from a file at a time.
const CHUNK_RECORDS: usize = 8192;
/// The bytes of a `.games` file that make a training position, about: what the positions are
/// counted from to reserve memory before reading (5.9 to 6.1 measured; a little fewer, since
/// reserving too little costs the copies of a growing vector).
const GAMES_BYTES_PER_POSITION: u64 = 5;
/// The buffer of a `.games` file's reader.
const GAMES_BUFFER: usize = 1 << 16;

/// One training position, compact: the board, the score and the result from the side to
/// move's view, and the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Occupied squares, low word first.
    occupancy: [u64; 2],
    /// The pieces on the occupied squares in square order, one nibble each.
    pieces: [u64; 2],
    /// The score in internal units from the side to move's view.
    pub score: i16,
    /// The result from the side to move's view in half points: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// The side to move: 0 first, 1 second.
    side: u8,
}

impl Sample {
    /// The sample of a record: the score and result turned to the side to move's view.
    pub fn new(r: &Record) -> Sample {
        let (score, result) = match r.side {
            Side::First => (r.score, r.result as u8),
            // -i16::MIN does not exist; a score that low is a lost position either way.
            Side::Second => (r.score.saturating_neg(), 2 - r.result as u8),
        };
        Sample {
            occupancy: [r.occupancy as u64, (r.occupancy >> 64) as u64],
            pieces: [r.pieces as u64, (r.pieces >> 64) as u64],
            score,
            result,
            side: r.side.index() as u8,
        }
    }

    /// The number of pieces on the board (which picks the output bucket).
    #[inline]
    pub fn pieces(&self) -> u32 {
        self.occupancy[0].count_ones() + self.occupancy[1].count_ones()
    }

    /// The training target: `lambda` of the score's win probability, `sigmoid(score / k)`,
    /// and the rest of the game's result, both from the side to move's view.
    #[inline]
    pub fn target(&self, lambda: f32, k: f32) -> f32 {
        let expected = 1.0 / (1.0 + (-f32::from(self.score) / k).exp());
        lambda * expected + (1.0 - lambda) * f32::from(self.result) * 0.5
    }

    /// Calls `f(i, square, piece)` for the `i`-th occupied square in square order (at most
    /// [`MAX_FEATURES`]) and returns how many there are.
    #[inline(always)]
    fn for_each_piece(&self, mut f: impl FnMut(usize, usize, usize)) -> usize {
        let mut n = 0;
        for (word, &occ) in self.occupancy.iter().enumerate() {
            let mut bits = occ;
            while bits != 0 && n < MAX_FEATURES {
                let sq = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                f(n, sq, ((self.pieces[n / 16] >> (4 * (n % 16))) & 0xF) as usize);
                n += 1;
            }
        }
        n
    }

    /// The position mirrored left to right (file `f` becomes `files - 1 - f`), with the same
    /// score and result: the same position for xiangqi, whose board and rules are symmetric.
    pub fn mirrored(&self, files: usize) -> Sample {
        let mut squares = [(0usize, 0u64); MAX_FEATURES];
        let n = self.for_each_piece(|i, sq, piece| {
            let (rank, file) = (sq / files, sq % files);
            squares[i] = (rank * files + files - 1 - file, piece as u64);
        });
        squares[..n].sort_unstable();
        let mut out = Sample { occupancy: [0; 2], pieces: [0; 2], ..*self };
        for (i, &(sq, piece)) in squares[..n].iter().enumerate() {
            out.occupancy[sq / 64] |= 1 << (sq % 64);
            out.pieces[i / 16] |= piece << (4 * (i % 16));
        }
        out
    }

    /// Writes the features of the side to move's pieces (`us`) and of the other side's view
    /// (`them`), and returns how many each has.
    #[inline]
    pub fn features(
        &self,
        table: &Features,
        us: &mut [u16; MAX_FEATURES],
        them: &mut [u16; MAX_FEATURES],
    ) -> usize {
        let (us_side, them_side) = (usize::from(self.side), usize::from(self.side ^ 1));
        let mut views = [0u8; 2];
        if table.map != InputMap::Plain {
            self.for_each_piece(|_, sq, piece| {
                for (v, side) in [Side::First, Side::Second].into_iter().enumerate() {
                    if piece == table.kings[v] {
                        views[v] = table.map.view(&table.layout, side, sq);
                    }
                }
            });
        }
        let mine = &table.tables[us_side][usize::from(views[us_side])];
        let theirs = &table.tables[them_side][usize::from(views[them_side])];
        self.for_each_piece(|i, sq, piece| {
            let at = piece * table.squares + sq;
            us[i] = mine[at];
            them[i] = theirs[at];
        })
    }
}

/// The input feature of every (piece, square) for each perspective, precomputed from
/// [`Layout::feature`] so that the hot loop does a table lookup instead of arithmetic and an
/// indirect call.
#[derive(Clone, Debug)]
pub struct Features {
    squares: usize,
    /// By perspective (first, second), then by view ([`InputMap::view`]).
    tables: [Vec<Vec<u16>>; 2],
    /// The kings' piece nibbles, first side's first.
    kings: [usize; 2],
    layout: Layout,
    map: InputMap,
}

impl Features {
    /// The tables of `variant` under the input map `map`.
    pub fn new(variant: Variant, map: InputMap) -> Features {
        let layout = super::layout(variant);
        let pieces = 2 * layout.kinds;
        // Piece nibbles reach 15; unused entries are never read, as loading checked the pieces.
        let size = 16 * layout.squares;
        let table = |side: Side, view: u8| -> Vec<u16> {
            (0..size)
                .map(|at| {
                    let (piece, sq) = (at / layout.squares, at % layout.squares);
                    if piece < pieces { layout.feature_in(piece, sq, side, view) as u16 } else { 0 }
                })
                .collect()
        };
        // Every view a king bucket and a mirroring make (the plain map uses the first only).
        let views = 2 * map.king_buckets() as u8;
        let view = |side| (0..views).map(|v| table(side, v)).collect();
        Features {
            squares: layout.squares,
            tables: [view(Side::First), view(Side::Second)],
            kings: [layout.king(Side::First), layout.king(Side::Second)],
            layout,
            map,
        }
    }
}

/// What loading found.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The chosen game's positions, in file order.
    pub samples: Vec<Sample>,
    /// Records of the other game, skipped.
    pub skipped: u64,
    /// The `.games` files whose last game was cut off (an interrupted write), and where: that
    /// game is skipped, the complete ones before it read.
    pub cut: Vec<(PathBuf, Cut)>,
}

/// Reads every record of `variant` from `paths` in order, stopping after `max` positions.
/// A record file whose length is not a whole number of records, a record with a bad field, or
/// a damaged game is an error that names the file.
pub fn load(paths: &[PathBuf], variant: Variant, max: Option<usize>) -> Result<Loaded, TrainError> {
    let max = max.unwrap_or(usize::MAX);
    let mut total = 0u64;
    for path in paths {
        let len = std::fs::metadata(path).map_err(|e| io_error(path, e))?.len();
        if games::is_games_path(path) {
            total += len / GAMES_BYTES_PER_POSITION;
            continue;
        }
        if len % RECORD_BYTES as u64 != 0 {
            return Err(TrainError::Length(path.clone(), len));
        }
        total += len / RECORD_BYTES as u64;
    }
    let mut loaded =
        Loaded { samples: Vec::with_capacity(total.min(max as u64) as usize), ..Loaded::default() };
    for path in paths {
        if loaded.samples.len() >= max {
            break;
        }
        if games::is_games_path(path) {
            read_games(path, variant, max, &mut loaded)?;
        } else {
            read_file(path, variant, max, &mut loaded)?;
        }
    }
    Ok(loaded)
}

/// Appends the training positions of `variant` in one `.games` file to `loaded`, replaying
/// its games.
fn read_games(
    path: &Path,
    variant: Variant,
    max: usize,
    loaded: &mut Loaded,
) -> Result<(), TrainError> {
    let file = std::fs::File::open(path).map_err(|e| io_error(path, e))?;
    let input = std::io::BufReader::with_capacity(GAMES_BUFFER, file);
    let samples = &mut loaded.samples;
    let summary = games::read_records(input, variant, |record| {
        if samples.len() >= max {
            return ControlFlow::Break(());
        }
        samples.push(Sample::new(&record));
        ControlFlow::Continue(())
    })
    .map_err(|e| match e {
        GamesError::Io(e) => io_error(path, e),
        e => TrainError::Games(path.to_path_buf(), e),
    })?;
    loaded.skipped += summary.skipped;
    if let Some(cut) = summary.cut {
        loaded.cut.push((path.to_path_buf(), cut));
    }
    Ok(())
}

fn io_error(path: &Path, e: std::io::Error) -> TrainError {
    TrainError::Io(path.to_path_buf(), e)
}

/// Appends the records of `variant` in one file to `loaded`.
fn read_file(
    path: &Path,
    variant: Variant,
    max: usize,
    loaded: &mut Loaded,
) -> Result<(), TrainError> {
    let mut file = std::fs::File::open(path).map_err(|e| io_error(path, e))?;
    let len = file.metadata().map_err(|e| io_error(path, e))?.len();
    if len % RECORD_BYTES as u64 != 0 {
        return Err(TrainError::Length(path.to_path_buf(), len));
    }
    let mut left = len / RECORD_BYTES as u64;
    let mut buf = vec![0u8; CHUNK_RECORDS * RECORD_BYTES];
    let mut index = 0u64;
    while left > 0 && loaded.samples.len() < max {
        let n = left.min(CHUNK_RECORDS as u64) as usize;
        let chunk = &mut buf[..n * RECORD_BYTES];
        file.read_exact(chunk).map_err(|e| io_error(path, e))?;
        for bytes in chunk.chunks_exact(RECORD_BYTES) {
            let mut raw = [0u8; RECORD_BYTES];
            raw.copy_from_slice(bytes);
            let record = Record::from_bytes(&raw)
                .map_err(|e| TrainError::Record(path.to_path_buf(), index, e))?;
            index += 1;
            if record.variant != variant {
                loaded.skipped += 1;
            } else if loaded.samples.len() < max {
                loaded.samples.push(Sample::new(&record));
            }
        }
        left -= n as u64;
    }
    Ok(())
}
