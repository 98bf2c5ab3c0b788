//! Every way an engine can fail ends one game as its loss, with the reason, while the match
//! goes on: a crash, a hang, an illegal move, a time forfeit and `bestmove (none)`, played by
//! the fake engine against a well-behaved copy of itself.

use chariot_engine::game::Variant;
use chariot_match::engine::{EngineSpec, Protocol};
use chariot_match::notation::Notation;
use chariot_match::play::{Adjudication, GameConfig, TimeControl};
use chariot_match::runner::{MatchConfig, Summary, run};
use chariot_match::stats::Sprt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The fake engine, built by Cargo for this package's tests.
const FAKE: &str = env!("CARGO_BIN_EXE_chariot-fake-engine");
/// Games per match: two pairs.
const GAMES: usize = 4;
/// Short games: the fakes play at once, so a game is milliseconds.
const MAX_PLIES: usize = 40;

/// A fresh scratch directory for one test (numbered: two tests of one mode run at once, and
/// one's clean-up must not remove the other's files).
fn scratch(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("chariot-match-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn fake(name: &str, args: &[&str], proto: Protocol) -> Arc<EngineSpec> {
    let mut cmd = vec![FAKE.to_string()];
    cmd.extend(args.iter().map(|a| a.to_string()));
    Arc::new(EngineSpec { proto, ..EngineSpec::new(name, cmd) })
}

fn config(variant: Variant, engines: [Arc<EngineSpec>; 2], tc: TimeControl) -> MatchConfig {
    let openings = match variant {
        Variant::Chess => vec![
            chariot_engine::chess::START_FEN.to_string(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".to_string(),
        ],
        Variant::Xiangqi => vec![chariot_engine::xiangqi::START_FEN.to_string()],
    };
    MatchConfig {
        variant,
        engines,
        game: GameConfig {
            tc,
            margin_ms: 50,
            fixed_timeout_ms: 300,
            adjudication: Adjudication { max_plies: Some(MAX_PLIES), ..Default::default() },
            chess960: false,
            move_limit: 120,
        },
        openings,
        seed: 1,
        games: GAMES,
        concurrency: 1,
        affinity: false,
        sprt: None,
        pgn: None,
        log_dir: None,
        state: None,
        verbose: false,
        report_every: 100,
        event: "test".into(),
    }
}

/// Plays a match of the fake misbehaving once (`mode`) against a good fake; checks that all
/// games were played, that exactly one ended by a fault, lost by the bad engine, whose
/// reason contains `reason`.
fn one_bad_game(mode: &str, tc: TimeControl, reason: &str) -> Summary {
    let dir = scratch(mode);
    let once = dir.join("once");
    let once = once.to_str().expect("utf-8 path");
    let bad = fake(
        "bad",
        &["--mode", mode, "--at", "2", "--once", once, "--sleep", "600"],
        Protocol::Uci,
    );
    let good = fake("good", &[], Protocol::Uci);
    let cfg = config(Variant::Chess, [bad, good], tc);
    let summary = run(&cfg, &Arc::new(AtomicBool::new(false))).expect("the match runs");
    assert_eq!(summary.tally.games(), GAMES as u64, "every game is played");
    let faults: Vec<_> = summary.records.iter().filter(|(_, r)| r.fault).collect();
    assert_eq!(faults.len(), 1, "one faulted game: {:?}", summary.records);
    let (index, record) = faults[0];
    assert!(record.reason.starts_with("bad "), "{}", record.reason);
    assert!(record.reason.contains(reason), "'{}' should say '{reason}'", record.reason);
    let loser_is_white = record.white == "bad";
    let lost = if loser_is_white { "0-1" } else { "1-0" };
    assert_eq!(record.result.pgn(), lost, "game {index}: {record:?}");
    assert_eq!(summary.tally.faults, [1, 0]);
    // The other games ended by the rules or the length limit.
    for (_, r) in summary.records.iter().filter(|(_, r)| !r.fault) {
        assert!(
            ["adjudicated", "checkmate", "stalemate", "repetition", "insufficient", "fifty"]
                .iter()
                .any(|w| r.reason.contains(w)),
            "{}",
            r.reason
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    summary
}

const CLOCK: TimeControl = TimeControl::Clock { base_ms: 300, inc_ms: 10, moves_to_go: None };

#[test]
fn a_crash_loses_one_game() {
    one_bad_game("crash", CLOCK, "crashed");
}

#[test]
fn a_hang_loses_on_time() {
    one_bad_game("hang", CLOCK, "loses on time");
}

#[test]
fn a_hang_under_fixed_nodes_is_caught() {
    one_bad_game("hang", TimeControl::Nodes(1000), "hung");
}

#[test]
fn an_illegal_move_loses() {
    one_bad_game("illegal", CLOCK, "illegal move");
}

#[test]
fn a_slow_move_loses_on_time() {
    one_bad_game("slow", CLOCK, "loses on time");
}

#[test]
fn no_move_loses() {
    one_bad_game("none", CLOCK, "gave no move");
}

/// Xiangqi over UCCI against UCI, with Fairy-Stockfish's notation on one side: games are
/// played to an end without faults, and the records are ICCS.
#[test]
fn xiangqi_over_ucci_and_fsf_notation() {
    let ucci = fake("ucci", &[], Protocol::Ucci);
    let mut fsf = (*fake("fsf", &["--fsf"], Protocol::Uci)).clone();
    fsf.notation = Notation::Fsf;
    let cfg = config(Variant::Xiangqi, [Arc::clone(&ucci), Arc::new(fsf.clone())], CLOCK);
    let summary = run(&cfg, &Arc::new(AtomicBool::new(false))).expect("the match runs");
    assert_eq!(summary.tally.games(), GAMES as u64);
    assert!(summary.records.iter().all(|(_, r)| !r.fault), "{:?}", summary.records);
    assert!(summary.records.iter().all(|(_, r)| r.moves.iter().all(|m| m.len() == 4)));

    // Without the translation the same engine's moves are off by a rank: it loses.
    fsf.notation = Notation::Iccs;
    let cfg = config(Variant::Xiangqi, [ucci, Arc::new(fsf)], CLOCK);
    let summary = run(&cfg, &Arc::new(AtomicBool::new(false))).expect("the match runs");
    assert_eq!(summary.tally.games(), GAMES as u64);
    assert!(
        summary.records.iter().all(|(_, r)| r.fault && r.reason.starts_with("fsf")),
        "{:?}",
        summary.records
    );
}

/// An SPRT that is decided at once (a good engine against one that always crashes) stops
/// the match early; the state file then resumes with the games already counted.
#[test]
fn sprt_stops_and_state_resumes() {
    let dir = scratch("sprt");
    let state = dir.join("state");
    let bad = fake("bad", &["--mode", "crash"], Protocol::Uci);
    let good = fake("good", &[], Protocol::Uci);
    let mut cfg = config(Variant::Chess, [good, bad], CLOCK);
    cfg.games = 400;
    cfg.sprt = Some(Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid"));
    cfg.state = Some(state.clone());
    let summary = run(&cfg, &Arc::new(AtomicBool::new(false))).expect("the match runs");
    let played = summary.tally.games();
    assert!(summary.stopped, "the SPRT stops the match");
    assert!((2..400).contains(&played), "{played} games");
    assert_eq!(summary.verdict, Some(chariot_match::stats::Verdict::H1));
    assert_eq!(summary.tally.wdl.losses, 0);

    // Started again with the same state file: the games are remembered, and the SPRT,
    // already decided, stops at the first game.
    let again = run(&cfg, &Arc::new(AtomicBool::new(false))).expect("the match resumes");
    assert!(again.tally.games() > played, "resumed from {played}: {}", again.tally.games());
    assert_eq!(again.tally.wdl.losses, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

fn pondering(name: &str, args: &[&str]) -> Arc<EngineSpec> {
    let mut spec = (*fake(name, args, Protocol::Uci)).clone();
    spec.ponder = true;
    Arc::new(spec)
}

/// Both engines pondering: `go ponder` on the predicted reply, `ponderhit` when it comes,
/// `stop` and a new search when it does not; the games end without faults and the events are
/// counted.
#[test]
fn pondering_hits_and_misses() {
    // The same seed predicts the other's replies (hits); another seed mostly does not.
    for (second, want_misses) in [(&[][..], false), (&["--seed", "7"][..], true)] {
        let cfg = config(Variant::Chess, [pondering("a", &[]), pondering("b", second)], CLOCK);
        let summary = run(&cfg, &Arc::new(AtomicBool::new(false))).expect("the match runs");
        assert_eq!(summary.tally.games(), GAMES as u64);
        assert!(summary.records.iter().all(|(_, r)| !r.fault), "{:?}", summary.records);
        let p = summary.tally.ponder;
        assert!(p.hits > 0, "{p:?}");
        assert_eq!(p.misses > 0, want_misses, "{p:?}");
        assert_eq!((p.illegal, p.unanswered), (0, 0), "{p:?}");
        let text = summary.tally.summary(["a", "b"], None);
        assert!(text.contains("Ponder: hits"), "{text}");
    }
}

/// An engine that never answers a ponder search (neither `ponderhit` nor `stop`) loses that
/// game on time, and the match goes on.
#[test]
fn a_deaf_ponderer_loses_one_game() {
    let dir = scratch("deaf");
    let once = dir.join("once");
    let once = once.to_str().expect("utf-8 path");
    let bad = pondering("bad", &["--mode", "deaf", "--once", once]);
    let cfg = config(Variant::Chess, [bad, pondering("good", &[])], CLOCK);
    let summary = run(&cfg, &Arc::new(AtomicBool::new(false))).expect("the match runs");
    assert_eq!(summary.tally.games(), GAMES as u64);
    let faults: Vec<_> = summary.records.iter().filter(|(_, r)| r.fault).collect();
    assert_eq!(faults.len(), 1, "{:?}", summary.records);
    assert!(faults[0].1.reason.starts_with("bad loses on time"), "{}", faults[0].1.reason);
    assert_eq!(summary.tally.faults, [1, 0]);
    let _ = std::fs::remove_dir_all(&dir);
}
