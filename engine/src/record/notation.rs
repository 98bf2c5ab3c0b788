//! Moves of a record as people write them, in either game: [`Notation`] reads a move token on
//! a board and writes a move back in the script the record used.

use super::san;
use crate::chess::Chess;
use crate::game::{Game, Inspect, Move, MoveError, MoveList};
use crate::xiangqi::Xiangqi;

/// How a record writes its moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Script {
    /// Coordinates: long algebraic for chess (`g1f3`), ICCS for xiangqi (`h2e2`).
    #[default]
    Coordinates,
    /// The game's traditional names: SAN for chess (`Nf3`), Chinese for xiangqi (`炮二平五`).
    Names,
}

/// Reading and writing the moves of a game record.
pub trait Notation: Inspect {
    /// The script a record of this game is written in when its moves do not say (the first
    /// move's script decides).
    const SCRIPT: Script;
    /// The legal move `token` names here, in any script the game's records use, and the
    /// script it was written in.
    fn read_move(&self, token: &str) -> Result<(Move, Script), MoveError>;
    /// The legal move `m` written in `script`. Chess writes SAN in either: a PGN's moves are
    /// SAN.
    fn write_move(&self, m: Move, script: Script) -> String;
}

/// `text` as a coordinate move, lower case without a `-` or `x` between the squares
/// (`E2-E4`, `h2-e2`), when it has that shape: `files` and `ranks` are the letters and digits
/// a square may have, `promotes` whether a promotion letter may follow.
fn coordinates(
    text: &str,
    files: std::ops::RangeInclusive<u8>,
    ranks: &[u8],
    promotes: bool,
) -> Option<String> {
    let lower: String =
        text.to_ascii_lowercase().chars().filter(|c| !matches!(c, '-' | 'x')).collect();
    let b = lower.as_bytes();
    let square = |i: usize| files.contains(&b[i]) && ranks.contains(&b[i + 1]);
    let promotion = promotes && b.len() == 5 && b"nbrq".contains(&b[4]);
    ((b.len() == 4 || promotion) && square(0) && square(2)).then_some(lower)
}

impl Notation for Chess {
    const SCRIPT: Script = Script::Names;

    fn read_move(&self, token: &str) -> Result<(Move, Script), MoveError> {
        let text = token.trim_end_matches(['+', '#', '!', '?']);
        if let Some(long) = coordinates(text, b'a'..=b'h', b"12345678", true) {
            return self
                .parse_move(&long)
                .map(|m| (m, Script::Coordinates))
                .map_err(|_| MoveError::Illegal(token.to_string()));
        }
        san::read(self, token).map(|m| (m, Script::Names))
    }

    fn write_move(&self, m: Move, _script: Script) -> String {
        san::write(self, m)
    }
}

/// Forms of the same character in Chinese notation, each mapped to one: traditional and
/// simplified pieces, red and black names, full-width digits and numerals as digits (the side
/// to move tells whose numbers they are).
fn plain(c: char) -> char {
    match c {
        '車' | '俥' | '伡' => '车',
        '馬' | '傌' | '㐷' => '马',
        '砲' | '炮' | '包' => '炮',
        '帥' | '帅' | '將' | '将' => '将',
        '仕' | '士' => '士',
        '相' | '象' => '象',
        '兵' | '卒' => '卒',
        '進' => '进',
        '後' => '后',
        '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
        _ => match "一二三四五六七八九".chars().position(|n| n == c) {
            Some(i) => char::from(b'1' + i as u8),
            None => c,
        },
    }
}

/// A Chinese move text in its plain form (see [`plain`]), without marks after it.
fn plain_text(text: &str) -> String {
    text.trim_end_matches(['+', '#', '!', '?']).chars().map(plain).collect()
}

impl Notation for Xiangqi {
    const SCRIPT: Script = Script::Coordinates;

    fn read_move(&self, token: &str) -> Result<(Move, Script), MoveError> {
        let text = token.trim_end_matches(['+', '#', '!', '?']);
        if let Some(iccs) = coordinates(text, b'a'..=b'i', b"0123456789", false) {
            return self
                .parse_move(&iccs)
                .map(|m| (m, Script::Coordinates))
                .map_err(|_| MoveError::Illegal(token.to_string()));
        }
        let wanted = plain_text(token);
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        if let Some(&m) = list.iter().find(|&&m| plain_text(&self.chinese(m)) == wanted) {
            return Ok((m, Script::Names));
        }
        // Four characters with a verb in the third place is a move, only not one here.
        let chars: Vec<char> = wanted.chars().collect();
        if chars.len() == 4 && ['进', '退', '平'].contains(&chars[2]) {
            Err(MoveError::Illegal(token.to_string()))
        } else {
            Err(MoveError::Syntax(token.to_string(), "ICCS or Chinese"))
        }
    }

    fn write_move(&self, m: Move, script: Script) -> String {
        match script {
            Script::Coordinates => self.move_text(m),
            Script::Names => self.chinese(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xiangqi_reads_iccs_and_chinese_alike() {
        let x = Xiangqi::startpos();
        let m = x.parse_move("h2e2").expect("legal");
        for text in ["h2e2", "H2-E2", "炮二平五", "砲二平五", "炮2平5", "炮二平五!"] {
            assert_eq!(x.read_move(text).map(|r| r.0), Ok(m), "{text}");
        }
        assert_eq!(x.read_move("炮二平五").map(|r| r.1), Ok(Script::Names));
        assert!(matches!(x.read_move("炮二平九"), Err(MoveError::Illegal(_))));
        assert!(matches!(x.read_move("h2e3"), Err(MoveError::Illegal(_))));
        assert!(matches!(x.read_move("炮"), Err(MoveError::Syntax(..))));
        assert!(matches!(x.read_move("z9z9"), Err(MoveError::Syntax(..))));
        assert_eq!(x.write_move(m, Script::Names), "炮二平五");
        assert_eq!(x.write_move(m, Script::Coordinates), "h2e2");
    }

    #[test]
    fn chess_reads_san_and_coordinates() {
        let c = Chess::startpos();
        let m = c.parse_move("e2e4").expect("legal");
        assert_eq!(c.read_move("e4"), Ok((m, Script::Names)));
        assert_eq!(c.read_move("e2e4"), Ok((m, Script::Coordinates)));
        assert_eq!(c.read_move("e2-e4"), Ok((m, Script::Coordinates)));
        assert!(matches!(c.read_move("e2e5"), Err(MoveError::Illegal(_))));
        assert_eq!(c.write_move(m, Script::Coordinates), "e4");
    }
}
