//! The Syzygy tablebases (`chess::tb`) on the 3- and 4-piece tables of the folder named by
//! `CHARIOT_SYZYGY` (`.ci/run` sets it to ../shared/syzygy). Skipped, with a message, when it
//! is unset. The tables are the process's (the prober allows one instance), so these tests
//! run in a binary of their own and one at a time. Expected values are python-chess's.

use chariot::chess::board::Board;
use chariot::chess::tables::tables;
use chariot::chess::tb::{self, Dtz, LoadError, Wdl};
use parking_lot::{Mutex, MutexGuard};

/// One test at a time: each loads the path it needs.
static SERIAL: Mutex<()> = Mutex::new(());

/// The folder of the tables, or `None` (with the message) when the tests are to be skipped.
fn folder() -> Option<String> {
    match std::env::var("CHARIOT_SYZYGY") {
        Ok(path) if !path.is_empty() => Some(path),
        _ => {
            eprintln!(
                "skipped: CHARIOT_SYZYGY is not set (the folder of the 3-4 piece Syzygy \
                 tables, e.g. ../shared/syzygy)"
            );
            None
        }
    }
}

/// The tables of `CHARIOT_SYZYGY` loaded, and the lock that keeps them so for the test.
fn loaded() -> Option<MutexGuard<'static, ()>> {
    let path = folder()?;
    let guard = SERIAL.lock();
    let found = tb::load(&path).unwrap_or_else(|e| panic!("CHARIOT_SYZYGY={path}: {e}"));
    assert!(found.is_some(), "tables in {path}");
    Some(guard)
}

fn board(fen: &str) -> Board {
    chariot::chess::fen::parse(fen, tables()).unwrap_or_else(|e| panic!("{fen}: {e}")).board
}

/// Positions with their WDL and DTZ for the side to move, as python-chess's prober gives them.
const KNOWN: &[(&str, Wdl, i32)] = &[
    // KRvK: a win for white, a loss for black; KvK a draw.
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", Wdl::Win, 21),
    ("4k3/8/8/8/8/8/8/4K2R b - - 0 1", Wdl::Loss, -28),
    ("8/2k5/8/8/8/8/4K3/4R3 w - - 90 60", Wdl::Win, 21),
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Wdl::Draw, 0),
    // KPvK: won with white to move (the pawn runs), drawn with black to move.
    ("6k1/8/8/3P4/4K3/8/8/8 w - - 0 1", Wdl::Win, 1),
    ("6k1/8/8/3P4/4K3/8/8/8 b - - 0 1", Wdl::Draw, 0),
    // KPvKP, both ways.
    ("8/7k/1p6/1P6/7K/8/8/8 w - - 0 1", Wdl::Win, 21),
    ("8/7k/1p6/1P6/7K/8/8/8 b - - 0 1", Wdl::Draw, 0),
    // KBNvK, with the distance a long way from zeroing.
    ("8/8/8/8/8/8/8/KBN4k w - - 0 1", Wdl::Win, 44),
    // Mate and stalemate.
    ("R5k1/8/6K1/8/8/8/8/8 b - - 0 1", Wdl::Loss, -1),
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Wdl::Draw, 0),
    // En passant decides: with the right black draws, without it black loses.
    ("8/k7/8/8/3K1pP1/8/8/8 b - g3 0 1", Wdl::Draw, 0),
    ("8/k7/8/8/3K1pP1/8/8/8 b - - 0 1", Wdl::Loss, -1),
];

#[test]
fn known_positions_have_their_wdl_and_dtz() {
    let Some(_tables) = loaded() else { return };
    for &(fen, wdl, dtz) in KNOWN {
        let b = board(fen);
        assert_eq!(b.probe_wdl(tb::MAX_PIECES), Some(wdl), "WDL of {fen}");
        assert_eq!(b.probe_dtz(tb::MAX_PIECES), Some(Dtz { wdl, plies: dtz }), "DTZ of {fen}");
    }
}

#[test]
fn loading_counts_the_files_and_the_largest_table() {
    let Some(_tables) = loaded() else { return };
    let found = tb::found().expect("tables are loaded");
    assert_eq!((found.wdl, found.dtz, found.largest), (35, 35, 4));
    assert_eq!(found.files(), 70);
    assert_eq!(tb::largest(), 4);
    // An empty path and `<empty>` unload them.
    assert_eq!(tb::load("<empty>").ok(), Some(None));
    assert_eq!(tb::found(), None);
    assert_eq!(board(KNOWN[0].0).probe_wdl(tb::MAX_PIECES), None, "no tables, no answer");
}

#[test]
fn positions_beyond_the_limit_or_with_castling_rights_are_not_probed() {
    let Some(_tables) = loaded() else { return };
    let krk = board("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert_eq!(krk.probe_wdl(3), Some(Wdl::Win));
    assert_eq!(krk.probe_wdl(2), None, "three pieces, limit two");
    assert_eq!(krk.probe_dtz(2), None);
    // Five pieces: no table of that size is loaded.
    assert_eq!(board("4k3/8/8/8/8/8/8/RN2K2R w - - 0 1").probe_wdl(tb::MAX_PIECES), None);
    // The tables have no castling: the same position with the right is not answered.
    assert_eq!(board("4k3/8/8/8/8/8/8/4K2R w K - 0 1").probe_wdl(tb::MAX_PIECES), None);
}

#[test]
fn root_moves_carry_their_values() {
    let Some(_tables) = loaded() else { return };
    let b = board("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    let moves = b.probe_root(tb::MAX_PIECES).expect("a root probe");
    let mut legal = chariot::game::MoveList::new();
    chariot::chess::movegen::generate::<true, _>(&b, tables(), &mut legal);
    assert_eq!(moves.len(), legal.len(), "every legal move has its value");
    // The position's DTZ is one more than the best winning move leaves.
    let best = moves.iter().filter(|m| m.dtz > 0).map(|m| m.dtz).min();
    assert_eq!(best, Some(21));
    // The rook on h1 cannot reach the black king: every move keeps the win.
    assert!(moves.iter().all(|m| m.wdl == Wdl::Win && m.dtz > 0), "{moves:?}");
    // From d1 it can: Rd7 and Rd8+ leave it to the king and throw the win away.
    let moves = board("4k3/8/8/8/8/8/8/3RK3 w - - 0 1").probe_root(4).expect("a root probe");
    let draws = moves.iter().filter(|m| m.wdl == Wdl::Draw && m.dtz == 0).count();
    assert_eq!(draws, 2, "{moves:?}");
    assert!(moves.iter().all(|m| m.wdl != Wdl::Loss));
    // Mate: no moves.
    assert_eq!(board("R5k1/8/6K1/8/8/8/8/8 b - - 0 1").probe_root(4), Some(vec![]));
}

#[test]
fn a_bad_path_or_file_loads_nothing() {
    let Some(path) = folder() else { return };
    let _serial = SERIAL.lock();
    let dir = std::env::temp_dir().join(format!("chariot-syzygy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let dir_text = dir.display().to_string();

    // A folder that is not there.
    let missing = format!("{dir_text}/nowhere");
    assert!(matches!(tb::load(&missing), Err(LoadError::Folder { .. })));
    assert_eq!(tb::found(), None);
    // A folder with no tables.
    assert!(matches!(tb::load(&dir_text), Err(LoadError::NoTables(_))));

    // A table cut short: refused, and the good tables loaded before are dropped.
    tb::load(&path).expect("the tables load");
    let bytes = std::fs::read(format!("{path}/KRvK.rtbw")).expect("KRvK.rtbw reads");
    std::fs::write(dir.join("KRvK.rtbw"), &bytes[..bytes.len() - 100]).expect("written");
    let error = tb::load(&dir_text).expect_err("a truncated table");
    assert!(matches!(error, LoadError::Incomplete { .. }), "{error}");
    assert!(error.to_string().contains("KRvK.rtbw"), "{error}");
    assert_eq!(tb::found(), None);

    // A file of a table's size that is not a table.
    std::fs::write(dir.join("KRvK.rtbw"), vec![0u8; 64 + 16]).expect("written");
    assert!(matches!(tb::load(&dir_text), Err(LoadError::Corrupt { .. })));
    assert_eq!(tb::found(), None);

    // Several folders: the first good one is read, a bad one anywhere refuses the path.
    let joined = format!("{path}:{missing}");
    assert!(matches!(tb::load(&joined), Err(LoadError::Folder { .. })));
    std::fs::remove_dir_all(&dir).expect("the temporary folder goes");
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let joined = format!("{dir_text}:{path}");
    std::fs::copy(format!("{path}/KRvK.rtbw"), dir.join("KRvK.rtbw")).expect("copied");
    let found = tb::load(&joined).expect("two folders load").expect("tables");
    assert_eq!((found.wdl, found.dtz), (35, 35), "a table in both folders counts once");
    assert_eq!(board(KNOWN[0].0).probe_wdl(4), Some(Wdl::Win));
    let _ = tb::load("");
    let _ = std::fs::remove_dir_all(&dir);
}
