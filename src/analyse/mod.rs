//! `chariot analyse`: whole games of both games analysed from the command line.
//!
//! Every game of every file is read (`chariot_engine::record`), each of its positions searched once
//! through the session (`chariot_engine::tools::analysis`), and the game written back with an evaluation
//! on every move, NAGs on the inaccuracies, mistakes and blunders, and each side's summary as
//! tags (PGN, or one JSON object a game), optionally with its graph as SVG. Each side's
//! summary also goes to stderr. A fault in the input is one line on stderr naming the file,
//! the game and the move; the moves before it are still analysed and written, the other games
//! and files go on, and the exit status says that something was wrong.

mod json;
mod pgn;
mod progress;
mod review;
mod svg;

use chariot_engine::command::BenchLimit;
use chariot_engine::game::{Inspect, Variant};
use chariot_engine::nnue::{Networked, Networks};
use chariot_engine::record::{self, Notation, Raw, Replay, Start};
use chariot_engine::session::Session;
use chariot_engine::tools::analysis::analyse;
use progress::Progress;
use review::Review;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The nodes searched per position when no limit is given: about a second a position on one
/// thread of a desktop machine, deep enough to see a piece left hanging three moves on.
pub const DEFAULT_NODES: u64 = 1_000_000;
/// The default hash table, MB.
pub const DEFAULT_HASH_MB: usize = 64;

/// The output format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The games as PGN with `[%eval]` comments and NAGs.
    Pgn,
    /// One JSON object a game, a line each.
    Json,
}

/// The game of files without a `Variant` tag or a 10-rank FEN.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Game {
    /// Chess.
    Chess,
    /// Xiangqi.
    Xiangqi,
}

/// `chariot analyse`'s options.
#[derive(clap::Args, Debug)]
pub struct Options {
    /// Game files: chess PGN, xiangqi records with ICCS or Chinese moves.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Search each position to this depth.
    #[arg(long, conflicts_with_all = ["nodes", "movetime"])]
    pub depth: Option<u32>,
    /// Search each position this many nodes (the default: 1000000).
    #[arg(long, conflicts_with = "movetime")]
    pub nodes: Option<u64>,
    /// Search each position this many milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash table size in MB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    pub hash: usize,
    /// The game of records that do not say (by a `Variant` tag or a 10-rank FEN).
    #[arg(long, value_enum)]
    pub variant: Option<Game>,
    /// Write the games to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// The output format.
    #[arg(long, value_enum, default_value = "pgn")]
    pub format: Format,
    /// Write each game's evaluation graph to this folder as SVG (`<file>-<game>.svg`).
    #[arg(long, value_name = "DIR")]
    pub svg: Option<PathBuf>,
}

impl Options {
    /// The search of each position.
    fn limit(&self) -> BenchLimit {
        match (self.depth, self.nodes, self.movetime) {
            (Some(d), _, _) => BenchLimit::Depth(d),
            (_, Some(n), _) => BenchLimit::Nodes(n),
            (_, _, Some(t)) => BenchLimit::Movetime(t),
            _ => BenchLimit::Nodes(DEFAULT_NODES),
        }
    }

    /// The annotator tag: the engine and the search per position.
    fn annotator(&self) -> String {
        let per = match self.limit() {
            BenchLimit::Depth(d) => format!("depth {d}"),
            BenchLimit::Nodes(n) => format!("nodes {n}"),
            BenchLimit::Movetime(t) => format!("movetime {t}"),
        };
        format!("Chariot {} ({per})", env!("CARGO_PKG_VERSION"))
    }
}

/// A game read and replayed, ready to analyse.
struct Prepared {
    raw: Raw,
    /// Its first position and its moves, or why it has none.
    game: Result<(Start, Replay), record::ReadError>,
}

impl Prepared {
    /// The positions its analysis searches.
    fn positions(&self) -> u64 {
        self.game.as_ref().map_or(0, |(_, r)| r.moves.len() as u64 + 1)
    }
}

/// A file's games, or why it has none.
struct Loaded {
    name: String,
    path: PathBuf,
    games: Result<Vec<Prepared>, String>,
}

/// Reads and replays every game of `path`.
fn load(path: &Path, variant: Option<Variant>) -> Loaded {
    let name = path.display().to_string();
    let games = std::fs::read(path).map_err(|e| format!("cannot read: {e}")).and_then(|bytes| {
        // A stray byte is one bad move, not a lost file.
        let text = String::from_utf8_lossy(&bytes);
        let raws = record::split(&text);
        if raws.is_empty() {
            return Err("no games in the file".to_string());
        }
        Ok(raws
            .into_iter()
            .map(|raw| {
                let game = record::start(&raw, variant).map(|start| {
                    let replay = match &start {
                        Start::Chess(b) => record::replay(&raw, b.as_ref()),
                        Start::Xiangqi(b) => record::replay(&raw, b.as_ref()),
                    };
                    (start, replay)
                });
                Prepared { raw, game }
            })
            .collect())
    });
    Loaded { name, path: path.to_path_buf(), games }
}

/// Where the games go.
struct Sink {
    out: Box<dyn Write>,
    format: Format,
    svg: Option<PathBuf>,
}

impl Sink {
    /// Writes one reviewed game, and its graph; the file it came from is `path`.
    fn write(&mut self, review: &Review, path: &Path) -> Result<(), String> {
        let text = match self.format {
            Format::Pgn => pgn::write(review),
            Format::Json => json::write(review),
        };
        // Each game is flushed whole, so that an interruption loses no finished game.
        self.out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
            .map_err(|e| format!("cannot write the output: {e}"))?;
        if let Some(dir) = &self.svg {
            let stem = path.file_stem().map_or("games".into(), |s| s.to_string_lossy());
            let file = dir.join(format!("{stem}-{}.svg", review.number));
            std::fs::write(&file, svg::write(review))
                .map_err(|e| format!("cannot write '{}': {e}", file.display()))?;
        }
        Ok(())
    }
}

/// Analyses one game of `G` and reviews it.
fn run_game<G: Inspect + Networked + Notation>(
    session: &mut Session,
    file: &str,
    prepared: &Prepared,
    start: &G,
    replay: &Replay,
    options: &Options,
    progress: &mut Progress,
) -> Review {
    let analysis = analyse(session, start, &replay.moves, options.limit(), &mut || progress.tick());
    let error = replay.error.as_ref().map(ToString::to_string);
    review::review(
        file,
        &prepared.raw,
        start,
        replay.script,
        &analysis,
        error,
        &options.annotator(),
    )
}

/// Runs the command; the exit status (0, or 1 when any input or output failed).
pub fn run(options: &Options) -> i32 {
    let variant = options.variant.map(|v| match v {
        Game::Chess => Variant::Chess,
        Game::Xiangqi => Variant::Xiangqi,
    });
    let out: Box<dyn Write> = match &options.out {
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(std::io::BufWriter::new(f)),
            Err(e) => {
                eprintln!("chariot analyse: cannot create '{}': {e}", path.display());
                return 1;
            }
        },
        None => Box::new(std::io::stdout()),
    };
    if let Some(dir) = &options.svg
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("chariot analyse: cannot create '{}': {e}", dir.display());
        return 1;
    }
    let mut session =
        match Session::new(options.hash.max(1), options.threads.max(1), Networks::embedded()) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("chariot analyse: cannot start the search threads: {e}");
                return 1;
            }
        };
    let files: Vec<Loaded> = options.files.iter().map(|p| load(p, variant)).collect();
    let all = files.iter().filter_map(|f| f.games.as_ref().ok());
    let (games, positions) = all.fold((0, 0), |(g, p), games| {
        (g + games.len(), p + games.iter().map(Prepared::positions).sum::<u64>())
    });
    let mut progress = Progress::new(games, positions);
    let mut sink = Sink { out, format: options.format, svg: options.svg.clone() };
    let mut failed = false;
    for file in &files {
        let games = match &file.games {
            Ok(games) => games,
            Err(e) => {
                progress.say(&format!("chariot analyse: {}: {e}", file.name));
                failed = true;
                continue;
            }
        };
        for prepared in games {
            progress.game();
            let (start, replay) = match &prepared.game {
                Ok(game) => game,
                Err(e) => {
                    progress.say(&format!("chariot analyse: {}: {e}", file.name));
                    failed = true;
                    continue;
                }
            };
            let name = file.name.as_str();
            let review = match start {
                Start::Chess(b) => {
                    let b = b.as_ref();
                    run_game(&mut session, name, prepared, b, replay, options, &mut progress)
                }
                Start::Xiangqi(b) => {
                    let b = b.as_ref();
                    run_game(&mut session, name, prepared, b, replay, options, &mut progress)
                }
            };
            if let Err(e) = sink.write(&review, &file.path) {
                progress.say(&format!("chariot analyse: {e}"));
                return 1;
            }
            let [first, second] = review.sides();
            progress.say(&format!(
                "{} game {}: {}; {}",
                file.name,
                review.number,
                review::summary_text(first, &review.summary[0]),
                review::summary_text(second, &review.summary[1])
            ));
            if let Some(e) = &review.error {
                progress.say(&format!("chariot analyse: {}: {e}", file.name));
                failed = true;
            }
        }
    }
    progress.clear();
    let (done, secs) = progress.totals();
    if games > 1 {
        eprintln!(
            "{games} games, {done} positions in {secs:.1} s, {:.1} positions/s",
            done as f64 / secs.max(1e-3)
        );
    }
    i32::from(failed)
}
