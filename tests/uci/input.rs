//! Bad input and the end of input: refused positions and `go` arguments, garbage, huge lines,
//! invalid UTF-8, and input that ends during each kind of search.

use crate::common;
use crate::common::{bestmove, run_script};
use crate::{
    LONG, MATE_IN_2, all_legal, answer, board, errors, iterations, legal_line, nothing_within,
    number, one_error_naming, perft, search, uci, until_bestmove,
};
use chariot_engine::chess::Chess;
use chariot_engine::game::Game;
use std::time::{Duration, Instant};

#[test]
fn bad_positions_are_refused_by_name_and_nothing_is_half_applied() {
    let mut s = uci();
    for (line, token) in [
        ("position fen rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "X"),
        ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "x"),
        ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQZq - 0 1", "KQZq"),
        ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "e9"),
        ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "x"),
        (
            "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR",
        ),
        ("position startpos moves e2e4 e7e5 e1e3", "e1e3"),
        ("position startpos moves e2e4 zz e7e5", "zz"),
        ("position startpos moves e2e4 e2e4", "e2e4"),
        ("position fen 8/8/8/8/8/8/8/K1k5", "side to move"),
        ("position sideways", "sideways"),
    ] {
        // A good position first, so that a half-applied bad one would show.
        assert!(answer(&mut s, "position startpos moves d2d4").is_empty());
        let out = answer(&mut s, line);
        assert_eq!(out.len(), 1, "{line}: {out:?}");
        assert!(
            out[0].starts_with("info string error: ") && out[0].contains(token),
            "{line}: {out:?}"
        );
        let lines = search(&mut s, "go depth 3");
        assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"), "{line}: {lines:?}");
        assert!(lines[0].starts_with("info string "), "{line}: {lines:?}");
        assert!(!lines.iter().any(|l| l.starts_with("info depth")), "{line}: {lines:?}");
    }
    // `position` without anything, or `fen` without a FEN.
    for line in ["position", "position fen", "position fen moves e2e4"] {
        let out = answer(&mut s, line);
        assert_eq!(errors(&out).len(), 1, "{line}: {out:?}");
        assert_eq!(bestmove(&search(&mut s, "go depth 1")).as_deref(), Some("(none)"));
    }
    // A bad xiangqi FEN leaves the game as it was.
    let out = answer(
        &mut s,
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
    );
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    assert!(answer(&mut s, "position startpos").is_empty());
    assert_eq!(perft(&mut s, 1).0, 20, "still chess");
    // The next valid command works.
    s.send("position startpos moves e2e4");
    let lines = search(&mut s, "go depth 3");
    all_legal(&board::<Chess>(None, &["e2e4"]), &lines);
}

#[test]
fn bad_go_arguments_are_named_and_the_go_still_answers() {
    let mut s = uci();
    s.send("position startpos");
    // Each bad value is named; the limits that remain end the search.
    for (go, token) in [
        ("go wtime 1e3 btime 1000", "1e3"),
        ("go movestogo 3x wtime 1000 btime 1000", "3x"),
        ("go perft p depth 2", "p"),
        ("go nodes 12.5 depth 3", "12.5"),
    ] {
        let start = Instant::now();
        let lines = search(&mut s, go);
        assert!(start.elapsed() < Duration::from_secs(3), "{go}: {:?}", start.elapsed());
        one_error_naming(&lines, token);
        all_legal(&Chess::startpos(), &lines);
    }
    // With no usable limit left, the go searches until stop, as a bare go does, and says so.
    for (go, token) in [
        ("go depth x", "x"),
        ("go movetime -", "-"),
        ("go mate m", "m"),
        ("go infinite depth z", "z"),
    ] {
        s.send(go);
        let (error, _) = s.expect_within(LONG, |l| l.starts_with("info string error"));
        assert!(error.contains(&format!("'{token}'")), "{go}: {error}");
        if go.contains("infinite") {
            nothing_within(&mut s, 300, "info string go without a limit");
        } else {
            s.expect("info string go without a limit searches until 'stop'");
        }
        nothing_within(&mut s, 300, "bestmove");
        s.send("stop");
        let lines = until_bestmove(&mut s, LONG);
        all_legal(&Chess::startpos(), &lines);
    }
    // A keyword at the end of the line, with its value missing.
    let lines = search(&mut s, "go nodes 1000 depth");
    assert_eq!(errors(&lines).len(), 1, "{lines:#?}");
}

#[test]
fn go_names_ignored_words_and_clamps_numbers() {
    let mut s = uci();
    s.send("position startpos");
    let lines = search(&mut s, "go depth 3 banana");
    let warnings: Vec<_> = lines.iter().filter(|l| l.starts_with("info string warning")).collect();
    assert_eq!(warnings.len(), 1, "{lines:#?}");
    assert!(warnings[0].contains("'banana'"), "{}", warnings[0]);
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    // A client speaking another dialect learns why no answer comes.
    s.send("go time 1000 increment 0");
    let (warning, _) = s.expect_within(LONG, |l| l.starts_with("info string warning"));
    for token in ["'time'", "'1000'", "'increment'", "'0'"] {
        assert!(warning.contains(token), "{warning}");
    }
    s.expect("info string go without a limit searches until 'stop'");
    s.send("stop");
    until_bestmove(&mut s, LONG);
    // Out-of-range numbers are clamped, with a warning naming them.
    s.send("go depth 99999999999 nodes 20000");
    let (warning, _) = s.expect_within(LONG, |l| l.starts_with("info string warning"));
    assert!(warning.contains("depth 99999999999") && warning.contains("127"), "{warning}");
    let lines = until_bestmove(&mut s, LONG);
    all_legal(&Chess::startpos(), &lines);
    let lines = search(&mut s, "go mate 0 depth 2");
    assert!(lines.iter().any(|l| l.contains("warning: go: mate 0 is out of range")), "{lines:#?}");
    // Negative clock times are a GUI habit, read as 0 without a word.
    let lines = search(&mut s, "go wtime -20 btime 1000 winc 10 binc 10");
    assert!(!lines.iter().any(|l| l.contains("warning") || l.contains("error")), "{lines:#?}");
}

#[test]
fn nothing_panics_and_the_next_command_works() {
    let mut s = uci();
    let garbage = [
        "",
        "   \t  ",
        "go searchmoves movetime 50",
        "setoption name",
        "setoption value 3",
        "position startpos moves",
        "register",
        "debug",
        "debug maybe",
        "uci uci",
        "position fen",
        "position startpos moves e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8",
    ];
    for line in garbage {
        s.send(line);
    }
    // The one search among them.
    until_bestmove(&mut s, LONG);
    s.send("position startpos");
    let lines = search(&mut s, "go depth 3");
    all_legal(&Chess::startpos(), &lines);
    s.send("quit");
    assert!(s.wait(Duration::from_secs(2)).success());
}

#[test]
fn five_thousand_moves_and_megabyte_lines() {
    let mut s = uci();
    // 5,000 plies: knights out and back, with a pawn move now and then so it is not all one
    // repetition.
    let mut moves = Vec::new();
    let mut b = Chess::startpos();
    let pawns = ["a2a3", "a7a6", "h2h3", "h7h6", "a3a4", "a6a5", "h3h4", "h6h5"];
    let mut next_pawn = 0;
    while moves.len() < 5_000 {
        let round: Vec<&str> = if moves.len() % 400 == 0 && next_pawn < pawns.len() {
            next_pawn += 2;
            pawns[next_pawn - 2..next_pawn].to_vec()
        } else {
            vec!["g1f3", "g8f6", "f3g1", "f6g8"]
        };
        for m in round {
            let mv = b.parse_move(m).unwrap();
            b.make(mv);
            moves.push(m);
        }
    }
    let line = format!("position startpos moves {}", moves.join(" "));
    assert!(answer(&mut s, &line).is_empty());
    let lines = search(&mut s, "go depth 4");
    all_legal(&b, &lines);
    // A 2 MB line of unknown words inside `go`, and a 3 MB unknown command.
    let go = format!("go depth 3 {}", "frobnicate ".repeat(200_000));
    let lines = search(&mut s, &go);
    assert_eq!(iterations(&lines).last().and_then(|l| number(l, "depth")), Some(3));
    let junk = "x".repeat(3 << 20);
    let out = answer(&mut s, &junk);
    assert_eq!(errors(&out).len(), 1);
    // A 1 MB option value.
    let long_name =
        format!("setoption name UCI_Opponent value none none human {}", "n".repeat(1 << 20));
    assert!(answer(&mut s, &long_name).is_empty());
}

#[test]
fn invalid_utf8_is_replaced_and_reported() {
    let mut s = uci();
    s.send_bytes(b"\xff\xfe\n");
    s.expect("info string error: unknown command");
    // Inside a go line: an unknown word, skipped.
    s.send("position startpos");
    s.send_bytes(b"go depth 3 \xc3\x28 \xf0\x90\n");
    let lines = until_bestmove(&mut s, LONG);
    assert!(errors(&lines).is_empty(), "{lines:#?}");
    assert_eq!(iterations(&lines).last().and_then(|l| number(l, "depth")), Some(3));
    // In a move: an error naming it (with the replacement character), nothing applied.
    s.send_bytes(b"position startpos moves e2e4 e7\xffe5\n");
    s.send("isready");
    s.expect_within(LONG, |l| l == "readyok");
    let e = errors(&s.seen).into_iter().last().cloned().expect("error");
    assert!(e.contains("e7\u{fffd}e5"), "{e}");
    // In an option name.
    s.send_bytes(b"setoption name Hash\xff value 8\n");
    s.expect("info string error: unknown option 'Hash\u{fffd}'");
    s.send("position startpos");
    let lines = search(&mut s, "go depth 2");
    all_legal(&Chess::startpos(), &lines);
}

/// Small ones: input quoted in an error is cut short; `d` during `go infinite` says it waits;
/// `chariot perft` reads the game from the FEN's shape.
#[test]
fn errors_quote_little_and_waiting_is_said() {
    let mut s = uci();
    let garbage = "x".repeat(100_000);
    let out = answer(&mut s, &garbage);
    assert_eq!(out.len(), 1, "one line");
    assert!(
        out[0].len() < 200 && out[0].contains("xxx..."),
        "{}",
        &out[0][..200.min(out[0].len())]
    );

    s.send("position startpos");
    s.send("go infinite");
    s.expect("info depth 2 ");
    s.send("d");
    s.expect("info string waiting for the search to end");
    s.send("stop");
    s.expect("bestmove");
    s.expect("Fen: ");

    let xq = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let out = std::process::Command::new(common::binary())
        .args(["perft", "--fen", xq, "2"])
        .output()
        .expect("chariot runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("Nodes searched: 1920"), "{text}");
}

#[test]
fn end_of_input_during_each_kind_of_search() {
    let mate = format!("position fen {MATE_IN_2}");
    let cases: Vec<(&str, &str, Duration)> = vec![
        ("position startpos", "go depth 6", Duration::ZERO),
        ("position startpos", "go nodes 20000", Duration::ZERO),
        ("position startpos", "go movetime 500", Duration::from_millis(400)),
        ("position startpos", "go wtime 3000 btime 3000 winc 10 binc 10", Duration::ZERO),
        (&mate, "go mate 2", Duration::ZERO),
        ("position startpos", "go infinite", Duration::ZERO),
        ("position startpos", "go", Duration::ZERO),
        ("position startpos", "go ponder", Duration::ZERO),
        ("position startpos", "go ponder wtime 60000 btime 60000", Duration::ZERO),
        ("position startpos", "go searchmoves h2h4 infinite", Duration::ZERO),
        ("position startpos moves f2f3 e7e5 g2g4 d8h4", "go infinite", Duration::ZERO),
    ];
    for (setup, go, at_least) in cases {
        let start = Instant::now();
        let (lines, status) = run_script(&[], &format!("uci\n{setup}\n{go}\n"));
        let took = start.elapsed();
        assert!(status.success(), "{go}: {status:?}");
        assert_eq!(
            lines.iter().filter(|l| l.starts_with("bestmove")).count(),
            1,
            "{go}: {lines:#?}"
        );
        assert!(took >= at_least, "{go}: {took:?}");
        assert!(took < Duration::from_secs(5), "{go}: {took:?}");
        match go {
            "go depth 6" => assert!(lines.iter().any(|l| l.starts_with("info depth 6 "))),
            "go mate 2" => assert_eq!(bestmove(&lines).as_deref(), Some("a1a6")),
            "go searchmoves h2h4 infinite" => assert_eq!(bestmove(&lines).as_deref(), Some("h2h4")),
            _ => {}
        }
    }
    // Perft has no bestmove; it finishes too.
    let (lines, status) = run_script(&[], "uci\nposition startpos\ngo perft 4\n");
    assert!(status.success());
    assert!(lines.iter().any(|l| l == "Nodes searched: 197281"), "{lines:#?}");
    // Commands queued behind an infinite search still run after it is stopped.
    let (lines, status) = run_script(
        &[],
        "uci\nposition startpos\ngo infinite\nposition startpos moves e2e4\ngo depth 3\nisready\n",
    );
    assert!(status.success());
    let answers: Vec<_> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 2, "{lines:#?}");
    // `isready` does not wait for the search.
    let ready = lines.iter().position(|l| l == "readyok").expect("readyok");
    assert!(ready < lines.iter().position(|l| l.starts_with("bestmove")).unwrap());
    let second = answers[1].split_whitespace().nth(1).unwrap();
    assert!(legal_line(&board::<Chess>(None, &["e2e4"]), &[second]), "{lines:#?}");
}
