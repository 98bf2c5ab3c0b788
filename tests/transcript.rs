//! Transcript tests: the real binary, driven through pipes.

mod common;

use chariot_engine::chess::Chess;
use chariot_engine::game::Game;
use chariot_engine::xiangqi::Xiangqi;
use common::{Session, bestmove, run_script};
use std::time::Duration;

const XQ_MIDGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

fn legal_after<G: Game>(mut board: G, moves: &[&str], answer: &str) -> bool {
    for m in moves {
        let m = board.parse_move(m).expect("setup move");
        board.make(m);
    }
    board.parse_move(answer).is_ok()
}

#[test]
fn uci_depth_6_after_e2e4_answers_a_legal_move() {
    let (lines, status) = run_script(&[], "uci\nposition startpos moves e2e4\ngo depth 6\n");
    assert!(status.success());
    assert!(lines.iter().any(|l| l == "uciok"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id name Chariot")));
    assert!(lines.iter().any(|l| l.starts_with("info depth 6 ")), "{lines:?}");
    let best = bestmove(&lines).expect("a bestmove");
    assert!(legal_after(Chess::startpos(), &["e2e4"], &best), "illegal {best}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
}

#[test]
fn ucci_depth_6_answers_a_legal_move() {
    let input = format!("ucci\nposition fen {XQ_MIDGAME} moves b6c8\ngo depth 6\n");
    let (lines, status) = run_script(&[], &input);
    assert!(status.success());
    assert!(lines.iter().any(|l| l == "ucciok"), "{lines:?}");
    assert!(lines.iter().any(|l| l == "option usemillisec type check default false"));
    let info = lines.iter().find(|l| l.starts_with("info depth 6 ")).expect("depth 6 info");
    assert!(!info.contains(" cp "), "UCCI scores are bare: {info}");
    let best = bestmove(&lines).expect("a bestmove");
    let board = Xiangqi::from_fen(XQ_MIDGAME).expect("fen");
    assert!(legal_after(board, &["b6c8"], &best), "illegal {best}");
}

#[test]
fn movetime_is_kept() {
    let mut s = Session::start(&[]);
    s.send("uci");
    s.expect("uciok");
    s.send("position startpos");
    s.send("go movetime 1000");
    let (line, took) = s.expect_within(Duration::from_secs(5), |l| l.starts_with("bestmove"));
    assert!(took < Duration::from_secs(2), "{line} after {took:?}");
    assert!(took >= Duration::from_millis(800), "{line} after {took:?}");
}

#[test]
fn stop_and_isready_during_infinite_act_at_once() {
    for proto in ["uci", "ucci"] {
        let mut s = Session::start(&[]);
        s.send(proto);
        s.expect(if proto == "uci" { "uciok" } else { "ucciok" });
        s.send("position startpos");
        s.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        s.send("isready");
        let (_, took) = s.expect_within(Duration::from_secs(2), |l| l == "readyok");
        // A second, not milliseconds: the machine may be busy (exact latencies are for a
        // benchmark, not a test).
        assert!(took < Duration::from_secs(1), "readyok after {took:?}");
        std::thread::sleep(Duration::from_millis(200));
        s.send("stop");
        let (_, took) = s.expect_within(Duration::from_secs(2), |l| l.starts_with("bestmove"));
        assert!(took < Duration::from_secs(1), "bestmove after {took:?}");
        s.send("quit");
        assert!(s.wait(Duration::from_secs(2)).success());
    }
}

#[test]
fn end_of_input_finishes_bounded_and_stops_infinite_searches() {
    let (lines, status) =
        run_script(&[], "uci\ngo depth 5\nposition startpos moves d2d4\ngo infinite\n");
    assert!(status.success());
    let answers: Vec<_> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 2, "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 5 ")));
    let (lines, status) =
        run_script(&[], "ucci\nposition startpos\ngo ponder time 10 increment 0\n");
    assert!(status.success());
    assert!(bestmove(&lines).is_some(), "{lines:?}");
}

#[test]
fn before_a_protocol_lines_get_a_hint_and_the_engine_waits() {
    let (lines, status) = run_script(
        &[],
        "\n# a comment\nhello\nuci\r\nposition\tstartpos   moves  e2e4\ngo depth 2\n",
    );
    assert!(status.success());
    assert_eq!(lines.iter().filter(|l| l.contains("'uci'") && l.contains("'ucci'")).count(), 1);
    assert!(lines.iter().any(|l| l == "uciok"));
    let best = bestmove(&lines).expect("bestmove");
    assert!(legal_after(Chess::startpos(), &["e2e4"], &best));
}

#[test]
fn invalid_utf8_and_long_lines_do_not_hurt() {
    let mut s = Session::start(&[]);
    s.send("uci");
    s.expect("uciok");
    s.send_bytes(b"\xff\xfe garbage \xc3\x28\n");
    s.expect("info string error: unknown command");
    let long = format!("position startpos moves {}\n", "g1f3 g8f6 f3g1 f6g8 ".repeat(2_500));
    s.send_bytes(long.as_bytes());
    s.send("go depth 3");
    s.expect("bestmove");
}

#[test]
fn bad_position_is_reported_and_not_searched() {
    let (lines, _) = run_script(
        &[],
        "uci\nposition fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1\ngo depth 3\n\
         position startpos moves e2e4 e7e5 e1e3\ngo depth 3\n",
    );
    let errors: Vec<_> = lines.iter().filter(|l| l.starts_with("info string error")).collect();
    assert!(errors.iter().any(|l| l.contains("'x'")), "{lines:?}");
    assert!(errors.iter().any(|l| l.contains("e1e3")), "{lines:?}");
    assert_eq!(lines.iter().filter(|l| *l == "bestmove (none)").count(), 2, "{lines:?}");
}

#[test]
fn no_legal_move_answers_none() {
    // Fool's mate: white is checkmated.
    let (lines, _) =
        run_script(&[], "uci\nposition startpos moves f2f3 e7e5 g2g4 d8h4\ngo depth 5\n");
    assert!(lines.iter().any(|l| l == "info depth 0 score mate 0"), "{lines:?}");
    assert_eq!(bestmove(&lines).as_deref(), Some("(none)"));
    // Xiangqi: a side with no legal move has lost; UCCI says nobestmove.
    let (lines, _) =
        run_script(&[], "ucci\nposition fen 3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1\ngo depth 3\n");
    assert!(lines.iter().any(|l| l == "nobestmove"), "{lines:?}");
}

#[test]
fn ucci_specifics() {
    let mut s = Session::start(&[]);
    s.send("ucci");
    s.expect("ucciok");
    s.send("stop");
    s.expect_within(Duration::from_secs(2), |l| l == "nobestmove");
    s.send("position startpos");
    s.send("go depth 0");
    s.expect("info depth 0 score ");
    s.expect_within(Duration::from_secs(2), |l| l == "nobestmove");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    s.send("quit");
    s.expect("bestmove");
    s.expect_within(Duration::from_secs(1), |l| l == "bye");
    assert!(s.wait(Duration::from_secs(2)).success());
}

/// Parses an EPD perft line into the FEN and (depth, count) pairs.
fn epd(line: &str) -> Option<(String, Vec<(u32, u64)>)> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let mut parts = line.split(';');
    let fen = parts.next()?.trim().to_string();
    let counts = parts
        .filter_map(|p| {
            let (d, n) = p.trim().split_once(' ')?;
            Some((d.trim_start_matches('D').parse().ok()?, n.parse().ok()?))
        })
        .collect();
    Some((fen, counts))
}

/// `go perft` through the binary: every position of a suite at its deepest depth that stays
/// small, checking the divide lines add up and the total matches.
fn perft_over_pipes(proto: &str, suite: &str, max_count: u64) {
    let mut input = format!("{proto}\n");
    let mut expected = Vec::new();
    for (fen, counts) in suite.lines().filter_map(epd) {
        let Some(&(depth, count)) = counts.iter().rfind(|(_, n)| *n <= max_count) else {
            continue;
        };
        input.push_str(&format!("position fen {fen}\ngo perft {depth}\n"));
        expected.push(count);
    }
    let (lines, status) = run_script(&[], &input);
    assert!(status.success());
    let totals: Vec<u64> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("Nodes searched: "))
        .map(|n| n.parse().expect("count"))
        .collect();
    assert_eq!(totals, expected);
    // The divide lines of each block add up to its total.
    let mut sum = 0;
    for l in &lines {
        if let Some((_, n)) = l.split_once(": ")
            && !l.starts_with("Nodes")
            && let Ok(n) = n.parse::<u64>()
        {
            sum += n;
        }
    }
    assert_eq!(sum, expected.iter().sum::<u64>());
}

#[test]
fn perft_suites_over_uci_and_ucci() {
    perft_over_pipes("uci", include_str!("data/perft-chess.epd"), 200_000);
    perft_over_pipes("ucci", include_str!("data/perft-xiangqi.epd"), 200_000);
}
