//! The match: openings, the schedule of game pairs, worker threads that each keep their own
//! two engine processes, and the main thread that counts, reports, records and stops.

use crate::engine::{Engine, EngineSpec};
use crate::pgn::{self, Header};
use crate::play::{GameConfig, GameRecord, PlayError, TimeControl, play_game};
use crate::referee::GameResult;
use crate::stats::{Outcome, Sprt, Verdict};
use crate::tally::Tally;
use chariot_engine::chess::Chess;
use chariot_engine::game::Variant;
use chariot_engine::rng::SplitMix;
use chariot_engine::xiangqi::Xiangqi;
use crossbeam_channel::unbounded;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// How often the full progress line is printed, in games, unless the match sets another.
pub const DEFAULT_REPORT_EVERY: usize = 10;

/// Why a match could not run.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The openings file could not be read or holds no position.
    #[error("openings '{path}': {why}")]
    Openings {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// An engine could not be started at all (a wrong path, say): a set-up error, not a
    /// game result.
    #[error("engine {name} does not start: {why}")]
    EngineStart {
        /// The engine.
        name: String,
        /// Why.
        why: String,
    },
    /// A file the match writes could not be opened or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The state file does not belong to this match or cannot be read.
    #[error("state file {path}: {why}")]
    State {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// A whole match's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game.
    pub variant: Variant,
    /// The two engines; the statistics are the first one's.
    pub engines: [Arc<EngineSpec>; 2],
    /// Per-game settings.
    pub game: GameConfig,
    /// The opening positions, in file order (shuffled by the runner).
    pub openings: Vec<String>,
    /// The shuffle seed.
    pub seed: u64,
    /// Games to play (rounded up to whole pairs).
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Pin each game's engines to one CPU (worker i to CPU i modulo the CPUs).
    pub affinity: bool,
    /// Stop early by this test.
    pub sprt: Option<Sprt>,
    /// Append every game's record here.
    pub pgn: Option<PathBuf>,
    /// Write each engine instance's input and output to its own file here.
    pub log_dir: Option<PathBuf>,
    /// Keep the finished games here, to resume a stopped match.
    pub state: Option<PathBuf>,
    /// Print each game's result line.
    pub verbose: bool,
    /// Print the progress line every this many games.
    pub report_every: usize,
    /// The event name in records.
    pub event: String,
}

/// What a match ended with.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The score.
    pub tally: Tally,
    /// The SPRT's conclusion, if one ran.
    pub verdict: Option<Verdict>,
    /// Whether the match stopped before its last game (Ctrl-C or the SPRT).
    pub stopped: bool,
    /// Wall time.
    pub seconds: f64,
    /// Every game's record, in the order they finished.
    pub records: Vec<(usize, GameRecord)>,
}

/// True when `path` names a PGN file (`.pgn`): chess openings as games, not positions.
pub fn is_pgn(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

/// Reads positions from an EPD or FEN file: one a line, `#` comments and blank lines
/// skipped; EPD operations (after the fourth field, or after `;`) dropped, with the clocks
/// `0 1` supplied when the line has none. A PGN file (chess) gives the position at the end of
/// each game's main line.
pub fn load_openings(path: &Path) -> Result<Vec<String>, MatchError> {
    let err = |why: String| MatchError::Openings { path: path.to_path_buf(), why };
    let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
    if is_pgn(path) {
        let fens = pgn::opening_positions(&text).map_err(err)?;
        return if fens.is_empty() { Err(err("no games".into())) } else { Ok(fens) };
    }
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(';').next().unwrap_or("").split_whitespace().collect();
        if fields.len() < 4 {
            return Err(err(format!("not a position: {line}")));
        }
        let clocks = fields.len() >= 6
            && fields[4].bytes().all(|b| b.is_ascii_digit())
            && fields[5].bytes().all(|b| b.is_ascii_digit());
        let fen =
            if clocks { fields[..6].join(" ") } else { format!("{} 0 1", fields[..4].join(" ")) };
        out.push(fen);
    }
    if out.is_empty() {
        return Err(err("no positions".into()));
    }
    Ok(out)
}

/// Shuffles `items` in place (Fisher-Yates) with the engine's SplitMix64: the same seed gives
/// the same order on every machine.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = SplitMix::new(seed);
    for i in (1..items.len()).rev() {
        let j = rng.below(i + 1);
        items.swap(i, j);
    }
}

/// The first engine's outcome in game `index` from the white-side result: the first engine
/// has white in even games and black in odd ones.
pub fn outcome_of(index: usize, result: GameResult) -> Outcome {
    let first_is_white = index.is_multiple_of(2);
    match (result, first_is_white) {
        (GameResult::Draw, _) => Outcome::Draw,
        (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => Outcome::Win,
        _ => Outcome::Loss,
    }
}

/// The time control as PGN's `TimeControl` tag writes it.
fn tc_tag(tc: &TimeControl) -> String {
    let secs = |ms: u64| {
        let s = ms as f64 / 1000.0;
        if ms.is_multiple_of(1000) { format!("{}", ms / 1000) } else { format!("{s}") }
    };
    match *tc {
        TimeControl::Clock { base_ms, inc_ms, moves_to_go } => {
            let head = moves_to_go.map(|n| format!("{n}/")).unwrap_or_default();
            if inc_ms > 0 {
                format!("{head}{}+{}", secs(base_ms), secs(inc_ms))
            } else {
                format!("{head}{}", secs(base_ms))
            }
        }
        TimeControl::MoveTime(ms) => format!("{}/move", secs(ms)),
        TimeControl::Nodes(_) | TimeControl::Depth(_) => "-".into(),
    }
}

/// Today's date as PGN writes it (UTC), from the system clock.
fn pgn_date() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// The state file: the match's identity and every finished game's outcome.
mod state {
    use super::*;

    /// The identity a state file must match: what decides which game is which.
    pub fn identity(cfg: &MatchConfig) -> String {
        format!(
            "seed {} games {} openings {} engines {} {}",
            cfg.seed,
            cfg.games,
            cfg.openings.len(),
            cfg.engines[0].name,
            cfg.engines[1].name
        )
    }

    /// A finished game: its index, the first engine's outcome, the side that faulted.
    pub type Game = (usize, Outcome, Option<usize>);

    /// Reads the finished games of this match, if the file exists and is this match's.
    pub fn load(path: &Path, cfg: &MatchConfig) -> Result<Vec<Game>, MatchError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(MatchError::State { path: path.to_path_buf(), why: e.to_string() });
            }
        };
        let want = identity(cfg);
        let (id, games) = parse(path, &text)?;
        match id {
            Some(id) if id != want => Err(MatchError::State {
                path: path.to_path_buf(),
                why: format!("belongs to another match ('{id}', this is '{want}')"),
            }),
            _ => Ok(games.into_iter().filter(|g| g.0 < cfg.games.div_ceil(2) * 2).collect()),
        }
    }

    /// The identity line (`None` for an empty file) and the (index, outcome, fault side)
    /// lines after it.
    pub fn parse(path: &Path, text: &str) -> Result<(Option<String>, Vec<Game>), MatchError> {
        let err = |why: String| MatchError::State { path: path.to_path_buf(), why };
        let mut lines = text.lines();
        let Some(id) = lines.next() else { return Ok((None, Vec::new())) };
        let mut out = Vec::new();
        for line in lines {
            let w: Vec<&str> = line.split_whitespace().collect();
            let (Some(i), Some(o)) = (w.first().and_then(|i| i.parse::<usize>().ok()), w.get(1))
            else {
                return Err(err(format!("bad line '{line}'")));
            };
            let outcome = match *o {
                "W" => Outcome::Win,
                "D" => Outcome::Draw,
                "L" => Outcome::Loss,
                _ => return Err(err(format!("bad outcome in '{line}'"))),
            };
            let fault = w.get(2).and_then(|f| f.parse::<usize>().ok()).filter(|&f| f < 2);
            out.push((i, outcome, fault));
        }
        Ok((Some(id.to_string()), out))
    }

    /// Starts a fresh file (the identity line) or keeps an existing one.
    pub fn open(path: &Path, cfg: &MatchConfig, fresh: bool) -> Result<File, MatchError> {
        let io = |source| MatchError::Io { path: path.to_path_buf(), source };
        if fresh {
            let mut f = File::create(path).map_err(io)?;
            writeln!(f, "{}", identity(cfg)).map_err(io)?;
            Ok(f)
        } else {
            File::options().append(true).open(path).map_err(io)
        }
    }
}

/// The runs of one match pooled: every state file's games counted together, each file's
/// pairs its own (a pair is the two games of one opening within one run), so that the
/// pentanomial counts are the runs' sums. The runs must be between the same two engine names;
/// returns the pooled score and the identity line of each file.
pub fn pool(paths: &[PathBuf]) -> Result<(Tally, Vec<String>), MatchError> {
    let mut total = Tally::default();
    let mut ids = Vec::new();
    for path in paths {
        let err = |why: String| MatchError::State { path: path.clone(), why };
        let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
        let (Some(id), games) = state::parse(path, &text)? else {
            return Err(err("empty".into()));
        };
        let engines = |id: &str| id.split_once(" engines ").map(|(_, e)| e.to_string());
        let Some(these) = engines(&id) else {
            return Err(err(format!("not a state file (first line '{id}')")));
        };
        if let Some(first) = ids.first().and_then(|f: &String| engines(f))
            && first != these
        {
            return Err(err(format!("engines '{these}', the first file's are '{first}'")));
        }
        let mut run = Tally::default();
        let mut seen = std::collections::HashSet::new();
        for (index, outcome, fault) in games {
            // A game written twice (a resumed run) is counted once, as resuming counts it.
            if seen.insert(index) {
                run.add(index, outcome);
                if let Some(f) = fault {
                    run.faults[f] += 1;
                }
            }
        }
        total.merge(&run);
        ids.push(id);
    }
    Ok((total, ids))
}

/// A finished game as a worker reports it.
enum Report {
    Game(usize, Box<GameRecord>),
    Error(String),
}

/// Plays the match; `abort` set (Ctrl-C) stops it after the games in progress are given up.
pub fn run(cfg: &MatchConfig, abort: &Arc<AtomicBool>) -> Result<Summary, MatchError> {
    let started = Instant::now();
    let epoch = started;
    let mut openings = cfg.openings.clone();
    shuffle(&mut openings, cfg.seed);
    let total = cfg.games.div_ceil(2) * 2;

    // Resume: the games already played are counted and not played again.
    let mut tally = Tally::default();
    let mut done = vec![false; total];
    let mut state_file = None;
    if let Some(path) = &cfg.state {
        let previous = state::load(path, cfg)?;
        for &(i, outcome, fault) in &previous {
            if !done[i] {
                done[i] = true;
                tally.add(i, outcome);
                if let Some(f) = fault {
                    tally.faults[f] += 1;
                }
            }
        }
        if !previous.is_empty() {
            println!("Resuming from {}: {} games already played", path.display(), tally.games());
        }
        state_file = Some(state::open(path, cfg, previous.is_empty())?);
    }
    let jobs: Arc<Vec<usize>> = Arc::new((0..total).filter(|&i| !done[i]).collect());

    // An engine that cannot start at all is a set-up error: find out before any game.
    for spec in &cfg.engines {
        let mut probe = Engine::new(
            Arc::clone(spec),
            cfg.variant,
            cfg.game.chess960,
            None,
            epoch,
            Arc::clone(abort),
        )
        .map_err(|source| MatchError::Io { path: spec.log.clone().unwrap_or_default(), source })?;
        probe
            .start()
            .map_err(|e| MatchError::EngineStart { name: spec.name.clone(), why: e.to_string() })?;
        probe.quit();
    }

    let mut pgn_file = match &cfg.pgn {
        Some(path) => Some(
            File::options()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|source| MatchError::Io { path: path.clone(), source })?,
        ),
        None => None,
    };
    let header = Header {
        event: cfg.event.clone(),
        round: String::new(),
        date: pgn_date(),
        time_control: tc_tag(&cfg.game.tc),
        chess960: cfg.game.chess960,
    };
    let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let next = Arc::new(AtomicUsize::new(0));
    // Set when the match is over for the workers: the SPRT has decided, or Ctrl-C.
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = unbounded::<Report>();
    let openings = Arc::new(openings);
    let mut handles = Vec::new();
    for worker in 0..cfg.concurrency.max(1).min(jobs.len().max(1)) {
        let (jobs, next, stop, tx, openings) = (
            Arc::clone(&jobs),
            Arc::clone(&next),
            Arc::clone(&stop),
            tx.clone(),
            Arc::clone(&openings),
        );
        let cfg = cfg.clone();
        let abort = Arc::clone(abort);
        let cpu = cfg.affinity.then_some(worker % cpus);
        handles.push(std::thread::spawn(move || {
            let make = |i: usize| {
                let mut spec = (*cfg.engines[i]).clone();
                if let Some(dir) = &cfg.log_dir {
                    spec.log = Some(dir.join(format!("{}.{}.{worker}.log", spec.name, i)));
                }
                Engine::new(
                    Arc::new(spec),
                    cfg.variant,
                    cfg.game.chess960,
                    cpu,
                    epoch,
                    Arc::clone(&abort),
                )
            };
            let (mut a, mut b) = match (make(0), make(1)) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(e), _) | (_, Err(e)) => {
                    let _ = tx.send(Report::Error(format!("cannot open an engine log: {e}")));
                    return;
                }
            };
            loop {
                if stop.load(Ordering::Relaxed) || abort.load(Ordering::Relaxed) {
                    break;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&index) = jobs.get(k) else { break };
                let opening = &openings[(index / 2) % openings.len()];
                let engines =
                    if index.is_multiple_of(2) { [&mut a, &mut b] } else { [&mut b, &mut a] };
                let played = match cfg.variant {
                    Variant::Chess => play_game::<Chess>(engines, opening, &cfg.game),
                    Variant::Xiangqi => play_game::<Xiangqi>(engines, opening, &cfg.game),
                };
                match played {
                    Ok(record) => {
                        if tx.send(Report::Game(index, Box::new(record))).is_err() {
                            break;
                        }
                    }
                    Err(PlayError::Aborted) => break,
                    Err(e) => {
                        let _ = tx.send(Report::Error(format!("game {index}: {e}")));
                    }
                }
            }
            a.quit();
            b.quit();
        }));
    }
    drop(tx);

    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    let mut records = Vec::new();
    let mut verdict = None;
    let mut counted = 0usize;
    for report in rx.iter() {
        let (index, record) = match report {
            Report::Game(i, r) => (i, r),
            Report::Error(e) => {
                eprintln!("warning: {e}");
                continue;
            }
        };
        // Games finishing after the SPRT decided are not counted: the verdict stands.
        if stop.load(Ordering::Relaxed) {
            continue;
        }
        let outcome = outcome_of(index, record.result);
        tally.add(index, outcome);
        tally.by_colour[match record.result {
            GameResult::WhiteWins => 0,
            GameResult::BlackWins => 1,
            GameResult::Draw => 2,
        }] += 1;
        // A fault is the loser's: the first engine lost a faulted game when it lost.
        let fault_side = record.fault.then_some(if outcome == Outcome::Loss { 0 } else { 1 });
        if let Some(f) = fault_side {
            tally.faults[f] += 1;
        }
        tally.ponder.add(&record.ponder);
        counted += 1;
        if let Some(f) = state_file.as_mut() {
            let o = match outcome {
                Outcome::Win => "W",
                Outcome::Draw => "D",
                Outcome::Loss => "L",
            };
            let fault = fault_side.map(|f| format!(" {f}")).unwrap_or_default();
            if let Err(e) = writeln!(f, "{index} {o}{fault}") {
                eprintln!("warning: cannot write the state file: {e}");
            }
        }
        if let Some(f) = pgn_file.as_mut() {
            let h =
                Header { round: format!("{}.{}", index / 2 + 1, index % 2 + 1), ..header.clone() };
            if let Err(e) = f.write_all(pgn::write(&record, &h).as_bytes()) {
                eprintln!("warning: cannot write the PGN: {e}");
            }
        }
        if cfg.verbose {
            println!(
                "Finished game {} ({} vs {}): {} {{{}}}",
                index + 1,
                record.white,
                record.black,
                record.result.pgn(),
                record.reason
            );
        }
        if counted.is_multiple_of(cfg.report_every.max(1)) {
            println!("{}", tally.progress(cfg.sprt.as_ref()));
        }
        records.push((index, *record));
        if let Some(sprt) = &cfg.sprt {
            let v = sprt.verdict(sprt.llr(&tally.penta));
            verdict = Some(v);
            if v != Verdict::Continue {
                stop.store(true, Ordering::Relaxed);
                // The games in progress no longer matter: give them up now.
                abort.store(true, Ordering::Relaxed);
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    let finished = tally.games() as usize >= total;
    if let Some(sprt) = &cfg.sprt {
        verdict = Some(sprt.verdict(sprt.llr(&tally.penta)));
    }
    let _ = names;
    Ok(Summary {
        tally,
        verdict,
        stopped: !finished,
        seconds: started.elapsed().as_secs_f64(),
        records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffles_are_reproducible() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        let mut c: Vec<u32> = (0..50).collect();
        shuffle(&mut c, 8);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn openings_read_epd_and_fen() {
        let dir =
            std::env::temp_dir().join(format!("chariot-match-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("o.epd");
        std::fs::write(
            &path,
            "# comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; id \"x\";\n\n\
             rnbakabnr/9/9/p1p1p1p1p/c8/2P3P2/Pc2P3P/6CC1/9/RNBAKABNR w - - 6 4\n",
        )
        .expect("write");
        let o = load_openings(&path).expect("openings");
        assert_eq!(o[0], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
        assert_eq!(o[1], "rnbakabnr/9/9/p1p1p1p1p/c8/2P3P2/Pc2P3P/6CC1/9/RNBAKABNR w - - 6 4");
        std::fs::write(&path, "# nothing\n").expect("write");
        assert!(load_openings(&path).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn runs_pool_by_their_own_pairs() {
        let dir = std::env::temp_dir().join(format!("chariot-match-pool-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let (a, b, c) = (dir.join("a.state"), dir.join("b.state"), dir.join("c.state"));
        // Run a: pair 0 won twice, pair 1 a win and a loss (game 3 written twice, as a
        // resumed run may), game 4 of an open pair. Run b: its pair 0 drawn twice, and a
        // fault by the second engine.
        std::fs::write(
            &a,
            "seed 1 games 6 openings 9 engines new old\n0 W\n1 W\n2 W\n3 L\n3 L\n4 D\n",
        )
        .expect("write");
        std::fs::write(&b, "seed 2 games 6 openings 9 engines new old\n1 D\n0 D 1\n")
            .expect("write");
        std::fs::write(&c, "seed 3 games 6 openings 9 engines new other\n0 W\n").expect("write");
        let (t, ids) = pool(&[a.clone(), b.clone()]).expect("pooled");
        assert_eq!(ids.len(), 2);
        assert_eq!((t.wdl.wins, t.wdl.losses, t.wdl.draws), (3, 1, 3));
        assert_eq!((t.penta.ww, t.penta.wl, t.penta.dd, t.penta.pairs()), (1, 1, 1, 3));
        assert_eq!(t.faults, [0, 1]);
        // Pairing across runs would be wrong: run b's game 1 does not close run a's pair 0.
        let summary = t.summary(["new", "old"], Sprt::new(0.0, 10.0, 0.05, 0.05).ok().as_ref());
        assert!(summary.contains("Ptnml(0-2): [0, 0, 2, 0, 1]"), "{summary}");
        assert!(summary.contains("LLR"), "{summary}");
        // Runs of other engines do not pool.
        assert!(pool(&[a, c]).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn outcomes_follow_the_colours() {
        assert_eq!(outcome_of(0, GameResult::WhiteWins), Outcome::Win);
        assert_eq!(outcome_of(1, GameResult::WhiteWins), Outcome::Loss);
        assert_eq!(outcome_of(1, GameResult::BlackWins), Outcome::Win);
        assert_eq!(outcome_of(3, GameResult::Draw), Outcome::Draw);
    }

    #[test]
    fn dates_and_time_controls() {
        let d = pgn_date();
        assert_eq!(d.len(), 10, "{d}");
        assert!(d.starts_with("20"), "{d}");
        let tc = TimeControl::Clock { base_ms: 10_000, inc_ms: 100, moves_to_go: None };
        assert_eq!(tc_tag(&tc), "10+0.1");
        let tc = TimeControl::Clock { base_ms: 60_000, inc_ms: 0, moves_to_go: Some(40) };
        assert_eq!(tc_tag(&tc), "40/60");
    }
}
