//! Tablebase adjudication against python-chess's own Syzygy prober: random-playing fakes from
//! five-piece starts play until the referee or the tables end the game; every game the tables
//! ended must end in python-chess's value of its last position (just after a capture or pawn
//! move, so the table's win is a win under the fifty-move rule), and no earlier position of
//! four pieces after a capture or pawn move may have been passed over. Skipped (with a note)
//! without `CHARIOT_SYZYGY` (the 3-4 piece tables) or python-chess. A binary of its own: the
//! tables are the process's.

use chariot_engine::game::Variant;
use chariot_match::engine::EngineSpec;
use chariot_match::play::{Adjudication, DEFAULT_FIXED_TIMEOUT_MS, GameConfig, TimeControl};
use chariot_match::runner::{MatchConfig, run};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

const FAKE: &str = env!("CARGO_BIN_EXE_chariot-fake-engine");

/// Replays each game: the first position with at most four pieces, right after a capture or
/// pawn move, is where the game must have ended, with the table's result.
const CHECK: &str = r#"
import sys, chess, chess.pgn, chess.syzygy
tb = chess.syzygy.open_tablebase(sys.argv[2])
bad = games = by_tables = 0
with open(sys.argv[1]) as f:
    while True:
        g = chess.pgn.read_game(f)
        if g is None: break
        games += 1
        b = g.board()
        expected = None
        for i, m in enumerate(list(g.mainline_moves()) + [None]):
            if len(b.piece_map()) <= 4 and b.halfmove_clock == 0 and not b.castling_rights \
                    and not b.is_game_over():
                w = tb.probe_wdl(b)
                white = w if b.turn == chess.WHITE else -w
                expected = "1-0" if white == 2 else "0-1" if white == -2 else "1/2-1/2"
                if m is not None:
                    print(f"game {games}: the tables hold ply {i}, the game went on"); bad += 1
                break
            if m is None: break
            b.push(m)
        result = g.headers["Result"]
        ours = g.end().comment.strip()
        if ours.startswith("adjudicated: tablebases"):
            by_tables += 1
            if result != expected:
                print(f"game {games}: ours {result} ({ours}), python-chess {expected}"); bad += 1
        elif expected is not None:
            print(f"game {games}: python-chess {expected} by the tables, ours {ours}"); bad += 1
print(f"{games} games, {by_tables} by the tables, {bad} disagreements")
"#;

#[test]
fn python_chess_agrees_with_every_tablebase_verdict() {
    let Some(path) = std::env::var("CHARIOT_SYZYGY").ok().filter(|p| !p.is_empty()) else {
        eprintln!("skipped: CHARIOT_SYZYGY is not set (the folder of the 3-4 piece tables)");
        return;
    };
    if !Command::new("python3").args(["-c", "import chess"]).status().is_ok_and(|s| s.success()) {
        eprintln!("python-chess not installed: skipped");
        return;
    }
    let found = chariot_engine::chess::tb::load(&path).expect("the tables load").expect("tables");
    let dir = std::env::temp_dir().join(format!("chariot-match-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let pgn = dir.join("games.pgn");
    let _ = std::fs::remove_file(&pgn);
    let fake = |name: &str, seed: &str| {
        Arc::new(EngineSpec::new(name, vec![FAKE.to_string(), "--seed".into(), seed.into()]))
    };
    let cfg = MatchConfig {
        variant: Variant::Chess,
        engines: [fake("a", "7"), fake("b", "8")],
        game: GameConfig {
            tc: TimeControl::Nodes(1),
            margin_ms: 100,
            // The runner's own: the fakes answer at once, and a loaded machine must not make
            // a hang.
            fixed_timeout_ms: DEFAULT_FIXED_TIMEOUT_MS,
            adjudication: Adjudication { tablebases: Some(found.largest), ..Default::default() },
            chess960: false,
            move_limit: 0,
        },
        // Five pieces each, with captures at hand: random play soon takes one.
        openings: vec![
            "4k3/8/8/8/8/8/3r4/3QK2R w - - 0 1".to_string(),
            "8/8/3k4/2p5/1P6/8/3K4/5N2 w - - 0 1".to_string(),
            "r3k3/8/8/8/8/8/5PP1/6K1 b - - 0 1".to_string(),
            "8/5k2/4n3/8/3B4/2K5/3P4/8 w - - 0 1".to_string(),
            "6k1/5p2/8/8/2Q5/8/8/3qK3 w - - 0 1".to_string(),
        ],
        seed: 11,
        games: 40,
        concurrency: 1,
        affinity: false,
        sprt: None,
        pgn: Some(pgn.clone()),
        log_dir: None,
        state: None,
        verbose: false,
        report_every: usize::MAX,
        event: "tablebases".into(),
    };
    let summary = run(&cfg, &Arc::new(AtomicBool::new(false))).expect("the match runs");
    assert!(summary.records.iter().all(|(_, r)| !r.fault), "{:?}", summary.records);
    let by_tables = summary
        .records
        .iter()
        .filter(|(_, r)| r.reason.starts_with("adjudicated: tablebases"))
        .count();
    assert!(by_tables >= 20, "{by_tables} of 40 games ended by the tables");
    let out = Command::new("python3")
        .arg("-c")
        .arg(CHECK)
        .arg(&pgn)
        .arg(&path)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    eprint!("{text}");
    let expected = format!("40 games, {by_tables} by the tables, 0 disagreements");
    assert!(text.trim_end().ends_with(&expected), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
