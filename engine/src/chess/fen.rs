//! Reading and writing FEN, with every field validated.
//!
//! Castling rights may be given as `KQkq` (the outermost rook on that side of the king, as
//! X-FEN reads it), as rook file letters (Shredder-FEN `HAha`, or X-FEN's inner-rook letters), or
//! `-`. A right whose king is off the e-file or whose rook is off the a/h-file only makes sense
//! in Chess960, so reading one switches Chess960 notation on.

use super::bitboard::*;
use super::board::Board;
use super::tables::Tables;
use crate::game::FenError;

/// What a FEN describes beyond the board itself.
pub struct Parsed {
    /// The position.
    pub board: Board,
    /// True when the castling rights need Chess960 (king or rook off its standard square).
    pub chess960: bool,
}

fn board_err(field: &str, reason: impl Into<String>) -> FenError {
    FenError::Board { field: field.to_string(), reason: reason.into() }
}

fn castle_err(field: &str, reason: impl Into<String>) -> FenError {
    FenError::Castling { field: field.to_string(), reason: reason.into() }
}

fn ep_err(field: &str, reason: impl Into<String>) -> FenError {
    FenError::EnPassant { field: field.to_string(), reason: reason.into() }
}

const COLOUR_NAMES: [&str; 2] = ["white", "black"];

/// Reads a FEN. Missing castling and en-passant fields read as `-`, missing clocks as `0 1`.
pub fn parse(fen: &str, t: &Tables) -> Result<Parsed, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Some(&placement) = fields.first() else {
        return Err(FenError::Empty);
    };
    if fields.len() > 6 {
        return Err(FenError::Illegal(format!(
            "unexpected text after the fullmove number: '{}'",
            fields[6..].join(" ")
        )));
    }
    let mut b = Board::empty();

    // 1. Piece placement, eighth rank first.
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(board_err(placement, format!("expected 8 ranks, found {}", ranks.len())));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0;
        for c in text.bytes() {
            match c {
                b'1'..=b'8' => file += (c - b'0') as usize,
                _ => {
                    let Some(p) = PIECE_CHARS.iter().position(|&x| x == c) else {
                        return Err(board_err(
                            placement,
                            format!("bad piece character '{}'", c as char),
                        ));
                    };
                    if file >= 8 {
                        return Err(board_err(
                            placement,
                            format!("rank {} has more than 8 squares", rank + 1),
                        ));
                    }
                    b.put(p as u8, square(file, rank), t);
                    file += 1;
                }
            }
        }
        if file != 8 {
            return Err(board_err(
                placement,
                format!("rank {} has {} squares, not 8", rank + 1, file),
            ));
        }
    }
    for colour in [WHITE, BLACK] {
        match b.pieces(colour, KING).count_ones() {
            1 => {}
            0 => return Err(FenError::Illegal(format!("{} has no king", COLOUR_NAMES[colour]))),
            n => return Err(FenError::Illegal(format!("{} has {n} kings", COLOUR_NAMES[colour]))),
        }
    }
    if b.kinds[PAWN] & (RANK_1 | RANK_8) != 0 {
        return Err(board_err(placement, "a pawn stands on the first or eighth rank"));
    }

    // 2. Side to move.
    match fields.get(1).copied() {
        Some("w") => b.side = WHITE,
        Some("b") => b.side = BLACK,
        other => return Err(FenError::Side(other.unwrap_or("").to_string())),
    }

    // 3. Castling rights.
    let castling = fields.get(2).copied().unwrap_or("-");
    let mut chess960 = false;
    if castling != "-" {
        for c in castling.bytes() {
            let colour = if c.is_ascii_uppercase() { WHITE } else { BLACK };
            let rank_bb = back_rank(colour);
            let name = COLOUR_NAMES[colour];
            let king = b.pieces(colour, KING);
            if king & rank_bb == 0 {
                return Err(castle_err(
                    castling,
                    format!("the {name} king is not on its back rank"),
                ));
            }
            let ksq = lsb(king);
            let rooks = b.pieces(colour, ROOK) & rank_bb;
            let right_of_king = rooks & squares_above(ksq);
            let left_of_king = rooks & squares_below(ksq);
            let rook = match c.to_ascii_lowercase() {
                b'k' => match right_of_king {
                    0 => {
                        return Err(castle_err(
                            castling,
                            format!("no {name} rook on the king side"),
                        ));
                    }
                    r => 63 - r.leading_zeros() as usize,
                },
                b'q' => match left_of_king {
                    0 => {
                        return Err(castle_err(
                            castling,
                            format!("no {name} rook on the queen side"),
                        ));
                    }
                    r => lsb(r),
                },
                f @ b'a'..=b'h' => {
                    let sq = (ksq & 56) + (f - b'a') as usize;
                    if rooks & bit(sq) == 0 {
                        return Err(castle_err(
                            castling,
                            format!("no {name} rook on {}", square_name(sq)),
                        ));
                    }
                    sq
                }
                _ => return Err(castle_err(castling, format!("bad character '{}'", c as char))),
            };
            let same_side = if rook > ksq { right_of_king } else { left_of_king };
            if b.castle & same_side != 0 {
                return Err(castle_err(castling, format!("two {name} rights on the same side")));
            }
            b.castle |= bit(rook);
            if file_of(ksq) != 4 || (file_of(rook) != 0 && file_of(rook) != 7) {
                chess960 = true;
            }
        }
    }

    // 4. En passant: the pawn that just moved two squares must be there, and both the square
    //    it skipped and the one it left must be empty.
    let ep = fields.get(3).copied().unwrap_or("-");
    if ep != "-" {
        let Some(sq) = parse_square(ep.as_bytes()) else {
            return Err(ep_err(ep, "not a square"));
        };
        let (rank, pawn_sq, origin) = if b.side == WHITE {
            (5, sq.wrapping_sub(8), sq + 8)
        } else {
            (2, sq + 8, sq.wrapping_sub(8))
        };
        if rank_of(sq) != rank {
            return Err(ep_err(
                ep,
                format!("must be on rank {} with {} to move", rank + 1, COLOUR_NAMES[b.side]),
            ));
        }
        if b.squares[pawn_sq] != piece(b.side ^ 1, PAWN) {
            return Err(ep_err(ep, "no pawn that could just have moved two squares"));
        }
        if b.squares[sq] != NO_PIECE || b.squares[origin] != NO_PIECE {
            return Err(ep_err(ep, "the pawn's path is not empty"));
        }
        b.ep = sq as u8;
    }

    // 5. Clocks.
    if let Some(&h) = fields.get(4) {
        let n: u16 = h.parse().map_err(|_| FenError::Halfmove(h.to_string()))?;
        b.halfmove = u32::from(n);
    }
    if let Some(&f) = fields.get(5) {
        let n: u16 = f.parse().map_err(|_| FenError::Fullmove(f.to_string()))?;
        // Some tools write 0; treat it as the first move rather than rejecting the position.
        b.fullmove = u32::from(n.max(1));
    }
    b.window = b.halfmove;

    // 6. The side that just moved cannot have left its king in check.
    let them = b.side ^ 1;
    if b.attackers_to(b.king_sq(them), b.occupied(), t) & b.colours[b.side] != 0 {
        return Err(FenError::Illegal(format!(
            "{} is in check but not to move",
            COLOUR_NAMES[them]
        )));
    }

    b.key = b.compute_key(t);
    Ok(Parsed { board: b, chess960 })
}

/// Writes `b` as FEN; castling rights use X-FEN letters when `chess960` (`KQkq` for the
/// outermost rooks, file letters for inner ones), `KQkq` otherwise.
pub fn write(b: &Board, chess960: bool) -> String {
    let mut s = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let p = b.squares[square(file, rank)];
            if p == NO_PIECE {
                empty += 1;
            } else {
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                s.push(PIECE_CHARS[p as usize] as char);
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push_str(if b.side == WHITE { " w " } else { " b " });

    let before = s.len();
    for colour in [WHITE, BLACK] {
        let ksq = b.king_sq(colour);
        let rooks = b.pieces(colour, ROOK) & back_rank(colour);
        let rights = b.castle & b.colours[colour];
        // King side first, as in KQkq.
        let mut ordered: Vec<usize> = Squares(rights).collect();
        ordered.sort_by_key(|&sq| std::cmp::Reverse(sq));
        for rook in ordered {
            let kingside = rook > ksq;
            let outermost = if kingside {
                rooks & squares_above(rook) == 0
            } else {
                rooks & squares_below(rook) == 0
            };
            let letter = if !chess960 || outermost {
                if kingside { b'k' } else { b'q' }
            } else {
                b'a' + file_of(rook) as u8
            };
            s.push(if colour == WHITE { letter.to_ascii_uppercase() } else { letter } as char);
        }
    }
    if s.len() == before {
        s.push('-');
    }

    s.push(' ');
    if b.ep == NO_SQUARE {
        s.push('-');
    } else {
        s.push_str(&square_name(b.ep as usize));
    }
    // The clocks are read as 16-bit numbers, so they are written no larger.
    let cap = |n: u32| n.min(u32::from(u16::MAX));
    s.push_str(&format!(" {} {}", cap(b.halfmove), cap(b.fullmove)));
    s
}
