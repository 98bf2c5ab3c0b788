//! Tests of the game format: round trips in both games (castling, en passant, promotions, a
//! double-Fischer-random start), a file cut off mid-game, damaged files, the writer's checks.

use super::*;
use crate::chess::moves::{CASTLE, EN_PASSANT};

/// Plays `moves` (the game's notation) from `fen` and returns the game as the format stores it
/// and the records datagen would have written for it: every third position is skipped, the
/// scores vary in sign and size, and the result is `result`.
fn play<G: MoveCode>(fen: &str, moves: &[&str], result: GameResult) -> (GameRecord, Vec<Record>) {
    let mut board = G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut game = GameRecord::new(&board);
    game.result = result;
    let mut records = Vec::new();
    for (ply, text) in moves.iter().enumerate() {
        let m = board.parse_move(text).unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
        let score = (ply as i32 - 3) * 137;
        let kept = ply % 3 != 1;
        game.push(&board, m, score, kept);
        if kept {
            records.push(Record::new(&board, score, result, ply as u32).expect("fits"));
        }
        board.make(m);
    }
    (game, records)
}

/// Writes `games` to one buffer, in order.
fn file_of(games: &[&GameRecord]) -> Vec<u8> {
    let mut writer = GameWriter::new(Vec::new());
    for g in games {
        writer.write(g).expect("writable");
    }
    assert_eq!(writer.games(), games.len() as u64);
    let bytes = writer.finish().expect("flushed");
    assert!(!bytes.is_empty());
    bytes
}

/// Every training record of `variant` in `bytes`, with the summary.
fn read(bytes: &[u8], variant: Variant) -> (Vec<Record>, ReadSummary) {
    let mut out = Vec::new();
    let summary = read_records(bytes, variant, |r| {
        out.push(r);
        ControlFlow::Continue(())
    })
    .expect("readable");
    (out, summary)
}

/// The games and records of the round trips: chess with both castlings, en passant and
/// promotions to a queen and a knight (one capturing); a double-Fischer-random start whose
/// kings castle by taking an adjacent rook and by jumping to the rook's square; xiangqi with a
/// cannon's capture over a screen.
fn samples() -> Vec<(GameRecord, Vec<Record>)> {
    let chess = play::<Chess>(
        "r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1",
        &["e5d6", "e8g8", "e1c1", "g8g7", "b7b8q", "a8b8", "d6d7", "g2h1n", "d7d8n", "b8b1"],
        GameResult::Loss,
    );
    let dfrc = play::<Chess>(
        "rk4rn/pppppppp/8/8/8/8/PPPPPPPP/RK4RN w GAga - 0 1",
        &["b1a1", "b8g8", "e2e4", "d7d5", "e4d5", "h8g6"],
        GameResult::Win,
    );
    let xiangqi = play::<Xiangqi>(
        xiangqi::START_FEN,
        &["h2e2", "h9g7", "b2b9", "a9b9", "h0g2", "i9h9", "i0h0", "b7b3"],
        GameResult::Draw,
    );
    vec![chess, dfrc, xiangqi]
}

/// Written and read back, each game gives the records datagen would have written for it,
/// whatever game it is; the moves that need more than squares (castling, en passant,
/// promotions) are among them.
#[test]
fn games_round_trip_to_the_same_records() {
    let games = samples();
    // The samples hold every kind of chess move the code has to tell apart.
    let chess_moves = || {
        let (game, _) = &games[0];
        let mut board = Chess::from_fen(&game.start).expect("valid");
        let mut moves = Vec::new();
        let mut list = MoveList::new();
        for e in &game.entries {
            board.legal_moves(&mut list);
            let m = *list.iter().find(|&&m| Chess::code(m) == e.code).expect("legal");
            moves.push(m);
            board.make(m);
        }
        moves
    };
    let moves = chess_moves();
    assert!(moves.iter().any(|&m| chess::moves::flag(m) == CASTLE));
    assert!(moves.iter().any(|&m| chess::moves::flag(m) == EN_PASSANT));
    let promotions: Vec<_> = moves.iter().filter_map(|&m| chess::moves::promotion(m)).collect();
    assert_eq!(promotions.len(), 3, "{moves:?}");
    assert!(Chess::from_fen(&games[1].0.start).expect("valid").chess960());

    for (game, expected) in &games {
        let bytes = file_of(&[game]);
        assert_eq!(
            bytes.len(),
            HEADER_BYTES + game.start.len() + MOVE_BYTES * (game.entries.len() + 1)
        );
        let back = GameReader::new(&bytes[..]).next_game().expect("readable").expect("a game");
        assert_eq!(&back, game);
        assert_eq!(&back.records().expect("replays"), expected);
        let (records, summary) = read(&bytes, game.variant);
        assert_eq!(&records, expected);
        assert_eq!(summary.games, 1);
        assert_eq!(summary.positions, expected.len() as u64);
        assert_eq!(summary.cut, None);
    }

    // Several games of both kinds in one file: each game's reading skips the other's games.
    let all: Vec<&GameRecord> = games.iter().map(|(g, _)| g).collect();
    let bytes = file_of(&all);
    let (chess, summary) = read(&bytes, Variant::Chess);
    assert_eq!(chess, [games[0].1.clone(), games[1].1.clone()].concat());
    assert_eq!((summary.games, summary.skipped), (3, games[2].1.len() as u64));
    let (xiangqi, _) = read(&bytes, Variant::Xiangqi);
    assert_eq!(xiangqi, games[2].1);
    assert_eq!(complete_bytes(&bytes[..]).expect("complete"), bytes.len() as u64);

    // The caller may stop the reading at any record.
    let mut taken = 0;
    let summary = read_records(&bytes[..], Variant::Chess, |_| {
        taken += 1;
        if taken == 3 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    })
    .expect("readable");
    assert!(summary.stopped && taken == 3);
}

/// A file whose last game was cut off mid-write gives the complete games before it, and says
/// which game was cut and where it began; wherever the cut falls.
#[test]
fn a_cut_off_last_game_is_reported_and_skipped() {
    let games = samples();
    let (first, second) = (&games[0], &games[1]);
    let whole = file_of(&[&first.0, &second.0, &first.0]);
    let complete = file_of(&[&first.0, &second.0]).len();
    let expected = [first.1.clone(), second.1.clone()].concat();
    // Cuts in the header, in the FEN, in a move, and just before the end marker's last byte.
    for end in [complete + 1, complete + 7, complete + 40, whole.len() - 5, whole.len() - 1] {
        let bytes = &whole[..end];
        let (records, summary) = read(bytes, Variant::Chess);
        assert_eq!(records, expected, "cut at {end}");
        assert_eq!(summary.cut, Some(Cut { game: 2, offset: complete as u64 }), "cut at {end}");
        assert_eq!(summary.games, 2);
        assert_eq!(complete_bytes(bytes).expect("a cut"), complete as u64);
        let message = GamesError::Truncated(summary.cut.expect("cut")).to_string();
        assert!(message.contains("game 2") && message.contains(&complete.to_string()), "{message}");
    }
    // A cut exactly between games is no cut.
    let (records, summary) = read(&whole[..complete], Variant::Chess);
    assert_eq!((records, summary.cut), (expected, None));
}

/// A damaged game is an error naming the game and the byte; a cut in front of it is not
/// repaired by cutting (the games after it would be lost).
#[test]
fn damaged_games_are_errors_naming_the_game_and_the_byte() {
    let games = samples();
    let (first, second) = (&games[0].0, &games[1].0);
    let whole = file_of(&[first, second]);
    let second_at = file_of(&[first]).len();
    let corrupt =
        |bytes: &[u8]| match read_records(bytes, Variant::Chess, |_| ControlFlow::Continue(())) {
            Err(GamesError::Corrupt { game, offset, fault }) => (game, offset, fault),
            other => panic!("not a corruption: {other:?}"),
        };

    let mut bytes = whole.clone();
    bytes[second_at] = 0x12;
    assert_eq!(corrupt(&bytes), (1, second_at as u64, Fault::Magic(0x12)));
    assert!(complete_bytes(&bytes[..]).is_err());

    let mut bytes = whole.clone();
    bytes[second_at + 3] = 5;
    assert_eq!(corrupt(&bytes), (1, second_at as u64 + 3, Fault::Result(5)));

    // The second game's third move turned into a move from an empty square (d4 to e4).
    let third = second_at + HEADER_BYTES + second.start.len() + 2 * MOVE_BYTES;
    let mut bytes = whole.clone();
    bytes[third..third + 2].copy_from_slice(&(27u16 | 28 << 6).to_le_bytes());
    let (game, offset, fault) = corrupt(&bytes);
    assert_eq!((game, offset), (1, third as u64));
    assert_eq!(fault, Fault::Illegal { ply: 2, code: 27 | 28 << 6 });
    let message = GamesError::Corrupt { game, offset, fault }.to_string();
    assert!(message.contains("game 1") && message.contains(&third.to_string()), "{message}");

    // The skipped mark on code 0 (found by the fuzz target fuzz_games): no move, so corrupt, not
    // a game that reads but cannot be written back.
    let mut bytes = whole.clone();
    bytes[third..third + 2].copy_from_slice(&SKIPPED.to_le_bytes());
    assert_eq!(corrupt(&bytes), (1, third as u64, Fault::Code { ply: 2, code: SKIPPED }));

    // A FEN that is no position.
    let mut bytes = whole.clone();
    bytes[HEADER_BYTES] = b'x';
    assert!(matches!(corrupt(&bytes), (0, 5, Fault::Fen(_))));

    // A 40-byte record file is not a game file.
    let record = Record::new(&Chess::startpos(), 0, GameResult::Draw, 0).expect("fits");
    let err = read_records(&record.to_bytes()[..], Variant::Chess, |_| ControlFlow::Continue(()));
    assert!(matches!(err, Err(GamesError::Corrupt { game: 0, offset: 0, .. })), "{err:?}");
}

/// The writer refuses what the format cannot hold rather than write a file it cannot read.
#[test]
fn the_writer_refuses_what_the_format_cannot_hold() {
    let (mut game, _) = samples().remove(0);
    game.entries[1].code = 0;
    assert!(matches!(game.to_bytes(), Err(GamesError::Unwritable(Fault::Code { ply: 1, .. }))));
    game.entries[1].code = SKIPPED | 12;
    assert!(game.to_bytes().is_err());
    game.entries.clear();
    game.start = "8/".repeat(200);
    assert!(matches!(game.to_bytes(), Err(GamesError::Unwritable(Fault::LongStart(400)))));
    // A game of no move is a game: its start and result.
    let empty = GameRecord::new(&Xiangqi::startpos());
    let bytes = file_of(&[&empty]);
    assert_eq!(read(&bytes, Variant::Xiangqi).1.games, 1);
    // And the replay checks the game it is asked for.
    assert!(matches!(
        empty.replay::<Chess>(|_| ControlFlow::Continue(())),
        Err(GamesError::Corrupt { fault: Fault::OtherGame(Variant::Xiangqi, Variant::Chess), .. })
    ));
}
