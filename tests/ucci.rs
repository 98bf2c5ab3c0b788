//! UCCI, driven through pipes: the examples of the UCCI texts and the engine's states.

mod common;

use chariot_engine::game::Game;
use chariot_engine::xiangqi::Xiangqi;
use common::{Session, bestmove, budget_ms, run_script};
use std::time::Duration;

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn ucci() -> Session {
    let mut s = Session::start(&[]);
    s.send("ucci");
    s.expect("ucciok");
    s
}

fn legal(fen: &str, moves: &[&str], answer: &str) -> bool {
    let mut board = Xiangqi::from_fen(fen).expect("fen");
    for m in moves {
        let m = board.parse_move(m).expect("setup move");
        board.make(m);
    }
    board.parse_move(answer).is_ok()
}

fn no_line_within(s: &mut Session, ms: u64, prefix: &str) {
    // Anything printed meanwhile must not be an answer.
    let before = s.seen.len();
    let deadline = std::time::Instant::now() + Duration::from_millis(ms);
    while std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    s.send("isready");
    s.expect("readyok");
    let new = &s.seen[before..];
    assert!(!new.iter().any(|l| l.starts_with(prefix)), "unexpected {prefix}: {new:#?}");
}

#[test]
fn boot_announces_the_spec_options() {
    let (lines, status) = run_script(&[], "ucci\nquit\n");
    assert!(status.success());
    for expected in [
        "id name Chariot",
        "id copyright",
        "id author",
        "id user",
        "option usemillisec type check default false",
        "option batch type check default false",
        "option dualtime type label",
        "option drawmoves type spin min 0 max 1000 default 120",
        "option repetition type combo var asianrule var checkban var alwaysdraw default asianrule",
        "ucciok",
        "bye",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(expected)), "missing {expected}: {lines:?}");
    }
    assert!(!lines.iter().any(|l| l.starts_with("option name")), "UCCI options have no 'name'");
}

/// The spec's ponder example, with its clock scaled down from 300 s to 3 s: the hit.
#[test]
fn ponder_example_hit() {
    let mut s = ucci();
    s.send("setoption usemillisec true");
    s.send("setoption usebook false");
    s.send(&format!("position fen {START}"));
    s.send("go time 3000 increment 0");
    let first = s.expect("bestmove");
    assert!(first.contains(" ponder "), "{first}");
    s.send(&format!("position fen {START} moves b0c2 b9c7"));
    s.send("go ponder time 2950 increment 0");
    no_line_within(&mut s, 400, "bestmove");
    s.send("ponderhit");
    let (line, took) = s.expect_within(Duration::from_secs(3), |l| l.starts_with("bestmove"));
    let mv = line.split_whitespace().nth(1).expect("move");
    assert!(legal(START, &["b0c2", "b9c7"], mv), "{line}");
    assert!(took < Duration::from_millis(2000), "ponderhit must start the clock: {took:?}");
}

/// The spec's ponder example: the miss (`stop`, a new position, `go`).
#[test]
fn ponder_example_miss() {
    let mut s = ucci();
    s.send("setoption usemillisec true");
    s.send(&format!("position fen {START} moves b0c2 b9c7"));
    s.send("go ponder time 2950 increment 0");
    std::thread::sleep(Duration::from_millis(300));
    s.send("stop");
    let (_, took) = s.expect_within(Duration::from_secs(1), |l| l.starts_with("bestmove"));
    assert!(took < Duration::from_secs(1), "stop answers at once: {took:?}");
    s.send(&format!("position fen {START} moves b0c2 c6c5"));
    s.send("go time 2950 increment 0");
    let line = s.expect("bestmove");
    let mv = line.split_whitespace().nth(1).expect("move");
    assert!(legal(START, &["b0c2", "c6c5"], mv), "{line}");
}

/// The batch example: with `batch` on, input is not read while thinking, so both searches
/// answer in order before `quit` is read.
#[test]
fn batch_example() {
    let fen2 = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let input = format!(
        "ucci\nsetoption batch true\nposition fen {START}\ngo depth 7\nposition fen {fen2}\n\
         go depth 7\nquit\n"
    );
    let (lines, status) = run_script(&[], &input);
    assert!(status.success());
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 2, "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 7")));
    assert_eq!(lines.last().map(String::as_str), Some("bye"));
    let second = answers[1].split_whitespace().nth(1).expect("move");
    assert!(legal(fen2, &[], second), "{second}");
}

/// Batch mode holds the reader for a timed `go`, but not while a search that only input can
/// end runs ahead of it: a `go` queued behind `go infinite` (or `go ponder`) would otherwise
/// wait for an answer that waits for the `stop` the reader never reads (found by the fuzzer).
#[test]
fn batch_mode_reads_on_while_a_search_waits_for_input() {
    for (open, end) in [("go infinite", "stop"), ("go ponder", "ponderhit")] {
        let input = format!("ucci\nsetoption batch true\n{open}\ngo depth 1\n{end}\nquit\n");
        let (lines, status) = run_script(&[], &input);
        assert!(status.success(), "{open}: {lines:?}");
        let answers = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(answers, 2, "{open}: {lines:?}");
        assert_eq!(lines.last().map(String::as_str), Some("bye"), "{open}");
    }
}

/// The five `position` lines of the capture example, each followed by a search.
#[test]
fn capture_example_positions() {
    let after = "rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2";
    let cases: [(&str, &[&str]); 5] = [
        (START, &[]),
        (START, &["h2e2"]),
        (START, &["h2e2", "h7e7"]),
        (after, &[]),
        (after, &["d9e8"]),
    ];
    let mut input = String::from("ucci\n");
    for (fen, moves) in &cases {
        input.push_str(&format!("position fen {fen}"));
        if !moves.is_empty() {
            input.push_str(&format!(" moves {}", moves.join(" ")));
        }
        input.push_str("\ngo depth 4\n");
    }
    let (lines, _) = run_script(&[], &input);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let answers: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect();
    assert_eq!(answers.len(), 5, "{lines:?}");
    for ((fen, moves), answer) in cases.iter().zip(answers) {
        assert!(legal(fen, moves, answer), "{answer} after {moves:?}");
    }
}

const BAN_FEN: &str =
    "1r2kab1r/2c1a4/n1c1b1n2/4p2N1/p1p6/1C4P2/P1P1P4/2N1B3C/4A4/1RBAK2R1 w - - 0 1";

/// The banmoves example: the banned chase is never the answer, until the next `position`.
#[test]
fn banmoves_example() {
    let mut s = ucci();
    for _ in 0..2 {
        s.send(&format!("position fen {BAN_FEN} moves h6i4 i9h9 i4h6 h9i9"));
        s.send("banmoves h6i4");
        s.send("go depth 6");
        let line = s.expect("bestmove");
        assert_ne!(line.split_whitespace().nth(1), Some("h6i4"), "{line}");
    }
    s.send("banmoves z9z9");
    s.expect("info message error: banmoves");
}

#[test]
fn all_moves_banned_means_nobestmove() {
    // Red's general on d0 has two moves here; ban both.
    let fen = "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let mut board = Xiangqi::from_fen(fen).expect("fen");
    let mut list = chariot_engine::game::MoveList::new();
    board.legal_moves(&mut list);
    let all: Vec<String> = list.iter().map(|&m| board.move_text(m)).collect();
    board.make(list.as_slice()[0]);
    let (lines, _) = run_script(
        &[],
        &format!("ucci\nposition fen {fen}\nbanmoves {}\ngo depth 3\n", all.join(" ")),
    );
    assert!(lines.iter().any(|l| l == "nobestmove"), "{lines:?}");
}

/// The league minimum: position with moves, banmoves, a full clock, quit.
#[test]
fn league_minimum() {
    let mut s = ucci();
    s.send(&format!("position fen {BAN_FEN} moves h6i4 i9h9 i4h6 h9i9"));
    s.send("banmoves h6i4");
    s.send("go time 2 increment 1 opptime 2 oppincrement 1");
    let line = s.expect("bestmove");
    let mv = line.split_whitespace().nth(1).expect("move");
    assert_ne!(mv, "h6i4");
    assert!(legal(BAN_FEN, &["h6i4", "i9h9", "i4h6", "h9i9"], mv));
    s.send("quit");
    s.expect_within(Duration::from_secs(1), |l| l == "bye");
    assert!(s.wait(Duration::from_secs(1)).success());
}

#[test]
fn seconds_unless_millisec() {
    let mut s = ucci();
    s.send("position startpos");
    s.send("go time 5");
    let (_, took) = s.expect_within(Duration::from_secs(6), |l| l.starts_with("bestmove"));
    assert!(took > Duration::from_millis(50) && took < Duration::from_secs(5), "{took:?}");
    s.send("setoption usemillisec true");
    s.send("go time 300");
    let (_, took) = s.expect_within(Duration::from_secs(2), |l| l.starts_with("bestmove"));
    // Well within a second (seconds would take minutes), generous for a busy machine.
    assert!(took < Duration::from_secs(1), "300 ms on the clock: {took:?}");
}

/// The hard limit of a `go`, from the `debug` line that reports the plan, and how long the
/// answer took.
fn hard_limit(s: &mut Session, go: &str) -> (u64, Duration) {
    let start = std::time::Instant::now();
    s.send(go);
    let (line, _) =
        s.expect_within(Duration::from_secs(10), |l| l.starts_with("info message time budget:"));
    s.expect_within(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    (budget_ms(&line, "hard"), start.elapsed())
}

/// The last move before the time control keeps a margin (the plan was once 2970 ms of 3 s).
#[test]
fn the_last_move_before_the_control_keeps_a_margin() {
    let mut s = ucci();
    s.send("setoption debug true");
    s.send("position startpos");
    let (hard, took) = hard_limit(&mut s, "go time 3 movestogo 1");
    assert!(hard <= 2500, "3 s on the clock, one move to go: planned {hard} ms");
    // Generous for a busy machine: the answer comes within the clock.
    assert!(took < Duration::from_secs(3), "3 s on the clock, one move to go: took {took:?}");
}

/// UCCI has a move overhead too (`moveoverhead`), kept back from the clock as in UCI.
#[test]
fn moveoverhead_is_kept_back_from_the_clock() {
    let mut s = ucci();
    s.send("setoption debug true");
    s.send("setoption usemillisec true");
    s.send("position startpos");
    s.send("setoption moveoverhead 0");
    let (free, _) = hard_limit(&mut s, "go time 1500 movestogo 1");
    s.send("setoption moveoverhead 400");
    let (kept, _) = hard_limit(&mut s, "go time 1500 movestogo 1");
    // The last move's plan is four fifths of what the overhead leaves: 320 ms less.
    assert!(kept + 300 <= free, "overhead 0: hard {free} ms; overhead 400: hard {kept} ms");
}

#[test]
fn dual_time_and_nodes() {
    let (lines, _) = run_script(
        &[],
        "ucci\nsetoption usemillisec true\nposition startpos\ngo wtime 2000 btime 2000 increment 0\n\
         go nodes 5000\n",
    );
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 2, "{lines:?}");
}

#[test]
fn stop_while_idle_and_quit_while_thinking() {
    let mut s = ucci();
    s.send("stop");
    s.expect_within(Duration::from_secs(1), |l| l == "nobestmove");
    s.send("isready");
    s.expect("readyok");
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    s.send("quit");
    let (_, took) = s.expect_within(Duration::from_secs(1), |l| l == "bye");
    assert!(took < Duration::from_secs(1), "bye after {took:?}");
    assert!(s.wait(Duration::from_secs(2)).success());
    let answers = s.seen.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(answers, 1, "{:#?}", s.seen);
}

#[test]
fn go_depth_0_is_the_static_score() {
    let (lines, _) = run_script(&[], "ucci\nposition startpos\ngo depth 0\n");
    let info = lines.iter().find(|l| l.starts_with("info depth 0 score ")).expect("score");
    let score: i32 = info.rsplit(' ').next().and_then(|s| s.parse().ok()).expect("a bare score");
    assert!(score.abs() < 100, "{info}");
    assert_eq!(lines.last().map(String::as_str), Some("nobestmove"));
}

#[test]
fn scores_are_bare_and_mates_are_elephanteye_style() {
    // Red mates at once with b0b9: the chariot on a8 covers the general's rank-8 escapes.
    let (lines, _) =
        run_script(&[], "ucci\nposition fen 4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1\ngo depth 4\n");
    let last = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("info");
    assert!(last.contains("score 9999 "), "{last}");
    // Mated sides see the negative.
    let (lines, _) =
        run_script(&[], "ucci\nposition fen 4k4/9/9/9/9/9/9/9/4r4/3K5 w - - 0 1\ngo depth 3\n");
    assert!(lines.iter().any(|l| l == "info depth 0 score -10000"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "nobestmove"));
}

#[test]
fn draw_offers_are_accepted_only_when_not_better() {
    // Only generals and an advisor: nobody can win.
    let dead = "3k5/9/9/9/9/9/9/9/9/4KA3 w - - 0 1";
    let (lines, _) = run_script(&[], &format!("ucci\nposition fen {dead}\ngo draw depth 6\n"));
    let line = lines.iter().find(|l| l.starts_with("bestmove")).expect("bestmove");
    assert!(line.ends_with(" draw"), "{line}");
    // A chariot up: no draw.
    let won = "3k5/9/9/9/9/9/9/9/9/R3KA3 w - - 0 1";
    let (lines, _) = run_script(&[], &format!("ucci\nposition fen {won}\ngo draw depth 6\n"));
    let line = lines.iter().find(|l| l.starts_with("bestmove")).expect("bestmove");
    assert!(!line.contains("draw"), "{line}");
    // Offered while pondering, with ponderhit.
    let mut s = ucci();
    s.send(&format!("position fen {dead}"));
    s.send("go ponder depth 6");
    std::thread::sleep(Duration::from_millis(100));
    s.send("ponderhit draw");
    let line = s.expect("bestmove");
    assert!(line.ends_with(" draw"), "{line} {:?}", s.seen);
}

#[test]
fn the_engine_offers_a_draw_in_a_dead_draw() {
    let dead = "3k5/9/9/9/9/9/9/9/9/4KA3 w - - 0 1";
    let input = format!("ucci\nposition fen {dead}\ngo depth 9\ngo depth 9\ngo depth 9\n");
    let (lines, _) = run_script(&[], &input);
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 3);
    assert!(answers[2].ends_with(" draw"), "{answers:?}");
}

#[test]
fn resigns_when_mated_unless_told_not_to() {
    // Red can only delay mate.
    let lost = "4k4/9/9/9/9/9/9/r8/9/3K1r3 w - - 0 1";
    let (lines, _) = run_script(&[], &format!("ucci\nposition fen {lost}\ngo depth 6\n"));
    let line = bestmove_line(&lines);
    assert!(line.ends_with(" resign"), "{line}");
    let (lines, _) = run_script(
        &[],
        &format!("ucci\nsetoption resign false\nposition fen {lost}\ngo depth 6\n"),
    );
    let line = bestmove_line(&lines);
    assert!(!line.contains("resign"), "{line}");
    assert!(bestmove(&lines).is_some());
}

fn bestmove_line(lines: &[String]) -> String {
    lines.iter().find(|l| l.starts_with("bestmove")).cloned().expect("a bestmove")
}

#[test]
fn bad_input_is_reported_and_nothing_is_half_applied() {
    let (lines, status) = run_script(
        &[],
        "ucci\nposition fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1\n\
         go depth 3\nposition startpos moves h2e2 h9h0\ngo depth 3\nfrobnicate\ngo depth x\n\
         setoption frobnicate 3\nsetoption hashsize lots\n",
    );
    assert!(status.success());
    let errors: Vec<&String> =
        lines.iter().filter(|l| l.starts_with("info message error:")).collect();
    assert!(errors.iter().any(|l| l.contains("RNBAKABNX")), "{lines:?}");
    assert!(errors.iter().any(|l| l.contains("h9h0")), "{lines:?}");
    assert!(errors.iter().any(|l| l.contains("'frobnicate'")), "{lines:?}");
    assert!(errors.iter().any(|l| l.contains("'x'")), "{lines:?}");
    assert!(errors.iter().any(|l| l.contains("'lots'")), "{lines:?}");
    // Unknown options are ignored without harm (no error for `setoption frobnicate 3`); each
    // `go` on a rejected position says why it does not search.
    assert_eq!(errors.len(), 8, "{errors:?}");
    // Both searches on rejected positions answer nobestmove; the `go depth x` answers too.
    assert_eq!(lines.iter().filter(|l| *l == "nobestmove").count(), 3, "{lines:?}");
}

#[test]
fn end_of_input_during_a_search_answers() {
    let (lines, status) = run_script(&[], "ucci\nposition startpos\ngo infinite\n");
    assert!(status.success());
    assert!(bestmove(&lines).is_some(), "{lines:?}");
}

#[test]
fn info_lines_once_a_second() {
    let mut s = ucci();
    s.send("setoption usemillisec true");
    s.send("position startpos");
    s.send("go time 90000");
    s.expect_within(Duration::from_millis(2500), |l| {
        l.starts_with("info nodes ") && l.contains(" time ")
    });
    s.expect_within(Duration::from_millis(1500), |l| l.starts_with("info currmove "));
    s.send("stop");
    s.expect("bestmove");
}

/// The `cchess` package's UcciEngine, a real client written elsewhere, drives Chariot.
#[test]
fn cchess_client_plays() {
    common::python_client("cchess", "cchess_client.py");
}

/// Runs one UCCI search with the given repetition rules and returns the last `info depth`
/// score and the best move.
fn search_with_rules(rules: &str, position: &str, depth: u32) -> (i32, String) {
    let script =
        format!("ucci\nsetoption repetition {rules}\nposition {position}\ngo depth {depth}\n");
    let (lines, status) = run_script(&[], &script);
    assert!(status.success(), "{lines:#?}");
    let best = bestmove(&lines).unwrap_or_else(|| panic!("no bestmove: {lines:#?}"));
    let score = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .filter_map(|l| l.split_whitespace().skip_while(|w| *w != "score").nth(1))
        .filter_map(|s| s.parse().ok())
        .next_back()
        .unwrap_or_else(|| panic!("no score: {lines:#?}"));
    (score, best)
}

#[test]
fn search_avoids_a_forbidden_perpetual_check() {
    // Red, a chariot against chariot, horse and two soldiers, has checked on the d- and
    // e-files in turn and the position has come round once. Checking again (d5e5) would be a
    // perpetual check: a draw where repetitions always draw, a loss under the asian rule.
    let position = "fen 3k4n/9/9/9/R8/9/9/9/8r/pp3K3 w - - 0 1 \
                    moves a5d5 d9e9 d5e5 e9d9 e5d5 d9e9";
    let (score, best) = search_with_rules("alwaysdraw", position, 6);
    assert_eq!(best, "d5e5", "the repetition is red's best chance (score {score})");
    let (score, best) = search_with_rules("asianrule", position, 6);
    assert_ne!(best, "d5e5", "under the asian rule the check repeats and loses (score {score})");
    assert!(score > -9000, "red is worse but not lost: {score}");
    let (_, best) = search_with_rules("checkban", position, 6);
    assert_ne!(best, "d5e5", "checkban forbids perpetual check too");
}

#[test]
fn search_steers_the_opponent_into_a_forbidden_chase() {
    // Red's chariot has chased black's lone cannon up and down the a-file; red is a horse and
    // a cannon up. Black's a6a5 brings back a position of the chase with red to move, so that
    // red, who chased with every move of the cycle, loses under the asian rule.
    let position = "fen 5k3/9/9/9/cR7/9/9/9/7C1/3K4H b - - 0 1 \
                    moves a5a6 b5b6 a6a5 b6b5 a5a6 b5b6";
    let (score, best) = search_with_rules("asianrule", position, 5);
    assert_eq!(best, "a6a5", "score {score}");
    assert!(score >= 9000, "reaching the repetition wins: {score}");
    // Under checkban a chase is only a repetition, and black stays a horse and a cannon down.
    let (score, _) = search_with_rules("checkban", position, 5);
    assert!(score < 9000, "no win without the chase rule: {score}");
}

#[test]
fn a_search_stopped_after_a_root_fail_high_keeps_its_score() {
    // Found in a match against Fairy-Stockfish: black was better (+160) but a stop that cut
    // short the re-search after a root fail high left the new best move scored -INFINITE, and
    // the engine resigned. Stopping by node count at many points of the same searches (the
    // table carrying over, as in a game) reproduced it twice in these 40 searches.
    let position = "position fen 2b2k3/9/4ca3/9/9/6B2/N8/4B4/4nK3/9 w - - 0 75 moves a3c4 e1c2 \
                    c4d6 e7e6 d6b7 e6e8 f1f0 c2e3 f0e0 c9e7 e0f0 e3g2 f0e0 e7g9 e0d0 g2e1 d0d1 \
                    f9e9 b7d6 e9d9 g4i2 e8e7 i2g4 f7e8 g4i2 e1g2 i2g0";
    let mut script = String::from("ucci\n");
    for nodes in (2000..6000).step_by(97) {
        script.push_str(&format!("{position}\ngo nodes {nodes}\n"));
    }
    let (lines, status) = run_script(&[], &script);
    assert!(status.success(), "{lines:#?}");
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 42, "one answer per go");
    for answer in answers {
        assert!(!answer.ends_with("resign"), "resigned a better position: {answer}");
    }
}

#[test]
fn zero_is_the_engines_choice_and_bad_values_name_the_range() {
    let mut s = ucci();
    let answer = |s: &mut Session, line: &str| {
        let before = s.seen.len();
        s.send(line);
        s.send("isready");
        s.expect("readyok");
        s.seen[before..s.seen.len() - 1].to_vec()
    };
    // The UCCI text reserves 0 for "let the engine choose".
    assert!(answer(&mut s, "setoption hashsize 0").is_empty());
    assert!(answer(&mut s, "setoption threads 0").is_empty());
    for (line, expected) in [
        ("setoption usemillisec maybe", "true or false"),
        ("setoption threads -1", "from 0 to 256"),
        ("setoption hashsize 99999999", "from 0 to 65536"),
    ] {
        let out = answer(&mut s, line);
        assert_eq!(out.len(), 1, "{line}: {out:#?}");
        assert!(out[0].starts_with("info message error: ") && out[0].contains(expected), "{out:?}");
    }
    // Unknown words in go are named; the search still ends on its limit.
    s.send("position startpos");
    s.send("go depth 2 banana");
    let (warning, _) = s.expect_within(Duration::from_secs(10), |l| l.starts_with("info message"));
    assert!(warning.contains("warning") && warning.contains("'banana'"), "{warning}");
    s.expect_within(Duration::from_secs(10), |l| l.starts_with("bestmove"));
}

/// ElephantEye's `probe`: the table's entry for a position, which does not become the
/// session's; without an entry, the quiescence score at depth 0.
#[test]
fn probe_shows_the_table_entry_and_leaves_the_position() {
    let mut s = ucci();
    let probe = |s: &mut Session, line: &str| {
        s.send(line);
        s.expect_within(Duration::from_secs(10), |l| {
            l.starts_with("pophash") || l.contains("error")
        })
        .0
    };
    // No entry yet: the quiescence score (near level at the start), as both bounds at depth 0.
    let start = probe(&mut s, "probe startpos");
    let w: Vec<&str> = start.split_whitespace().collect();
    assert_eq!(w.len(), 9, "{start}");
    let fixed = [w[0], w[1], w[3], w[4], w[5], w[7], w[8]];
    assert_eq!(
        fixed,
        ["pophash", "lowerbound", "depth", "0", "upperbound", "depth", "0"],
        "{start}"
    );
    assert_eq!(w[2], w[6], "{start}");
    assert!(w[2].parse::<i32>().is_ok_and(|v| v.abs() < 100), "{start}");
    s.send("position startpos moves h2e2");
    s.send("go depth 6");
    let (line, _) = s.expect_within(Duration::from_secs(30), |l| l.starts_with("bestmove"));
    let best = line.split_whitespace().nth(1).expect("a move").to_string();
    // The reply the search expects is in the table, with a move and a depth.
    let line = probe(&mut s, &format!("probe startpos moves h2e2 {best}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert!(words.contains(&"bestmove") && words.contains(&"depth"), "{line}");
    let at = words.iter().position(|w| *w == "bestmove").expect("bestmove");
    assert!(legal(START, &["h2e2", &best], words[at + 1]), "{line}");
    assert!(probe(&mut s, "probe fen 9/9/9 w").contains("info message error: probe: invalid FEN"));
    // The session's position is still the one set: its search answers for black.
    s.send("go depth 2");
    let (answer, _) = s.expect_within(Duration::from_secs(10), |l| l.starts_with("bestmove"));
    let mv = answer.split_whitespace().nth(1).expect("a move");
    assert!(legal(START, &["h2e2"], mv), "{answer}");
}
