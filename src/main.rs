//! The `chariot` command: the protocol loop, or one of the command-line tools.

mod analyse;

use chariot_engine::engine::Engine;
use chariot_engine::game::Variant;
use chariot_engine::nnue::Networks;
use chariot_engine::protocol::output::Output;
use chariot_engine::protocol::{Protocol, Writer, reader};
use chariot_engine::search::params::Params;
use chariot_engine::session::Session;
use chariot_engine::tools::{bench, datagen, speedtest};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::BufReader;
use std::sync::Arc;

/// Chariot: a chess engine (UCI) and a xiangqi engine (UCCI, or UCI Pikafish-style) in one.
#[derive(Parser)]
#[command(version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    /// The game UCI plays until told otherwise (UCCI always plays xiangqi).
    #[arg(long, value_enum)]
    variant: Option<VariantArg>,
    /// Append every line in and out to this file.
    #[arg(long)]
    log: Option<String>,
    #[command(subcommand)]
    tool: Option<Tool>,
    /// Commands to run in order before exiting (e.g. `ucci "position startpos" "go depth 8"`).
    commands: Vec<String>,
}

#[derive(Copy, Clone, ValueEnum)]
enum VariantArg {
    Chess,
    Xiangqi,
}

/// `datagen --format`: what the file holds.
#[derive(Copy, Clone, ValueEnum)]
enum FormatArg {
    /// 40-byte records of the training positions (`nnue::data`).
    Records,
    /// Whole games, a start and every move with its score, about 6 bytes a training
    /// position (`nnue::games`).
    Games,
}

impl From<FormatArg> for datagen::Format {
    fn from(f: FormatArg) -> datagen::Format {
        match f {
            FormatArg::Records => datagen::Format::Records,
            FormatArg::Games => datagen::Format::Games,
        }
    }
}

impl From<VariantArg> for Variant {
    fn from(v: VariantArg) -> Variant {
        match v {
            VariantArg::Chess => Variant::Chess,
            VariantArg::Xiangqi => Variant::Xiangqi,
        }
    }
}

#[derive(Subcommand)]
enum Tool {
    /// Search fixed positions of both games and print the node count (the search's signature).
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
        depth: u32,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Evaluate with the classic evaluation instead of the embedded networks (to compare
        /// their speed; the node count is another one).
        #[arg(long)]
        classic: bool,
    },
    /// Measure the speed as users run the engine: positions from real games of both games,
    /// all threads, a large hash, a realistic time each (as Stockfish's speedtest).
    Speedtest {
        /// Search threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Hash table size in MB.
        #[arg(long, default_value_t = speedtest::DEFAULT_HASH_MB)]
        hash: usize,
        /// Total search time in seconds.
        #[arg(long, default_value_t = speedtest::DEFAULT_SECONDS)]
        seconds: u64,
    },
    /// Generate training data for the networks: self-play games at a fixed node budget per
    /// move, appended to a file of 40-byte records (see `nnue::data`) or, for a `.games` file,
    /// of whole games (see `nnue::games`).
    Datagen {
        /// The game.
        #[arg(long, value_enum)]
        variant: VariantArg,
        /// The file to append to.
        #[arg(long)]
        out: std::path::PathBuf,
        /// What the file holds (default: games for a `.games` file, else records).
        #[arg(long, value_enum)]
        format: Option<FormatArg>,
        /// Stop after this many games.
        #[arg(long, required_unless_present = "positions")]
        games: Option<u64>,
        /// Stop once this many positions are written.
        #[arg(long)]
        positions: Option<u64>,
        /// Game threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Node budget per move.
        #[arg(long, default_value_t = datagen::DEFAULT_NODES)]
        nodes: u64,
        /// Random plies after the opening (one more in every other game).
        #[arg(long, default_value_t = datagen::DEFAULT_RANDOM_PLIES)]
        random_plies: u32,
        /// Seed of the random openings: the same seed gives the same file.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Start from the positions of this FEN/EPD file instead of the start position.
        #[arg(long)]
        openings: Option<std::path::PathBuf>,
        /// Chess: the share of games (0 to 1) started from a random double-Fischer-random
        /// position (each side a random Chess960 back rank) instead of the opening; 0.1 after
        /// Viridithas, whose first DFRC data gained in standard chess and whose larger share
        /// lost. Xiangqi ignores it.
        #[arg(long, default_value_t = datagen::DEFAULT_DFRC_SHARE, value_parser = share)]
        dfrc_share: f64,
        /// Depth (plies) of the search that verifies each start before it is played.
        #[arg(long, value_name = "PLIES", default_value_t = datagen::DEFAULT_VERIFY_DEPTH)]
        verify_depth: datagen::Plies,
        /// A start whose verification score is beyond this either way is redrawn (chess:
        /// centipawns; xiangqi: UCCI units, a horse is 100).
        #[arg(long, value_name = "CP", default_value_t = datagen::DEFAULT_VERIFY_MAX)]
        verify_max_cp: datagen::ProtocolUnits,
        /// Play with the classic evaluation, not the embedded network (the first generation
        /// of data).
        #[arg(long)]
        classic: bool,
        /// Play with this network file instead of the embedded one (a candidate of the
        /// learning line, `scripts/learn.sh`, once it has beaten the shipped network).
        #[arg(long, value_name = "FILE", conflicts_with = "classic")]
        net: Option<std::path::PathBuf>,
    },
    /// Analyse whole games (chess PGN, xiangqi records): every move's evaluation, the
    /// inaccuracies, mistakes and blunders marked, each side summed up.
    Analyse(analyse::Options),
    /// Count the legal move tree.
    Perft {
        /// The game (default: xiangqi for a 10-rank FEN, else chess).
        #[arg(long, value_enum)]
        variant: Option<VariantArg>,
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Plies.
        depth: u32,
        /// Print the count under each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Train an NNUE network on `datagen` records and write it as a `.nnue` file.
    Train(chariot_train::Options),
    /// Print a game's search parameters (value, unit, range), or OpenBench's SPSA input lines.
    Params {
        /// The game.
        #[arg(long, value_enum, default_value = "chess")]
        variant: VariantArg,
        /// Print OpenBench's SPSA lines (`NAME, int, value, min, max, c_end, r_end`) of the
        /// parameters a tuner may change.
        #[arg(long)]
        spsa: bool,
    },
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    // A forced inference path is checked once, here: a bad name is one line, not a silent
    // fallback (the library ignores it).
    if let Err(e) = chariot_engine::nnue::simd::check_env() {
        eprintln!("chariot: {e}");
        std::process::exit(2);
    }
    // Every tool and the engine evaluate with the networks built in, unless told otherwise.
    let nets = |classic: bool| if classic { Networks::classic() } else { Networks::embedded() };
    match cli.tool {
        Some(Tool::Bench { depth, threads, classic }) => {
            match Session::new(bench::HASH_MB, threads, nets(classic)) {
                Ok(mut session) => {
                    println!("{}", bench::run(&mut session, bench::Limit::Depth(depth), None, None))
                }
                Err(e) => {
                    eprintln!("chariot bench: cannot start the search threads: {e}");
                    std::process::exit(1);
                }
            }
        }
        Some(Tool::Speedtest { threads, hash, seconds }) => {
            let threads = threads.unwrap_or_else(cores);
            let progress = &mut |line: &str| eprintln!("{line}");
            let session = Session::new(1, 1, nets(false))
                .map_err(|e| format!("cannot start the search threads: {e}"))
                .and_then(|like| {
                    speedtest::session(&like, threads, hash).map_err(|e| e.to_string())
                });
            match session {
                Ok(mut session) => {
                    println!("{}", speedtest::run(&mut session, seconds, progress).1)
                }
                Err(e) => {
                    eprintln!("chariot speedtest: {e}");
                    std::process::exit(1);
                }
            }
        }
        Some(Tool::Params { variant, spsa }) => {
            let params = Params::of(Variant::from(variant));
            if spsa {
                print!("{}", chariot_engine::search::params::spsa_lines(params));
            } else {
                print!("{}", chariot_engine::search::params::table(params));
            }
        }
        Some(Tool::Datagen {
            variant,
            out,
            format,
            games,
            positions,
            threads,
            nodes,
            random_plies,
            seed,
            openings,
            dfrc_share,
            verify_depth,
            verify_max_cp,
            classic,
            net,
        }) => {
            let variant = Variant::from(variant);
            let mut played_by = nets(classic);
            if let Some(path) = net {
                match chariot_engine::nnue::load(&path.to_string_lossy()) {
                    Ok(loaded) if loaded.variant == variant => {
                        played_by.set(variant, Some(std::sync::Arc::new(loaded)))
                    }
                    Ok(loaded) => {
                        eprintln!(
                            "chariot datagen: '{}' is a {:?} network, not {variant:?}",
                            path.display(),
                            loaded.variant
                        );
                        std::process::exit(2);
                    }
                    Err(e) => {
                        eprintln!("chariot datagen: {e}");
                        std::process::exit(2);
                    }
                }
            }
            let openings = match openings {
                None => Vec::new(),
                Some(path) => {
                    match std::fs::read_to_string(&path).map_err(|e| e.to_string()).and_then(
                        |text| datagen::read_openings(&text, variant).map_err(|e| e.to_string()),
                    ) {
                        Ok(fens) => fens,
                        Err(e) => {
                            eprintln!("chariot datagen: opening file '{}': {e}", path.display());
                            std::process::exit(2);
                        }
                    }
                }
            };
            let format = format.map_or_else(|| datagen::Format::of_path(&out), Into::into);
            let settings = datagen::Plan {
                variant,
                format,
                out,
                games,
                positions,
                threads: threads.unwrap_or_else(cores),
                nodes: nodes.max(1),
                starts: datagen::Starts {
                    random_plies,
                    openings,
                    dfrc_share,
                    verify_depth,
                    verify_max: verify_max_cp,
                },
                seed,
                nets: played_by,
            };
            let start = std::time::Instant::now();
            let progress = &mut |s: &datagen::Summary, elapsed| {
                eprint!("\r{}", s.line(elapsed));
            };
            match datagen::run(&settings, Some(progress)) {
                Ok(summary) => {
                    eprintln!("\r{}", summary.line(start.elapsed()));
                    if summary.cut > 0 {
                        eprintln!(
                            "datagen: dropped the last {} bytes of '{}', {} (an interrupted run)",
                            summary.cut,
                            settings.out.display(),
                            settings.format.partial()
                        );
                    }
                }
                Err(e) => {
                    eprintln!("chariot datagen: {e}");
                    std::process::exit(1);
                }
            }
        }
        Some(Tool::Perft { variant, fen, depth, divide }) => {
            // Without --variant, the FEN's shape tells the game, as it does in the protocols.
            let variant = variant.map(Variant::from).unwrap_or_else(|| {
                fen.as_deref()
                    .and_then(chariot_engine::engine::board::variant_of_fen)
                    .unwrap_or(Variant::Chess)
            });
            let event = &mut |e: bench::PerftEvent| match e {
                bench::PerftEvent::Divide { text, nodes } => {
                    println!("{text}: {nodes}")
                }
                bench::PerftEvent::Progress { done, of, nodes } => {
                    eprintln!("perft: {done}/{of} root moves, {nodes} nodes so far")
                }
            };
            let fen = fen.as_deref();
            let result = match variant {
                Variant::Chess => {
                    bench::perft::<chariot_engine::chess::Chess>(fen, depth, divide, event)
                }
                Variant::Xiangqi => {
                    bench::perft::<chariot_engine::xiangqi::Xiangqi>(fen, depth, divide, event)
                }
            };
            match result {
                Ok(run) => {
                    if divide {
                        println!();
                    }
                    println!("Nodes searched: {}", run.nodes);
                    println!(
                        "Time: {:.3} s, {:.0} nodes/s",
                        run.seconds,
                        run.nodes as f64 / run.seconds.max(1e-9)
                    );
                }
                Err(e) => {
                    eprintln!("chariot perft: {e}");
                    std::process::exit(2);
                }
            }
        }
        Some(Tool::Analyse(options)) => std::process::exit(analyse::run(&options)),
        Some(Tool::Train(options)) => {
            if let Err(e) = chariot_train::run(&options) {
                eprintln!("chariot train: {e}");
                std::process::exit(1);
            }
        }
        None => run_loop(cli),
    }
}

/// Reads `--dfrc-share`: a number from 0 to 1.
fn share(text: &str) -> Result<f64, String> {
    let share: f64 = text.parse().map_err(|e| format!("{e}"))?;
    datagen::check_share(share).map(|()| share).map_err(|e| e.to_string())
}

/// The number of cores.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// The protocol loop: a reader thread feeds the controller until `quit` or end of input.
fn run_loop(cli: Cli) {
    let output = Output::stdout();
    if let Some(path) = &cli.log
        && let Err(e) = output.set_log(path)
    {
        eprintln!("chariot: cannot open log file '{path}': {e}");
    }
    let out = Arc::new(Writer::new(output));
    let variant = cli.variant.map(Variant::from);
    let (tx, rx) = crossbeam_channel::unbounded();
    let engine = match Engine::new(out.clone(), variant) {
        Ok(engine) => engine,
        Err(e) => {
            eprintln!("chariot: cannot start the search thread: {e}");
            std::process::exit(1);
        }
    };
    let gate = engine.gate();
    let one_shot = !cli.commands.is_empty();
    let spawned = if !one_shot {
        // Commands given as arguments print only their answers; a session gets a banner.
        out.text(reader::BANNER);
        reader::spawn(BufReader::new(std::io::stdin()), tx, out.clone(), gate, None)
    } else {
        // Commands given as arguments imply UCI when they name no protocol, as Stockfish's do.
        let script = cli.commands.join("\n") + "\n";
        let input = std::io::Cursor::new(script.into_bytes());
        reader::spawn(input, tx, out.clone(), gate, Some(Protocol::Uci))
    };
    if let Err(e) = spawned {
        eprintln!("chariot: cannot start the input thread: {e}");
        std::process::exit(1);
    }
    engine.run(rx);
    // A script learns from the status that a command given as an argument was refused.
    if one_shot && out.errors() > 0 {
        std::process::exit(1);
    }
}
