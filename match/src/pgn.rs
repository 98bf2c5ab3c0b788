//! Game records: PGN for chess (standard algebraic moves, readable by python-chess and every
//! GUI), and for xiangqi a PGN-like text with ICCS moves, the result and the reason.

use crate::play::GameRecord;
use chariot_engine::chess::Chess;
use chariot_engine::chess::moves::{CASTLE, from_sq, promotion, to_sq};
use chariot_engine::game::{Game, Move, MoveList, Variant};

/// Piece letters by chess kind (pawn, knight, bishop, rook, queen, king).
const PIECE_LETTERS: [&str; 6] = ["", "N", "B", "R", "Q", "K"];
/// The king's kind index.
const KING: usize = 5;
/// The pawn's kind index.
const PAWN: usize = 0;

fn square_name(sq: usize) -> String {
    let file = char::from(b'a' + (sq % 8) as u8);
    let rank = char::from(b'1' + (sq / 8) as u8);
    format!("{file}{rank}")
}

/// The standard algebraic notation of the legal move `m` on `board`.
pub fn san(board: &Chess, m: Move) -> String {
    let (from, to) = (from_sq(m), to_sq(m));
    let kind = board.moved_piece(m) % 6;
    let mut text = if chariot_engine::chess::moves::flag(m) == CASTLE {
        // Chariot encodes castling as king takes rook: the rook's side names it.
        if to % 8 > from % 8 { "O-O".to_string() } else { "O-O-O".to_string() }
    } else {
        let capture = board.captured_piece(m).is_some();
        let mut t = String::new();
        if kind == PAWN {
            if capture {
                t.push(char::from(b'a' + (from % 8) as u8));
            }
        } else {
            t.push_str(PIECE_LETTERS[kind]);
            // Disambiguate among the same kind of piece that can reach the same square.
            let mut list = MoveList::new();
            board.legal_moves(&mut list);
            let rivals: Vec<usize> = list
                .iter()
                .filter(|&&o| {
                    o != m
                        && to_sq(o) == to
                        && from_sq(o) != from
                        && board.moved_piece(o) == board.moved_piece(m)
                        && chariot_engine::chess::moves::flag(o) != CASTLE
                })
                .map(|&o| from_sq(o))
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|&r| r % 8 == from % 8);
                let same_rank = rivals.iter().any(|&r| r / 8 == from / 8);
                let sq = square_name(from);
                if !same_file {
                    t.push_str(&sq[..1]);
                } else if !same_rank {
                    t.push_str(&sq[1..]);
                } else {
                    t.push_str(&sq);
                }
            }
        }
        if capture {
            t.push('x');
        }
        t.push_str(&square_name(to));
        if let Some(p) = promotion(m) {
            t.push('=');
            t.push_str(PIECE_LETTERS[p % 6]);
        }
        debug_assert!(kind != KING || (from % 8).abs_diff(to % 8) <= 1);
        t
    };
    let mut after = board.clone();
    after.make(m);
    if after.in_check() {
        let mut list = MoveList::new();
        after.legal_moves(&mut list);
        text.push(if list.is_empty() { '#' } else { '+' });
    }
    text
}

/// Escapes a PGN tag value.
fn tag(name: &str, value: &str) -> String {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{value}\"]\n")
}

/// Wraps movetext tokens at 80 columns, as PGN export format asks.
fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut col = 0;
    for t in tokens {
        if col > 0 && col + 1 + t.len() > 79 {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(t);
        col += t.len();
    }
    out.push('\n');
    out
}

/// Header fields a record needs besides the game itself.
#[derive(Clone, Debug, Default)]
pub struct Header {
    /// The event name.
    pub event: String,
    /// The round (pair and game, e.g. `12.2`).
    pub round: String,
    /// The date, `YYYY.MM.DD`.
    pub date: String,
    /// The time control as PGN writes it (`10+0.1`, `40/60+0`), or `-`.
    pub time_control: String,
    /// Whether the game is Chess960.
    pub chess960: bool,
}

/// The record as PGN (chess) or PGN-like text (xiangqi), ending in a blank line.
pub fn write(record: &GameRecord, header: &Header) -> String {
    let mut out = String::new();
    out.push_str(&tag("Event", &header.event));
    out.push_str(&tag("Site", "chariot-match"));
    out.push_str(&tag("Date", &header.date));
    out.push_str(&tag("Round", &header.round));
    out.push_str(&tag("White", &record.white));
    out.push_str(&tag("Black", &record.black));
    out.push_str(&tag("Result", record.result.pgn()));
    let standard = match record.variant {
        Variant::Chess => record.start_fen == chariot_engine::chess::START_FEN,
        Variant::Xiangqi => false,
    };
    match record.variant {
        Variant::Chess if header.chess960 => out.push_str(&tag("Variant", "Chess960")),
        Variant::Chess => {}
        Variant::Xiangqi => {
            out.push_str(&tag("Game", "Chinese Chess"));
            out.push_str(&tag("Variant", "xiangqi"));
            out.push_str(&tag("Format", "ICCS"));
        }
    }
    if !standard {
        out.push_str(&tag("SetUp", "1"));
        out.push_str(&tag("FEN", &record.start_fen));
    }
    out.push_str(&tag("TimeControl", &header.time_control));
    out.push_str(&tag("PlyCount", &record.moves.len().to_string()));
    let termination = if record.fault {
        "rules infraction"
    } else if record.reason.starts_with("adjudicated") {
        "adjudication"
    } else {
        "normal"
    };
    out.push_str(&tag("Termination", termination));
    out.push('\n');

    // Move numbers from the FEN: the full move number and who moves first.
    let fields: Vec<&str> = record.start_fen.split_whitespace().collect();
    let mut number: u64 = fields.last().and_then(|n| n.parse().ok()).unwrap_or(1).max(1);
    let mut white = fields.get(1) != Some(&"b");
    let mut tokens = Vec::new();
    let mut board = match record.variant {
        Variant::Chess => Chess::from_fen(&record.start_fen).ok(),
        Variant::Xiangqi => None,
    };
    if let Some(b) = board.as_mut() {
        b.set_chess960(header.chess960);
    }
    for (i, m) in record.moves.iter().enumerate() {
        if white {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        let text = match board.as_mut() {
            Some(b) => match b.parse_move(m) {
                Ok(mv) => {
                    let s = san(b, mv);
                    b.make(mv);
                    s
                }
                // Cannot happen: the referee played these moves on the same board.
                Err(_) => m.clone(),
            },
            None => m.clone(),
        };
        tokens.push(text);
        if !white {
            number += 1;
        }
        white = !white;
    }
    tokens.push(format!("{{{}}}", record.reason.replace('}', ")")));
    tokens.push(record.result.pgn().to_string());
    out.push_str(&wrap(&tokens));
    out.push('\n');
    out
}

/// The positions at the end of each game of a PGN file, for openings: every game's main line
/// played from its start (the standard one, or its `FEN` tag), with comments (`{...}` and `;` to
/// the end of the line), variations, NAGs and move numbers skipped. A game ends at its result
/// or at the next tag section. A move that is not legal there names its game and move.
pub fn opening_positions(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (i, game) in games(text.trim_start_matches('\u{feff}')).into_iter().enumerate() {
        let number = i + 1;
        let mut board = match &game.fen {
            Some(f) => Chess::from_fen(f).map_err(|e| format!("game {number}: FEN tag: {e}"))?,
            None => Chess::startpos(),
        };
        for (n, token) in game.moves.iter().enumerate() {
            let m = from_san(&board, token)
                .ok_or_else(|| format!("game {number}: move {} '{token}' is not legal", n + 1))?;
            board.make(m);
        }
        out.push(board.fen());
    }
    Ok(out)
}

/// One game of a PGN file: its `FEN` tag, if any, and the SAN moves of its main line.
#[derive(Default)]
struct PgnGame {
    fen: Option<String>,
    moves: Vec<String>,
    /// A tag or a move was read: the game exists.
    begun: bool,
}

/// The games of a PGN text, read in one pass: a line that starts with `[` outside a comment
/// and a variation is a tag; in the movetext, comments and variations are skipped, and a
/// result ends the game.
fn games(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let (mut depth, mut comment, mut in_movetext) = (0usize, false, false);
    let mut word = String::new();
    // Ends the word read so far: a move, a move number, a NAG or a result.
    let flush = |word: &mut String, game: &mut PgnGame, games: &mut Vec<PgnGame>| {
        let w = std::mem::take(word);
        let w = w.rfind('.').map_or(w.as_str(), |i| &w[i + 1..]);
        if w.is_empty() || w.starts_with('$') {
            return;
        }
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&w) {
            games.push(std::mem::take(game));
        } else {
            game.moves.push(w.to_string());
            game.begun = true;
        }
    };
    for line in text.lines() {
        if !comment && depth == 0 && line.trim_start().starts_with('[') {
            // A tag after movetext without a result begins the next game.
            if in_movetext && game.begun {
                games.push(std::mem::take(&mut game));
            }
            in_movetext = false;
            let tag = line.trim();
            if let Some(fen) = tag.strip_prefix("[FEN \"").and_then(|v| v.strip_suffix("\"]")) {
                game.fen = Some(fen.to_string());
            }
            game.begun = true;
            continue;
        }
        in_movetext |= !line.trim().is_empty();
        for c in line.chars() {
            match c {
                _ if comment => comment = c != '}',
                '{' | ';' | '(' | ')' => {
                    flush(&mut word, &mut game, &mut games);
                    match c {
                        '{' => comment = true,
                        '(' => depth += 1,
                        ')' => depth = depth.saturating_sub(1),
                        _ => break, // `;`: a comment to the end of the line
                    }
                }
                _ if depth > 0 => {}
                c if c.is_whitespace() => flush(&mut word, &mut game, &mut games),
                c => word.push(c),
            }
        }
        flush(&mut word, &mut game, &mut games);
    }
    flush(&mut word, &mut game, &mut games);
    if game.begun {
        games.push(game);
    }
    games
}

/// The legal move of `board` whose SAN is `token` (check marks and annotations ignored; `0-0`
/// read as `O-O`).
fn from_san(board: &Chess, token: &str) -> Option<Move> {
    let bare = |t: &str| t.trim_end_matches(['+', '#', '!', '?']).replace('0', "O");
    let mut wanted = bare(token);
    // A promotion written without `=` (`e8Q`), as python-chess also reads it.
    let b = wanted.as_bytes();
    if b.len() >= 3 && b"QRBN".contains(&b[b.len() - 1]) && b"18".contains(&b[b.len() - 2]) {
        wanted.insert(wanted.len() - 1, '=');
    }
    let mut list = MoveList::new();
    board.legal_moves(&mut list);
    list.iter().copied().find(|&m| bare(&san(board, m)) == wanted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::GameResult;

    fn sans(fen: &str, moves: &str) -> Vec<String> {
        let mut b = Chess::from_fen(fen).expect("fen");
        moves
            .split_whitespace()
            .map(|t| {
                let m = b.parse_move(t).expect("legal");
                let s = san(&b, m);
                b.make(m);
                s
            })
            .collect()
    }

    /// python-chess gives the same positions for these games (comments, a variation, NAGs,
    /// castling, a promotion with check, a FEN tag, `0-0`).
    #[test]
    fn pgn_openings_are_the_games_ends() {
        let pgn = "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 {best by test} e5 2. Nf3 (2. f4 exf4) Nc6 $1\n3. Bb5 a6 4. 0-0 *\n\n[Event \"b\"]\n[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n\n1. a8=Q Kg6 2. Qg8+ 1-0\n";
        let fens = opening_positions(pgn).expect("reads");
        assert_eq!(
            fens,
            [
                "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 4",
                "6Q1/8/6k1/8/8/8/8/K7 b - - 2 2",
            ]
        );
        // Games without tags, ended by their results; a `;` inside a comment; a tag-like
        // line inside a comment; glued comments and variations; a promotion without `=`; a BOM.
        let pgn = "\u{feff}1. e4 {a; b} e5 *\n1. d4 {\n[%clk 0:01:00]\n} d5(1... Nf6)2.c4{x}e6 1/2-1/2\n\n[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n1. a8Q ; a queen\n*\n";
        let fens = opening_positions(pgn).expect("reads");
        assert_eq!(
            fens,
            [
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
                "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3",
                "Q7/7k/8/8/8/8/8/K7 b - - 0 1",
            ]
        );
        let bad = opening_positions("1. e4 e4 *\n").unwrap_err();
        assert!(bad.contains("game 1: move 2 'e4'"), "{bad}");
    }

    #[test]
    fn san_covers_the_special_cases() {
        let start = chariot_engine::chess::START_FEN;
        assert_eq!(
            sans(start, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1"),
            ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"]
        );
        assert_eq!(sans(start, "f2f3 e7e5 g2g4 d8h4"), ["f3", "e5", "g4", "Qh4#"]);
        // Knights on b1 and f1 both reach d2; rooks on a1 and a5 both reach a3.
        assert_eq!(sans("4k3/8/8/R7/8/8/8/RN2KN2 w - - 0 1", "b1d2"), ["Nbd2"]);
        assert_eq!(sans("4k3/8/8/R7/8/8/8/RN2KN2 w - - 0 1", "a1a3"), ["R1a3"]);
        assert_eq!(sans("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), ["b8=Q+"]);
        assert_eq!(sans("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "e8c8"), ["O-O-O"]);
    }

    #[test]
    fn records_carry_result_and_reason() {
        let record = GameRecord {
            variant: Variant::Xiangqi,
            white: "a".into(),
            black: "b".into(),
            start_fen: chariot_engine::xiangqi::START_FEN.into(),
            moves: vec!["h2e2".into(), "h9g7".into()],
            result: GameResult::WhiteWins,
            reason: "b loses on time".into(),
            fault: true,
            ponder: Default::default(),
            seconds: 1.0,
            thinking: 0.9,
        };
        let text = write(&record, &Header::default());
        assert!(text.contains("[Variant \"xiangqi\"]"), "{text}");
        assert!(text.contains("1. h2e2 h9g7 {b loses on time} 1-0"), "{text}");
        assert!(text.contains("[FEN \"rnbakabnr/"), "{text}");
    }
}
