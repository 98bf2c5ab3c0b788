//! FEN as UCCI writes it: ranks from black's side (rank 9) down to red's back rank, then the
//! side to move, two placeholder fields and the clocks. Everything after the board is optional.

use super::bitboard::*;
use super::position::*;
use crate::game::FenError;

/// The largest fullmove number read: half the range of the counter, so that playing moves
/// from any FEN can never overflow it (and `unmake` counts back exactly).
const FULLMOVE_MAX: u32 = u32::MAX / 2;
/// The most pieces of each kind a side can have.
const MAX_COUNT: [u32; kind::COUNT] = [1, 2, 2, 2, 2, 2, 5];
/// Kind names for error messages.
const KIND_NAME: [&str; kind::COUNT] =
    ["general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"];
/// FEN letters (red, upper case) by kind, as written.
const KIND_CHAR: [char; kind::COUNT] = ['K', 'A', 'B', 'N', 'R', 'C', 'P'];

/// The piece code of a FEN letter; accepts the common alternative letters G, E and H.
fn piece_of_char(c: char) -> Option<u8> {
    let colour = if c.is_ascii_uppercase() { RED } else { BLACK };
    let k = match c.to_ascii_lowercase() {
        'k' | 'g' => kind::GENERAL,
        'a' => kind::ADVISOR,
        'b' | 'e' => kind::ELEPHANT,
        'n' | 'h' => kind::HORSE,
        'r' => kind::CHARIOT,
        'c' => kind::CANNON,
        'p' => kind::SOLDIER,
        _ => return None,
    };
    Some(piece(colour, k))
}

/// The FEN letter of a piece code.
pub fn char_of_piece(p: u8) -> char {
    let c = KIND_CHAR[kind_of(p) as usize];
    if colour_of(p) == RED { c } else { c.to_ascii_lowercase() }
}

/// Whether a piece of `kind` and `colour` can ever stand on `sq`: a FEN that puts one
/// elsewhere is refused, and no move takes one there.
pub(super) const fn reachable(colour: usize, k: u8, sq: usize) -> bool {
    // Work in red's frame: black's rank r is red's 9 - r.
    let r = if colour == RED { rank_of(sq) } else { 9 - rank_of(sq) };
    let f = file_of(sq);
    // Comparisons, not `(3..=5).contains`: a const fn (the piece-square numbering is
    // worked out at compile time).
    let own_palace = f >= 3 && f <= 5 && r <= 2;
    match k {
        kind::GENERAL => own_palace,
        kind::ADVISOR => own_palace && (r + f) % 2 == 1,
        kind::ELEPHANT => {
            matches!((r, f), (0, 2) | (0, 6) | (2, 0) | (2, 4) | (2, 8) | (4, 2) | (4, 6))
        }
        // Behind its start rank is impossible. A soldier on an odd file before the river is
        // unreachable too, but composed positions (the perft suite among them) use such
        // squares and every rule still works there, so it is accepted.
        kind::SOLDIER => r >= 3,
        _ => true,
    }
}

fn board_error(field: &str, reason: String) -> FenError {
    FenError::Board { field: field.to_string(), reason }
}

/// Parses a FEN into a position with an empty history.
pub fn parse(fen: &str) -> Result<Position, FenError> {
    let mut fields = fen.split_whitespace();
    let board = fields.next().ok_or(FenError::Empty)?;
    let mut pos = Position::empty();

    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != RANKS {
        return Err(board_error(board, format!("{} ranks, expected 10", ranks.len())));
    }
    let mut counts = [[0u32; kind::COUNT]; 2];
    for (i, text) in ranks.iter().enumerate() {
        let rank = RANKS - 1 - i;
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(board_error(board, format!("rank {rank}: a zero skip")));
                }
                file += d as usize;
            } else {
                let p = piece_of_char(c)
                    .ok_or_else(|| board_error(board, format!("rank {rank}: bad piece '{c}'")))?;
                if file >= FILES {
                    return Err(board_error(board, format!("rank {rank}: more than 9 files")));
                }
                let (colour, k) = (colour_of(p), kind_of(p));
                let sq = square(rank, file);
                if !reachable(colour, k, sq) {
                    let side = if colour == RED { "red" } else { "black" };
                    return Err(board_error(
                        board,
                        format!(
                            "{side} {} cannot stand on {}{rank}",
                            KIND_NAME[k as usize],
                            (b'a' + file as u8) as char
                        ),
                    ));
                }
                counts[colour][k as usize] += 1;
                pos.put(p, sq);
                file += 1;
            }
            if file > FILES {
                return Err(board_error(board, format!("rank {rank}: more than 9 files")));
            }
        }
        if file != FILES {
            return Err(board_error(board, format!("rank {rank}: {file} files, expected 9")));
        }
    }
    for colour in [RED, BLACK] {
        let side = if colour == RED { "red" } else { "black" };
        if counts[colour][kind::GENERAL as usize] == 0 {
            return Err(board_error(board, format!("{side} has no general")));
        }
        for k in 0..kind::COUNT {
            if counts[colour][k] > MAX_COUNT[k] {
                return Err(board_error(
                    board,
                    format!("{side} has {} {}s", counts[colour][k], KIND_NAME[k]),
                ));
            }
        }
    }

    if let Some(side) = fields.next() {
        pos.side = match side {
            "w" | "W" | "r" | "R" => RED,
            "b" | "B" => BLACK,
            _ => return Err(FenError::Side(side.to_string())),
        };
    }
    if let Some(castling) = fields.next()
        && castling != "-"
    {
        return Err(FenError::Castling {
            field: castling.to_string(),
            reason: "xiangqi has no castling".into(),
        });
    }
    if let Some(ep) = fields.next()
        && ep != "-"
    {
        return Err(FenError::EnPassant {
            field: ep.to_string(),
            reason: "xiangqi has no en passant".into(),
        });
    }
    if let Some(half) = fields.next() {
        let n: u32 = half.parse().map_err(|_| FenError::Halfmove(half.to_string()))?;
        pos.halfmove = n.min(u16::MAX as u32) as u16;
    }
    if let Some(full) = fields.next() {
        let n: u32 = full.parse().map_err(|_| FenError::Fullmove(full.to_string()))?;
        // Some writers put 0 here; treat it as the first move.
        pos.fullmove = n.clamp(1, FULLMOVE_MAX);
    }
    if let Some(extra) = fields.next() {
        return Err(FenError::Illegal(format!(
            "unexpected text after the fullmove number: '{extra}'"
        )));
    }

    if pos.side == BLACK {
        pos.key ^= ZOBRIST.side;
    }
    // The generals facing each other means the side to move could capture one.
    let (rk, bk) = (pos.general(RED), pos.general(BLACK));
    if file_of(rk) == file_of(bk) {
        let between =
            (rank_of(rk) + 1..rank_of(bk)).any(|r| pos.board[square(r, file_of(rk))] != EMPTY);
        if !between {
            return Err(FenError::Illegal("the generals face each other".into()));
        }
    }
    pos.side ^= 1;
    if pos.compute_checked() {
        pos.side ^= 1;
        let side = if pos.side == RED { "black" } else { "red" };
        return Err(FenError::Illegal(format!("{side}, not to move, is in check")));
    }
    pos.side ^= 1;
    pos.checked = pos.compute_checked();
    Ok(pos)
}

/// Writes a position as FEN.
pub fn write(pos: &Position) -> String {
    let mut s = String::with_capacity(96);
    for rank in (0..RANKS).rev() {
        let mut empty = 0;
        for file in 0..FILES {
            let p = pos.board[square(rank, file)];
            if p == EMPTY {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push(char::from(b'0' + empty));
                    empty = 0;
                }
                s.push(char_of_piece(p));
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    let side = if pos.side == RED { 'w' } else { 'b' };
    s.push_str(&format!(" {side} - - {} {}", pos.halfmove, pos.fullmove));
    s
}
