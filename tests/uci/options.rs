//! Options: names and values, MultiPV, the fields shown on request, the hash table, threads,
//! the time plan, the draw score, and the debug log.

use crate::common;
use crate::common::{Session, bestmove, budget_ms};
use crate::{
    LONG, after, all_legal, answer, board, errors, iterations, legal_line, number,
    one_error_naming, pv, search, uci, until_bestmove,
};
use chariot_engine::chess::Chess;
use chariot_engine::game::Game;
use std::time::{Duration, Instant};

#[test]
fn setoption_names_are_case_insensitive_and_values_may_have_spaces() {
    let mut s = uci();
    for line in [
        "setoption name multipv value 2",
        "setoption name MOVE OVERHEAD value 10",
        "setoption name clear hash",
        "setoption name UCI_Opponent value GM 2800 human Garry Kasparov",
        "setoption name uci_showwdl value TRUE",
        "setoption name Ponder value false",
        "setoption name UCI_EngineAbout value anything at all",
    ] {
        assert!(answer(&mut s, line).is_empty(), "{line}");
    }
    s.send("position startpos");
    let lines = search(&mut s, "go depth 3");
    assert!(lines.iter().any(|l| l.contains(" multipv 2 ") && l.contains(" wdl ")), "{lines:#?}");
}

#[test]
fn bad_option_values_are_refused_by_name_and_change_nothing() {
    let mut s = uci();
    assert!(answer(&mut s, "setoption name MultiPV value 2").is_empty());
    for (line, token) in [
        ("setoption name MultiPV value 0", "0"),
        ("setoption name MultiPV value 257", "257"),
        ("setoption name MultiPV value two", "two"),
        ("setoption name Hash value -1", "-1"),
        ("setoption name Hash value 99999999", "99999999"),
        ("setoption name Threads value 1.5", "1.5"),
        ("setoption name Move Overhead value 5001", "5001"),
        ("setoption name Ponder value maybe", "maybe"),
        ("setoption name UCI_Variant value shogi", "shogi"),
        ("setoption name Frobnicate value 3", "Frobnicate"),
        ("setoption name Frobnicate", "Frobnicate"),
        ("setoption name Multi PV value 3", "Multi PV"),
    ] {
        one_error_naming(&answer(&mut s, line), token);
    }
    // A spin needs its value.
    let out = answer(&mut s, "setoption name MultiPV");
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    assert!(out[0].contains("MultiPV"), "{out:?}");
    let out = answer(&mut s, "setoption");
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    // MultiPV is still 2.
    s.send("position startpos");
    let lines = search(&mut s, "go depth 2");
    let at2 = lines.iter().filter(|l| l.starts_with("info depth 2 ")).count();
    assert_eq!(at2, 2, "{lines:#?}");
}

#[test]
fn multipv_3_reports_three_ranked_lines() {
    let mut s = uci();
    s.send("setoption name MultiPV value 3");
    s.send("position startpos moves e2e4");
    let lines = search(&mut s, "go depth 6");
    for depth in 1..=6 {
        let at: Vec<_> =
            lines.iter().filter(|l| l.starts_with(&format!("info depth {depth} "))).collect();
        let at: Vec<_> = at.into_iter().filter(|l| !l.contains("bound")).collect();
        assert_eq!(at.len(), 3, "depth {depth}: {lines:#?}");
        let numbers: Vec<_> = at.iter().map(|l| number(l, "multipv").unwrap()).collect();
        assert_eq!(numbers, [1, 2, 3]);
        let firsts: std::collections::HashSet<_> = at.iter().map(|l| pv(l)[0]).collect();
        assert_eq!(firsts.len(), 3, "three different moves: {at:#?}");
        let cps: Vec<_> = at.iter().map(|l| number(l, "cp").unwrap()).collect();
        assert!(cps.windows(2).all(|w| w[0] >= w[1]), "ranked best first: {at:#?}");
    }
    let best = bestmove(&lines).unwrap();
    let top = lines.iter().rfind(|l| l.contains(" multipv 1 ")).unwrap();
    assert_eq!(pv(top)[0], best);
    all_legal(&board::<Chess>(None, &["e2e4"]), &lines);
    // Fewer legal moves than lines: as many lines as moves.
    s.send("position fen 7k/8/8/8/8/8/8/K7 w - - 0 1");
    s.send("setoption name MultiPV value 5");
    let lines = search(&mut s, "go depth 2");
    assert_eq!(lines.iter().filter(|l| l.starts_with("info depth 2 ")).count(), 3);
}

#[test]
fn wdl_currline_and_refutations_when_asked() {
    let mut s = uci();
    s.send("position startpos");
    s.send("setoption name UCI_ShowWDL value true");
    let lines = search(&mut s, "go depth 4");
    for info in iterations(&lines) {
        let words: Vec<&str> = info.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "wdl").expect("wdl");
        let wdl: Vec<u32> = words[at + 1..at + 4].iter().map(|w| w.parse().unwrap()).collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{info}");
    }
    s.send("setoption name UCI_ShowWDL value false");
    s.send("setoption name UCI_ShowRefutations value true");
    let lines = search(&mut s, "go depth 3");
    assert!(!lines.iter().any(|l| l.contains(" wdl ")));
    let refutations: Vec<_> = lines.iter().filter(|l| l.starts_with("info refutation ")).collect();
    // After every depth, one line per root move.
    assert_eq!(refutations.len(), 3 * 20, "{lines:#?}");
    for r in refutations {
        let line: Vec<&str> = r.split_whitespace().skip(2).collect();
        assert!(!line.is_empty() && legal_line(&Chess::startpos(), &line), "{r}");
    }
    s.send("setoption name UCI_ShowRefutations value false");
    s.send("setoption name UCI_ShowCurrLine value true");
    s.send("go infinite");
    let (line, took) = s.expect_within(LONG, |l| l.starts_with("info currline "));
    assert!(took >= Duration::from_millis(900), "{took:?}");
    let moves: Vec<&str> = line.split_whitespace().skip(3).collect();
    assert_eq!(after(&line, "currline"), Some("1"), "{line}");
    assert!(legal_line(&Chess::startpos(), &moves), "{line}");
    s.send("stop");
    let lines = until_bestmove(&mut s, LONG);
    assert!(!lines.iter().any(|l| l.starts_with("info refutation")));
}

#[test]
fn currmove_once_the_search_has_run_a_second() {
    let mut s = uci();
    s.send("position startpos");
    let start = Instant::now();
    s.send("go infinite");
    let line = s.expect("info currmove ");
    assert!(start.elapsed() >= Duration::from_millis(950), "{:?}", start.elapsed());
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[3], "currmovenumber", "{line}");
    assert!((1..=20).contains(&words[4].parse::<u32>().unwrap()), "{line}");
    assert!(legal_line(&Chess::startpos(), &[words[2]]), "{line}");
    s.send("stop");
    let lines = until_bestmove(&mut s, LONG);
    assert!(lines.iter().all(|l| !l.starts_with("info currline")));
    // Short searches say nothing of the move they search.
    let lines = search(&mut s, "go depth 3");
    assert!(!lines.iter().any(|l| l.contains("currmove")), "{lines:#?}");
}

/// `ucinewgame`, `Clear Hash` and a new `Hash` size empty the table: a fixed-depth search on
/// one thread then costs exactly what it cost the first time; with the table kept, less.
#[test]
fn ucinewgame_clear_hash_and_hash_empty_the_table() {
    let mut s = uci();
    s.send("position startpos moves e2e4 e7e5 g1f3");
    let nodes = |s: &mut Session| {
        let lines = search(s, "go depth 8");
        number(iterations(&lines).last().unwrap(), "nodes").unwrap()
    };
    let fresh = nodes(&mut s);
    let warm = nodes(&mut s);
    assert!(warm < fresh, "the table helps a second search: {warm} vs {fresh}");
    for reset in ["ucinewgame", "setoption name Clear Hash", "setoption name Hash value 16"] {
        s.send(reset);
        assert_eq!(nodes(&mut s), fresh, "after {reset}");
    }
}

/// A tiny table fills up; a large one does not.
#[test]
fn hash_size_shows_in_hashfull() {
    let mut s = uci();
    s.send("position startpos moves e2e4 c7c5");
    let full = |s: &mut Session, mb: u32| {
        s.send(&format!("setoption name Hash value {mb}"));
        // A node budget, not a depth: how many nodes a depth takes changes with every
        // pruning idea, how many entries a search of so many nodes writes much less.
        let lines = search(s, "go nodes 300000");
        number(iterations(&lines).last().unwrap(), "hashfull").unwrap()
    };
    let small = full(&mut s, 1);
    let large = full(&mut s, 256);
    assert!(small > 200 && large < small / 4, "1 MB: {small}, 256 MB: {large}");
}

/// Threads: the search runs on that many threads (counted in /proc).
#[cfg(target_os = "linux")]
#[test]
fn threads_start_that_many_search_threads() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let count = |threads: u32| {
        let mut child = Command::new(common::binary())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start");
        let mut stdin = child.stdin.take().unwrap();
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let script = format!("uci\nsetoption name Threads value {threads}\ngo infinite\n");
        stdin.write_all(script.as_bytes()).unwrap();
        let mut line = String::new();
        while !line.starts_with("info depth 3 ") {
            line.clear();
            assert!(out.read_line(&mut line).unwrap() > 0, "engine ended");
        }
        let tasks = std::fs::read_dir(format!("/proc/{}/task", child.id())).unwrap().count();
        stdin.write_all(b"stop\nquit\n").unwrap();
        drop(stdin);
        assert!(child.wait().unwrap().success());
        tasks
    };
    let one = count(1);
    let four = count(4);
    assert_eq!(four, one + 3, "1 thread: {one} tasks, 4 threads: {four} tasks");
}

/// With debug on, the time plan shows what `Move Overhead` and `Ponder` change.
#[test]
fn move_overhead_and_ponder_change_the_time_plan() {
    let mut s = uci();
    s.send("debug on");
    s.send("position startpos");
    let plan = |s: &mut Session, go: &str| {
        let lines = search(s, go);
        lines.iter().find(|l| l.starts_with("info string time budget")).cloned().unwrap()
    };
    let plan_default = plan(&mut s, "go movetime 200");
    assert!(plan_default.contains("hard 170 ms"), "{plan_default}");
    s.send("setoption name Move Overhead value 120");
    let plan_overhead = plan(&mut s, "go movetime 200");
    assert!(plan_overhead.contains("hard 80 ms"), "{plan_overhead}");
    let without = budget_ms(&plan(&mut s, "go wtime 20000 btime 20000"), "soft");
    s.send("setoption name Ponder value true");
    let with = budget_ms(&plan(&mut s, "go wtime 20000 btime 20000"), "soft");
    assert!(with > without, "pondering plans more time per move: {with} vs {without}");
}

/// A king-only position is a draw; contempt makes it look slightly worse than zero in play,
/// but not in analysis or against a strong opponent.
#[test]
fn analyse_mode_and_opponent_change_the_draw_score() {
    let mut s = uci();
    s.send("position fen 8/8/4k3/8/8/4K3/8/8 w - - 0 1");
    let cp = |s: &mut Session| {
        let lines = search(s, "go depth 4");
        number(iterations(&lines).last().unwrap(), "cp").unwrap()
    };
    assert!(cp(&mut s) < 0);
    s.send("setoption name UCI_AnalyseMode value true");
    assert_eq!(cp(&mut s), 0);
    s.send("setoption name UCI_AnalyseMode value false");
    assert!(cp(&mut s) < 0);
    s.send("setoption name UCI_Opponent value GM 2750 human Magnus");
    assert_eq!(cp(&mut s), 0);
    s.send("setoption name UCI_Opponent value none 1800 computer Weak Engine");
    assert!(cp(&mut s) < 0);
    s.send("setoption name UCI_Opponent value <empty>");
    assert!(cp(&mut s) < 0);
}

#[test]
fn debug_log_file_records_both_directions() {
    let dir = std::env::temp_dir().join(format!("chariot uci log {}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("engine log.txt");
    let _ = std::fs::remove_file(&path);
    std::fs::write(&path, "earlier content\n").unwrap();
    let mut s = uci();
    assert!(
        answer(&mut s, &format!("setoption name Debug Log File value {}", path.display()))
            .is_empty()
    );
    s.send("position startpos");
    let lines = search(&mut s, "go depth 2");
    let best = lines.last().unwrap().clone();
    assert!(answer(&mut s, "setoption name debug log file value <empty>").is_empty());
    s.send("go depth 1");
    s.expect("bestmove");
    let log = std::fs::read_to_string(&path).unwrap();
    assert!(log.starts_with("earlier content\n"), "appended: {log}");
    for needle in [
        ">> isready",
        "<< readyok",
        ">> position startpos",
        ">> go depth 2",
        "<< info depth 2 ",
        &format!("<< {best}"),
        ">> setoption name debug log file value <empty>",
    ] {
        assert!(log.contains(needle), "log lacks {needle:?}:\n{log}");
    }
    assert!(!log.contains(">> go depth 1"), "logging stopped:\n{log}");
    // A path that cannot be opened is an error naming it.
    let out = answer(&mut s, "setoption name Debug Log File value /nonexistent/dir/x.log");
    one_error_naming(&out, "/nonexistent/dir/x.log");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn option_values_out_of_range_name_the_range_and_change_nothing() {
    let mut s = uci();
    for (line, range) in [
        ("setoption name Hash value 0", "from 1 to 65536"),
        ("setoption name Threads value 0", "from 1 to 256"),
        ("setoption name Threads value 257", "from 1 to 256"),
        ("setoption name MultiPV value 0", "from 1 to"),
        ("setoption name MultiPV value three", "from 1 to"),
        ("setoption name Ponder value maybe", "true or false"),
    ] {
        let out = answer(&mut s, line);
        assert_eq!(out.len(), 1, "{line}: {out:#?}");
        assert!(out[0].starts_with("info string error: ") && out[0].contains(range), "{out:?}");
    }
    // The old value stays: two lines set before a bad value are still two lines.
    assert!(answer(&mut s, "setoption name MultiPV value 2").is_empty());
    answer(&mut s, "setoption name MultiPV value 0");
    s.send("position startpos");
    let lines = search(&mut s, "go depth 3");
    let last = iterations(&lines).into_iter().filter(|l| l.starts_with("info depth 3 ")).count();
    assert_eq!(last, 2, "{lines:#?}");
}

/// More hash than the process may have is refused with an error; the old table stays and
/// the session goes on. The address-space limit makes the failure certain on any machine.
#[cfg(target_os = "linux")]
#[test]
fn hash_beyond_memory_is_refused_and_the_old_table_kept() {
    let script = "uci\nsetoption name Hash value 8192\nposition startpos\ngo depth 4\nquit\n";
    let out = std::process::Command::new("sh")
        .args(["-c", "ulimit -v 3000000 && exec \"$0\"", common::binary()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(script.as_bytes())?;
            child.wait_with_output()
        })
        .expect("run chariot under ulimit");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{:?}\n{text}", out.status);
    assert!(
        text.contains("info string error: cannot allocate a 8192 MB hash table; keeping 16 MB"),
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("bestmove ")), "{text}");
}
