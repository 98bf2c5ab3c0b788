//! The record reader on files as people write them.

use super::*;

const TWO_GAMES: &str = "\u{feff}[Event \"a \\\"b\\\"\"]\n[Result \"*\"]\n\n1. e4 {best by test} e5 2. Nf3 (2. f4 exf4 {x (y}) Nc6 $1\n3. Bb5 a6!? 4. 0-0 *\n\n% an escape line\n[Event \"b\"]\n[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n\n1. a8=Q Kg6 ; a queen\n2. Qg8+ 1-0\n";

#[test]
fn split_keeps_the_main_line_only() {
    let games = split(TWO_GAMES);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("event"), Some("a \"b\""));
    assert_eq!(games[0].moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "0-0"]);
    assert_eq!(games[0].result.as_deref(), Some("*"));
    assert_eq!(games[1].number, 2);
    assert_eq!(games[1].moves, ["a8=Q", "Kg6", "Qg8+"]);
    assert_eq!(games[1].cut, None);
}

#[test]
fn a_cut_file_says_where_it_ended() {
    for (text, cut) in [
        ("[Event \"a\"]\n1. e4 e5 2. Nf3", Cut::Result),
        ("[Event \"a\"]\n1. e4 e5 { unfinished", Cut::Comment),
        ("[Event \"a\"]\n1. e4 e5 (1... c5", Cut::Variation),
        ("[Event \"a\"]\n[Site \"x", Cut::Tag),
    ] {
        let games = split(text);
        assert_eq!(games.len(), 1, "{text}");
        assert_eq!(games[0].cut, Some(cut), "{text}");
        let Start::Chess(board) = start(&games[0], None).expect("chess") else { panic!() };
        let r = replay(&games[0], board.as_ref());
        assert!(matches!(r.error, Some(ReadError::Truncated { .. })), "{text}");
    }
    let games = split("1. e4 e5 2. Nf3");
    let Start::Chess(board) = start(&games[0], None).expect("chess") else { panic!() };
    let e = replay(&games[0], board.as_ref()).error.expect("cut").to_string();
    assert_eq!(e, "game 1: the file ends before the game's result after move 2. Nf3");
}

#[test]
fn replay_names_the_bad_move() {
    let games = split("1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4 4. Nxe7 *\n\n1. d4 Zz9 *\n");
    let Start::Chess(board) = start(&games[0], None).expect("chess") else { panic!() };
    let r = replay(&games[0], board.as_ref());
    assert_eq!(r.moves.len(), 6);
    assert_eq!(
        r.error.map(|e| e.to_string()).as_deref(),
        Some("game 1, move 4. Nxe7: not a legal move in this position")
    );
    let r = replay(&games[1], board.as_ref());
    assert_eq!(
        r.error.map(|e| e.to_string()).as_deref(),
        Some("game 2, move 1... Zz9: cannot be read as a move")
    );
}

#[test]
fn the_game_comes_from_the_tags() {
    let x = split("[Variant \"xiangqi\"]\n1. h2e2 h9g7 *\n")[0].clone();
    assert!(matches!(start(&x, None), Ok(Start::Xiangqi(_))));
    let fen = format!("[FEN \"{}\"]\n1. 炮二平五 *\n", crate::xiangqi::START_FEN);
    let x = split(&fen)[0].clone();
    let Ok(Start::Xiangqi(board)) = start(&x, None) else { panic!("xiangqi by its FEN") };
    let r = replay(&x, board.as_ref());
    assert_eq!((r.moves.len(), r.script), (1, Script::Names));
    let plain = split("1. h2e2 *\n")[0].clone();
    assert!(matches!(start(&plain, Some(Variant::Xiangqi)), Ok(Start::Xiangqi(_))));
    let odd = split("[Variant \"crazyhouse\"]\n1. e4 *\n")[0].clone();
    assert_eq!(
        start(&odd, None).err().map(|e| e.to_string()).as_deref(),
        Some("game 1: unknown variant 'crazyhouse' (chess, chess960 or xiangqi)")
    );
    let c960 = split("[Variant \"Chess960\"]\n1. e4 *\n")[0].clone();
    assert!(matches!(start(&c960, None), Ok(Start::Chess(b)) if b.chess960()));
}
