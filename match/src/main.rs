//! `chariot-match`: the command line of Chariot's match runner.

use chariot_engine::game::Variant;
use chariot_match::cli::{parse_engine, parse_tc};
use chariot_match::play::{Adjudication, DEFAULT_FIXED_TIMEOUT_MS, GameConfig, TimeControl};
use chariot_match::runner::{self, DEFAULT_REPORT_EVERY, MatchConfig, load_openings, run};
use chariot_match::spsa;
use chariot_match::stats::{Sprt, Verdict};
use clap::{ArgAction, CommandFactory, FromArgMatches, Parser, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The game to play.
#[derive(Copy, Clone, Debug, ValueEnum)]
enum GameArg {
    /// Western chess (Chess960 too, with --chess960).
    Chess,
    /// Xiangqi.
    Xiangqi,
}

const AFTER_HELP: &str = "\
Engine tokens (after -e; give -e twice):
  name=NAME            name in results and records (default: the program's file name)
  cmd=COMMAND          the program and its arguments, split like a shell
  dir=DIR              working directory
  proto=uci|ucci       protocol (default uci); UCCI engines get the position after the last
                       capture, as UCCI GUIs send it
  notation=iccs|fsf    xiangqi move ranks 0-9 (UCCI, Pikafish, Chariot: default) or 1-10
                       (Fairy-Stockfish in UCI mode)
  tcfactor=F           time odds: this engine's base time and increment times F
  ponder=true|false    ponder as a GUI lets it (go ponder, ponderhit, stop); default false
  option.NAME=VALUE    an engine option, set after the handshake (repeatable)

Every crash, hang, illegal move, time forfeit and `bestmove (none)` loses that game with its
reason; the match goes on. Statistics are the first engine's: Elo and normalized Elo from the
game pairs (each opening is played twice, colours swapped), as fastchess computes them; the
SPRT is fastchess's and fishtest's GSPRT on the pair counts, its bounds in normalized Elo.

Examples:
  # chess: new build against old build, SPRT [0, 10] normalized Elo
  chariot-match --game chess --tc 5+0.05 --games 20000 --concurrency 2 --affinity \\
      --sprt 0 10 --pgn games.pgn --state sprt.state \\
      -e name=new cmd=./target/release/chariot -e name=old cmd=../old/chariot
  # xiangqi: Chariot over UCCI against Fairy-Stockfish in UCI mode
  chariot-match --game xiangqi --tc 10+0.1 --games 200 --concurrency 2 \\
      -e name=chariot cmd=./target/release/chariot proto=ucci \\
      -e name=fsf cmd=/usr/games/fairy-stockfish proto=uci notation=fsf";

/// Chariot's match runner: chess and xiangqi engines over UCI and UCCI, refereed by
/// Chariot's own rules, with fastchess's statistics and pentanomial SPRT.
#[derive(Parser, Debug)]
#[command(name = "chariot-match", version, after_help = AFTER_HELP)]
struct Args {
    /// An engine: key=value tokens (see below). Give exactly two.
    #[arg(short = 'e', long = "engine", num_args = 1.., action = ArgAction::Append,
          value_name = "KEY=VALUE", required_unless_present = "pool")]
    engine: Vec<String>,

    /// The game.
    #[arg(long, value_enum, required_unless_present = "pool")]
    game: Option<GameArg>,

    /// Chess960: castling as king takes rook, UCI_Chess960 set where offered.
    #[arg(long)]
    chess960: bool,

    /// Time control in seconds: base+increment (10+0.1) or moves/base+increment (40/60+0).
    #[arg(long, group = "limit")]
    tc: Option<String>,

    /// A fixed time per move, milliseconds.
    #[arg(long, group = "limit")]
    movetime: Option<u64>,

    /// A fixed node count per move.
    #[arg(long, group = "limit")]
    nodes: Option<u64>,

    /// A fixed depth per move.
    #[arg(long, group = "limit")]
    depth: Option<u32>,

    /// Clock tolerance before a time forfeit, milliseconds.
    #[arg(long, default_value_t = 100)]
    margin: u64,

    /// Under --nodes or --depth: how long a move may take before the engine counts as hung,
    /// milliseconds.
    #[arg(long, default_value_t = DEFAULT_FIXED_TIMEOUT_MS)]
    fixed_timeout: u64,

    /// Games to play (rounded up to whole pairs).
    #[arg(long, default_value_t = 100)]
    games: usize,

    /// EPD/FEN file of openings, one position a line (default: $CHARIOT_OPENINGS, a file or a
    /// directory holding <game>.epd, as the scripts take it; else the standard start position).
    #[arg(long)]
    openings: Option<PathBuf>,

    /// Opening shuffle seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,

    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,

    /// Pin each game's two engines to one CPU (game slot i to CPU i), with taskset.
    #[arg(long)]
    affinity: bool,

    /// Stop as soon as the GSPRT of normalized Elo ELO0 against ELO1 decides.
    #[arg(long, num_args = 2, value_names = ["ELO0", "ELO1"], allow_negative_numbers = true)]
    sprt: Option<Vec<f64>>,

    /// SPRT false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,

    /// SPRT false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,

    /// A game this many plies long is adjudicated a draw (0: never).
    #[arg(long, default_value_t = 400)]
    maxplies: usize,

    /// Adjudicate a loss when both engines' scores agree on at least this many centipawns
    /// against one side for --resign-moves moves each.
    #[arg(long)]
    resign: Option<i32>,

    /// Moves each for resign adjudication.
    #[arg(long, default_value_t = 4)]
    resign_moves: usize,

    /// Adjudicate a draw when both engines report |score| at most this many centipawns for
    /// --draw-moves moves each, after --draw-after plies.
    #[arg(long)]
    draw: Option<i32>,

    /// Moves each for draw adjudication.
    #[arg(long, default_value_t = 8)]
    draw_moves: usize,

    /// Plies before draw adjudication may start.
    #[arg(long, default_value_t = 80)]
    draw_after: usize,

    /// Chess: adjudicate positions of at most --syzygy-pieces pieces by the Syzygy
    /// tablebases in these folders (joined by ':'), right after each capture or pawn move.
    #[arg(long, value_name = "PATH")]
    syzygy: Option<String>,

    /// The most pieces a position may have to be adjudicated by the tablebases (default: all
    /// that the tables hold).
    #[arg(long, value_name = "N")]
    syzygy_pieces: Option<u32>,

    /// Xiangqi's natural move limit: plies without a capture before a draw (0: none).
    #[arg(long, default_value_t = chariot_engine::xiangqi::rules::DEFAULT_MOVE_LIMIT)]
    move_limit: u32,

    /// Append every game's record here: PGN for chess, PGN-like ICCS text for xiangqi.
    #[arg(long)]
    pgn: Option<PathBuf>,

    /// Write each engine instance's input and output to its own file in this directory
    /// (<name>.<engine>.<slot>.log).
    #[arg(long)]
    log_dir: Option<PathBuf>,

    /// Record finished games here and resume from it: a stopped match (or SPRT) started
    /// again with the same file, seed, openings, games and engine names carries on.
    #[arg(long)]
    state: Option<PathBuf>,

    /// Print each game's result as it finishes.
    #[arg(long)]
    verbose: bool,

    /// Print the progress line every this many games.
    #[arg(long, default_value_t = DEFAULT_REPORT_EVERY)]
    report_every: usize,

    /// The event name in records.
    #[arg(long, default_value = "chariot-match")]
    event: String,

    /// Tune by SPSA instead of playing a match: parameter lines `NAME, int|float, value,
    /// min, max, c_end, r_end` (as `chariot params --spsa` prints them), set as engine
    /// options; the first engine plays both sides. --state keeps the values to resume.
    #[arg(long, value_name = "FILE")]
    spsa: Option<PathBuf>,

    /// SPSA iterations (game pairs) the schedule is planned for and run to.
    #[arg(long, default_value_t = 1000)]
    spsa_iterations: u64,

    /// Play nothing: count the games of several runs of one match (their --state files)
    /// together and print the pooled result (with --sprt, its LLR). Each run's pairs stay its
    /// own, so runs with different --seed values pool soundly.
    #[arg(long, num_args = 1.., value_name = "STATE", conflicts_with_all = ["engine", "game", "spsa"])]
    pool: Option<Vec<PathBuf>>,
}

/// The default openings file: `CHARIOT_OPENINGS`, a file or a directory holding
/// `<game>.epd`, as the repository's scripts take it.
fn default_openings(variant: Variant) -> Option<PathBuf> {
    let named = PathBuf::from(std::env::var_os("CHARIOT_OPENINGS")?);
    let path = if named.is_dir() { named.join(format!("{}.epd", variant.name())) } else { named };
    path.exists().then_some(path)
}

/// `engines` holds each `-e`'s tokens (clap's derive cannot group them by occurrence).
fn config(args: &Args, engines: &[Vec<String>]) -> Result<MatchConfig, String> {
    // SPSA plays the first engine against itself; a second one may be given and is ignored.
    let wanted = if args.spsa.is_some() { 1..=2 } else { 2..=2 };
    if !wanted.contains(&engines.len()) {
        return Err(format!("give exactly two engines (got {})", engines.len()));
    }
    let mut specs = Vec::new();
    for tokens in engines {
        specs.push(parse_engine(tokens).map_err(|e| e.to_string())?);
    }
    if specs.len() == 2 && specs[0].name == specs[1].name {
        specs[1].name.push_str("-2");
    }
    let variant = match args.game.ok_or("give --game")? {
        GameArg::Chess => Variant::Chess,
        GameArg::Xiangqi => Variant::Xiangqi,
    };
    let tc = match (&args.tc, args.movetime, args.nodes, args.depth) {
        (Some(tc), ..) => parse_tc(tc).map_err(|e| e.to_string())?,
        (_, Some(ms), ..) => TimeControl::MoveTime(ms),
        (_, _, Some(n), _) => TimeControl::Nodes(n),
        (_, _, _, Some(d)) => TimeControl::Depth(d),
        _ => return Err("give a limit: --tc, --movetime, --nodes or --depth".into()),
    };
    let sprt = match &args.sprt {
        Some(b) if b.len() == 2 => {
            Some(Sprt::new(b[0], b[1], args.alpha, args.beta).map_err(|e| e.to_string())?)
        }
        Some(_) => return Err("--sprt takes two values".into()),
        None => None,
    };
    let openings = match args.openings.clone().or_else(|| default_openings(variant)) {
        Some(path) if variant == Variant::Xiangqi && runner::is_pgn(&path) => {
            return Err(format!(
                "{}: PGN openings are chess games; xiangqi takes EPD or FEN",
                path.display()
            ));
        }
        Some(path) => load_openings(&path).map_err(|e| e.to_string())?,
        None => vec![match variant {
            Variant::Chess => chariot_engine::chess::START_FEN.to_string(),
            Variant::Xiangqi => chariot_engine::xiangqi::START_FEN.to_string(),
        }],
    };
    if args.concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    let tablebases = match &args.syzygy {
        None => None,
        Some(_) if variant != Variant::Chess => {
            return Err("--syzygy: tablebases are for chess only".into());
        }
        Some(path) => match chariot_engine::chess::tb::load(path) {
            Ok(Some(found)) => {
                eprintln!(
                    "chariot-match: {} Syzygy tables (up to {} pieces) from {path}",
                    found.files(),
                    found.largest
                );
                Some(args.syzygy_pieces.unwrap_or(found.largest))
            }
            Ok(None) => return Err(format!("--syzygy {path}: no tablebase files there")),
            Err(e) => return Err(format!("--syzygy: {e}")),
        },
    };
    // Pinning goes through taskset: without it every game would be lost at its start.
    if args.affinity
        && !std::process::Command::new("taskset")
            .arg("--version")
            .stdout(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    {
        return Err("--affinity needs taskset (util-linux) on the PATH".into());
    }
    if let Some(dir) = &args.log_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    if specs.len() == 1 {
        let mut second = specs[0].clone();
        second.name.push_str("-2");
        specs.push(second);
    }
    let [a, b]: [_; 2] = specs.try_into().map_err(|_| "two engines".to_string())?;
    Ok(MatchConfig {
        variant,
        engines: [Arc::new(a), Arc::new(b)],
        game: GameConfig {
            tc,
            margin_ms: args.margin,
            fixed_timeout_ms: args.fixed_timeout,
            adjudication: Adjudication {
                resign: args.resign.map(|cp| (cp, args.resign_moves)),
                draw: args.draw.map(|cp| (cp, args.draw_moves, args.draw_after)),
                max_plies: (args.maxplies > 0).then_some(args.maxplies),
                tablebases,
            },
            chess960: args.chess960,
            move_limit: args.move_limit,
        },
        openings,
        seed: args.seed,
        games: args.games,
        concurrency: args.concurrency,
        affinity: args.affinity,
        sprt,
        pgn: args.pgn.clone(),
        log_dir: args.log_dir.clone(),
        state: args.state.clone(),
        verbose: args.verbose,
        report_every: args.report_every,
        event: args.event.clone(),
    })
}

fn main() -> ExitCode {
    env_logger::init();
    let matches = Args::command().get_matches();
    let args = match Args::from_arg_matches(&matches) {
        Ok(a) => a,
        Err(e) => e.exit(),
    };
    if let Some(paths) = &args.pool {
        return pool(paths, &args);
    }
    let engines: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|o| o.map(|tokens| tokens.cloned().collect()).collect())
        .unwrap_or_default();
    let cfg = match config(&args, &engines) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("chariot-match: {e}");
            return ExitCode::from(2);
        }
    };
    let abort = Arc::new(AtomicBool::new(false));
    chariot_match::signal::install(Arc::clone(&abort));
    if let Some(path) = &args.spsa {
        return tune(&cfg, path, args.spsa_iterations, &abort);
    }
    let summary = match run(&cfg, &abort) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("chariot-match: {e}");
            return ExitCode::FAILURE;
        }
    };
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    println!();
    print!("{}", summary.tally.summary(names, cfg.sprt.as_ref()));
    let games = summary.tally.games();
    let hours = summary.seconds / 3600.0;
    let rate = if hours > 0.0 { games as f64 / hours } else { 0.0 };
    println!("{games} games in {:.0} s ({rate:.0} games/hour)", summary.seconds);
    let played: f64 = summary.records.iter().map(|(_, r)| r.seconds).sum();
    let thinking: f64 = summary.records.iter().map(|(_, r)| r.thinking).sum();
    let plies: usize = summary.records.iter().map(|(_, r)| r.moves.len()).sum();
    if played > 0.0 && plies > 0 {
        // What is not thinking is the runner's share, the most a faster runner could win back.
        println!(
            "{plies} plies in {played:.0} s of games: engines thinking {:.1}%, {:.2} ms a ply besides",
            100.0 * thinking / played,
            1000.0 * (played - thinking) / plies as f64
        );
    }
    match summary.verdict {
        Some(Verdict::H1) | Some(Verdict::H0) => println!("SPRT stopped the match"),
        _ if summary.stopped => println!("Stopped before the last game"),
        _ => {}
    }
    ExitCode::SUCCESS
}

/// `--pool`: the runs' games counted together.
fn pool(paths: &[PathBuf], args: &Args) -> ExitCode {
    let sprt = match args.sprt.as_deref() {
        Some([elo0, elo1]) => match Sprt::new(*elo0, *elo1, args.alpha, args.beta) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("chariot-match: {e}");
                return ExitCode::from(2);
            }
        },
        _ => None,
    };
    let (tally, ids) = match runner::pool(paths) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("chariot-match: {e}");
            return ExitCode::FAILURE;
        }
    };
    for (path, id) in paths.iter().zip(&ids) {
        println!("{}: {id}", path.display());
    }
    let seeds: Vec<&str> = ids.iter().filter_map(|id| id.split_whitespace().nth(1)).collect();
    if (1..seeds.len()).any(|i| seeds[..i].contains(&seeds[i])) {
        eprintln!(
            "warning: two runs share a seed: they played the same openings in the same order"
        );
    }
    // The engine names are the identity's last two words (names with spaces show whole).
    let engines = ids[0].split_once(" engines ").map_or("", |(_, e)| e);
    let names: Vec<&str> = engines.split_whitespace().collect();
    let names = if names.len() == 2 { [names[0], names[1]] } else { [engines, "opponent"] };
    println!();
    print!("{}", tally.summary(names, sprt.as_ref()));
    ExitCode::SUCCESS
}

/// `--spsa`: tunes the parameters in `path` with the match's settings.
fn tune(
    cfg: &MatchConfig,
    path: &std::path::Path,
    iterations: u64,
    abort: &Arc<AtomicBool>,
) -> ExitCode {
    let params = match std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|t| spsa::parse_params(&t).map_err(|e| e.to_string()))
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("chariot-match: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    let scfg = spsa::SpsaConfig {
        variant: cfg.variant,
        engine: Arc::clone(&cfg.engines[0]),
        game: cfg.game.clone(),
        openings: cfg.openings.clone(),
        seed: cfg.seed,
        iterations,
        concurrency: cfg.concurrency,
        affinity: cfg.affinity,
        state: cfg.state.clone(),
        report_every: cfg.report_every as u64,
    };
    match spsa::run(&scfg, params, abort) {
        Ok(values) => {
            println!("Values (NAME, value, start):");
            for p in &values {
                let v = if p.is_int {
                    format!("{}", p.value.round() as i64)
                } else {
                    format!("{:.4}", p.value)
                };
                println!("{}, {v}, {}", p.name, p.start);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("chariot-match: {e}");
            ExitCode::FAILURE
        }
    }
}
