//! Xiangqi over UCI: chosen by the option, by the FEN's shape or by the command line; its rule
//! options, Chinese notation, and xiangqi moves in a chess session.

use crate::common;
use crate::common::{Session, bestmove, run_script};
use crate::{XQ_START, all_legal, answer, board, iterations, perft, pv, search, uci};
use chariot_engine::xiangqi::Xiangqi;

#[test]
fn xiangqi_by_option() {
    let mut s = uci();
    assert!(answer(&mut s, "setoption name UCI_Variant value xiangqi").is_empty());
    assert!(answer(&mut s, "position startpos").is_empty());
    assert_eq!(perft(&mut s, 2).0, 1_920);
    s.send("position startpos moves h2e2 h9g7");
    let lines = search(&mut s, "go depth 5");
    let infos = iterations(&lines);
    assert!(infos.iter().all(|l| l.contains(" score cp ")), "{lines:#?}");
    all_legal(&board::<Xiangqi>(None, &["h2e2", "h9g7"]), &lines);
    // ICCS squares run from rank 0 to 9.
    assert!(infos.iter().flat_map(|l| pv(l)).all(|m| m.len() == 4));
    assert!(answer(&mut s, "setoption name UCI_Variant value chess").is_empty());
    assert!(answer(&mut s, "position startpos").is_empty());
    assert_eq!(perft(&mut s, 2).0, 400);
}

#[test]
fn xiangqi_by_the_shape_of_the_fen() {
    let mut s = uci();
    let out = answer(&mut s, &format!("position fen {XQ_START} moves b0c2"));
    assert_eq!(
        out,
        ["info string a xiangqi position by the FEN's shape (the session's game stays chess)"]
    );
    let lines = search(&mut s, "go depth 4");
    all_legal(&board::<Xiangqi>(Some(XQ_START), &["b0c2"]), &lines);
    // The same game again: nothing to say.
    assert!(answer(&mut s, &format!("position fen {XQ_START}")).is_empty());
    // The FEN chose the game of its position only: `ucinewgame` and `startpos` are chess's,
    // as UCI_Variant says.
    s.send("ucinewgame");
    assert!(answer(&mut s, "position startpos moves e2e4").is_empty());
    assert_eq!(perft(&mut s, 1).0, 20);
    // A chess FEN in a chess session: nothing to say either.
    let out =
        answer(&mut s, "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(perft(&mut s, 1).0, 20);
    // With UCI_Variant xiangqi, startpos is xiangqi's.
    s.send("setoption name UCI_Variant value xiangqi");
    assert!(answer(&mut s, "position startpos").is_empty());
    assert_eq!(perft(&mut s, 1).0, 44);
}

#[test]
fn xiangqi_from_the_command_line() {
    let mut s = Session::start(&["--variant", "xiangqi"]);
    s.send("uci");
    s.expect("option name UCI_Variant type combo default xiangqi var chess var xiangqi");
    s.expect("uciok");
    s.send("position startpos");
    assert_eq!(perft(&mut s, 1).0, 44);
    // A xiangqi mate: the side to move has no legal move.
    s.send("position fen 3k5/4R4/4R4/9/9/9/9/9/9/4K4 b - - 0 1");
    let lines = search(&mut s, "go depth 3");
    assert_eq!(lines, ["info depth 0 score mate 0", "bestmove (none)"]);
    s.send("position startpos moves h2e2");
    s.send("setoption name MultiPV value 2");
    let lines = search(&mut s, "go depth 4");
    assert_eq!(lines.iter().filter(|l| l.starts_with("info depth 4 ")).count(), 2);
    all_legal(&board::<Xiangqi>(None, &["h2e2"]), &lines);
}

#[test]
fn xiangqi_rule_options_over_uci() {
    // Pikafish-style UCI xiangqi with the repetition rules and the move limit set by option:
    // under 'alwaysdraw' red repeats its check, under 'checkban' it must not.
    let position = "position fen 3k4n/9/9/9/R8/9/9/9/8r/pp3K3 w - - 0 1 \
                    moves a5d5 d9e9 d5e5 e9d9 e5d5 d9e9";
    let run = |rule: &str| {
        let script = format!(
            "uci\nsetoption name UCI_Variant value xiangqi\n\
             setoption name Repetition Rule value {rule}\n{position}\ngo depth 6\n"
        );
        let (lines, status) = run_script(&[], &script);
        assert!(status.success());
        bestmove(&lines).unwrap_or_else(|| panic!("{lines:#?}"))
    };
    assert_eq!(run("alwaysdraw"), "d5e5");
    assert_ne!(run("checkban"), "d5e5");
    let (lines, _) = run_script(
        &[],
        "uci\nsetoption name Repetition Rule value chineserule\nsetoption name Draw Moves value -1\n",
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info string") && l.contains("chineserule")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.starts_with("info string") && l.contains("'-1'")), "{lines:?}");
}

/// Chinese notation names xiangqi moves only (chess's names are the PV itself), and debug lines
/// print plain numbers.
#[test]
fn chinese_notation_is_for_xiangqi_and_debug_lines_are_plain() {
    let mut s = uci();
    s.send("setoption name Chinese Notation value true");
    s.send("debug on");
    s.send("position startpos");
    let lines = search(&mut s, "go depth 3 wtime 60000 btime 60000");
    assert!(!lines.iter().any(|l| l.starts_with("info string pv ")), "{lines:?}");
    let budget = lines.iter().find(|l| l.contains("time budget")).expect("a budget line");
    assert!(!budget.contains("Some(") && !budget.contains("None"), "{budget}");
    s.send("setoption name UCI_Variant value xiangqi");
    s.send("position startpos");
    let lines = search(&mut s, "go depth 3");
    assert!(lines.iter().any(|l| l.starts_with("info string pv ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("time budget: soft none, hard none")), "{lines:?}");
}

/// A xiangqi GUI that drives Pikafish over UCI sends ICCS moves after `startpos` without
/// `UCI_Variant`: the error says so and names both ways to play xiangqi over UCI. A move that
/// is no xiangqi move either gets the plain error.
#[test]
fn xiangqi_moves_in_a_chess_session_get_a_hint() {
    let (lines, _) = common::run_script(
        &[],
        "uci\nposition startpos moves h2e2 h9g7\ngo depth 2\nposition startpos moves a2a5\nquit\n",
    );
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert!(errors[0].contains("xiangqi moves, but the game is chess"), "{errors:?}");
    assert!(errors[0].contains("setoption name UCI_Variant value xiangqi"), "{errors:?}");
    assert!(errors[0].contains("chariot --variant xiangqi"), "{errors:?}");
    assert_eq!(common::bestmove(&lines).as_deref(), Some("(none)"), "{lines:?}");
    let last = errors.last().expect("the second position is refused");
    assert!(last.contains("'a2a5'") && !last.contains("xiangqi"), "{errors:?}");
}
