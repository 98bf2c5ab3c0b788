//! For people at a terminal and for scripts: banner, help, `d`, `eval`, `flip`, the one-shot
//! command line, the log file, and the example command files.

mod common;

use common::{Session, bestmove, binary, run_script};
use std::process::Command;
use std::time::Duration;

fn lines_of(output: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(output).lines().map(str::to_string).collect()
}

#[test]
fn banner_and_help_before_and_after_choosing() {
    let mut s = Session::start(&[]);
    let banner = s.expect("Chariot");
    assert!(banner.contains("chess over uci, xiangqi over ucci; type help"), "{banner}");
    s.send("help");
    s.expect("Chariot is a chess and xiangqi engine. Choose a protocol first:");
    s.send("uci");
    s.expect("uciok");
    s.send("help");
    s.expect("Chariot speaks UCI");
    s.expect("  d [letters|unicode|chinese]");
    s.send("frobnicate");
    let line = s.expect("info string error:");
    assert!(line.contains("'frobnicate'") && line.contains("help"), "{line}");
    let mut s = Session::start(&[]);
    s.send("ucci");
    s.expect("ucciok");
    s.send("help");
    s.expect("Chariot speaks UCCI");
    s.send("frobnicate");
    let line = s.expect("info message error:");
    assert!(line.contains("'frobnicate'"), "{line}");
}

#[test]
fn d_shows_chess_in_both_styles() {
    let (lines, _) =
        run_script(&[], "uci\nposition startpos moves e2e4 c7c5 g1f3 d8a5\nd\nd unicode\n");
    let text = lines.join("\n");
    assert!(text.contains(" | r | n | b |   | k | b | n | r | 8"), "{text}");
    assert!(text.contains("   a   b   c   d   e   f   g   h"));
    assert!(text.contains(" | ♜ | ♞ | ♝ |   | ♚ | ♝ | ♞ | ♜ | 8"), "{text}");
    assert!(text.contains("Side to move: white"));
    assert!(text.contains("Fen: rnb1kbnr/pp1ppppp/8/q1p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
    assert!(text.contains("Checkers: -"));
    assert!(text.contains("Last move: d8a5"));
    assert!(lines.iter().any(|l| l.starts_with("Key: ") && l.len() == 21), "{text}");
    // In check: the checker is named.
    let (lines, _) = run_script(&[], "uci\nposition startpos moves e2e4 e7e5 d1h5 g8f6 h5f7\nd\n");
    assert!(lines.iter().any(|l| l == "Checkers: f7"), "{lines:?}");
}

#[test]
fn d_shows_xiangqi_in_letters_and_chinese() {
    let (lines, _) = run_script(&[], "ucci\nposition startpos moves h2e2 h9g7\nd\nd chinese\n");
    let text = lines.join("\n");
    assert!(text.contains("9  r--n--b--a--k--a--b--+--r  9"), "{text}");
    assert!(text.contains("   |  |  |  | \\|/ |  |  |  |"), "the palace diagonals: {text}");
    assert!(text.contains("r i v e r"));
    assert!(text.contains("9  車-馬-象-士-將-士-象-+--車  9"), "{text}");
    assert!(text.contains("0  俥-傌-相-仕-帥-仕-相-傌-俥  0"), "{text}");
    assert!(text.contains("楚 河") && text.contains("漢 界"));
    assert!(text.contains("Side to move: red"));
    assert!(text.contains("Last move: h9g7 (马8进7)"), "{text}");
    // The default style can be set by an option.
    let (lines, _) = run_script(&[], "ucci\nsetoption boardsymbols true\nposition startpos\nd\n");
    assert!(lines.iter().any(|l| l.contains("帥")), "{lines:?}");
}

#[test]
fn eval_lists_terms_in_protocol_units() {
    let (lines, _) = run_script(&[], "uci\nposition startpos moves e2e4\neval\n");
    let text = lines.join("\n");
    for term in ["material", "piece-square", "bishop pair", "tempo"] {
        assert!(text.contains(term), "missing {term}: {text}");
    }
    assert!(text.contains("White") && text.contains("Black") && text.contains("centipawns"));
    let (lines, _) = run_script(&[], "ucci\nposition startpos\neval\n");
    let text = lines.join("\n");
    assert!(text.contains("Red") && text.contains("a horse = 100"), "{text}");
    // Material is in UCCI units: 2 chariots, horses, cannons ... a side's total is well under
    // the internal scale.
    let material = lines.iter().find(|l| l.trim_start().starts_with("material")).expect("row");
    let red: i32 = material.split('|').nth(1).and_then(|v| v.trim().parse().ok()).expect("red");
    assert!((900..1500).contains(&red), "{material}");
}

#[test]
fn flip_mirrors_the_position_and_keeps_the_evaluation() {
    let (lines, _) = run_script(
        &[],
        "uci\nposition fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n\
         eval\nflip\nd\neval\n",
    );
    let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: ")).expect("fen");
    assert_eq!(fen, "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1");
    let totals: Vec<&String> = lines.iter().filter(|l| l.starts_with("Evaluation:")).collect();
    assert_eq!(totals.len(), 2);
    let stm = |l: &str| l.split("; ").nth(1).map(str::to_string);
    assert_eq!(stm(totals[0]), stm(totals[1]), "{totals:?}");
    let (lines, _) = run_script(&[], "ucci\nposition startpos moves h2e2\nflip\nd\n");
    let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: ")).expect("fen");
    assert!(
        fen.starts_with("rnbakabnr/9/1c2c4/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        "{fen}"
    );
}

#[test]
fn chinese_notation_option_adds_a_pv_line() {
    let (lines, _) =
        run_script(&[], "ucci\nsetoption chinesenotation true\nposition startpos\ngo depth 3\n");
    assert!(
        lines.iter().any(|l| l.starts_with("info message pv ") && l.contains('平')),
        "{lines:?}"
    );
    let (lines, _) = run_script(
        &[],
        "uci\nsetoption name UCI_Variant value xiangqi\nsetoption name Chinese Notation value true\n\
         position startpos\ngo depth 3\n",
    );
    assert!(lines.iter().any(|l| l.starts_with("info string pv ")), "{lines:?}");
    // GUIs keep receiving ICCS.
    let best = bestmove(&lines).expect("bestmove");
    assert!(best.is_ascii() && best.len() == 4, "{best}");
}

#[test]
fn command_line_tools() {
    let out = Command::new(binary()).arg("--version").output().expect("run");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("chariot "));
    let out = Command::new(binary()).arg("--help").output().expect("run");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("bench") && help.contains("perft") && help.contains("--variant"));

    // Commands as arguments run in order, and the program exits after answering them.
    let out = Command::new(binary())
        .args(["ucci", "position startpos", "go depth 5"])
        .output()
        .expect("run");
    assert!(out.status.success());
    let lines = lines_of(&out.stdout);
    assert!(lines.iter().any(|l| l.starts_with("info depth 5 score ")), "{lines:?}");
    assert!(bestmove(&lines).is_some());
    assert!(!lines.iter().any(|l| l.starts_with("Chariot ")), "no banner in one-shot mode");

    let out = Command::new(binary())
        .args(["perft", "--variant", "xiangqi", "--divide", "3"])
        .output()
        .expect("run");
    let lines = lines_of(&out.stdout);
    assert!(lines.contains(&"Nodes searched: 79666".to_string()), "{lines:?}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.contains(": ") && !l.starts_with("N") && !l.starts_with("T"))
            .count(),
        44
    );
    let out = Command::new(binary())
        .args(["perft", "--fen", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "4"])
        .output()
        .expect("run");
    assert!(lines_of(&out.stdout).contains(&"Nodes searched: 43238".to_string()));
    let out =
        Command::new(binary()).args(["perft", "--fen", "nonsense", "2"]).output().expect("run");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid FEN"));

    let out = Command::new(binary()).args(["bench", "--depth", "4"]).output().expect("run");
    let lines = lines_of(&out.stdout);
    let last = lines.last().expect("a signature line");
    let fields: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(fields.len(), 4, "{last}");
    assert!(fields[0].parse::<u64>().is_ok() && fields[1] == "nodes" && fields[3] == "nps");
    // The signature is deterministic.
    let again = Command::new(binary()).args(["bench", "--depth", "4"]).output().expect("run");
    assert_eq!(lines_of(&again.stdout).last().map(|l| l.split(' ').next()), Some(Some(fields[0])));
}

#[test]
fn log_file_records_both_directions() {
    let path = std::env::temp_dir().join(format!("chariot-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let path_str = path.to_string_lossy().to_string();
    let (_, status) = run_script(&["--log", &path_str], "uci\nisready\n");
    assert!(status.success());
    let log = std::fs::read_to_string(&path).expect("log written");
    assert!(log.lines().any(|l| l.ends_with(">> uci")), "{log}");
    assert!(log.lines().any(|l| l.ends_with("<< uciok")), "{log}");
    assert!(log.lines().any(|l| l.ends_with("<< readyok")), "{log}");
    // Every line starts with a timestamp.
    assert!(log.lines().all(|l| l.split(' ').next().is_some_and(|t| t.parse::<f64>().is_ok())));
    let _ = std::fs::remove_file(&path);
}

/// Runs a command file from examples/ through the binary's stdin.
fn example(name: &str) -> Vec<String> {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("example file");
    let (lines, status) = run_script(&[], &text);
    assert!(status.success(), "{name}");
    lines
}

#[test]
fn example_chess_analysis() {
    let lines = example("chess-analysis.txt");
    assert!(lines.iter().any(|l| l.starts_with("info depth 8 ") && l.contains("multipv 2")));
    assert!(lines.iter().any(|l| l.contains(" wdl ")));
    assert!(bestmove(&lines).is_some());
    assert!(lines.iter().any(|l| l.starts_with("Fen: r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2")));
    assert!(lines.iter().any(|l| l.starts_with("Evaluation:")));
}

#[test]
fn example_xiangqi_game_with_ponder() {
    let lines = example("xiangqi-ponder.txt");
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove ")).collect();
    assert_eq!(answers.len(), 2, "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info message pv ")));
    // The ponder hit is one: the position pondered on ends with the move Chariot played and
    // the reply it predicted. When play changes, the example's moves must follow.
    let text = std::fs::read_to_string(format!(
        "{}/examples/xiangqi-ponder.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("example file");
    let file: Vec<&str> = text.lines().collect();
    let ponder_at = file.iter().position(|l| l.starts_with("go ponder")).expect("a go ponder");
    let pondered =
        file[..ponder_at].iter().rfind(|l| l.starts_with("position")).expect("a position");
    let played: Vec<&str> = pondered.split_whitespace().rev().take(2).collect();
    let (mine, theirs) = (played[1], played[0]);
    assert_eq!(*answers[0], format!("bestmove {mine} ponder {theirs}"), "{pondered}");
    assert!(lines.iter().any(|l| l.starts_with(&format!("Last move: {theirs} ("))), "{lines:?}");
}

#[test]
fn example_perft() {
    let lines = example("perft.txt");
    let totals: Vec<&str> =
        lines.iter().filter_map(|l| l.strip_prefix("Nodes searched: ")).collect();
    assert_eq!(totals, vec!["197281", "97862", "79666"]);
}

#[test]
fn example_batch() {
    let lines = example("batch.txt");
    let answers: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(answers.len(), 3, "{lines:?}");
    assert!(answers[2].starts_with("bestmove b0b9"), "the mate in one: {answers:?}");
    assert_eq!(lines.last().map(String::as_str), Some("bye"));
}

#[test]
fn a_person_typing_gets_answers_as_they_go() {
    let mut s = Session::start(&[]);
    s.send("ucci");
    s.expect("ucciok");
    s.send("position startpos");
    s.send("go depth 4");
    s.expect("bestmove");
    s.send("d");
    s.expect("Fen: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    s.send("quit");
    s.expect_within(Duration::from_secs(1), |l| l == "bye");
}
