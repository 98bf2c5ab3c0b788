//! Tests of datagen: determinism, the formats' equality, appending and repair, the starts.

use super::*;
use crate::nnue::data::RECORD_BYTES;

fn settings(variant: Variant, out: std::path::PathBuf, threads: usize) -> Plan {
    Plan {
        variant,
        format: Format::of_path(&out),
        out,
        games: Some(4),
        positions: None,
        threads,
        nodes: 400,
        // Half the chess games from DFRC starts, so that the run covers both kinds.
        starts: Starts { random_plies: 6, dfrc_share: 0.5, ..Starts::default() },
        seed: 7,
        nets: Networks::embedded(),
    }
}

fn records(path: &std::path::Path) -> Vec<Record> {
    let bytes = std::fs::read(path).expect("written");
    assert_eq!(bytes.len() % RECORD_BYTES, 0);
    bytes
        .chunks_exact(RECORD_BYTES)
        .map(|c| {
            let mut b = [0u8; RECORD_BYTES];
            b.copy_from_slice(c);
            Record::from_bytes(&b).expect("valid record")
        })
        .collect()
}

/// The same seed gives the same file with one thread or two; positions are quiet and
/// carry their game's result.
#[test]
fn datagen_is_deterministic_and_keeps_quiet_positions() {
    let dir = std::env::temp_dir().join(format!("chariot-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for variant in [Variant::Chess, Variant::Xiangqi] {
        let one = dir.join(format!("{}-1.data", variant.name()));
        let two = dir.join(format!("{}-2.data", variant.name()));
        let _ = std::fs::remove_file(&one);
        let _ = std::fs::remove_file(&two);
        let a = run(&settings(variant, one.clone(), 1), None).expect("runs");
        let b = run(&settings(variant, two.clone(), 2), None).expect("runs");
        assert_eq!(a, b);
        assert_eq!(a.games, 4);
        assert!(a.positions > 20, "{a:?}");
        assert_eq!(std::fs::read(&one).ok(), std::fs::read(&two).ok());
        let recs = records(&one);
        assert_eq!(recs.len() as u64, a.positions);
        assert!(recs.iter().all(|r| r.variant == variant && i32::from(r.score).abs() < MATE_BOUND));
        // Appending adds a game's worth without touching what is there.
        let before = std::fs::read(&one).expect("written");
        let more = Plan { games: Some(1), ..settings(variant, one.clone(), 1) };
        run(&more, None).expect("runs");
        let after = std::fs::read(&one).expect("written");
        assert!(after.len() > before.len() && after.starts_with(&before));
        // A run cut off in the middle of a record: the next one drops the partial record
        // and appends whole records after the whole ones.
        std::fs::write(&one, &after[..before.len() + 17]).expect("written");
        run(&more, None).expect("runs");
        let repaired = std::fs::read(&one).expect("written");
        assert!(repaired.starts_with(&before) && repaired.len() > before.len());
        assert_eq!(records(&one).len(), repaired.len() / RECORD_BYTES);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same seed gives the same training positions in a `.games` file as in a 40-byte record
/// file, in both games; the games file is several times smaller; an interrupted write of the
/// games file is cut off before the next run appends to it.
#[test]
fn the_games_format_holds_the_same_positions_as_the_records() {
    let dir = std::env::temp_dir().join(format!("chariot-datagen-games-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for variant in [Variant::Chess, Variant::Xiangqi] {
        let data = dir.join(format!("{}.data", variant.name()));
        let games = dir.join(format!("{}.games", variant.name()));
        let _ = std::fs::remove_file(&data);
        let _ = std::fs::remove_file(&games);
        assert_eq!(Format::of_path(&games), Format::Games);
        let a = run(&settings(variant, data.clone(), 1), None).expect("runs");
        let b = run(&settings(variant, games.clone(), 2), None).expect("runs");
        assert_eq!(a, b);
        let from_games = |path: &std::path::Path| {
            let bytes = std::fs::read(path).expect("written");
            let mut out = Vec::new();
            let summary = crate::nnue::games::read_records(&bytes[..], variant, |r| {
                out.push(r);
                std::ops::ControlFlow::Continue(())
            })
            .expect("readable");
            (out, summary, bytes.len())
        };
        let (got, summary, len) = from_games(&games);
        assert_eq!(got, records(&data));
        assert_eq!((summary.games, summary.positions, summary.cut), (4, a.positions, None));
        assert!(len * 4 < a.positions as usize * RECORD_BYTES, "{len} bytes for {a:?}");

        // A run killed in the middle of a game: the next one drops the partial game and
        // appends whole games after the whole ones.
        let whole = std::fs::read(&games).expect("written");
        std::fs::write(&games, &whole[..whole.len() - 9]).expect("written");
        let (_, cut, _) = from_games(&games);
        assert_eq!(cut.games, 3);
        assert!(cut.cut.is_some_and(|c| c.game == 3));
        let more = Plan { games: Some(1), ..settings(variant, games.clone(), 1) };
        run(&more, None).expect("runs");
        let (again, summary, _) = from_games(&games);
        assert_eq!((summary.games, summary.cut), (4, None));
        assert_eq!(again[..cut.positions as usize], got[..cut.positions as usize]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A player for the start tests: a small table, a shallow verification.
fn player() -> Player {
    let session = Session::new(1, 1, Networks::embedded()).expect("a search thread");
    Player { session, nodes: 400 }
}

/// True when `rank` (uppercase letters, a-file first) is a Chess960 back rank: two rooks
/// with the king between them, bishops on squares of both colours, a queen, two knights.
fn is_chess960_rank(rank: &[u8]) -> bool {
    let at = |p: u8| (0..rank.len()).filter(|&f| rank[f] == p).collect::<Vec<_>>();
    let (rooks, king, bishops) = (at(b'R'), at(b'K'), at(b'B'));
    rank.len() == 8
        && rooks.len() == 2
        && king.len() == 1
        && rooks[0] < king[0]
        && king[0] < rooks[1]
        && bishops.len() == 2
        && bishops[0] % 2 != bishops[1] % 2
        && at(b'Q').len() == 1
        && at(b'N').len() == 2
}

/// The back ranks of a FEN's placement: white's (rank 1) and black's (rank 8, uppercased).
fn back_ranks(fen: &str) -> (Vec<u8>, Vec<u8>) {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let ranks: Vec<&str> = placement.split('/').collect();
    let white = ranks.last().copied().unwrap_or("").bytes().collect();
    let black = ranks.first().copied().unwrap_or("").to_ascii_uppercase().bytes().collect();
    (white, black)
}

/// The 960 numbers give the 960 distinct Chess960 back ranks, 518 the standard one.
#[test]
fn chess960_numbers_are_the_960_back_ranks() {
    assert_eq!(&chess960_rank(518), b"RNBQKBNR");
    let all: std::collections::BTreeSet<[u8; 8]> = (0..960).map(chess960_rank).collect();
    assert_eq!(all.len(), 960);
    assert!(all.iter().all(|r| is_chess960_rank(r)), "an invalid back rank");
}

/// A DFRC FEN is a valid Chess960 position: both back ranks are Chess960 ranks, chosen
/// independently (black's need not mirror white's), with every castling right, and the
/// engine reads it as Chess960 and castles in it.
#[test]
fn dfrc_fens_are_valid_chess960_positions() {
    let fen = dfrc_fen(0, 959);
    let (white, black) = back_ranks(&fen);
    assert!(is_chess960_rank(&white) && is_chess960_rank(&black), "{fen}");
    assert_ne!(white, black, "{fen}: black's rank mirrors white's");
    let board = Chess::from_fen(&fen).expect("a valid FEN");
    assert!(board.chess960(), "{fen} not read as Chess960");
    assert_eq!(board.fen().split_whitespace().nth(2).map(str::len), Some(4), "{fen}");
    // Every pair of numbers gives a position the engine accepts with moves to play.
    let mut rng = Stream::new(3, 0);
    let mut list = MoveList::new();
    for _ in 0..200 {
        let (w, b) = (rng.below(CHESS960_RANKS), rng.below(CHESS960_RANKS));
        let board = Chess::from_fen(&dfrc_fen(w, b)).expect("a valid FEN");
        board.legal_moves(&mut list);
        // 16 pawn moves and one or two for each knight (more with a castling at once).
        assert!(list.len() >= 18, "{}", dfrc_fen(w, b));
        assert_eq!(
            back_ranks(&board.fen()),
            (chess960_rank(w).to_vec(), chess960_rank(b).to_vec())
        );
    }
    // A king next to its rook castles by taking it (b1, a1 here).
    let fen = "rk4rn/pppppppp/8/8/8/8/PPPPPPPP/RK4RN w GAga - 0 1";
    let board = Chess::from_fen(fen).expect("a valid FEN");
    board.legal_moves(&mut list);
    assert!(list.iter().any(|&m| board.move_text(m) == "b1a1"), "no castling in {fen}");
}

/// The starts drawn are legal positions with a move to play, and with a DFRC share of one
/// half both kinds occur, the DFRC ones with two independent Chess960 back ranks.
#[test]
fn drawn_starts_are_legal_and_dfrc_ones_are_chess960() {
    let starts =
        Starts { random_plies: 0, dfrc_share: 0.5, verify_depth: Plies(4), ..Starts::default() };
    let mut player = player();
    let (mut dfrc, mut standard, mut unmirrored) = (0, 0, 0);
    let mut list = MoveList::new();
    // Even numbers only: odd games play one more random ply, which may move a knight.
    for index in (0..40).step_by(2) {
        let mut rng = Stream::new(11, index);
        let board: Chess = draw_start(&starts, Variant::Chess, &mut player, &mut rng, index);
        let fen = board.fen();
        let again = Chess::from_fen(&fen).expect("a start reads back");
        again.legal_moves(&mut list);
        assert!(!list.is_empty(), "{fen}");
        let (white, black) = back_ranks(&fen);
        if white == b"RNBQKBNR" && black == b"RNBQKBNR" {
            standard += 1;
        } else {
            assert!(is_chess960_rank(&white) && is_chess960_rank(&black), "{fen}");
            dfrc += 1;
            unmirrored += usize::from(white != black);
        }
    }
    assert!(dfrc > 0 && standard > 0, "dfrc {dfrc}, standard {standard}");
    assert!(unmirrored > 0, "every DFRC start mirrored");
    // Xiangqi ignores the share, and its starts after random plies are legal too.
    let starts = Starts { random_plies: 4, dfrc_share: 1.0, ..starts };
    for index in 0..4 {
        let mut rng = Stream::new(11, index);
        let board: Xiangqi = draw_start(&starts, Variant::Xiangqi, &mut player, &mut rng, index);
        let again = Xiangqi::from_fen(&board.fen()).expect("a start reads back");
        again.legal_moves(&mut list);
        assert!(!list.is_empty(), "{}", board.fen());
    }
}

/// The verification search rejects a start a queen and a rook up (a queen alone is about
/// 970 cp, inside the bound), keeps a balanced one, and a game
/// whose every opening is lopsided starts from the start position instead.
#[test]
fn the_verification_rejects_lopsided_starts() {
    let lopsided = "rnb1kbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1";
    let balanced = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let mut player = player();
    let mut list = MoveList::new();
    let board = Chess::from_fen(lopsided).expect("valid");
    board.legal_moves(&mut list);
    let score = player.verify(&board, list.as_slice(), Plies(6)).expect("moves");
    let bound = DEFAULT_VERIFY_MAX.0 * Chess::UNITS_PER_CP;
    assert!(score > bound, "a queen and a rook up score {score}, the bound is {bound}");
    let starts = |fen: &str| Starts {
        random_plies: 0,
        openings: vec![fen.to_string()],
        dfrc_share: 0.0,
        verify_depth: Plies(6),
        ..Starts::default()
    };
    let mut rng = Stream::new(1, 0);
    let start: Chess = draw_start(&starts(lopsided), Variant::Chess, &mut player, &mut rng, 0);
    assert_eq!(start.fen(), Chess::startpos().fen());
    let start: Chess = draw_start(&starts(balanced), Variant::Chess, &mut player, &mut rng, 0);
    assert_eq!(start.fen(), balanced);
}

/// `genfens` gives the asked number of valid FENs, the same for the same seed, and other
/// ones for another; a bad book or another game is an error before anything is made.
#[test]
fn genfens_is_deterministic_and_checks_its_request() {
    let request = Genfens { count: 3, seed: 42, book: None, dfrc: false };
    let like = Session::new(1, 1, Networks::embedded()).expect("a search thread");
    let make = |r: &Genfens| genfens(r, Variant::Chess, &like).expect("made").collect::<Vec<_>>();
    let first = make(&request);
    assert_eq!(first.len(), 3);
    assert!(first.iter().all(|fen| Chess::from_fen(fen).is_ok()), "{first:?}");
    assert_eq!(make(&request), first);
    assert_ne!(make(&Genfens { seed: 43, ..request.clone() }), first);
    let dfrc = make(&Genfens { dfrc: true, ..request.clone() });
    // Kings that have both moved leave no castling right to show Chess960 by: some do.
    assert!(dfrc.iter().any(|fen| Chess::from_fen(fen).is_ok_and(|b| b.chess960())), "{dfrc:?}");
    assert!(dfrc.iter().all(|fen| Chess::from_fen(fen).is_ok() && !first.contains(fen)));
    assert!(genfens(&request, Variant::Xiangqi, &like).is_err());
    let missing = Genfens { book: Some("/nonexistent/book.epd".into()), ..request };
    assert!(genfens(&missing, Variant::Chess, &like).is_err());
}

#[test]
fn opening_files_are_read_and_checked() {
    let text = "# comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\n\
                rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 \"x\";\n";
    let fens = read_openings(text, Variant::Chess).expect("valid");
    assert_eq!(fens.len(), 2);
    assert!(fens[1].ends_with("w KQkq - 0 1"));
    assert!(read_openings("not a fen\n", Variant::Chess).is_err());
    assert!(read_openings("", Variant::Xiangqi).is_err());
}
