//! PGN openings against python-chess: random games written by python-chess as PGN (checks,
//! captures, castling, promotions, comments and a variation in some), read back by the runner's
//! opening reader, must end in the positions python-chess reaches. Skipped (with a note) when
//! python-chess is not installed (`scripts/setup-test-deps.sh`; CI has it).

use std::process::Command;

/// Writes `GAMES` random games as PGN, then a line `FENS` and each game's final position.
const MAKE: &str = r#"
import random, chess, chess.pgn
random.seed(7)
games, fens = [], []
for n in range(300):
    board = chess.Board()
    game = chess.pgn.Game()
    node = game
    for ply in range(random.randrange(0, 60)):
        moves = list(board.legal_moves)
        if not moves:
            break
        # Promotions and captures first now and then, so that they occur.
        special = [m for m in moves if m.promotion or board.is_capture(m)]
        m = random.choice(special if special and random.random() < 0.3 else moves)
        if ply == 3 and n % 5 == 0:
            node.add_variation(random.choice(moves)).comment = "a side line"
        node = node.add_main_variation(m)
        if ply % 7 == 0:
            node.comment = "note"
        board.push(m)
    games.append(str(game))
    fens.append(board.fen())
print("\n\n".join(games))
print("FENS")
print("\n".join(fens))
"#;

#[test]
fn pgn_openings_end_where_python_chess_ends_them() {
    let out = match Command::new("python3").args(["-c", MAKE]).output() {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        _ => {
            eprintln!("skipped: python3 cannot import chess (scripts/setup-test-deps.sh)");
            return;
        }
    };
    let (pgn, fens) = out.split_once("\nFENS\n").expect("the script's two parts");
    let expected: Vec<&str> = fens.lines().collect();
    let got = chariot_match::pgn::opening_positions(pgn).expect("every game reads");
    assert_eq!(got.len(), expected.len());
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        // python-chess writes an en-passant square only when a capture there is legal, Chariot
        // after every double step (as the FEN standard does): the square must agree where
        // python-chess names one, and every other field always.
        let (g, e): (Vec<&str>, Vec<&str>) = (g.split(' ').collect(), e.split(' ').collect());
        let ep_agrees = e[3] == "-" || g[3] == e[3];
        fn rest(f: &[&str]) -> String {
            [&f[..3], &f[4..]].concat().join(" ")
        }
        assert!(ep_agrees && rest(&g) == rest(&e), "game {}: {g:?} against {e:?}", i + 1);
    }
}
