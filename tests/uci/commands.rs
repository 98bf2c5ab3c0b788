//! The commands besides `go`: `debug`, `isready`, `register`, `stop` and `ponderhit` while
//! idle, `position`, commands during a search, `quit`, and the protocol chosen by arguments.

use crate::common;
use crate::common::run_script;
use crate::{
    LONG, SOON, all_legal, answer, board, legal_line, nothing_within, one_error_naming, perft,
    search, uci, until_bestmove,
};
use chariot_engine::chess::Chess;
use chariot_engine::game::Game;
use chariot_engine::xiangqi::Xiangqi;
use std::time::{Duration, Instant};

#[test]
fn debug_on_and_off_and_unknown_leading_words() {
    let mut s = uci();
    s.send("position startpos");
    // Debug output: the time plan of each search.
    let lines = search(&mut s, "go wtime 2000 btime 2000");
    assert!(!lines.iter().any(|l| l.contains("time budget")), "{lines:#?}");
    assert!(answer(&mut s, "joho debug on").is_empty());
    let lines = search(&mut s, "go wtime 2000 btime 2000");
    assert!(lines.iter().any(|l| l.starts_with("info string time budget")), "{lines:#?}");
    assert!(answer(&mut s, "debug off").is_empty());
    let lines = search(&mut s, "go wtime 2000 btime 2000");
    assert!(!lines.iter().any(|l| l.contains("time budget")), "{lines:#?}");
    // `debug` during a search acts at once and does not disturb it.
    s.send("go infinite");
    s.expect("info depth 2 ");
    s.send("debug on");
    nothing_within(&mut s, 200, "bestmove");
    s.send("stop");
    s.expect("bestmove");
    let lines = search(&mut s, "go depth 2");
    assert!(lines.iter().any(|l| l.starts_with("info string time budget")), "{lines:#?}");
    // Other unknown leading words.
    let out = answer(&mut s, "xyzzy plugh");
    one_error_naming(&out, "xyzzy");
    let out = answer(&mut s, "hello isready");
    assert!(out.is_empty(), "{out:?}");
    s.expect_within(LONG, |l| l == "readyok");
    assert_eq!(s.seen.iter().filter(|l| *l == "readyok").count(), 6, "{:#?}", s.seen);
}

#[test]
fn isready_is_answered_at_once_even_while_searching() {
    let mut s = uci();
    let (_, took) = {
        s.send("isready");
        s.expect_within(LONG, |l| l == "readyok")
    };
    assert!(took < SOON, "{took:?}");
    s.send("position startpos");
    for go in ["go infinite", "go ponder wtime 1000 btime 1000", "go depth 40"] {
        s.send(go);
        s.expect("info depth 3 ");
        s.send("isready");
        let (_, took) = s.expect_within(LONG, |l| l == "readyok");
        assert!(took < SOON, "readyok {took:?} into {go}");
        s.send("stop");
        let (_, took) = s.expect_within(LONG, |l| l.starts_with("bestmove"));
        assert!(took < SOON, "bestmove {took:?} after stop of {go}");
    }
}

#[test]
fn register_is_answered() {
    let mut s = uci();
    for line in ["register later", "register name Stefan MK code 4359874324"] {
        let out = answer(&mut s, line);
        assert_eq!(out, ["registration checking", "registration ok"], "{line}");
    }
}

#[test]
fn stop_and_ponderhit_while_idle_say_nothing() {
    let mut s = uci();
    assert!(answer(&mut s, "stop").is_empty());
    assert!(answer(&mut s, "ponderhit").is_empty());
    s.send("position startpos");
    let lines = search(&mut s, "go depth 2");
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    assert!(answer(&mut s, "stop").is_empty());
}

#[test]
fn position_forms_set_up_the_board() {
    let mut s = uci();
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let cases: [(&str, u32, u64); 6] = [
        ("position startpos", 3, 8_902),
        ("position startpos moves e2e4 e7e5 g1f3", 1, 29),
        (&*format!("position fen {kiwipete}"), 2, 2_039),
        (&*format!("position fen {kiwipete} moves e1g1"), 1, 43),
        // Castling also in king-takes-rook form, and promotions.
        (&*format!("position fen {kiwipete} moves e1h1 a6e2"), 1, 45),
        ("position fen 8/P6k/8/8/8/8/8/K7 w - - 0 1 moves a7a8q", 1, 3),
    ];
    for (line, depth, expected) in cases {
        assert!(answer(&mut s, line).is_empty(), "{line}");
        assert_eq!(perft(&mut s, depth).0, expected, "{line}");
    }
    // `position` replaces the position; moves are not appended to the last one.
    assert!(answer(&mut s, "position startpos moves e2e4 e7e5").is_empty());
    assert!(answer(&mut s, "position startpos moves d2d4").is_empty());
    let (_, divide) = perft(&mut s, 1);
    assert!(divide.iter().any(|l| l.starts_with("e7e5: ")), "{divide:?}");
}

#[test]
fn commands_during_a_search_wait_and_run_in_order() {
    let mut s = uci();
    s.send("position startpos");
    s.send("go infinite");
    s.expect("info depth 2 ");
    s.send("setoption name MultiPV value 2");
    s.send("ucinewgame");
    s.send("position startpos moves e2e4");
    s.send("go depth 3");
    s.send("isready");
    s.expect_within(Duration::from_secs(2), |l| l == "readyok");
    let before = s.seen.len();
    nothing_within(&mut s, 200, "bestmove");
    assert!(!s.seen[before..].iter().any(|l| l.contains("multipv 2")), "{:#?}", s.seen);
    s.send("stop");
    let first = until_bestmove(&mut s, LONG);
    all_legal(&Chess::startpos(), &first);
    let second = until_bestmove(&mut s, LONG);
    assert!(second.iter().any(|l| l.starts_with("info depth 3 ") && l.contains(" multipv 2 ")));
    all_legal(&board::<Chess>(None, &["e2e4"]), &second);
}

#[test]
fn quit_during_a_search_exits_at_once() {
    for (setup, go) in [
        ("position startpos", "go infinite"),
        ("position startpos", "go ponder wtime 10000 btime 10000"),
        ("setoption name Threads value 3", "go depth 60"),
        ("position startpos", "go movetime 100000"),
    ] {
        let mut s = uci();
        s.send(setup);
        s.send(go);
        s.expect("info depth 4 ");
        // A queued command does not hold `quit` up.
        s.send("position startpos moves e2e4");
        s.send("quit");
        let start = Instant::now();
        let status = s.wait(Duration::from_secs(5));
        assert!(status.success(), "{go}: {status:?}");
        assert!(start.elapsed() < SOON, "{go}: exit after {:?}", start.elapsed());
    }
}

/// `quit` stops the running search at once, but the commands read before it still run, in
/// order, and every `go` among them is answered.
#[test]
fn quit_runs_the_commands_queued_before_it() {
    let start = Instant::now();
    let (lines, status) = run_script(
        &[],
        "uci\nposition startpos\ngo depth 60\nd\ngo depth 60\nposition startpos moves e2e4\nd\nquit\n",
    );
    assert!(status.success());
    assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    let answers: Vec<_> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 2, "{lines:?}");
    let fens: Vec<_> = lines.iter().filter(|l| l.starts_with("Fen: ")).collect();
    assert_eq!(fens.len(), 2, "both `d` ran: {lines:?}");
    assert!(fens[1].contains("4P3"), "the second `d` after e2e4: {fens:?}");
}

/// Commands given as arguments imply UCI when none names a protocol (xiangqi with
/// `--variant xiangqi`); a second protocol command says the protocol is already chosen.
#[test]
fn the_protocol_is_implied_by_arguments_and_chosen_once() {
    let out = std::process::Command::new(common::binary())
        .args(["position startpos moves e2e4", "go depth 3"])
        .output()
        .expect("chariot runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let best = text.lines().find(|l| l.starts_with("bestmove ")).expect("a bestmove");
    assert!(legal_line(&board::<Chess>(None, &["e2e4"]), &[&best[9..13]]), "{best}");
    assert!(out.status.success(), "{:?}", out.status);
    // A refused command tells a script by the exit status; the rest still runs.
    for args in [&["position startpos", "banana", "go depth 1"][..], &["position fen 8/8 w", "go"]]
    {
        let out = std::process::Command::new(common::binary()).args(args).output().expect("runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {text}");
        assert!(text.contains("info string error: "), "{text}");
        assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
    }
    let out = std::process::Command::new(common::binary())
        .args(["--variant", "xiangqi", "position startpos", "go depth 3"])
        .output()
        .expect("chariot runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let best = text.lines().find(|l| l.starts_with("bestmove ")).expect("a bestmove");
    assert!(Xiangqi::startpos().parse_move(&best[9..13]).is_ok(), "{best}");

    let mut s = uci();
    let out = answer(&mut s, "ucci");
    assert_eq!(
        out,
        [
            "info string error: this session already speaks uci; 'ucci' cannot switch it (start Chariot again)"
        ]
    );
}
