//! Chess960 and the text of moves: castling king-takes-rook, move text read leniently, and
//! castling text that no other move shares.

use crate::common::bestmove;
use crate::{C960_SHREDDER, C960_XFEN, CASTLES, all_legal, answer, perft, search, uci};
use chariot_engine::chess::Chess;
use chariot_engine::game::Game;

#[test]
fn chess960_castles_king_takes_rook() {
    let mut s = uci();
    // Off: standard castling notation, king-takes-rook still understood as input.
    s.send(&format!("position fen {CASTLES}"));
    let (_, divide) = perft(&mut s, 1);
    assert!(
        divide.iter().any(|l| l.starts_with("e1g1: "))
            && divide.iter().any(|l| l.starts_with("e1c1: "))
    );
    assert!(answer(&mut s, "setoption name UCI_Chess960 value true").is_empty());
    // On: the same position in Shredder-FEN and X-FEN, castling written e1h1 / e1a1.
    for fen in [CASTLES, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w HAha - 0 1"] {
        assert!(answer(&mut s, &format!("position fen {fen}")).is_empty());
        let (total, divide) = perft(&mut s, 1);
        assert_eq!(total, 25);
        assert!(divide.iter().any(|l| l.starts_with("e1h1: ")), "{divide:?}");
        assert!(divide.iter().any(|l| l.starts_with("e1a1: ")), "{divide:?}");
        assert!(!divide.iter().any(|l| l.starts_with("e1g1: ")), "{divide:?}");
    }
    let lines = search(&mut s, "go depth 3 searchmoves e1h1");
    assert_eq!(bestmove(&lines).as_deref(), Some("e1h1"));
    // A real Chess960 start, both FEN forms: queen side castling is e1b1, king side e1g1.
    for fen in [C960_SHREDDER, C960_XFEN] {
        assert!(answer(&mut s, &format!("position fen {fen} moves e1b1 e8g8")).is_empty());
        let (total, _) = perft(&mut s, 2);
        let mut b = Chess::from_fen(C960_SHREDDER).unwrap();
        b.set_chess960(true);
        for m in ["e1b1", "e8g8"] {
            let m = b.parse_move(m).unwrap();
            b.make(m);
        }
        assert_eq!(total, b.perft(2), "{fen}");
        // The rooks stand next to the kings: c1/d1 and g8/f8.
        let lines = search(&mut s, "go depth 3");
        all_legal(&b, &lines);
    }
    assert!(answer(&mut s, "setoption name UCI_Chess960 value false").is_empty());
    s.send(&format!("position fen {CASTLES}"));
    let lines = search(&mut s, "go depth 3 searchmoves e1h1");
    assert_eq!(bestmove(&lines).as_deref(), Some("e1g1"), "standard notation again");
}

/// GUIs write promotions in upper case too (`e7e8Q`, which Stockfish accepts), and castling
/// either king-to-square or king-takes-rook whatever UCI_Chess960 says.
#[test]
fn move_text_is_read_leniently() {
    let mut s = uci();
    let out = answer(&mut s, "position fen 8/4P3/8/8/8/k7/8/K7 w - - 0 1 moves e7e8Q");
    assert!(out.is_empty(), "{out:?}");
    let shown = answer(&mut s, "d");
    assert!(shown.iter().any(|l| l == "Fen: 4Q3/8/8/8/8/k7/8/K7 b - - 0 1"), "{shown:?}");
    let castles = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves";
    for chess960 in ["false", "true"] {
        s.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        for (white, black) in [("e1g1", "e8c8"), ("e1h1", "e8a8")] {
            let out = answer(&mut s, &format!("{castles} {white} {black}"));
            assert!(out.is_empty(), "{chess960} {white} {black}: {out:?}");
            let shown = answer(&mut s, "d");
            assert!(
                shown.iter().any(|l| l.starts_with("Fen: 2kr3r/8/8/8/8/8/8/R4RK1 w - - ")),
                "{chess960} {white} {black}: {shown:?}"
            );
        }
    }
}

/// Without UCI_Chess960, castling is written king-to-square, unless that text would be a king
/// step's too: then it is written king-takes-rook, so no two moves share a text.
#[test]
fn castling_text_is_never_ambiguous() {
    let mut s = uci();
    s.send("position fen 1k5r/8/8/8/8/8/8/RK5R w HAh - 0 1");
    let (total, lines) = perft(&mut s, 1);
    let moves: Vec<String> =
        lines.iter().filter_map(|l| l.split(':').next()).map(str::to_string).collect();
    let mut texts: Vec<&String> = moves.iter().collect();
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len() as u64, total, "{moves:?}");
    assert!(moves.iter().any(|m| m == "b1a1"), "long castling king-takes-rook: {moves:?}");
    assert!(moves.iter().any(|m| m == "b1g1"), "short castling king-to-square: {moves:?}");
    assert!(moves.iter().any(|m| m == "b1c1"), "the king step: {moves:?}");
    // Both read back as the moves they name.
    let out = answer(&mut s, "position fen 1k5r/8/8/8/8/8/8/RK5R w HAh - 0 1 moves b1a1");
    assert!(out.is_empty(), "{out:?}");
    let shown = answer(&mut s, "d");
    assert!(shown.iter().any(|l| l.starts_with("Fen: 1k5r/8/8/8/8/8/8/2KR3R b k - ")), "{shown:?}");
}
