//! Unit tests of the xiangqi rules: FEN, notation, piece movement, make/unmake, hashing,
//! evaluation symmetry and the rule scores.

use super::*;
use crate::rng::SplitMix;

fn game(fen: &str) -> Xiangqi {
    Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(g: &Xiangqi) -> Vec<String> {
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| g.move_text(m)).collect();
    v.sort();
    v
}

/// The legal moves starting on `from` (ICCS square), as destination squares.
fn targets(g: &Xiangqi, from: &str) -> Vec<String> {
    moves(g).into_iter().filter(|m| m.starts_with(from)).map(|m| m[2..].to_string()).collect()
}

/// A small deterministic generator for random playouts.
struct Rng(SplitMix);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// Plays `plies` random legal moves (fewer if the game ends); returns how many were played.
fn playout(g: &mut Xiangqi, rng: &mut Rng, plies: usize) -> usize {
    for i in 0..plies {
        let mut list = MoveList::new();
        g.legal_moves(&mut list);
        if list.is_empty() {
            return i;
        }
        let m = list.as_slice()[(rng.next() % list.len() as u64) as usize];
        g.make(m);
    }
    plies
}

/// Expands a FEN board into 10 rows of 9 characters ('.' for empty), rank 9 first.
fn expand(board: &str) -> Vec<Vec<char>> {
    board
        .split('/')
        .map(|rank| {
            let mut row = Vec::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(d) => row.extend(std::iter::repeat_n('.', d as usize)),
                    None => row.push(c),
                }
            }
            row
        })
        .collect()
}

fn compress(rows: &[Vec<char>]) -> String {
    let ranks: Vec<String> = rows
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for &c in row {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    ranks.join("/")
}

/// The colour-mirrored FEN: ranks reversed, colours and the side to move swapped.
fn colour_mirror(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or_default();
    let side = fields.next().unwrap_or("w");
    let mut rows = expand(board);
    rows.reverse();
    for row in &mut rows {
        for c in row.iter_mut() {
            *c = if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            };
        }
    }
    let side = if side == "w" { "b" } else { "w" };
    format!("{} {side} - - 0 1", compress(&rows))
}

/// The left-right mirrored FEN.
fn file_mirror(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or_default();
    let side = fields.next().unwrap_or("w");
    let mut rows = expand(board);
    for row in &mut rows {
        row.reverse();
    }
    format!("{} {side} - - 0 1", compress(&rows))
}

#[test]
fn fen_round_trip() {
    for fen in [
        START_FEN,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        "3aka3/9/9/4n4/9/9/9/9/4C3r/3K5 b - - 17 42",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 3 9",
    ] {
        assert_eq!(game(fen).fen(), fen);
    }
    // Optional fields default, and alternative letters are accepted.
    assert_eq!(
        game("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR").fen(),
        START_FEN
    );
    assert_eq!(
        game("rheagaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAGAEHR r").fen(),
        START_FEN
    );
}

#[test]
fn fen_errors_name_their_field() {
    let board = |fen: &str, needle: &str| match Xiangqi::from_fen(fen) {
        Err(FenError::Board { reason, .. }) => {
            assert!(reason.contains(needle), "{fen}: '{reason}' lacks '{needle}'")
        }
        other => panic!("{fen}: expected a board error, got {:?}", other.map(|g| g.fen())),
    };
    board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR", "9 ranks");
    board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN", "8 files");
    board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR", "more than 9");
    board("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX", "bad piece 'X'");
    board("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "black has no general");
    board("3k5/9/9/9/9/9/9/9/4K4/3K5", "red has 2 generals");
    board("3k5/9/9/9/9/9/9/9/K8/9", "general cannot stand on a1");
    board("3k5/9/9/9/9/9/9/4A4/9/4K4", "advisor cannot stand on e2");
    board("3k5/9/9/9/9/B8/9/9/9/4K4", "elephant cannot stand on a4");
    board("3k5/9/9/9/9/4B4/9/9/9/4K4", "elephant cannot stand on e4");
    board("3k5/9/9/9/9/9/9/P8/9/4K4", "soldier cannot stand on a2");
    board("3k5/9/p8/9/9/9/9/9/9/4K4", "soldier cannot stand on a7");
    board("3k5/9/9/9/9/9/RRR6/9/9/4K4", "red has 3 chariots");
    board("3k5/9/9/9/9/PPPPPP3/9/9/9/4K4", "red has 6 soldiers");

    let illegal = |fen: &str, needle: &str| match Xiangqi::from_fen(fen) {
        Err(FenError::Illegal(reason)) => assert!(reason.contains(needle), "{fen}: '{reason}'"),
        other => panic!("{fen}: expected an illegal position, got {:?}", other.map(|g| g.fen())),
    };
    illegal("4k4/9/9/9/9/9/9/9/9/4K4 w", "face");
    // Black, not to move, is attacked by the red chariot.
    illegal("4k4/9/9/9/4R4/9/9/9/9/3K5 w", "black, not to move, is in check");
    illegal("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1 extra", "unexpected");

    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    assert_eq!(Xiangqi::from_fen("").err(), Some(FenError::Empty));
    assert_eq!(Xiangqi::from_fen(&format!("{start} x")).err(), Some(FenError::Side("x".into())));
    assert!(matches!(Xiangqi::from_fen(&format!("{start} w KQ")), Err(FenError::Castling { .. })));
    assert!(matches!(
        Xiangqi::from_fen(&format!("{start} w - e3")),
        Err(FenError::EnPassant { .. })
    ));
    assert_eq!(
        Xiangqi::from_fen(&format!("{start} w - - x 1")).err(),
        Some(FenError::Halfmove("x".into()))
    );
    assert_eq!(
        Xiangqi::from_fen(&format!("{start} w - - 0 -3")).err(),
        Some(FenError::Fullmove("-3".into()))
    );
    // Every error message names its field.
    let msg = Xiangqi::from_fen(&format!("{start} w - - 0 y")).err().map(|e| e.to_string());
    assert_eq!(msg.as_deref(), Some("bad fullmove number 'y'"));
}

#[test]
fn iccs_round_trip() {
    let mut g = Xiangqi::startpos();
    for text in ["h2e2", "b0c2", "h0g2", "a3a4", "e0e1"] {
        let m = g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(g.move_text(m), text);
    }
    assert_eq!(g.parse_move("H2E2").map(|m| g.move_text(m)), Ok("h2e2".to_string()));
    let Ok(m) = g.parse_move("h2e2") else { panic!("h2e2") };
    g.make(m);
    for text in ["h9g7", "a9a8", "b7e7", "e9e8"] {
        let m = g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(g.move_text(m), text);
    }
    assert_eq!(g.move_text(Move::NONE), "0000");
}

#[test]
fn parse_errors() {
    let g = Xiangqi::startpos();
    for bad in ["", "h2e", "h2e2q", "j2e2", "h2ex", "h-e2", "h2 e2"] {
        assert!(matches!(g.parse_move(bad), Err(MoveError::Syntax(..))), "{bad}");
    }
    // Blocked chariot, soldier two steps, soldier sideways before the river, black's move,
    // a null move, the general leaving the palace.
    for bad in ["a0a4", "a3a5", "a3b3", "h7e7", "e0e0", "d0d1x"] {
        assert!(g.parse_move(bad).is_err(), "{bad}");
    }
    for bad in ["a0a4", "a3a5", "a3b3", "h7e7", "e0e0"] {
        assert!(matches!(g.parse_move(bad), Err(MoveError::Illegal(..))), "{bad}");
    }
}

#[test]
fn horse_legs_block() {
    // Red horse on e4; a piece on e5 blocks the two moves towards black.
    let g = game("4k4/9/9/9/4p4/4N4/9/9/9/3K5 w");
    assert_eq!(targets(&g, "e4"), ["c3", "c5", "d2", "f2", "g3", "g5"]);
    let g = game("4k4/9/9/9/9/4N4/9/9/9/3K5 w");
    assert_eq!(targets(&g, "e4"), ["c3", "c5", "d2", "d6", "f2", "f6", "g3", "g5"]);
    // A horse in the corner: each blocked leg takes away its move.
    let g = game("4k4/9/9/9/9/9/9/9/p8/N2K5 w");
    assert_eq!(targets(&g, "a0"), ["c1"]);
    let g = game("4k4/9/9/9/9/9/9/9/p8/Np1K5 w");
    assert_eq!(targets(&g, "a0"), Vec::<String>::new());
}

#[test]
fn elephant_eyes_block_and_river_stops() {
    let g = game("4k4/9/9/9/9/2B6/9/9/9/3K5 w");
    assert_eq!(targets(&g, "c4"), ["a2", "e2"]);
    let g = game("4k4/9/9/9/9/2B6/3p5/9/9/3K5 w");
    assert_eq!(targets(&g, "c4"), ["a2"]);
}

#[test]
fn cannon_needs_one_screen_to_capture() {
    // Red cannon b2, black horse b7 with the soldier b5 as screen.
    let g = game("3k5/9/1n7/9/1p7/9/9/1C7/9/4K4 w");
    let t = targets(&g, "b2");
    assert!(t.contains(&"b7".to_string()), "{t:?}");
    assert!(!t.contains(&"b5".to_string()), "cannot capture without a screen");
    assert!(t.contains(&"b4".to_string()) && !t.contains(&"b6".to_string()));
    // No screen: no capture. Two screens: no capture of the third piece.
    let g = game("3k5/9/1n7/9/9/9/9/1C7/9/4K4 w");
    assert!(!targets(&g, "b2").contains(&"b7".to_string()));
    let g = game("3k5/9/1n7/1p7/1p7/9/9/1C7/9/4K4 w");
    assert_eq!(targets(&g, "b2").iter().filter(|t| t.starts_with('b')).count(), 5);
    // A cannon checks through one screen; the red general must answer.
    let g = game("4k4/9/9/9/9/9/9/4c4/4A4/3K5 w");
    assert!(!g.in_check());
    let g = game("4k4/9/9/9/9/4c4/9/9/4A4/4K4 w");
    assert!(g.in_check());
}

#[test]
fn flying_general() {
    // Moving the only piece between the generals is illegal.
    let g = game("4k4/9/9/9/4C4/9/9/9/9/4K4 w");
    assert_eq!(targets(&g, "e5"), ["e1", "e2", "e3", "e4", "e6", "e7", "e8"]);
    let g = game("4k4/9/9/9/4N4/9/9/9/9/4K4 w");
    assert_eq!(targets(&g, "e5"), Vec::<String>::new());
    // The general may not step onto the open file of the other.
    let g = game("4k4/9/9/9/9/9/9/9/9/3K5 w");
    assert_eq!(targets(&g, "d0"), ["d1"]);
}

#[test]
fn soldiers_move_sideways_only_across_the_river() {
    let g = game("4k4/9/9/9/9/9/4P4/9/9/3K5 w");
    assert_eq!(targets(&g, "e3"), ["e4"]);
    let g = game("4k4/9/9/9/4P4/9/9/9/9/3K5 w");
    assert_eq!(targets(&g, "e5"), ["d5", "e6", "f5"]);
    let g = game("4k4/9/9/9/9/9/9/9/9/3K3p1 b");
    assert_eq!(targets(&g, "h0"), ["g0", "i0"]);
    let g = game("4k4/9/9/9/2p6/9/9/9/9/3K5 b");
    assert_eq!(targets(&g, "c5"), ["c4"]);
}

#[test]
fn palace_confines_general_and_advisors() {
    let g = game("3k5/9/9/9/9/9/9/5A3/9/4K4 w");
    assert_eq!(targets(&g, "f2"), ["e1"]);
    // d0 would face the black general.
    assert_eq!(targets(&g, "e0"), ["e1", "f0"]);
}

#[test]
fn make_unmake_restores_everything() {
    let mut rng = Rng(SplitMix::new(0x1234_5678_9ABC_DEF1));
    for fen in [
        START_FEN,
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    ] {
        for _ in 0..50 {
            let mut g = game(fen);
            let mut trail = Vec::new();
            for _ in 0..60 {
                let mut list = MoveList::new();
                g.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                trail.push((g.fen(), g.key()));
                g.make(list.as_slice()[(rng.next() % list.len() as u64) as usize]);
                assert_eq!(g.key(), g.position().compute_key(), "{}", g.fen());
                assert_eq!(g.pawn_key(), g.position().compute_pawn_key(), "{}", g.fen());
                assert_eq!(g.in_check(), g.position().compute_checked());
                assert_eq!(game(&g.fen()).key(), g.key());
            }
            while let Some((fen, key)) = trail.pop() {
                g.unmake();
                assert_eq!((g.fen(), g.key()), (fen, key));
                assert_eq!(g.pawn_key(), g.position().compute_pawn_key(), "{}", g.fen());
            }
        }
    }
    let mut g = Xiangqi::startpos();
    let key = g.key();
    g.make_null();
    assert_ne!(g.key(), key);
    assert_eq!(g.key(), g.position().compute_key());
    g.unmake_null();
    assert_eq!((g.fen(), g.key()), (START_FEN.to_string(), key));
}

#[test]
fn is_legal_and_captures_agree_with_generation() {
    let mut rng = Rng(SplitMix::new(0xDEAD_BEEF_0BAD_F00D));
    for _ in 0..200 {
        let mut g = Xiangqi::startpos();
        let plies = (rng.next() % 80) as usize;
        playout(&mut g, &mut rng, plies);
        let mut list = MoveList::new();
        g.legal_moves(&mut list);
        let mut caps = MoveList::new();
        g.legal_captures(&mut caps);
        let expected: Vec<Move> = list.iter().copied().filter(|&m| g.is_tactical(m)).collect();
        assert_eq!(caps.as_slice(), expected.as_slice(), "{}", g.fen());
        for &m in caps.iter() {
            assert!(g.mvv_lva(m) > 0);
        }
        for raw in 0..(1u16 << 14) {
            let m = Move::from_raw(raw);
            assert_eq!(g.is_legal(m), list.contains(m), "{} {}", g.fen(), g.move_text(m));
        }
    }
}

/// The perft positions, full of captures by every kind of piece.
const PERFT_EPD: &str = include_str!("../../../tests/data/perft-xiangqi.epd");

#[test]
fn accumulator_matches_evaluation_over_trees() {
    const DEPTH: u32 = 3;
    let mut captures = 0;
    let mut nodes = 0;
    let fens = PERFT_EPD
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(';').next());
    for fen in fens {
        let mut g = game(fen);
        let mut acc = eval::Accumulator::new(&g, &());
        nodes += check_evaluator(&mut g, &mut acc, DEPTH, &mut |g: &Xiangqi, m| {
            captures += u64::from(g.is_tactical(m));
        });
        assert_eq!(acc.evaluate(&g), g.evaluate(), "{fen}");
        let other = Xiangqi::startpos();
        acc.reset(&other);
        assert_eq!(acc.evaluate(&other), other.evaluate());
    }
    assert!(captures > 0 && nodes > 100_000, "{captures} captures, {nodes} nodes");
}

#[test]
fn evaluation_is_symmetric() {
    let mut rng = Rng(SplitMix::new(0x0F0F_1234_4321_F0F0));
    for _ in 0..300 {
        let mut g = Xiangqi::startpos();
        let plies = (rng.next() % 100) as usize;
        playout(&mut g, &mut rng, plies);
        let fen = g.fen();
        let e = g.evaluate();
        assert_eq!(game(&colour_mirror(&fen)).evaluate(), e, "{fen}");
        assert_eq!(game(&file_mirror(&fen)).evaluate(), e, "{fen}");
    }
    assert_eq!(Xiangqi::startpos().evaluate(), 0);
}

#[test]
fn repetition_is_a_draw_in_search_at_once_and_before_the_root_at_the_third() {
    let mut g = Xiangqi::startpos();
    let play = |g: &mut Xiangqi, moves: &[&str]| {
        for text in moves {
            let m = g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            g.make(m);
        }
    };
    let cycle = ["b0c2", "b9c7", "c2b0", "c7b9"];
    play(&mut g, &cycle);
    // Within the search (the first occurrence 4 plies back, at the root or later).
    assert_eq!(g.rule_score(4), Some(DRAW));
    // Wholly before the root: one repetition is not enough...
    assert_eq!(g.rule_score(0), None);
    // ...a third occurrence is.
    play(&mut g, &cycle);
    assert_eq!(g.rule_score(0), Some(DRAW));
}

#[test]
fn perpetual_check_loses() {
    // Red's chariot checks along the d- and e-files in turn while black's general shuffles.
    let mut g = game("3k5/9/9/9/R8/9/9/9/9/5K3 w");
    for text in ["a5d5", "d9e9", "d5e5", "e9d9", "e5d5", "d9e9"] {
        let m = g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        g.make(m);
    }
    // Red to move, having checked with every move of the cycle while black never did.
    assert_eq!(g.rule_score(4), Some(-(MATE - 4)));
    g.unmake();
    // Black to move: the side checked perpetually wins.
    assert!(g.in_check());
    assert_eq!(g.rule_score(4), Some(MATE - 4));
}

#[test]
fn move_limit_and_material() {
    let mut g = game("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80");
    assert_eq!(g.rule_score(1), None);
    g.make(g.parse_move("a0a1").unwrap_or_default());
    assert_eq!(g.rule_score(1), Some(DRAW));
    let mut g = game("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    g.set_move_limit(1);
    g.make(g.parse_move("a0a1").unwrap_or_default());
    assert_eq!(g.rule_score(1), Some(DRAW));
    // Only defenders left: a draw. A soldier plays on, crossed or not (it will cross).
    assert_eq!(game("3k5/4a4/9/9/9/9/9/4B4/9/4K4 w").rule_score(0), Some(DRAW));
    assert_eq!(game("3k5/4a4/9/9/9/9/P8/4B4/9/4K4 w").rule_score(0), None);
    assert_eq!(game("3k5/4a4/9/P8/9/9/9/4B4/9/4K4 w").rule_score(0), None);
    assert!(Xiangqi::startpos().has_null_material());
    assert!(!game("3k5/4a4/9/P8/9/9/9/4B4/9/4K4 w").has_null_material());
    assert_eq!(Xiangqi::startpos().no_move_score(3), -(MATE - 3));
}

#[test]
fn no_legal_move_when_mated() {
    // Two red chariots on the two back ranks of black.
    let g = game("R3k4/R8/9/9/9/9/9/9/9/3K5 b");
    assert!(g.in_check());
    assert!(moves(&g).is_empty(), "{:?}", moves(&g));
}

/// Plays ICCS moves, panicking on a bad one (test positions are hand-made).
fn play(g: &mut Xiangqi, moves: &str) {
    for text in moves.split_whitespace() {
        let m = g.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        g.make(m);
    }
}

/// The soldier key and each side's piece key follow the moves; from the start (red to move:
/// no side key) they make up the full key.
#[test]
fn soldier_and_piece_keys() {
    let mut g = Xiangqi::startpos();
    let keys =
        |g: &Xiangqi| (g.pawn_key(), g.non_pawn_key(Side::First), g.non_pawn_key(Side::Second));
    let start = keys(&g);
    assert_eq!(start.0 ^ start.1 ^ start.2, g.key());
    // A soldier move changes only the soldier key...
    play(&mut g, "c3c4");
    let after_soldier = keys(&g);
    assert_ne!(after_soldier.0, start.0);
    assert_eq!((after_soldier.1, after_soldier.2), (start.1, start.2));
    // ...a horse move only its side's piece key.
    play(&mut g, "b9c7");
    let after_horse = keys(&g);
    assert_eq!(after_horse.0, after_soldier.0);
    assert_eq!(after_horse.1, after_soldier.1);
    assert_ne!(after_horse.2, after_soldier.2);
    // The same position by another move order has the same keys.
    play(&mut g, "b0c2 g6g5 h2e2");
    let mut other = Xiangqi::startpos();
    play(&mut other, "h2e2 g6g5 b0c2 b9c7 c3c4");
    assert_eq!(keys(&g), keys(&other));
}

/// The verdict for the side to move after `moves`, all inside the search.
fn verdict(fen: &str, moves: &str, rules: rules::RuleSet) -> Option<Score> {
    let mut g = game(fen);
    g.set_rules(rules);
    play(&mut g, moves);
    let ply = moves.split_whitespace().count();
    let before = g.fen();
    let v = g.rule_score(ply);
    assert_eq!(g.fen(), before, "judging leaves the board as it was");
    v
}

#[test]
fn perpetual_chase_of_an_unprotected_piece_loses() {
    // Red's chariot follows black's lone cannon up and down the a-file.
    let fen = "5k3/9/9/9/cR7/9/9/9/9/3K5 b";
    let chase = "a5a6 b5b6 a6a5 b6b5";
    assert_eq!(verdict(fen, chase, rules::RuleSet::Asian), Some(MATE - 4));
    assert_eq!(verdict(fen, chase, rules::RuleSet::CheckBan), Some(DRAW));
    assert_eq!(verdict(fen, chase, rules::RuleSet::AlwaysDraw), Some(DRAW));
    // Protected by the chariot on a9, the cannon is not chased: a chariot does not chase a
    // defended piece worth less.
    let fen = "r4k3/9/9/9/cR7/9/9/9/9/3K5 b";
    assert_eq!(verdict(fen, chase, rules::RuleSet::Asian), Some(DRAW));
}

#[test]
fn chase_of_a_higher_piece_counts_whatever_its_protection() {
    // Red's horse chases black's chariot between e5 and f5, where the chariot on a5 protects
    // it: a horse attacking a chariot chases regardless.
    let fen = "4k4/9/9/9/r3r4/2H6/9/9/9/3K5 b";
    assert_eq!(verdict(fen, "e5f5 c4d6 f5e5 d6c4", rules::RuleSet::Asian), Some(MATE - 4));
}

#[test]
fn same_kinds_attacking_each_other_do_not_chase() {
    // The two chariots face each other on the rank after every red move.
    let fen = "5k3/9/9/9/r8/1R7/9/9/9/3K5 b";
    assert_eq!(verdict(fen, "a5a4 b4b5 a4a5 b5b4", rules::RuleSet::Asian), Some(DRAW));
}

#[test]
fn move_limit_discounts_checks_beyond_ten() {
    let mut g = game("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 100 80");
    // Twelve red checks in a row without a capture: the last two do not count.
    g.pos.checks = [12, 0];
    g.pos.halfmove = 121;
    assert_eq!(g.pos.limit_plies(), 119);
    assert_eq!(g.rule_score(0), None);
    g.pos.halfmove = 122;
    assert_eq!(g.rule_score(0), Some(DRAW));
    // A limit of 0 means none.
    g.set_move_limit(0);
    assert_eq!(g.rule_score(0), None);
}

/// Found by fuzzing: `legal_moves` appended to the list it was given (chess replaced it), so a
/// reused list grew past its capacity; and a fullmove number near `u32::MAX` overflowed on
/// black's move. Both games now replace the list, and the fullmove number read is capped.
#[test]
fn move_lists_are_replaced_and_clocks_cannot_overflow() {
    let g = Xiangqi::startpos();
    let mut list = MoveList::new();
    for _ in 0..10 {
        g.legal_moves(&mut list);
        assert_eq!(list.len(), 44);
        g.legal_captures(&mut list);
        assert_eq!(list.len(), 2);
    }
    let fen = "3k5/1R7/3a2P1P/9/4P1P2/2B1c4/1R3p3/3K2c2/3p5/3p1A3 b - - 0 4294967295";
    let mut g = game(fen);
    g.legal_moves(&mut list);
    let m = list.as_slice()[0];
    let before = g.fen();
    g.make(m);
    g.unmake();
    assert_eq!(g.fen(), before);
    assert_eq!(Xiangqi::from_fen(&before).map(|b| b.fen()), Ok(before));
}
