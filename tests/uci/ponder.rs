//! Pondering: `ponderhit`, a miss, the ponder move, and the time spent pondering.

use crate::common::bestmove;
use crate::{
    BACK_RANK_MATE_IN_2, LONG, SOON, after, all_legal, board, iterations, nothing_within, number,
    pv, search, uci, until_bestmove,
};
use chariot_engine::chess::Chess;
use std::time::{Duration, Instant};

#[test]
fn ponder_hit_turns_into_a_timed_search_without_restarting() {
    let mut s = uci();
    s.send("setoption name Ponder value true");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go ponder wtime 3000 btime 3000 winc 0 binc 0");
    s.expect("info depth 3 ");
    // Far longer than the clock would allow: no answer while pondering.
    nothing_within(&mut s, 1200, "bestmove");
    let before = s.seen.len();
    let depth_before = s.seen.iter().filter_map(|l| number(l, "depth")).max().unwrap();
    s.send("ponderhit");
    let start = Instant::now();
    let lines = until_bestmove(&mut s, LONG);
    let took = start.elapsed();
    assert!(took < Duration::from_millis(1000), "the clock runs after ponderhit: {took:?}");
    let after_hit: Vec<i64> = s.seen[before..].iter().filter_map(|l| number(l, "depth")).collect();
    assert!(after_hit.iter().all(|d| *d >= depth_before), "restarted: {:#?}", &s.seen[before..]);
    all_legal(&board::<Chess>(None, &["e2e4", "e7e5"]), &lines);
}

#[test]
fn ponder_never_answers_early_even_with_a_mate_or_one_move() {
    let mut s = uci();
    for (fen, want) in [
        (BACK_RANK_MATE_IN_2, "d2d8"),
        // One legal move: the king must leave the check.
        ("7k/8/8/8/8/8/r7/K7 w - - 0 1", "a1a2"),
    ] {
        s.send(&format!("position fen {fen}"));
        s.send("go ponder wtime 100 btime 100");
        nothing_within(&mut s, 500, "bestmove");
        s.send("ponderhit");
        let (line, _) = s.expect_within(Duration::from_secs(2), |l| l.starts_with("bestmove"));
        assert!(line.starts_with(&format!("bestmove {want}")), "{line}");
        // Stopped instead of hit: answered at once, too.
        s.send("go ponder");
        nothing_within(&mut s, 300, "bestmove");
        s.send("stop");
        let (line, took) = s.expect_within(LONG, |l| l.starts_with("bestmove"));
        assert!(took < SOON, "{took:?}");
        assert!(line.starts_with(&format!("bestmove {want}")), "{line}");
    }
}

#[test]
fn ponder_miss_never_leaks_the_old_search() {
    let mut s = uci();
    s.send("setoption name Ponder value true");
    // The GUI expected 1... e5; the opponent played 1... c5.
    s.send("position startpos moves e2e4 e7e5");
    s.send("go ponder wtime 5000 btime 5000");
    s.expect("info depth 5 ");
    s.send("stop");
    let (_, took) = s.expect_within(LONG, |l| l.starts_with("bestmove"));
    assert!(took < SOON, "stop during ponder: {took:?}");
    all_legal(&board::<Chess>(None, &["e2e4", "e7e5"]), &s.seen);
    let before = s.seen.len();
    s.send("position startpos moves e2e4 c7c5");
    let lines = search(&mut s, "go wtime 5000 btime 5000");
    assert_eq!(lines.len(), s.seen.len() - before);
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{lines:#?}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 1 ")), "a new search: {lines:#?}");
    all_legal(&board::<Chess>(None, &["e2e4", "c7c5"]), &lines);
    // A new position and go straight after the stop, without waiting in between.
    s.send("position startpos moves d2d4 d7d5");
    s.send("go ponder wtime 5000 btime 5000");
    s.expect("info depth 3 ");
    s.send("stop");
    s.send("position startpos moves d2d4 g8f6");
    s.send("go depth 5");
    let old = until_bestmove(&mut s, LONG);
    all_legal(&board::<Chess>(None, &["d2d4", "d7d5"]), &old);
    let new = until_bestmove(&mut s, LONG);
    all_legal(&board::<Chess>(None, &["d2d4", "g8f6"]), &new);
    assert!(new.iter().any(|l| l.starts_with("info depth 5 ")));
}

#[test]
fn the_ponder_move_is_the_last_pv_second_move() {
    // Stopped at random moments, the answer is the last PV shown, and its ponder move that
    // PV's second move.
    let mut s = uci();
    for wait in [30, 70, 110, 160, 230, 310] {
        s.send("position startpos moves e2e4");
        s.send("go infinite");
        std::thread::sleep(Duration::from_millis(wait));
        s.send("stop");
        let lines = until_bestmove(&mut s, LONG);
        let last = iterations(&lines).last().map(|l| pv(l)).expect("an iteration");
        let answer = bestmove(&lines).expect("a move");
        assert_eq!(answer, last[0], "{lines:#?}");
        let ponder = lines.last().and_then(|l| after(l, "ponder"));
        if last.len() > 1 {
            assert_eq!(ponder, Some(last[1]), "{lines:#?}");
        }
    }
}

#[test]
fn a_ponderhit_right_after_a_bestmove_reaches_the_next_search() {
    // As python-chess plays with pondering: the moment a `bestmove` arrives it sends the
    // position with the expected reply, `go ponder`, and (the reply came at once) `ponderhit`.
    // The engine could still be wrapping up the answered search and spend the `ponderhit` on
    // it; the ponder search then waited for a ponderhit that had come and gone, forever.
    let mut s = uci();
    s.send("position startpos");
    s.send("go depth 1");
    for round in 0..200 {
        s.expect("bestmove");
        s.send(&format!(
            "position startpos moves e2e4 e7e5\ngo ponder wtime 10000 btime 10000 depth {}\n\
             ponderhit",
            1 + round % 2
        ));
    }
    s.expect_within(Duration::from_secs(10), |l| l.starts_with("bestmove"));
}

/// Time spent pondering on the move that was played counts, as in Stockfish: with the plan
/// (about 3.3 s) used up by 4 s of pondering, `ponderhit` is answered at once.
#[test]
fn pondering_time_counts_after_a_ponderhit() {
    let mut s = uci();
    s.send("setoption name Ponder value true");
    s.send("position startpos moves e2e4");
    s.send("go ponder wtime 59000 btime 59000 winc 1000 binc 1000");
    nothing_within(&mut s, 4000, "bestmove");
    let start = Instant::now();
    s.send("ponderhit");
    s.expect_within(LONG, |l| l.starts_with("bestmove "));
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "answered {:?} after ponderhit",
        start.elapsed()
    );
}

/// A `ponderhit` for a search that does not ponder changes nothing (it used to restart the
/// clock each time).
#[test]
fn stray_ponderhits_do_not_extend_a_search() {
    let mut s = uci();
    s.send("position startpos");
    let start = Instant::now();
    s.send("go movetime 1000");
    for _ in 0..3 {
        std::thread::sleep(Duration::from_millis(300));
        s.send("ponderhit");
    }
    s.expect_within(LONG, |l| l.starts_with("bestmove "));
    // Restarted at 900 ms the search would end near 1.9 s.
    assert!(start.elapsed() < Duration::from_millis(1600), "took {:?}", start.elapsed());
}
