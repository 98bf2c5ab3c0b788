//! Unit tests of the chess rules beyond perft: FEN, notation, hashing, evaluation, draws.

use super::*;
use crate::rng::SplitMix;

const FENS: &[&str] = &[
    START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2",
    "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 3 2",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
];

fn game(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(g: &Chess) -> Vec<Move> {
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    list.as_slice().to_vec()
}

/// The same position with colours swapped and the board mirrored vertically.
fn flip_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let placement: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let side = if f[1] == "w" { "b" } else { "w" };
    let castle: String = if f[2] == "-" {
        "-".into()
    } else {
        let swapped: String = f[2]
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }
            })
            .collect();
        let (mut upper, lower): (String, String) =
            swapped.chars().partition(|c| c.is_ascii_uppercase());
        upper.push_str(&lower);
        upper
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
    };
    format!("{} {side} {castle} {ep} {} {}", placement.join("/"), f[4], f[5])
}

#[test]
fn fen_round_trip() {
    for fen in FENS {
        assert_eq!(game(fen).fen(), *fen);
    }
    assert_eq!(game("8/8/8/8/8/8/8/K1k5 w -").fen(), "8/8/8/8/8/8/8/K1k5 w - - 0 1");
    assert_eq!(Chess::startpos().fen(), START_FEN);
}

#[test]
fn fen_errors_name_their_field() {
    use FenError::*;
    type Expect = fn(&FenError) -> bool;
    let cases: &[(&str, Expect)] = &[
        ("", |e| matches!(e, Empty)),
        ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| matches!(e, Board { .. })),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| matches!(e, Board { .. })),
        ("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| matches!(e, Board { .. })),
        ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", |e| {
            matches!(e, Board { .. })
        }),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", |e| matches!(e, Board { .. })),
        ("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1", |e| matches!(e, Board { .. })),
        (&START_FEN.replace(" w ", " x "), |e| matches!(e, Side(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", |e| matches!(e, Side(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", |e| {
            matches!(e, Castling { .. })
        }),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", |e| matches!(e, Illegal(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", |e| {
            matches!(e, Castling { .. })
        }),
        ("rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", |e| {
            matches!(e, Castling { .. })
        }),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", |e| {
            matches!(e, Castling { .. })
        }),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", |e| {
            matches!(e, EnPassant { .. })
        }),
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", |e| {
            matches!(e, EnPassant { .. })
        }),
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3x 0 1", |e| {
            matches!(e, EnPassant { .. })
        }),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1", |e| {
            matches!(e, EnPassant { .. })
        }),
        (&START_FEN.replace("- 0 1", "- x 1"), |e| matches!(e, Halfmove(_))),
        (&START_FEN.replace("- 0 1", "- 0 y"), |e| matches!(e, Fullmove(_))),
        (&START_FEN.replace("- 0 1", "- -1 1"), |e| matches!(e, Halfmove(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w - - 0 1", |e| matches!(e, Illegal(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1", |e| matches!(e, Illegal(_))),
        ("4k3/8/8/8/8/8/8/R3K2R b - - 0 1", |_| false), // legal: black is not in check
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", |e| matches!(e, Illegal(_))),
        (&format!("{START_FEN} extra"), |e| matches!(e, Illegal(_))),
    ];
    for (fen, ok) in cases {
        match Chess::from_fen(fen) {
            Err(e) => assert!(ok(&e), "{fen}: unexpected error {e:?}"),
            Ok(_) => assert!(fen.starts_with("4k3/8/8/8/8/8/8/R3K2R b"), "{fen}: accepted"),
        }
    }
    // The message names the field and says what is wrong.
    let e = Chess::from_fen("rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(e.contains("placement") && e.contains("rank 6"), "{e}");
}

#[test]
fn move_text_round_trip() {
    for fen in FENS {
        let g = game(fen);
        for m in legal(&g) {
            let text = g.move_text(m);
            assert_eq!(g.parse_move(&text), Ok(m), "{fen}: {text}");
        }
    }
}

#[test]
fn castling_notation() {
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = g.parse_move("e1g1").expect("e1g1 is legal");
    assert_eq!(g.move_text(short), "e1g1");
    assert_eq!(g.parse_move("e1h1"), Ok(short));
    g.set_chess960(true);
    assert_eq!(g.move_text(short), "e1h1");
    assert_eq!(g.parse_move("e1h1"), Ok(short));
    assert_eq!(g.parse_move("e1c1").map(|m| g.move_text(m)), Ok("e1a1".to_string()));
    g.make(short);
    assert_eq!(g.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
}

#[test]
fn parse_errors() {
    let g = Chess::startpos();
    for bad in ["", "e2", "e2e", "e2e4qq", "e9e4", "i2e4", "e2e4k", "e2e4K", "0000"] {
        assert!(matches!(g.parse_move(bad), Err(MoveError::Syntax(..))), "{bad}");
    }
    // Upper case is read as GUIs mean it.
    assert_eq!(g.parse_move("E2E4"), g.parse_move("e2e4"));
    assert_eq!(g.parse_move("e7e8Q"), Err(MoveError::Illegal("e7e8Q".to_string())));
    for illegal in ["e2e5", "e1e2", "a1a1", "e7e5", "e2e4q"] {
        assert_eq!(g.parse_move(illegal), Err(MoveError::Illegal(illegal.to_string())));
    }
    let g = game("8/P1k5/K7/8/8/8/8/8 w - - 0 1");
    for promo in ["a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7a8Q", "a7a8N"] {
        assert!(g.parse_move(promo).is_ok(), "{promo}");
    }
    assert!(matches!(g.parse_move("a7a8"), Err(MoveError::Illegal(_))));
}

#[test]
fn playouts_keep_key_and_unmake_restores() {
    let mut rng = SplitMix::new(12345);
    for fen in FENS {
        for _ in 0..20 {
            let mut g = game(fen);
            let mut acc = eval::Accumulator::new(&g, &());
            let mut seen = vec![(g.fen(), g.key())];
            for _ in 0..120 {
                let moves = legal(&g);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                if rng.below(8) == 0 && !g.in_check() {
                    acc.push_null(&g);
                    g.make_null();
                } else {
                    acc.push(&g, m);
                    g.make(m);
                }
                assert_eq!(g.board.key, g.board.compute_key(), "{}", g.fen());
                assert_eq!(g.board.pawn_key(), g.board.compute_pawn_key(), "{}", g.fen());
                assert_eq!(g.board.checkers(), g.board.compute_checkers(), "{}", g.fen());
                assert_eq!(acc.evaluate(&g), g.evaluate(), "{}", g.fen());
                // A fresh parse of the FEN gives the same key (the FEN holds everything hashed).
                assert_eq!(game(&g.fen()).key(), g.key(), "{}", g.fen());
                seen.push((g.fen(), g.key()));
            }
            while seen.len() > 1 {
                seen.pop();
                g.unmake();
                acc.pop();
                assert_eq!(acc.evaluate(&g), g.evaluate(), "{}", g.fen());
                let (fen, key) = seen.last().cloned().unwrap_or_default();
                assert_eq!((g.fen(), g.key()), (fen, key));
            }
        }
    }
}

/// The perft positions, which between them castle both ways (Chess960 too), capture en
/// passant and promote with and without capturing.
const PERFT_EPD: &str = include_str!("../../../tests/data/perft-chess.epd");

/// Chess960 positions whose castling lands the king or rook on a square one of them left.
const CHESS960_FENS: &[&str] = &[
    "1r4kr/8/8/8/8/8/8/1R4KR w BHbh - 0 1",
    "rk5r/8/8/8/8/8/8/RK4R1 w AGah - 0 1",
    "4k3/8/8/8/8/8/8/5KRr w G - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

#[test]
fn accumulator_matches_evaluation_over_trees() {
    const DEPTH: u32 = 3;
    let fens = PERFT_EPD
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(';').next())
        .chain(FENS.iter().copied())
        .chain(CHESS960_FENS.iter().copied());
    // Moves seen by kind: castling, en passant, promotion, capturing promotion, capture.
    let mut kinds = [0u64; 5];
    let mut nodes = 0;
    for fen in fens {
        let mut g = game(fen);
        let mut acc = eval::Accumulator::new(&g, &());
        nodes += check_evaluator(&mut g, &mut acc, DEPTH, &mut |g: &Chess, m| {
            let capture = g.board.squares[moves::to_sq(m)] != NO_PIECE;
            match moves::flag(m) {
                CASTLE => kinds[0] += 1,
                EN_PASSANT => kinds[1] += 1,
                _ if moves::promotion(m).is_some() => kinds[2 + usize::from(capture)] += 1,
                _ if capture => kinds[4] += 1,
                _ => {}
            }
        });
        // Back at the root, every push undone: the sum is the root's again, and a reset
        // from another position takes that one's.
        assert_eq!(acc.evaluate(&g), g.evaluate(), "{fen}");
        let other = Chess::startpos();
        acc.reset(&other);
        assert_eq!(acc.evaluate(&other), other.evaluate());
    }
    assert!(kinds.iter().all(|&n| n > 0), "move kinds not covered: {kinds:?}");
    assert!(nodes > 100_000, "{nodes}");
}

#[test]
fn en_passant_hashed_only_when_capturable() {
    // After 1.e4 no black pawn can take on e3: same key as the position without the square.
    let mut g = Chess::startpos();
    g.make(g.parse_move("e2e4").expect("legal"));
    let plain = game("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(g.key(), plain.key());
    assert_eq!(g.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    let with = game("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    let without = game("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    assert_ne!(with.key(), without.key());
}

#[test]
fn evaluation_is_colour_symmetric() {
    for fen in FENS
        .iter()
        .chain(["r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"].iter())
    {
        let a = game(fen);
        let flipped = flip_fen(fen);
        let b = game(&flipped);
        assert_eq!(a.evaluate(), b.evaluate(), "{fen} vs {flipped}");
        assert_eq!(perft_from(&a.board, 2), perft_from(&b.board, 2), "{flipped}");
    }
    // Start position: only the tempo bonus.
    assert_eq!(Chess::startpos().evaluate(), 10);
    // A queen up is a lot better.
    assert!(game("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").evaluate() > 800);
    assert!(game("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").evaluate() < -800);
}

fn play(g: &mut Chess, moves: &str) {
    for text in moves.split_whitespace() {
        let m = g.parse_move(text).unwrap_or_else(|e| panic!("{e}"));
        g.make(m);
    }
}

/// The pawn key and each side's piece key follow the moves, and with white to move and no
/// castling or en passant they make up the full key.
#[test]
fn pawn_and_piece_keys() {
    let mut g = Chess::startpos();
    let keys =
        |g: &Chess| (g.pawn_key(), g.non_pawn_key(Side::First), g.non_pawn_key(Side::Second));
    let start = keys(&g);
    // A pawn move changes only the pawn key...
    play(&mut g, "e2e4");
    let after_pawn = keys(&g);
    assert_ne!(after_pawn.0, start.0);
    assert_eq!((after_pawn.1, after_pawn.2), (start.1, start.2));
    // ...a knight move only its side's piece key.
    play(&mut g, "g8f6");
    let after_knight = keys(&g);
    assert_eq!(after_knight.0, after_pawn.0);
    assert_eq!(after_knight.1, after_pawn.1);
    assert_ne!(after_knight.2, after_pawn.2);
    // The same position by another move order has the same keys.
    play(&mut g, "g1f3 b8c6 d2d4");
    let mut other = Chess::startpos();
    play(&mut other, "g1f3 b8c6 d2d4 g8f6 e2e4");
    assert_eq!(keys(&g), keys(&other));
    let g = game("r3k3/2n5/8/3p4/4P3/8/1B6/4K2R w - - 0 1");
    let (p, w, b) = keys(&g);
    assert_eq!(p ^ w ^ b, g.key());
}

#[test]
fn repetition() {
    // Before the root a position needs to have occurred twice before (threefold).
    let mut g = Chess::startpos();
    play(&mut g, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(g.rule_score(0), None);
    play(&mut g, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(g.rule_score(0), Some(DRAW));

    // Inside the search one recurrence of a position after the root is a draw...
    let mut g = Chess::startpos();
    play(&mut g, "g1f3 g8f6 f3g1 f6g8 g1f3");
    assert_eq!(g.rule_score(5), Some(DRAW));
    // ...but a recurrence of the root itself is not.
    let mut g = Chess::startpos();
    play(&mut g, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(g.rule_score(4), None);

    // An irreversible move in between hides earlier positions.
    let mut g = Chess::startpos();
    play(&mut g, "g1f3 g8f6 f3g1 f6g8 e2e4 e7e5 g1f3 g8f6 f3g1 f6g8");
    assert_eq!(g.rule_score(4), None);

    // A null move too: the line can only be reached with the opponent's help.
    let mut g = Chess::startpos();
    play(&mut g, "g1f3");
    g.make_null();
    play(&mut g, "f3g1");
    g.make_null();
    assert_eq!(g.key(), Chess::startpos().key());
    assert_eq!(g.rule_score(5), None);
    g.unmake_null();
    g.unmake();
    g.unmake_null();
    assert_eq!(g.fen(), "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
}

#[test]
fn fifty_moves_and_material() {
    assert_eq!(game("4k3/8/8/8/8/8/4P3/4K3 w - - 99 80").rule_score(0), None);
    assert_eq!(game("4k3/8/8/8/8/8/4P3/4K3 w - - 100 80").rule_score(0), Some(DRAW));
    // Mate takes precedence over the 50-move rule.
    let mut mated = game("R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80");
    assert_eq!(mated.rule_score(0), None);
    assert_eq!(mated.no_move_score(3), -(MATE - 3));
    // Stalemate.
    assert_eq!(game("7k/5Q2/8/8/8/8/8/6K1 b - - 0 1").no_move_score(2), DRAW);

    for dead in [
        "8/8/4k3/8/8/8/8/4K3 w - - 0 1",
        "8/8/4k3/8/8/8/8/4KN2 w - - 0 1",
        "8/8/4kb2/8/8/8/8/4K3 w - - 0 1",
        "8/8/4kb2/8/8/8/8/2B1K3 w - - 0 1",
        "8/8/4k3/8/8/8/8/3BKB2 w - - 0 1",
    ] {
        assert_eq!(game(dead).rule_score(0), Some(DRAW), "{dead}");
    }
    for alive in [
        "8/8/4k3/8/8/8/8/2B1KB2 w - - 0 1",
        "8/8/4kb2/8/8/8/8/3BK3 w - - 0 1",
        "8/8/4kn2/8/8/8/8/4KN2 w - - 0 1",
        "8/8/4k3/8/8/8/4P3/4K3 w - - 0 1",
    ] {
        assert_eq!(game(alive).rule_score(0), None, "{alive}");
    }
}

#[test]
fn captures_and_ordering() {
    let g = game("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1");
    let mut caps = MoveList::new();
    g.legal_captures(&mut caps);
    let all = legal(&g);
    for &m in caps.iter() {
        assert!(all.contains(&m) && g.is_tactical(m) && g.mvv_lva(m) > 0, "{}", g.move_text(m));
    }
    for &m in &all {
        let queen_promo = moves::promotion(m) == Some(QUEEN);
        let capture = g.is_tactical(m) && moves::promotion(m).is_none();
        assert_eq!(caps.contains(m), capture || queen_promo, "{}", g.move_text(m));
        if !g.is_tactical(m) {
            assert_eq!(g.mvv_lva(m), 0);
        }
    }
    // Pawn takes queen before queen takes pawn.
    let g = game("4k3/8/8/3q4/4P3/8/8/3QK3 w - - 0 1");
    let pxq = g.parse_move("e4d5").expect("legal");
    let qxq = g.parse_move("d1d5").expect("legal");
    assert!(g.mvv_lva(pxq) > g.mvv_lva(qxq));
}

#[test]
fn is_legal_matches_generation() {
    // Every possible 16-bit move, in the test positions and along random playouts from them.
    let mut rng = SplitMix::new(99);
    for fen in FENS {
        let mut g = game(fen);
        for _ in 0..12 {
            let all = legal(&g);
            for raw in 0..=u16::MAX {
                let m = Move::from_raw(raw);
                assert_eq!(g.is_legal(m), all.contains(&m), "{} {}", g.fen(), g.move_text(m));
            }
            if all.is_empty() {
                break;
            }
            g.make(all[rng.below(all.len())]);
        }
    }
}

#[test]
fn null_material() {
    assert!(Chess::startpos().has_null_material());
    assert!(!game("4k3/pppp4/8/8/8/8/8/4K2R b - - 0 1").has_null_material());
}

#[test]
fn chess960_fen_forms() {
    // Shredder-FEN in, X-FEN out (outermost rooks as KQkq).
    let g = game("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert!(g.chess960());
    assert_eq!(g.fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    // An inner rook keeps its file letter.
    let g = game("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
    // Standard placement stays standard notation.
    let g = game("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    assert!(!g.chess960());
    assert_eq!(g.fen(), START_FEN);
}

/// Found by fuzzing: errors quoted their input whole (a megabyte of FEN came back in the
/// message), and a halfmove clock of 65535 overflowed on the next quiet move.
#[test]
fn errors_quote_little_and_the_clock_saturates() {
    let garbage = "K".repeat(100_000);
    let errors = [
        Chess::from_fen(&format!("{START_FEN} {garbage}")).err().map(|e| e.to_string()),
        Chess::from_fen(&garbage).err().map(|e| e.to_string()),
        Chess::startpos().parse_move(&garbage).err().map(|e| e.to_string()),
    ];
    for e in errors {
        let e = e.expect("refused");
        assert!(e.chars().count() < 200 && e.contains("KKK..."), "{}", &e[..200.min(e.len())]);
    }
    let mut g = Chess::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 65535 1").expect("valid");
    let m = g.parse_move("e1d1").expect("legal");
    g.make(m);
    assert_eq!(g.fen(), "4k3/8/8/8/8/8/8/3K4 b - - 65535 1");
}

/// A side's attack map holds exactly the squares `attacked_by` finds it attacking, on random
/// playouts from every test position, for both sides.
#[test]
fn attack_maps_match_attacked_by() {
    let mut rng = SplitMix::new(777);
    for fen in FENS.iter().chain(CHESS960_FENS) {
        let mut g = game(fen);
        for _ in 0..80 {
            let occ = g.board.occupied();
            for by in [WHITE, BLACK] {
                let map = g.board.attacks_of(by);
                for sq in 0..64 {
                    let attacked = g.board.attacked_by(sq, by, occ);
                    assert_eq!(map >> sq & 1 == 1, attacked, "{} by {by} on {sq}", g.fen());
                }
            }
            assert_eq!(g.threats(), u128::from(g.board.attacks_of(g.board.side ^ 1)));
            let moves = legal(&g);
            if moves.is_empty() {
                break;
            }
            g.make(moves[rng.below(moves.len())]);
        }
    }
}
