//! Syzygy tablebases, from the tables of `CHARIOT_SYZYGY` (skipped when it is unset).

use crate::common::bestmove;
use crate::{answer, one_error_naming, search, uci};

/// `SyzygyPath` loads the tables of `CHARIOT_SYZYGY` with one line saying what it found; a
/// folder that is not there, or a truncated table, gives one error line, and `go` still
/// answers. Skipped when `CHARIOT_SYZYGY` is unset.
#[test]
fn syzygy_path_loads_with_one_line_and_a_bad_one_gives_one_error() {
    let Some(path) = std::env::var("CHARIOT_SYZYGY").ok().filter(|p| !p.is_empty()) else {
        eprintln!("skipped: CHARIOT_SYZYGY is not set (the folder of the 3-4 piece tables)");
        return;
    };
    let mut s = uci();
    let lines = answer(&mut s, &format!("setoption name SyzygyPath value {path}"));
    assert_eq!(
        lines,
        ["info string Found 70 tablebases (35 WDL and 35 DTZ files, up to 4 pieces)"],
        "{lines:#?}"
    );
    let missing = format!("{path}/nowhere");
    let lines = answer(&mut s, &format!("setoption name SyzygyPath value {missing}"));
    one_error_naming(&lines, &missing);
    let dir = std::env::temp_dir().join(format!("chariot-uci-syzygy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let bytes = std::fs::read(format!("{path}/KRvK.rtbw")).expect("KRvK.rtbw reads");
    std::fs::write(dir.join("KRvK.rtbw"), &bytes[..100]).expect("written");
    let truncated = dir.join("KRvK.rtbw").display().to_string();
    let lines = answer(&mut s, &format!("setoption name SyzygyPath value {}", dir.display()));
    one_error_naming(&lines, &truncated);
    let _ = std::fs::remove_dir_all(&dir);
    s.send("position fen 4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    let lines = search(&mut s, "go depth 1");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove h")), "{lines:#?}");
}

/// With the tables of `CHARIOT_SYZYGY` loaded, a root they hold plays only moves that keep its
/// value and reports the tablebase score (`cp 20000 - 1` for a win), even at depth 1 and even
/// where the search alone would push the pawn (KPvK: only the king moves win); `searchmoves`
/// chooses among the moves first. Below a root of five pieces the search probes the four-piece
/// positions its captures reach, and `info` counts the hits; without a path it counts none.
/// Skipped when `CHARIOT_SYZYGY` is unset. Values from python-chess's prober.
#[test]
fn tablebases_rank_the_root_and_count_their_hits() {
    let Some(path) = std::env::var("CHARIOT_SYZYGY").ok().filter(|p| !p.is_empty()) else {
        eprintln!("skipped: CHARIOT_SYZYGY is not set (the folder of the 3-4 piece tables)");
        return;
    };
    let five = "position fen 4k3/8/8/8/8/8/3r4/3QK2R w - - 0 1";
    let mut s = uci();
    s.send(five);
    let lines = search(&mut s, "go depth 6");
    assert!(!lines.iter().any(|l| l.contains("tbhits")), "no tables, no hits: {lines:#?}");

    answer(&mut s, &format!("setoption name SyzygyPath value {path}"));
    let score_of = |lines: &[String]| {
        let info = lines.iter().rev().find(|l| l.contains(" score ")).expect("an info line");
        let rest = &info[info.find(" score ").expect("score") + 7..];
        rest.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
    };
    // KRvK: the four rook moves that let the king take it draw.
    s.send("position fen 8/8/8/8/8/2k5/1R6/K7 w - - 0 1");
    let lines = search(&mut s, "go depth 1");
    let best = bestmove(&lines).expect("a move");
    assert!(!["b2b4", "b2b3", "b2d2", "b2c2"].contains(&best.as_str()), "{lines:#?}");
    assert_eq!(score_of(&lines), "cp 19999", "{lines:#?}");
    // KPvK: f5f6 and f5e6 win; the pawn push and the other king moves draw.
    s.send("position fen 4k3/8/8/4PK2/8/8/8/8 w - - 0 1");
    let lines = search(&mut s, "go depth 1");
    let best = bestmove(&lines).expect("a move");
    assert!(["f5f6", "f5e6"].contains(&best.as_str()), "{lines:#?}");
    assert_eq!(score_of(&lines), "cp 19999", "{lines:#?}");
    let lines = search(&mut s, "go depth 3 searchmoves e5e6 f5g6");
    assert!(["e5e6", "f5g6"].contains(&bestmove(&lines).expect("a move").as_str()));
    assert_eq!(score_of(&lines), "cp 0", "{lines:#?}");

    s.send(five);
    let lines = search(&mut s, "go depth 6");
    let hits = |l: &String| {
        let at = l.find(" tbhits ")?;
        l[at + 8..].split_whitespace().next()?.parse::<u64>().ok()
    };
    assert!(lines.iter().filter_map(hits).any(|n| n > 0), "{lines:#?}");
}
