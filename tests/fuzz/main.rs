//! Fuzz targets for every text parser, on stable Rust: chess and xiangqi FEN, move text, a UCI
//! line, a UCCI line, `setoption` values, game records (`chariot analyse`), the compact training
//! format (`.games`), and whole sessions through the controller.
//!
//! Each target is a test that generates inputs from a seed (grammar-aware generation and
//! mutation of valid seeds, see `fuzz/input.rs`), checks properties on each, and runs for
//! `CHARIOT_FUZZ_SECS` seconds (default [`DEFAULT_SECS`]), printing its executions. Run them
//! with overflow checks and debug assertions on, as `scripts/fuzz.sh` does:
//! `cargo test --profile fuzz --test fuzz -- --nocapture --test-threads 1`.
//!
//! A failure prints the run's seed, the execution's own seed, the input and a shrunk input.
//! `CHARIOT_FUZZ_SEED=<n>` repeats a run; `CHARIOT_FUZZ_CASE=<n>` runs one execution.

mod input;
mod session;

use chariot_engine::chess::Chess;
use chariot_engine::command::{Command, Start};
use chariot_engine::engine::board::{Board, variant_of_fen};
use chariot_engine::game::{Game, Inspect, MoveList, Variant};
use chariot_engine::nnue::data::GameResult;
use chariot_engine::nnue::games::{self, GameReader, GameRecord, MoveCode};
use chariot_engine::options::{self, Effect, Kind, Settings, Value};
use chariot_engine::protocol::{ucci, uci};
use chariot_engine::record::{self, Notation, Start as RecordStart};
use chariot_engine::search::signals::Signals;
use chariot_engine::search::time::Budget;
use chariot_engine::xiangqi::Xiangqi;
use input::Rng;
use parking_lot::Mutex;
use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

/// Seconds each target runs by default: short, so that `cargo test --release` stays fast.
const DEFAULT_SECS: f64 = 2.0;
/// Errors quote at most 80 characters of input, so an error or message is a short line.
const MAX_ERROR_CHARS: usize = 200;
/// Time spent shrinking a failing input at most.
const SHRINK_TIME: Duration = Duration::from_secs(60);

thread_local! {
    /// Set while this thread runs a check: its panics are caught and reported, not printed.
    static QUIET: Cell<bool> = const { Cell::new(false) };
    /// The last caught panic's message and place.
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Panics of other threads (the session's controller and search threads), for its check.
static OTHER_PANICS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Installs (once) a panic hook that keeps the fuzzer's own caught panics quiet and records
/// where they happened; panics elsewhere are printed as usual and recorded.
fn install_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let text = format!("{info}");
            if QUIET.with(Cell::get) {
                LAST_PANIC.with(|p| *p.borrow_mut() = text);
            } else {
                let name = std::thread::current().name().unwrap_or("?").to_string();
                if name != "main" && !name.starts_with("fuzz_") {
                    OTHER_PANICS.lock().push(format!("thread {name}: {text}"));
                }
                default(info);
            }
        }));
    });
}

/// An input: a few texts (a FEN, a line, an option's name and value, a session's lines).
type Input = Vec<String>;
/// A property check: `Err` describes the failure.
type Check = fn(&[String]) -> Result<(), String>;

/// Runs `check` on one input, turning a panic into a failure.
fn run_case(check: Check, input: &[String]) -> Result<(), String> {
    QUIET.with(|q| q.set(true));
    let result = catch_unwind(AssertUnwindSafe(|| check(input)));
    QUIET.with(|q| q.set(false));
    match result {
        Ok(r) => r,
        Err(_) => Err(format!("panic: {}", LAST_PANIC.with(|p| p.borrow().clone()))),
    }
}

/// Makes a failing input smaller while it still fails: drops parts, then cuts stretches of
/// characters from each part, halving the stretch until single characters.
fn shrink(check: Check, mut input: Input, mut failure: String) -> (Input, String) {
    let deadline = Instant::now() + SHRINK_TIME;
    let try_it = |candidate: &Input, input: &mut Input, failure: &mut String| {
        if Instant::now() > deadline {
            return false;
        }
        match run_case(check, candidate) {
            Err(f) => {
                *input = candidate.clone();
                *failure = f;
                true
            }
            Ok(()) => false,
        }
    };
    loop {
        let mut smaller = false;
        for i in (0..input.len()).rev() {
            let mut candidate = input.clone();
            candidate.remove(i);
            smaller |= try_it(&candidate, &mut input, &mut failure);
        }
        for i in 0..input.len() {
            let mut chunk = input[i].chars().count().div_ceil(2);
            while chunk > 0 {
                let mut at = 0;
                while at < input.get(i).map_or(0, |p| p.chars().count()) {
                    let chars: Vec<char> = input[i].chars().collect();
                    let mut candidate = input.clone();
                    candidate[i] =
                        chars[..at].iter().chain(&chars[(at + chunk).min(chars.len())..]).collect();
                    if try_it(&candidate, &mut input, &mut failure) {
                        smaller = true;
                    } else {
                        at += chunk;
                    }
                }
                chunk /= 2;
            }
        }
        if !smaller || Instant::now() > deadline {
            return (input, failure);
        }
    }
}

/// A number from the environment, decimal or `0x` hexadecimal.
fn env_number(name: &str) -> Option<u64> {
    let text = std::env::var(name).ok()?;
    let text = text.trim();
    match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

/// Generates and checks inputs for the configured time; panics with a reproducible report on
/// the first failure. Returns the number of executions.
fn fuzz(name: &str, generate: fn(&mut Rng) -> Input, check: Check) -> u64 {
    install_hook();
    let secs = std::env::var("CHARIOT_FUZZ_SECS")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .unwrap_or(DEFAULT_SECS);
    let run_seed = env_number("CHARIOT_FUZZ_SEED").unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        now.map_or(0, |d| d.as_nanos() as u64)
    });
    let single = env_number("CHARIOT_FUZZ_CASE");
    let budget = Duration::from_secs_f64(secs.max(0.0));
    // Said first, so that a run that hangs can be repeated.
    eprintln!("fuzz {name}: run seed {run_seed:#x}, {secs} s");
    let start = Instant::now();
    let mut execs = 0u64;
    loop {
        let seed = single.unwrap_or_else(|| input::case_seed(run_seed, execs));
        // Generation plays random moves with the library, so it can panic too.
        QUIET.with(|q| q.set(true));
        let generated = catch_unwind(|| generate(&mut Rng::new(seed)));
        QUIET.with(|q| q.set(false));
        let Ok(input) = generated else {
            panic!(
                "fuzz target {name}: generating input {seed:#x} panicked: {}\n  reproduce: \
                 CHARIOT_FUZZ_CASE={seed:#x} cargo test --profile fuzz --test fuzz {name}",
                LAST_PANIC.with(|p| p.borrow().clone())
            );
        };
        if let Err(failure) = run_case(check, &input) {
            let (shrunk, why) = shrink(check, input.clone(), failure.clone());
            let cut = |i: &Input| format!("{i:?}").chars().take(4000).collect::<String>();
            panic!(
                "fuzz target {name} failed after {execs} executions\n  failure: {failure}\n  \
                 input: {}\n  shrunk: {}\n  shrunk failure: {why}\n  reproduce: \
                 CHARIOT_FUZZ_CASE={seed:#x} (run seed CHARIOT_FUZZ_SEED={run_seed:#x}) \
                 cargo test --profile fuzz --test fuzz {name} -- --nocapture",
                cut(&input),
                cut(&shrunk)
            );
        }
        execs += 1;
        if single.is_some() || (execs.is_multiple_of(8) && start.elapsed() >= budget) {
            break;
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    println!(
        "fuzz {name}: {execs} executions in {elapsed:.1} s ({:.0}/s), seed {run_seed:#x}, no failure",
        execs as f64 / elapsed.max(1e-9)
    );
    execs
}

/// An error for people: one line of at most [`MAX_ERROR_CHARS`] characters.
fn short(what: &str, message: &str) -> Result<(), String> {
    let n = message.chars().count();
    if n > MAX_ERROR_CHARS || message.contains('\n') {
        let head: String = message.chars().take(240).collect();
        return Err(format!("{what}: an error of {n} characters: {head}"));
    }
    Ok(())
}

/// Exercises a parsed position: every legal move written, read back as itself, made and
/// taken back; the human views; the mirror image mirrored back.
fn exercise<G: Inspect>(g: &G) -> Result<(), String> {
    let fen = g.fen();
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let mut b = g.clone();
    for &m in list.iter() {
        let text = g.move_text(m);
        match g.parse_move(&text) {
            Ok(back) if back == m => {}
            other => return Err(format!("{fen}: move {text} reads back as {other:?}")),
        }
        b.make(m);
        let _ = (b.in_check(), b.evaluate(), b.fen());
        b.unmake();
    }
    if b.fen() != fen || b.key() != g.key() {
        return Err(format!("{fen}: making and taking back the moves gives {}", b.fen()));
    }
    let _ = (g.board_text(Default::default()), g.checkers(), g.eval_terms(), g.evaluate());
    let flipped = g.flipped();
    if flipped.side_to_move() == g.side_to_move() {
        return Err(format!("{fen}: the mirror image {} has the same side to move", flipped.fen()));
    }
    if flipped.flipped().fen() != fen {
        return Err(format!("{fen}: mirrored twice gives {}", flipped.flipped().fen()));
    }
    Ok(())
}

/// A FEN either reads, writes itself back exactly and reads again to the same position, or
/// is refused with a short error.
fn check_fen<G: Inspect>(parts: &[String]) -> Result<(), String> {
    let Some(text) = parts.first() else { return Ok(()) };
    match G::from_fen(text) {
        Err(e) => short("FEN", &e.to_string()),
        Ok(g) => {
            let fen = g.fen();
            let again = G::from_fen(&fen).map_err(|e| format!("own FEN {fen:?} refused: {e}"))?;
            if again.fen() != fen || again.key() != g.key() {
                return Err(format!("{text:?} -> {fen:?} -> {:?}", again.fen()));
            }
            exercise(&g)
        }
    }
}

#[test]
fn fuzz_chess_fen() {
    fuzz("fuzz_chess_fen", |rng| vec![input::fen(rng, Variant::Chess)], check_fen::<Chess>);
}

#[test]
fn fuzz_xiangqi_fen() {
    fuzz("fuzz_xiangqi_fen", |rng| vec![input::fen(rng, Variant::Xiangqi)], check_fen::<Xiangqi>);
}

/// Move texts in a position: each is a legal move (and that one), or a short error.
fn check_moves<G: Inspect>(fen: &str, texts: &[String]) -> Result<(), String> {
    let Ok(g) = G::from_fen(fen) else { return Ok(()) };
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    for text in texts {
        match g.parse_move(text) {
            Ok(m) if list.contains(m) => {}
            Ok(m) => return Err(format!("{fen}: {text:?} read as {m:?}, not a legal move")),
            Err(e) => short("move", &e.to_string())?,
        }
    }
    exercise(&g)
}

/// Records `chariot analyse` reads, to mutate: chess with comments, a variation, NAGs and a
/// FEN; xiangqi in ICCS and in Chinese notation.
const RECORDS: [&str; 3] = [
    "[Event \"a\"]\n[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"]\n\n1. O-O {c} O-O-O (1... Kf7) 2. Rab1 $1 Rd1 3. Rxd1 *\n",
    "[Variant \"xiangqi\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 1-0\n",
    "[Game \"Chinese Chess\"]\n\n1. 炮二平五 马8进7 2. 马二进三 车9平8 *\n",
];

/// A record: each game read, set up and replayed; the moves replayed written and read back
/// to the same move; every fault a short line.
fn check_record(parts: &[String]) -> Result<(), String> {
    fn round_trip<G: Notation>(start: &G, replay: &record::Replay) -> Result<(), String> {
        let mut board = start.clone();
        for &m in &replay.moves {
            let text = board.write_move(m, replay.script);
            match board.read_move(&text) {
                Ok((again, _)) if again == m => board.make(m),
                other => return Err(format!("{} {text:?} reads back as {other:?}", board.fen())),
            }
        }
        Ok(())
    }
    for raw in record::split(parts.first().map_or("", String::as_str)) {
        match record::start(&raw, None) {
            Ok(RecordStart::Chess(b)) => {
                let replay = record::replay(&raw, b.as_ref());
                round_trip(b.as_ref(), &replay)?;
                if let Some(e) = replay.error {
                    short("record", &e.to_string())?;
                }
            }
            Ok(RecordStart::Xiangqi(b)) => {
                let replay = record::replay(&raw, b.as_ref());
                round_trip(b.as_ref(), &replay)?;
                if let Some(e) = replay.error {
                    short("record", &e.to_string())?;
                }
            }
            Err(e) => short("record", &e.to_string())?,
        }
    }
    Ok(())
}

#[test]
fn fuzz_record() {
    fuzz(
        "fuzz_record",
        |rng| {
            let seed = *rng.pick(&RECORDS);
            let other = *rng.pick(&RECORDS);
            let alphabet: Vec<char> =
                "[]{}()\";$.!?+#-=0123456789abcdefghiNBRQKO炮马车进退平八 \n".chars().collect();
            vec![input::mutate(rng, seed, &alphabet, other)]
        },
        check_record,
    );
}

/// Bytes as hexadecimal text, the fuzzer's inputs being text.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hexadecimal text back to bytes (an odd last digit and anything not a digit are dropped, so
/// that shrinking may cut anywhere).
fn unhex(text: &str) -> Vec<u8> {
    let digits: Vec<u8> =
        text.bytes().filter_map(|c| (c as char).to_digit(16)).map(|d| d as u8).collect();
    digits.chunks_exact(2).map(|p| p[0] << 4 | p[1]).collect()
}

/// A game played at random from a random position, as the compact format holds it.
fn random_game<G: MoveCode>(rng: &mut Rng, fen: &str) -> Option<GameRecord> {
    let mut board = G::from_fen(fen).ok()?;
    let mut game = GameRecord::new(&board);
    let mut list = MoveList::new();
    for _ in 0..rng.below(60) {
        board.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let m = list.as_slice()[rng.below(list.len())];
        let score = rng.below(4001) as i32 - 2000;
        game.push(&board, m, score, !rng.one_in(4));
        board.make(m);
    }
    game.result = *rng.pick(&[GameResult::Loss, GameResult::Draw, GameResult::Win]);
    Some(game)
}

/// A file of the compact training format (`.games`): a few games of either game, then, most of
/// the time, damaged: bytes changed, cut, repeated or let in.
fn games_file(rng: &mut Rng) -> Input {
    let mut bytes = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let variant = if rng.one_in(2) { Variant::Chess } else { Variant::Xiangqi };
        let fen = input::random_position(rng, variant);
        let game = match variant {
            Variant::Chess => random_game::<Chess>(rng, &fen),
            Variant::Xiangqi => random_game::<Xiangqi>(rng, &fen),
        };
        if let Some(Ok(game)) = game.map(|g| g.to_bytes()) {
            bytes.extend(game);
        }
    }
    for _ in 0..rng.below(4) {
        if bytes.is_empty() {
            break;
        }
        let at = rng.below(bytes.len());
        match rng.below(4) {
            0 => bytes[at] = rng.next() as u8,
            1 => bytes.truncate(at),
            2 => {
                let end = (at + 1 + rng.below(8)).min(bytes.len());
                let copy = bytes[at..end].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => bytes.insert(at, *rng.pick(&[0, 0xC7, 1, 2, 0xFF, 0x80])),
        }
    }
    vec![hex(&bytes)]
}

/// A `.games` file: every game the reader accepts writes back to exactly the bytes it was read
/// from, replays or is refused with a short error; a fault ends the file with a short error;
/// the reader ends (no game is longer than its input); `complete_bytes` agrees with it.
fn check_games(parts: &[String]) -> Result<(), String> {
    let bytes = unhex(parts.first().map_or("", String::as_str));
    let mut reader = GameReader::new(bytes.as_slice());
    let mut end = 0u64;
    loop {
        match reader.next_game() {
            Ok(None) => break,
            Ok(Some(game)) => {
                let own =
                    game.to_bytes().map_err(|e| format!("a game read does not write: {e}"))?;
                let from = game.offset as usize;
                let read = bytes.get(from..from + own.len());
                if read != Some(own.as_slice()) {
                    return Err(format!(
                        "game {} at byte {from} writes back otherwise",
                        game.number
                    ));
                }
                end = reader.offset();
                if let Err(e) = game.records() {
                    short("replay", &e.to_string())?;
                }
            }
            Err(e) => {
                short("games", &e.to_string())?;
                if !matches!(reader.next_game(), Ok(None)) {
                    return Err("the reader goes on after a fault".into());
                }
                break;
            }
        }
        if reader.games() > bytes.len() as u64 {
            return Err(format!("{} games from {} bytes", reader.games(), bytes.len()));
        }
    }
    if end != reader.offset() {
        return Err(format!(
            "the complete games end at {end}, the reader says {}",
            reader.offset()
        ));
    }
    match games::complete_bytes(bytes.as_slice()) {
        Ok(n) if n > bytes.len() as u64 => Err(format!("complete_bytes {n} of {}", bytes.len())),
        Ok(_) => Ok(()),
        Err(e) => short("complete_bytes", &e.to_string()),
    }
}

#[test]
fn fuzz_games() {
    fuzz("fuzz_games", games_file, check_games);
}

#[test]
fn fuzz_move_text() {
    fuzz(
        "fuzz_move_text",
        |rng| {
            let variant = if rng.one_in(2) { Variant::Chess } else { Variant::Xiangqi };
            let fen = input::random_position(rng, variant);
            let n = 1 + rng.below(8);
            let texts = match variant {
                Variant::Chess => Chess::from_fen(&fen).map(|g| input::move_texts(rng, &g, n)),
                Variant::Xiangqi => Xiangqi::from_fen(&fen).map(|g| input::move_texts(rng, &g, n)),
            };
            let mut parts = vec![input::variant_name(variant).to_string(), fen];
            parts.extend(texts.unwrap_or_default());
            parts
        },
        |parts| match parts {
            [v, fen, texts @ ..] if v == "chess" => check_moves::<Chess>(fen, texts),
            [v, fen, texts @ ..] if v == "xiangqi" => check_moves::<Xiangqi>(fen, texts),
            _ => Ok(()),
        },
    );
}

/// What the controller would do with a parsed command, short of searching: plan the time and
/// the signals of a `go` (the arithmetic on input numbers), check an option, set up a position.
fn check_command(command: &Command) -> Result<(), String> {
    match command {
        Command::Go(go) => check_go(go),
        Command::SetOption { name, value } => match options::parse(name, value.as_deref(), false) {
            Ok(_) => Ok(()),
            Err(e) => short("setoption", &e.to_string()),
        },
        Command::Position { start, moves } => {
            let variant = match start {
                Start::Fen(fen) => variant_of_fen(fen).unwrap_or(Variant::Chess),
                Start::Startpos => Variant::Chess,
            };
            match Board::setup(variant, start, moves, &Settings::default()) {
                Ok(_) => Ok(()),
                Err(e) => short("position", &e.to_string()),
            }
        }
        Command::BadPosition(e) => short("position", e),
        _ => Ok(()),
    }
}

/// A `go`'s limits: each unreadable argument is a short error, and planning the time and the
/// search's signals from any numbers does not overflow.
fn check_go(go: &chariot_engine::command::Go) -> Result<(), String> {
    for e in &go.errors {
        short("go", e)?;
    }
    let limits = &go.limits;
    for (side, overhead, ponder) in [(0, 0, false), (1, 30, true), (0, 5000, true)] {
        let budget = Budget::plan(
            limits,
            side,
            overhead,
            ponder,
            &chariot_engine::search::params::Params::CHESS,
        );
        if let (Some(soft), Some(hard)) = (budget.soft, budget.hard)
            && soft > hard
        {
            return Err(format!("{limits:?}: soft limit {soft} beyond hard {hard}"));
        }
        let _ = Signals::new(limits, budget, 1);
    }
    Ok(())
}

#[test]
fn fuzz_uci_line() {
    fuzz(
        "fuzz_uci_line",
        |rng| {
            let line = if rng.one_in(16) { input::genfens_line(rng) } else { input::uci_line(rng) };
            vec![line]
        },
        |parts| {
            for line in parts {
                match uci::parse(line) {
                    Ok(Some(command)) => check_command(&command)?,
                    Ok(None) => {}
                    Err(e) => short("uci", &e.to_string())?,
                }
            }
            Ok(())
        },
    );
}

#[test]
fn fuzz_ucci_line() {
    fuzz(
        "fuzz_ucci_line",
        |rng| (0..1 + rng.below(4)).map(|_| input::ucci_line(rng)).collect(),
        |parts| {
            // The lines share the front-end's state (time unit, batch mode), as in a session.
            let mut state = ucci::State::default();
            for line in parts {
                let before = state.clone();
                match ucci::parse(line, &mut state) {
                    Ok(Some(command @ Command::SetOption { .. })) => {
                        // A value the engine refuses must not switch the front-end either.
                        if let Command::SetOption { name, value } = &command
                            && options::parse(name, value.as_deref(), true).is_err()
                            && (state.millisec, state.batch) != (before.millisec, before.batch)
                        {
                            return Err(format!("{line:?}: refused, yet the state changed"));
                        }
                        check_command(&command)?
                    }
                    Ok(Some(command)) => check_command(&command)?,
                    Ok(None) => {}
                    Err(e) => short("ucci", &e.to_string())?,
                }
            }
            Ok(())
        },
    );
}

/// A `setoption`, as UCI and as UCCI (where 0 may mean the engine's choice) read it.
fn check_option(parts: &[String]) -> Result<(), String> {
    check_option_as(parts, false)?;
    check_option_as(parts, true)
}

/// A `setoption`: refused with a short error, or accepted with a value of the option's type
/// and range that leaves every setting in its range.
fn check_option_as(parts: &[String], auto_zero: bool) -> Result<(), String> {
    let Some(name) = parts.first() else { return Ok(()) };
    let value = parts.get(1).map(String::as_str);
    let (spec, v) = match options::parse(name, value, auto_zero) {
        Ok(found) => found,
        Err(e) => return short("setoption", &e.to_string()),
    };
    let fits = match (spec.kind, &v) {
        (Kind::Check(_), Value::Bool(_)) => true,
        (Kind::Spin { min, max, zero, .. }, Value::Int(n)) => {
            (min..=max).contains(n) || zero.is_some_and(|z| z == *n)
        }
        (Kind::Combo { vars, .. }, Value::Text(t)) => vars.contains(&t.as_str()),
        (Kind::Game, Value::Text(t)) => t == "chess" || t == "xiangqi",
        (Kind::Text(_), Value::Text(_)) => true,
        (Kind::Button | Kind::Label, Value::Press) => true,
        _ => false,
    };
    if !fits {
        return Err(format!("{name:?} = {value:?} accepted as {v:?}"));
    }
    let mut s = Settings::default();
    if let Effect::Set { apply, .. } = spec.effect {
        apply(&mut s, &v);
    }
    let ranges = [
        (s.overhead_ms as i64, 0, options::OVERHEAD_MAX),
        (s.view.multipv as i64, 1, options::MULTIPV_MAX),
        (s.drawmoves as i64, 0, options::DRAWMOVES_MAX),
        (s.idle as i64, 0, 75),
    ];
    if ranges.iter().any(|(v, lo, hi)| v < lo || v > hi) {
        return Err(format!("{name:?} = {value:?} leaves a setting out of range: {s:?}"));
    }
    let _ = s.contempt(15);
    Ok(())
}

#[test]
fn fuzz_setoption() {
    fuzz(
        "fuzz_setoption",
        |rng| {
            let mut parts = vec![input::option_name(rng)];
            if !rng.one_in(5) {
                parts.push(input::option_value(rng));
            }
            parts
        },
        check_option,
    );
}

#[test]
fn fuzz_session() {
    let n = fuzz("fuzz_session", session::generate, |parts| {
        let result = session::check(parts);
        // The debug logs grow with every session; a few hundred at a time are plenty.
        if rand_tick() {
            session::clear_logs();
        }
        result
    });
    session::clear_logs();
    let _ = std::fs::remove_dir(session::log_dir());
    assert!(n > 0);
}

/// True every 256th call: when to empty the log directory.
fn rand_tick() -> bool {
    static CALLS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 256 == 255
}
