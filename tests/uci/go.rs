//! `go` and its limits: any subset in any order, `searchmoves`, `mate`, `perft`, no legal move,
//! and the largest numbers.

use crate::common::bestmove;
use crate::{
    LONG, MATE_IN_2, SOON, after, all_legal, board, errors, iterations, legal_line, nothing_within,
    number, one_error_naming, perft, pv, search, uci,
};
use chariot_engine::chess::Chess;
use std::time::{Duration, Instant};

#[test]
fn go_takes_any_subset_in_any_order_and_skips_unknown_words() {
    let mut s = uci();
    s.send("position startpos moves e2e4");
    let after_e4 = board::<Chess>(None, &["e2e4"]);

    let lines = search(&mut s, "go depth 3");
    assert_eq!(iterations(&lines).last().and_then(|l| number(l, "depth")), Some(3));
    all_legal(&after_e4, &lines);

    let lines = search(&mut s, "go frobnicate depth 4 quux");
    assert_eq!(iterations(&lines).last().and_then(|l| number(l, "depth")), Some(4));
    assert!(errors(&lines).is_empty(), "unknown words in go are skipped: {lines:#?}");

    let lines = search(&mut s, "go nodes 3000");
    for info in iterations(&lines) {
        assert!(number(info, "nodes").unwrap() <= 3000, "{info}");
    }
    all_legal(&after_e4, &lines);

    let start = Instant::now();
    let lines = search(&mut s, "go movetime 400");
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(300) && took < Duration::from_secs(3), "{took:?}");
    all_legal(&after_e4, &lines);

    // Clocks in every order, with increments and moves to go: black has 1 s of 100 s.
    for go in [
        "go wtime 100000 btime 1000 winc 0 binc 0",
        "go binc 0 movestogo 3 btime 1000 wtime 100000 winc 100",
        "go btime 1000 wtime 100000",
    ] {
        let start = Instant::now();
        let lines = search(&mut s, go);
        assert!(start.elapsed() < Duration::from_millis(1500), "{go}: {:?}", start.elapsed());
        all_legal(&after_e4, &lines);
    }

    // `infinite` and a bare `go` wait for `stop`.
    for go in ["go infinite", "go", "go searchmoves e7e5 d7d5 infinite"] {
        s.send(go);
        nothing_within(&mut s, 300, "bestmove");
        s.send("stop");
        let (line, took) = s.expect_within(LONG, |l| l.starts_with("bestmove"));
        assert!(took < SOON, "{go}: {took:?}");
        assert!(legal_line(&after_e4, &[line[9..].split(' ').next().unwrap()]), "{line}");
    }
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut s = uci();
    s.send("position startpos");
    let lines = search(&mut s, "go searchmoves a2a3 h2h3 depth 5");
    let best = bestmove(&lines).unwrap();
    assert!(best == "a2a3" || best == "h2h3", "{best}");
    for info in iterations(&lines) {
        let first = pv(info)[0];
        assert!(first == "a2a3" || first == "h2h3", "{info}");
    }
    // One move only, given last.
    let lines = search(&mut s, "go depth 3 searchmoves g1h3");
    assert_eq!(bestmove(&lines).as_deref(), Some("g1h3"));
    // An illegal one is reported by name and the legal ones still count.
    let lines = search(&mut s, "go depth 3 searchmoves e2e5 b1c3");
    one_error_naming(&lines, "e2e5");
    assert_eq!(bestmove(&lines).as_deref(), Some("b1c3"));
    // With MultiPV the lines come from the given moves only.
    s.send("setoption name MultiPV value 3");
    let lines = search(&mut s, "go depth 4 searchmoves a2a3 b2b3");
    // The depth field itself: a depth-3 line may hold "seldepth 4".
    let at4: Vec<_> =
        iterations(&lines).into_iter().filter(|l| number(l, "depth") == Some(4)).collect();
    assert_eq!(at4.len(), 2, "two lines for two moves: {lines:#?}");
}

#[test]
fn go_mate_finds_the_mate_and_stops() {
    let mut s = uci();
    s.send(&format!("position fen {MATE_IN_2}"));
    let start = Instant::now();
    let lines = search(&mut s, "go mate 2");
    assert!(start.elapsed() < Duration::from_secs(5));
    let last = iterations(&lines).last().copied().cloned().expect("info");
    assert_eq!(after(&last, "mate"), Some("2"), "{last}");
    assert_eq!(pv(&last)[..1], ["a1a6"], "{last}");
    assert!(number(&last, "depth").unwrap() <= 5, "go mate 2 stops at the mate: {last}");
    assert_eq!(bestmove(&lines).as_deref(), Some("a1a6"));
    all_legal(&board::<Chess>(Some(MATE_IN_2), &[]), &lines);
    // The side being mated sees a negative mate.
    s.send(&format!("position fen {MATE_IN_2} moves a1a6"));
    let lines = search(&mut s, "go depth 4");
    let last = iterations(&lines).last().copied().cloned().expect("info");
    assert_eq!(after(&last, "mate"), Some("-1"), "{last}");
}

#[test]
fn go_perft_divides_and_counts() {
    let mut s = uci();
    s.send("position startpos");
    let (total, divide) = perft(&mut s, 3);
    assert_eq!(total, 8_902);
    assert_eq!(divide.len(), 20);
    let sum: u64 =
        divide.iter().map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 8_902);
    assert!(!s.seen.iter().any(|l| l.starts_with("bestmove")));
}

#[test]
fn no_legal_move_answers_bestmove_none() {
    let mut s = uci();
    // Checkmated.
    s.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    let lines = search(&mut s, "go depth 5");
    assert_eq!(lines, ["info depth 0 score mate 0", "bestmove (none)"]);
    // Stalemated.
    s.send("position fen k7/8/1Q6/8/8/8/8/7K b - - 0 1");
    let lines = search(&mut s, "go wtime 1000 btime 1000");
    assert_eq!(lines, ["info depth 0 score cp 0", "bestmove (none)"]);
    // Even here, pondering and `infinite` wait for their release.
    for (go, release) in [("go ponder wtime 1000 btime 1000", "ponderhit"), ("go infinite", "stop")]
    {
        s.send(go);
        s.expect("info depth 0 score cp 0");
        nothing_within(&mut s, 200, "bestmove");
        s.send(release);
        let (line, took) = s.expect_within(LONG, |l| l.starts_with("bestmove"));
        assert_eq!(line, "bestmove (none)");
        assert!(took < SOON, "{took:?}");
    }
}

/// The largest numbers a GUI could send are clamped, not overflowed: every `go` is answered.
#[test]
fn extreme_numbers_in_go_are_answered() {
    let mut s = uci();
    s.send("position startpos");
    let lines = search(&mut s, "go mate 2147483647 movetime 200");
    assert!(bestmove(&lines).is_some(), "{lines:?}");
    let lines = search(&mut s, "go wtime 1000 btime 1000 winc 9223372036854775807");
    assert!(bestmove(&lines).is_some(), "{lines:?}");
}
