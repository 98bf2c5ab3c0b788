//! Strength limiting through the real binary: weak levels search little and answer at once,
//! choose among real candidates, and the UCCI grades are understood.

mod common;

use common::{bestmove, run_script};
use std::time::Instant;

/// The largest node count in the `info` lines of `lines`.
fn most_nodes(lines: &[String]) -> u64 {
    lines
        .iter()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            words.position(|w| w == "nodes")?;
            words.next()?.parse::<u64>().ok()
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn a_weak_level_answers_at_once_with_few_nodes() {
    let script = "uci\nsetoption name Skill Level value 0\nposition startpos\n\
                  go wtime 600000 btime 600000\n";
    let started = Instant::now();
    let (lines, status) = run_script(&[], script);
    assert!(status.success());
    assert!(started.elapsed().as_secs() < 10, "a level-0 search of a 10-minute clock is quick");
    assert!(bestmove(&lines).is_some(), "{lines:#?}");
    let nodes = most_nodes(&lines);
    assert!(nodes > 0 && nodes < 5_000, "level 0 searches a few hundred nodes: {nodes}");
    // Level 0 looks one ply deep at every one of the 20 first moves.
    assert!(lines.iter().any(|l| l.starts_with("info depth 1 ") && l.contains(" multipv 20 ")));
    assert!(!lines.iter().any(|l| l.starts_with("info depth 2 ")), "{lines:#?}");
}

#[test]
fn limit_strength_follows_the_elo_and_full_strength_is_unchanged() {
    let weak = "uci\nsetoption name UCI_LimitStrength value true\n\
                setoption name UCI_Elo value 1350\nposition startpos\ngo depth 30\n";
    let (lines, _) = run_script(&[], weak);
    let nodes = most_nodes(&lines);
    assert!(nodes < 5_000, "UCI_Elo 1350 is the weakest level: {nodes} nodes");
    // UCI_Elo alone limits nothing.
    let elo_only = "uci\nsetoption name UCI_Elo value 1350\nposition startpos\ngo depth 6\n";
    let (lines, _) = run_script(&[], elo_only);
    assert!(lines.iter().any(|l| l.starts_with("info depth 6 ")), "{lines:#?}");
    assert!(!lines.iter().any(|l| l.contains(" multipv 2 ")), "one line: {lines:#?}");
}

#[test]
fn a_middle_level_never_walks_into_mate_in_one() {
    // The white rook guards the back rank against Re1#: moving it up the d-file loses at once.
    let fen = "4r1k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let mut script = String::from("uci\nsetoption name Skill Level value 10\n");
    for _ in 0..20 {
        script.push_str(&format!("position fen {fen}\ngo depth 6\n"));
    }
    let (lines, _) = run_script(&[], &script);
    let answers: Vec<_> = lines.iter().filter_map(|l| bestmove(std::slice::from_ref(l))).collect();
    assert_eq!(answers.len(), 20, "{lines:#?}");
    let losing = ["d1d2", "d1d3", "d1d4", "d1d5", "d1d6", "d1d7"];
    assert!(answers.iter().all(|a| !losing.contains(&a.as_str())), "{answers:?}");
}

#[test]
fn ucci_grades_weaken_the_search_and_bad_grades_are_refused() {
    let script = "ucci\nsetoption knowledge none\nsetoption pruning small\n\
                  setoption randomness huge\nposition startpos\ngo depth 30\n\
                  setoption randomness enormous\n";
    let (lines, status) = run_script(&[], script);
    assert!(status.success());
    assert!(bestmove(&lines).is_some(), "{lines:#?}");
    let nodes = most_nodes(&lines);
    assert!(nodes < 50_000, "knowledge none is level 5: {nodes} nodes");
    let refused: Vec<_> = lines.iter().filter(|l| l.contains("enormous")).collect();
    assert_eq!(refused.len(), 1, "{lines:#?}");
    assert!(refused[0].starts_with("info message"), "{refused:?}");
}

/// The scores of the last `info` line before each `bestmove`, as `(kind, value)`.
fn answer_scores(lines: &[String]) -> Vec<(String, i64)> {
    lines
        .windows(2)
        .filter(|w| w[1].starts_with("bestmove"))
        .filter_map(|w| {
            let words: Vec<&str> = w[0].split_whitespace().collect();
            let at = words.iter().position(|x| *x == "score")?;
            let (kind, value) = match words.get(at + 1)? {
                &"cp" | &"mate" => (words[at + 1], words.get(at + 2)?),
                value => ("ucci", value),
            };
            Some((kind.to_string(), value.parse().ok()?))
        })
        .collect()
}

#[test]
fn a_weak_choice_cut_short_reports_the_score_it_chose_by() {
    // A node limit often ends a weakened search inside an iteration, after the move it then
    // chooses has failed low there. Its score is the one of the iteration before, never the
    // "no score" mark, which read as being mated (and made UCCI resign in a level position).
    let mut script = String::from("uci\nsetoption name Skill Level value 14\n");
    for nodes in (300..8000).step_by(137) {
        script
            .push_str(&format!("position startpos moves e2e4 e7e5 g1f3 b8c6\ngo nodes {nodes}\n"));
    }
    let (lines, _) = run_script(&[], &script);
    let scores = answer_scores(&lines);
    assert_eq!(scores.len(), 57, "{lines:#?}");
    assert!(scores.iter().all(|(kind, v)| kind == "cp" && v.abs() < 300), "{scores:?}");

    let fen = "r1bakabnr/9/1cn4c1/pC2p3p/2p3p2/9/P1P1P1P1P/4B2C1/4A4/RNB1KA1NR w - - 6 4";
    let mut script = String::from("ucci\nsetoption usemillisec true\nsetoption knowledge small\n");
    for _ in 0..30 {
        script.push_str(&format!(
            "setoption newgame\nposition fen {fen}\n\
             go time 5000 increment 50 opptime 5000 oppincrement 50\n"
        ));
    }
    let (lines, _) = run_script(&[], &script);
    let answers: Vec<_> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 30, "{lines:#?}");
    assert!(answers.iter().all(|l| !l.contains("resign")), "{answers:?}");
    let scores = answer_scores(&lines);
    assert!(scores.iter().all(|(_, v)| v.abs() < 1000), "{scores:?}");
}
