//! `chariot analyse` through the real binary: known blunders of both games marked, the
//! output read back (by python-chess for chess, by the record reader for xiangqi), a
//! Chinese-notation record analysed as its ICCS twin, the SVG graphs well formed, each kind
//! of bad input reported as stated, and the example in docs/usage.md what the command prints.
//!
//! Searches are small (a few plies, or a few thousand nodes, on one thread), so that a debug
//! build runs the file in a few minutes on a loaded machine.

mod common;

use chariot_engine::record::{self, Start};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The chess blunder: 5. Nxf7?? lets 5... Qxg2 in.
const BLACKBURNE: &str = "[Event \"Blackburne Shilling\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe5 Qg5 5. Nxf7 *\n";

/// The xiangqi blunder: 2. a1b1?? puts the chariot where the cannon on b7 takes it over the
/// cannon on b2, and nothing takes back.
const HANGING_CHARIOT: &str = "[Event \"chariot en prise\"]\n[Variant \"xiangqi\"]\n[Result \"*\"]\n\n1. a0a1 h9g7 2. a1b1 b7b1 *\n";

/// The same game in Chinese notation.
const HANGING_CHARIOT_CHINESE: &str = "[Event \"chariot en prise\"]\n[Variant \"xiangqi\"]\n[Result \"*\"]\n\n1. 车九进一 马8进7 2. 车九平八 炮2进6 *\n";

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-analyse-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp folder");
    dir
}

/// Writes `text` to `dir/name` and returns the path.
fn file(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write input");
    path
}

/// Runs `chariot analyse` with `args`.
fn analyse(args: &[&str]) -> Output {
    Command::new(common::binary()).arg("analyse").args(args).output().expect("run chariot analyse")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// The movetext token of the move `needle` with its NAG: what follows the move up to its
/// comment (`$4`, or empty).
fn nag_after(pgn: &str, needle: &str) -> String {
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    let at = flat.find(needle).unwrap_or_else(|| panic!("{needle} in {pgn}"));
    let rest = &flat[at + needle.len()..];
    rest.split('{').next().unwrap_or("").trim().to_string()
}

#[test]
fn the_chess_blunder_is_marked() {
    let dir = folder("chess");
    let input = file(&dir, "blackburne.pgn", BLACKBURNE);
    let out = analyse(&["--nodes", "8000", input.to_str().expect("path")]);
    let (pgn, err) = (stdout(&out), stderr(&out));
    assert!(out.status.success(), "{err}");
    let nag = nag_after(&pgn, "5. Nxf7");
    assert!(nag == "$4" || nag == "$2", "5. Nxf7 is marked '{nag}':\n{pgn}");
    assert!(pgn.contains("[WhiteBlunders \"") && pgn.contains("[BlackAccuracy \""), "{pgn}");
    // The summary goes to stderr too; no progress line when stderr is not a terminal.
    assert!(err.contains("game 1: White accuracy"), "{err}");
    assert!(!err.contains('\r'), "{err:?}");
}

#[test]
fn the_xiangqi_blunder_is_marked_and_reads_back() {
    let dir = folder("xiangqi");
    let input = file(&dir, "hang.pgn", HANGING_CHARIOT);
    let out = analyse(&["--depth", "5", input.to_str().expect("path")]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let nag = nag_after(&text, "2. a1b1");
    assert!(nag == "$4" || nag == "$2", "2. a1b1 is marked '{nag}':\n{text}");
    // chariot-match's reader (`opening_positions`) reads chess only, so the output is read
    // back by the record reader `chariot analyse` itself uses: the same game, the same moves,
    // an evaluation after every one.
    let games = record::split(&text);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves, ["a0a1", "h9g7", "a1b1", "b7b1"]);
    assert_eq!(games[0].tag("Variant"), Some("xiangqi"));
    let Ok(Start::Xiangqi(board)) = record::start(&games[0], None) else { panic!("xiangqi") };
    let replay = record::replay(&games[0], board.as_ref());
    assert!(replay.error.is_none(), "{:?}", replay.error);
    assert_eq!(replay.moves.len(), 4);
    assert_eq!(text.matches("[%eval ").count(), 4, "{text}");
}

#[test]
fn python_chess_reads_every_evaluation() {
    let probe = Command::new("python3").args(["-c", "import chess.pgn"]).output();
    if !probe.map(|o| o.status.success()).unwrap_or(false) {
        eprintln!("skipped: python3 cannot import chess (scripts/setup-test-deps.sh)");
        return;
    }
    let dir = folder("python");
    let two = format!(
        "{BLACKBURNE}\n[Event \"b\"]\n[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. a8=Q Kg6 {{a comment}} 2. Qg8+ (2. Qa6+) Kf5 $1 1-0\n"
    );
    let input = file(&dir, "two.pgn", &two);
    let output = dir.join("out.pgn");
    let out = analyse(&[
        "--nodes",
        "3000",
        "--out",
        output.to_str().expect("path"),
        input.to_str().expect("path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let script = r#"
import sys, chess.pgn
counts = []
with open(sys.argv[1], encoding="utf-8") as f:
    while (game := chess.pgn.read_game(f)) is not None:
        assert not game.errors, game.errors
        nodes = list(game.mainline())
        missing = [n.san() for n in nodes if n.eval() is None]
        assert not missing, missing
        counts.append(str(len(nodes)))
print(" ".join(counts))
"#;
    let py = Command::new("python3")
        .args(["-c", script, output.to_str().expect("path")])
        .output()
        .expect("python3");
    assert!(py.status.success(), "{}", String::from_utf8_lossy(&py.stderr));
    assert_eq!(String::from_utf8_lossy(&py.stdout).trim(), "9 4");
}

/// `json` without the fields named `keys` whose values are strings or null.
fn without(json: &str, keys: &[&str]) -> String {
    let mut out = json.to_string();
    for key in keys {
        let pattern = format!("\"{key}\":");
        while let Some(at) = out.find(&pattern) {
            let value = &out[at + pattern.len()..];
            let len = if let Some(rest) = value.strip_prefix('"') {
                // A string value: up to its closing quote (moves have no escapes).
                1 + rest.find('"').expect("closing quote") + 1
            } else {
                value.find([',', '}']).expect("value end")
            };
            let end = at + pattern.len() + len;
            let end = if out[end..].starts_with(',') { end + 1 } else { end };
            out.replace_range(at..end, "");
        }
    }
    out
}

#[test]
fn chinese_notation_gives_the_analysis_of_its_iccs_twin() {
    let dir = folder("twins");
    let iccs = file(&dir, "iccs.pgn", HANGING_CHARIOT);
    let chinese = file(&dir, "chinese.pgn", HANGING_CHARIOT_CHINESE);
    let run = |path: &Path| {
        let out = analyse(&["--depth", "5", "--format", "json", path.to_str().expect("path")]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let (a, b) = (run(&iccs), run(&chinese));
    assert!(b.contains("\"move\":\"车九平八\""), "{b}");
    assert!(a.contains("\"uci\":\"a1b1\""), "{a}");
    let keys = ["file", "move", "best"];
    assert_eq!(without(&a, &keys), without(&b, &keys));
    assert_eq!(a.lines().count(), 1);
    // Each line is JSON, where python3 is at hand to say so.
    let check = "import json, sys\nfor line in sys.stdin: json.loads(line)";
    if let Ok(mut child) =
        Command::new("python3").args(["-c", check]).stdin(std::process::Stdio::piped()).spawn()
    {
        use std::io::Write;
        child.stdin.take().expect("stdin").write_all(b.as_bytes()).expect("write");
        assert!(child.wait().expect("python3").success(), "not JSON: {b}");
    }
}

/// Checks that `svg` is well formed as far as its tags go: every tag opened is closed in
/// order, and the text holds no stray `<` or `&`.
fn check_xml(svg: &str) {
    let mut open: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(at) = rest.find('<') {
        let text = &rest[..at];
        assert!(!text.contains('>'), "stray '>' in {text}");
        assert!(
            text.split('&').skip(1).all(|t| t.starts_with("amp;")
                || t.starts_with("lt;")
                || t.starts_with("gt;")
                || t.starts_with("quot;")),
            "bare & in {text}"
        );
        let end = rest[at..].find('>').expect("tag end") + at;
        let tag = &rest[at + 1..end];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(open.pop().as_deref(), Some(name.trim()), "closing {name}");
        } else if !tag.ends_with('/') {
            let name = tag.split_whitespace().next().expect("tag name");
            open.push(name.to_string());
        }
        rest = &rest[end + 1..];
    }
    assert!(open.is_empty(), "unclosed {open:?}");
}

#[test]
fn svg_writes_one_graph_per_game() {
    let dir = folder("svg");
    let two = format!("{BLACKBURNE}\n{BLACKBURNE}");
    let chess = file(&dir, "games.pgn", &two);
    let xiangqi = file(&dir, "hang.pgn", HANGING_CHARIOT);
    let graphs = dir.join("graphs");
    let out = analyse(&[
        "--depth",
        "3",
        "--svg",
        graphs.to_str().expect("path"),
        chess.to_str().expect("path"),
        xiangqi.to_str().expect("path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    for name in ["games-1.svg", "games-2.svg", "hang-1.svg"] {
        let svg = std::fs::read_to_string(graphs.join(name)).expect(name);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{svg}");
        assert!(svg.contains("<path d=\"M "), "{svg}");
        assert!(svg.trim_end().ends_with("</svg>"), "{svg}");
        check_xml(&svg);
    }
    assert_eq!(std::fs::read_dir(&graphs).expect("graphs").count(), 3);
}

#[test]
fn bad_input_names_file_game_and_move_and_the_rest_goes_on() {
    let dir = folder("bad");
    let good = "[Event \"good\"]\n\n1. e4 e5 *\n";
    let illegal = file(
        &dir,
        "illegal.pgn",
        &format!("{good}\n[Event \"bad\"]\n\n1. d4 d5 2. Nxe7 Nf6 *\n\n{good}"),
    );
    let unreadable = file(&dir, "unreadable.pgn", "[Event \"u\"]\n\n1. e4 e5 2. Zz9 *\n");
    let variant =
        file(&dir, "variant.pgn", &format!("[Variant \"crazyhouse\"]\n\n1. e4 *\n\n{good}"));
    let truncated =
        file(&dir, "truncated.pgn", &format!("{good}\n[Event \"cut\"]\n\n1. c4 e5 {{ the fil"));
    let after = file(&dir, "after.pgn", good);
    let paths = [&illegal, &unreadable, &variant, &truncated, &after];
    let mut args = vec!["--depth", "2"];
    args.extend(paths.iter().map(|p| p.to_str().expect("path")));
    let out = analyse(&args);
    let (pgn, err) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(1), "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("chariot analyse:")).collect();
    let name = |p: &PathBuf| p.display().to_string();
    assert_eq!(
        errors,
        [
            format!(
                "chariot analyse: {}: game 2, move 2. Nxe7: not a legal move in this position",
                name(&illegal)
            ),
            format!(
                "chariot analyse: {}: game 1, move 2. Zz9: cannot be read as a move",
                name(&unreadable)
            ),
            format!(
                "chariot analyse: {}: game 1: unknown variant 'crazyhouse' (chess, chess960 or xiangqi)",
                name(&variant)
            ),
            format!(
                "chariot analyse: {}: game 2: the file ends inside a comment after move 1... e5",
                name(&truncated)
            ),
        ],
        "{err}"
    );
    // Every game is written: in full before and after a bad one, and a bad one up to its
    // fault (with its moves analysed); only the game of an unknown variant has nothing to write.
    let games = record::split(&pgn);
    let events: Vec<&str> = games.iter().map(|g| g.tag("Event").unwrap_or("?")).collect();
    assert_eq!(events, ["good", "bad", "good", "u", "good", "good", "cut", "good"], "{pgn}");
    assert_eq!(games[1].moves, ["d4", "d5"]);
    assert_eq!(games[3].moves, ["e4", "e5"]);
    assert_eq!(games[6].moves, ["c4", "e5"]);
    assert_eq!(pgn.matches("[%eval ").count(), 2 * 8, "{pgn}");
    assert!(pgn.contains("{ analysis stopped: game 2, move 2. Nxe7: not a legal move"), "{pgn}");
}

#[test]
fn the_usage_example_is_what_the_command_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let usage = std::fs::read_to_string(root.join("docs/usage.md")).expect("docs/usage.md");
    let section = usage.split("## Analysing games").nth(1).expect("the analyse section");
    let block = section.split("```text transcript\n").nth(1).expect("its example");
    let block = block.split("\n```").next().expect("the example's end");
    let mut lines = block.lines();
    let command = lines.next().and_then(|l| l.strip_prefix("$ chariot analyse ")).expect("command");
    let expected: Vec<&str> = lines.collect();
    let args: Vec<&str> = command.split_whitespace().collect();
    let out = Command::new(common::binary())
        .arg("analyse")
        .args(&args)
        .current_dir(root)
        .output()
        .expect("run the example");
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = stdout(&out);
    let mut printed: Vec<&str> = printed.lines().collect();
    // The blank line that ends the last game is the block's end in the document.
    while printed.last() == Some(&"") {
        printed.pop();
    }
    let mut expected = expected;
    while expected.last() == Some(&"") {
        expected.pop();
    }
    assert_eq!(printed, expected, "docs/usage.md's analyse example is out of date");
}
