//! The handshake and the spec's example: the option list, the dialogue at the end of the
//! UCI spec, and what an `info` line carries.

use crate::common::{Session, run_script};
use crate::{
    LONG, SOON, all_legal, answer, board, iterations, nothing_within, number, one_error_naming,
    search, uci,
};
use chariot_engine::chess::Chess;
use chariot_engine::game::Game;
use std::time::Duration;

#[test]
fn uci_lists_every_option_with_its_type_default_and_range() {
    let (lines, status) = run_script(&[], "uci\nquit\n");
    assert!(status.success());
    assert!(lines[0].starts_with("Chariot ") && lines[0].ends_with("type help"), "the banner");
    assert!(lines[1].starts_with("id name Chariot "), "{lines:?}");
    assert_eq!(lines[2], "id author the Chariot developers");
    let options: Vec<&str> =
        lines.iter().filter(|l| l.starts_with("option ")).map(String::as_str).collect();
    let about = options.iter().find(|l| l.contains("UCI_EngineAbout")).expect("about");
    assert!(about.starts_with("option name UCI_EngineAbout type string default Chariot "));
    let expected = [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Clear Hash type button",
        "option name Ponder type check default false",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name UCI_ShowWDL type check default false",
        "option name UCI_ShowCurrLine type check default false",
        "option name UCI_ShowRefutations type check default false",
        "option name UCI_AnalyseMode type check default false",
        "option name UCI_Chess960 type check default false",
        "option name UCI_Opponent type string default <empty>",
        about,
        "option name Debug Log File type string default <empty>",
        "option name Draw Moves type spin default 120 min 0 max 1000",
        "option name Repetition Rule type combo default asianrule var asianrule var checkban var alwaysdraw",
        "option name Chinese Notation type check default false",
        "option name Board Symbols type check default false",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1350 min 1350 max 2850",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name OwnBook type check default false",
        "option name Book File type string default <empty>",
        "option name Book Depth type spin default 255 min 1 max 1000",
        "option name Book Best Move type check default false",
        "option name Use NNUE type check default true",
        "option name EvalFile type string default <empty>",
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
        "option name UCI_Variant type combo default chess var chess var xiangqi",
    ];
    assert_eq!(options, expected);
    assert_eq!(lines.last().map(String::as_str), Some("uciok"), "uciok comes last: {lines:?}");
}

/// The dialogue at the end of the UCI spec, line for line (Nalimov options are not Chariot's,
/// so those two lines get an error each and change nothing).
#[test]
fn the_example_dialogue_of_the_spec() {
    let mut s = Session::start(&[]);
    s.send("uci");
    s.expect("id name Chariot");
    s.expect("id author");
    s.expect("option name Hash type spin");
    s.expect("uciok");
    let out = answer(&mut s, "setoption name Hash value 32");
    assert!(out.is_empty(), "{out:?}");
    one_error_naming(&answer(&mut s, "setoption name NalimovCache value 1"), "NalimovCache");
    one_error_naming(
        &answer(&mut s, "setoption name NalimovPath value d:\\tb;c\\tb"),
        "NalimovPath",
    );
    assert!(answer(&mut s, "ucinewgame").is_empty());
    assert!(answer(&mut s, "setoption name UCI_AnalyseMode value true").is_empty());
    s.send("position startpos moves e2e4 e7e5");
    s.send("go infinite");
    let first = s.expect("info depth 1 ");
    assert!(first.contains(" score cp ") && first.contains(" nodes ") && first.contains(" pv "));
    s.expect("info depth 4 ");
    nothing_within(&mut s, 300, "bestmove");
    s.send("stop");
    let (line, took) = s.expect_within(LONG, |l| l.starts_with("bestmove"));
    assert!(took < SOON, "bestmove {took:?} after stop");
    assert!(line.contains(" ponder "), "{line}");
    all_legal(&board::<Chess>(None, &["e2e4", "e7e5"]), &s.seen);
    s.send("quit");
    assert!(s.wait(Duration::from_secs(2)).success());
}

#[test]
fn info_lines_carry_every_field() {
    let mut s = uci();
    s.send("position startpos");
    let lines = search(&mut s, "go depth 7");
    let infos = iterations(&lines);
    assert_eq!(infos.len(), 7, "one line per depth: {lines:#?}");
    for (i, info) in infos.iter().enumerate() {
        let depth = number(info, "depth").expect("depth");
        assert_eq!(depth, i as i64 + 1);
        assert!(number(info, "seldepth").expect("seldepth") >= depth, "{info}");
        assert_eq!(number(info, "multipv"), Some(1), "{info}");
        assert!(number(info, "cp").is_some(), "{info}");
        for key in ["nodes", "nps", "hashfull", "time"] {
            assert!(number(info, key).is_some_and(|n| n >= 0), "{key} in {info}");
        }
        assert!(!info.contains("wdl") && !info.contains("bound"), "{info}");
    }
    let nodes: Vec<i64> = infos.iter().map(|l| number(l, "nodes").unwrap_or(0)).collect();
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
    assert!(lines.iter().all(|l| !l.contains("currline") && !l.contains("refutation")));
    all_legal(&Chess::startpos(), &lines);
}

/// An aspiration window that fails is reported with `lowerbound` or `upperbound`. The positions
/// are tactical (open lines against f7, a knight in the centre), so the score moves between
/// depths and at least one window fails.
#[test]
fn aspiration_fails_are_reported_as_bounds() {
    let mut s = uci();
    let mut bounds = 0;
    for fen in [
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "2r3k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ] {
        s.send(&format!("position fen {fen}"));
        let lines = search(&mut s, "go depth 10");
        for l in lines.iter().filter(|l| l.contains("bound ")) {
            assert!(l.contains(" lowerbound ") || l.contains(" upperbound "), "{l}");
            let depth = number(l, "depth").unwrap_or(0);
            assert!(depth >= 5, "aspiration starts at depth 5: {l}");
            bounds += 1;
        }
        all_legal(&board::<Chess>(Some(fen), &[]), &lines);
    }
    assert!(bounds > 0, "no aspiration fail reported: {:#?}", s.seen);
}
