//! Standard algebraic notation (SAN) for chess: written as PGN export format asks (`Nbd2`,
//! `exd5`, `O-O`, `b8=Q+`), and read as people write it (check marks and `!?` ignored, `0-0`
//! for `O-O`, a promotion with or without `=`, too much disambiguation, a missing `x`).

use crate::chess::Chess;
use crate::chess::moves::{CASTLE, flag, from_sq, promotion, to_sq};
use crate::game::{Game, Move, MoveError, MoveList};

/// Piece letters by kind (pawn, knight, bishop, rook, queen, king).
const LETTERS: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];
/// The pawn's kind.
const PAWN: usize = 0;
/// The notation's name in error messages.
const NAME: &str = "standard algebraic";

/// A square's name (`e4`).
fn square_name(sq: usize) -> String {
    let file = char::from(b'a' + (sq % 8) as u8);
    let rank = char::from(b'1' + (sq / 8) as u8);
    format!("{file}{rank}")
}

/// The SAN of the legal move `m` on `board`, with `+` or `#` when it gives check or mate.
pub fn write(board: &Chess, m: Move) -> String {
    let (from, to) = (from_sq(m), to_sq(m));
    let kind = board.moved_piece(m) % 6;
    let mut text = String::new();
    if flag(m) == CASTLE {
        // Chariot encodes castling as the king taking its rook: the rook's side names it.
        text.push_str(if to % 8 > from % 8 { "O-O" } else { "O-O-O" });
    } else {
        let capture = board.captured_piece(m).is_some();
        if kind == PAWN {
            if capture {
                text.push(char::from(b'a' + (from % 8) as u8));
            }
        } else {
            text.push(LETTERS[kind]);
            // Name the origin only as far as another piece of the kind could go there too.
            let mut list = MoveList::new();
            board.legal_moves(&mut list);
            let rivals: Vec<usize> = list
                .iter()
                .filter(|&&o| {
                    to_sq(o) == to
                        && from_sq(o) != from
                        && flag(o) != CASTLE
                        && board.moved_piece(o) == board.moved_piece(m)
                })
                .map(|&o| from_sq(o))
                .collect();
            if !rivals.is_empty() {
                let name = square_name(from);
                if !rivals.iter().any(|&r| r % 8 == from % 8) {
                    text.push_str(&name[..1]);
                } else if !rivals.iter().any(|&r| r / 8 == from / 8) {
                    text.push_str(&name[1..]);
                } else {
                    text.push_str(&name);
                }
            }
        }
        if capture {
            text.push('x');
        }
        text.push_str(&square_name(to));
        if let Some(kind) = promotion(m) {
            text.push('=');
            text.push(LETTERS[kind % 6]);
        }
    }
    let mut after = board.clone();
    after.make(m);
    if after.in_check() {
        let mut list = MoveList::new();
        after.legal_moves(&mut list);
        text.push(if list.is_empty() { '#' } else { '+' });
    }
    text
}

/// What a SAN text asks for.
#[derive(Debug, PartialEq, Eq)]
enum Wanted {
    /// Castling, long (queen's side) or short.
    Castle { long: bool },
    /// A piece of `kind` going to `to`, from the file and rank given, promoting as said.
    Piece {
        kind: usize,
        file: Option<usize>,
        rank: Option<usize>,
        to: usize,
        promote: Option<usize>,
    },
}

/// Reads the shape of a SAN text; `None` when it is none.
fn shape(text: &str) -> Option<Wanted> {
    let bare = text.trim_end_matches(['+', '#', '!', '?']);
    let bare = bare.strip_suffix("e.p.").unwrap_or(bare).trim_end();
    match bare {
        "O-O" | "0-0" | "o-o" => return Some(Wanted::Castle { long: false }),
        "O-O-O" | "0-0-0" | "o-o-o" => return Some(Wanted::Castle { long: true }),
        _ => {}
    }
    let mut chars: Vec<char> =
        bare.chars().filter(|c| !matches!(c, 'x' | ':' | '-' | '(' | ')')).collect();
    let kind = match chars.first().and_then(|c| LETTERS.iter().position(|l| l == c)) {
        Some(k) => {
            chars.remove(0);
            k
        }
        None => PAWN,
    };
    // A promotion: `=Q`, `(Q)` or a bare `Q` after the square.
    let mut promote = None;
    if let Some(&last) = chars.last()
        && let Some(k) = LETTERS[1..5].iter().position(|&l| l == last)
    {
        promote = Some(k + 1);
        chars.pop();
        if chars.last() == Some(&'=') {
            chars.pop();
        }
    }
    chars.retain(|&c| c != '=');
    if chars.len() < 2 || chars.len() > 4 {
        return None;
    }
    let file_of = |c: char| ('a'..='h').contains(&c).then(|| c as usize - 'a' as usize);
    let rank_of = |c: char| ('1'..='8').contains(&c).then(|| c as usize - '1' as usize);
    let n = chars.len();
    let to = file_of(chars[n - 2])? + 8 * rank_of(chars[n - 1])?;
    let (mut file, mut rank) = (None, None);
    for &c in &chars[..n - 2] {
        match (file_of(c), rank_of(c)) {
            (Some(f), _) if file.is_none() && rank.is_none() => file = Some(f),
            (_, Some(r)) if rank.is_none() => rank = Some(r),
            _ => return None,
        }
    }
    Some(Wanted::Piece { kind, file, rank, to, promote })
}

/// The legal move of `board` that `text` names in SAN. An ambiguous text names none.
pub fn read(board: &Chess, text: &str) -> Result<Move, MoveError> {
    let wanted = shape(text).ok_or_else(|| MoveError::Syntax(text.to_string(), NAME))?;
    let mut list = MoveList::new();
    board.legal_moves(&mut list);
    let fits = |m: Move| match wanted {
        Wanted::Castle { long } => flag(m) == CASTLE && (to_sq(m) % 8 < from_sq(m) % 8) == long,
        Wanted::Piece { kind, file, rank, to, promote } => {
            flag(m) != CASTLE
                && board.moved_piece(m) % 6 == kind
                && to_sq(m) == to
                && file.is_none_or(|f| from_sq(m) % 8 == f)
                && rank.is_none_or(|r| from_sq(m) / 8 == r)
                && promotion(m) == promote
        }
    };
    let mut found = list.iter().copied().filter(|&m| fits(m));
    match (found.next(), found.next()) {
        (Some(m), None) => Ok(m),
        _ => Err(MoveError::Illegal(text.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sans(fen: &str, moves: &str) -> Vec<String> {
        let mut b = Chess::from_fen(fen).expect("fen");
        moves
            .split_whitespace()
            .map(|t| {
                let m = b.parse_move(t).expect("legal");
                let s = write(&b, m);
                assert_eq!(read(&b, &s), Ok(m), "{s} reads back");
                b.make(m);
                s
            })
            .collect()
    }

    #[test]
    fn writes_and_reads_the_special_cases() {
        let start = crate::chess::START_FEN;
        assert_eq!(
            sans(start, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1"),
            ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"]
        );
        assert_eq!(sans(start, "f2f3 e7e5 g2g4 d8h4"), ["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(sans("4k3/8/8/R7/8/8/8/RN2KN2 w - - 0 1", "b1d2"), ["Nbd2"]);
        assert_eq!(sans("4k3/8/8/R7/8/8/8/RN2KN2 w - - 0 1", "a1a3"), ["R1a3"]);
        assert_eq!(sans("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), ["b8=Q+"]);
        assert_eq!(sans("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", "e8c8"), ["O-O-O"]);
    }

    #[test]
    fn reads_what_people_write() {
        let b = Chess::startpos();
        let m = b.parse_move("g1f3").expect("legal");
        for text in ["Nf3", "Ngf3", "Ng1f3", "Ng1-f3", "Nf3!?", "Nf3+"] {
            assert_eq!(read(&b, text), Ok(m), "{text}");
        }
        let p = Chess::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").expect("fen");
        let q = p.parse_move("b7b8q").expect("legal");
        for text in ["b8=Q", "b8Q", "b8(Q)", "b8=Q+"] {
            assert_eq!(read(&p, text), Ok(q), "{text}");
        }
        assert!(matches!(read(&b, "Nf4"), Err(MoveError::Illegal(_))));
        assert!(matches!(read(&b, "Zz9"), Err(MoveError::Syntax(..))));
        assert!(matches!(read(&b, "b8"), Err(MoveError::Illegal(_))));
        // Two knights reach d2: the square alone is ambiguous.
        let two = Chess::from_fen("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").expect("fen");
        assert!(matches!(read(&two, "Nd2"), Err(MoveError::Illegal(_))));
    }
}
