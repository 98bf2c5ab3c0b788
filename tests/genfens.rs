//! `genfens` through the real binary, exactly as OpenBench's client runs it: the command and
//! `quit` given as arguments (`./chariot "genfens N seed S book X" "quit"`), and only the lines
//! starting `info string genfens ` read, the FEN being the rest of the line.

mod common;

use chariot_engine::chess::Chess;
use chariot_engine::game::Game;
use std::process::Command;

/// What OpenBench reads from the output: the FENs of the `info string genfens` lines.
const PREFIX: &str = "info string genfens ";

/// Runs `chariot <command> quit`: the output lines and whether it exited with success.
fn run(command: &str) -> (Vec<String>, bool) {
    let out = Command::new(common::binary()).args([command, "quit"]).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    (text.lines().map(str::to_string).collect(), out.status.success())
}

/// The FENs of the genfens lines, checked to be all the output and valid chess positions
/// with six fields (OpenBench turns the last two into EPD's `hmvc` and `fmvn`).
fn fens(lines: &[String]) -> Vec<String> {
    let fens: Vec<String> =
        lines.iter().filter_map(|l| l.strip_prefix(PREFIX)).map(str::to_string).collect();
    assert_eq!(fens.len(), lines.len(), "other lines in the output: {lines:?}");
    for fen in &fens {
        assert_eq!(fen.split_whitespace().count(), 6, "{fen}");
        assert!(Chess::from_fen(fen).is_ok(), "not a valid FEN: {fen}");
    }
    fens
}

#[test]
fn genfens_answers_n_valid_fens_the_same_for_a_seed() {
    let (lines, ok) = run("genfens 6 seed 12345 book None");
    assert!(ok, "{lines:?}");
    let first = fens(&lines);
    assert_eq!(first.len(), 6, "{lines:?}");
    let distinct: std::collections::BTreeSet<&String> = first.iter().collect();
    assert_eq!(distinct.len(), 6, "repeated starts: {first:?}");
    let (again, _) = run("genfens 6 seed 12345 book None");
    assert_eq!(fens(&again), first, "the same seed gave other starts");
    // A shorter request is the beginning of the longer one: start i depends on i alone.
    let (fewer, _) = run("genfens 2 seed 12345 book None");
    assert_eq!(fens(&fewer), first[..2]);
    let (other, _) = run("genfens 6 seed 54321 book None");
    assert_ne!(fens(&other), first, "another seed gave the same starts");
}

#[test]
fn genfens_draws_from_a_book_and_makes_dfrc_starts() {
    let dir = std::env::temp_dir().join(format!("chariot-genfens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // OpenBench's books are EPD: four fields and opcodes. These lines have no queens, which
    // no random ply brings back: a start with one would not come from the book.
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - hmvc 0; fmvn 3;\n\
         rnb1kbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNB1KBNR w KQkq - hmvc 0; fmvn 3;\n",
    )
    .expect("book written");
    let (lines, ok) = run(&format!("genfens 4 seed 7 book {}", book.display()));
    assert!(ok, "{lines:?}");
    let from_book = fens(&lines);
    assert_eq!(from_book.len(), 4);
    assert!(
        from_book.iter().all(|f| !f.split(' ').next().unwrap_or("").contains(['q', 'Q'])),
        "a start not from the book: {from_book:?}"
    );
    let (lines, ok) = run("genfens 3 seed 7 book None dfrc");
    assert!(ok, "{lines:?}");
    let dfrc = fens(&lines);
    assert_eq!(dfrc.len(), 3);
    // A start whose kings have both moved has no castling right left to show Chess960 by;
    // the others keep rights on rooks off the corners, read back as Chess960.
    assert!(
        dfrc.iter().any(|f| Chess::from_fen(f).is_ok_and(|b| b.chess960())),
        "no Chess960 start: {dfrc:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn genfens_bad_arguments_give_one_clear_error() {
    for (command, says) in [
        ("genfens", "needs a value"),
        ("genfens ten seed 1 book None", "not a valid number"),
        ("genfens 3 seed x book None", "not a valid number"),
        ("genfens 3 seed 1 book", "needs a value"),
        ("genfens 3 seed 1 book None sideways", "unknown argument 'sideways'"),
        ("genfens 3 seed 1 book /nonexistent/book.epd", "book '/nonexistent/book.epd'"),
    ] {
        let (lines, ok) = run(command);
        assert!(!ok, "{command}: exited with success");
        assert_eq!(lines.len(), 1, "{command}: {lines:?}");
        assert!(lines[0].starts_with("info string error: "), "{command}: {lines:?}");
        assert!(lines[0].contains(says), "{command}: {lines:?}");
    }
    // Xiangqi has no genfens: the session's game decides.
    let out = Command::new(common::binary())
        .args(["--variant", "xiangqi", "genfens 2 seed 1 book None", "quit"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with(
            "info string error: genfens: makes chess starts, and the session plays xiangqi"
        ),
        "{text}"
    );
}
