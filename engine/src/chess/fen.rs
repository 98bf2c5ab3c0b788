//! Reading and writing FEN, with every field validated.
//!
//! Castling rights may be given as `KQkq` (the outermost rook on that side of the king, as
//! X-FEN reads it), as rook file letters (Shredder-FEN `HAha`, or X-FEN's inner-rook letters), or
//! `-`. A right whose king is off the e-file or whose rook is off the a/h-file only makes sense
//! in Chess960, so reading one switches Chess960 notation on.

use super::bitboard::*;
use super::board::Board;
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
pub fn parse(fen: &str) -> Result<Parsed, FenError> {
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
    place(&mut b, placement)?;
    b.side = match fields.get(1).copied() {
        Some("w") => WHITE,
        Some("b") => BLACK,
        other => return Err(FenError::Side(other.unwrap_or("").to_string())),
    };
    let chess960 = castling(&mut b, fields.get(2).copied().unwrap_or("-"))?;
    en_passant(&mut b, fields.get(3).copied().unwrap_or("-"))?;
    clocks(&mut b, fields.get(4).copied(), fields.get(5).copied())?;

    // The side that just moved cannot have left its king in check.
    let them = b.side ^ 1;
    if b.attackers_to(b.king_sq(them), b.occupied()) & b.colours[b.side] != 0 {
        return Err(FenError::Illegal(format!(
            "{} is in check but not to move",
            COLOUR_NAMES[them]
        )));
    }

    b.key = b.compute_key();
    b.set_checkers();
    Ok(Parsed { board: b, chess960 })
}

/// The piece placement, eighth rank first, put on the empty board `b`: eight ranks of eight
/// squares, one king a side, no pawn on the first or last rank.
fn place(b: &mut Board, placement: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(board_err(placement, format!("expected 8 ranks, found {}", ranks.len())));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0;
        for c in text.bytes() {
            if let b'1'..=b'8' = c {
                file += (c - b'0') as usize;
                continue;
            }
            let Some(p) = PIECE_CHARS.iter().position(|&x| x == c) else {
                return Err(board_err(placement, format!("bad piece character '{}'", c as char)));
            };
            if file >= 8 {
                return Err(board_err(
                    placement,
                    format!("rank {} has more than 8 squares", rank + 1),
                ));
            }
            b.put(p as u8, square(file, rank));
            file += 1;
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
    Ok(())
}

/// The castling field (`-`, `KQkq` or rook file letters) as rights on `b`, whose pieces are
/// placed; whether the rights need Chess960 (a king or rook off its standard square).
fn castling(b: &mut Board, field: &str) -> Result<bool, FenError> {
    let mut chess960 = false;
    if field == "-" {
        return Ok(chess960);
    }
    for c in field.bytes() {
        let colour = if c.is_ascii_uppercase() { WHITE } else { BLACK };
        let rook = castling_rook(b, colour, c, field)?;
        let ksq = lsb(b.pieces(colour, KING));
        let rooks = b.pieces(colour, ROOK) & back_rank(colour);
        let same_side = rooks & if rook > ksq { squares_above(ksq) } else { squares_below(ksq) };
        if b.castle & same_side != 0 {
            let name = COLOUR_NAMES[colour];
            return Err(castle_err(field, format!("two {name} rights on the same side")));
        }
        b.castle |= bit(rook);
        if file_of(ksq) != 4 || (file_of(rook) != 0 && file_of(rook) != 7) {
            chess960 = true;
        }
    }
    Ok(chess960)
}

/// The rook that the castling letter `c` of `colour` names: `k` the outermost on the king's
/// right, `q` on its left, a file letter the rook on that file of the back rank.
fn castling_rook(b: &Board, colour: usize, c: u8, field: &str) -> Result<usize, FenError> {
    let rank_bb = back_rank(colour);
    let name = COLOUR_NAMES[colour];
    let king = b.pieces(colour, KING);
    if king & rank_bb == 0 {
        return Err(castle_err(field, format!("the {name} king is not on its back rank")));
    }
    let ksq = lsb(king);
    let rooks = b.pieces(colour, ROOK) & rank_bb;
    match c.to_ascii_lowercase() {
        b'k' => match rooks & squares_above(ksq) {
            0 => Err(castle_err(field, format!("no {name} rook on the king side"))),
            r => Ok(63 - r.leading_zeros() as usize),
        },
        b'q' => match rooks & squares_below(ksq) {
            0 => Err(castle_err(field, format!("no {name} rook on the queen side"))),
            r => Ok(lsb(r)),
        },
        f @ b'a'..=b'h' => {
            let sq = (ksq & 56) + (f - b'a') as usize;
            if rooks & bit(sq) == 0 {
                return Err(castle_err(field, format!("no {name} rook on {}", square_name(sq))));
            }
            Ok(sq)
        }
        _ => Err(castle_err(field, format!("bad character '{}'", c as char))),
    }
}

/// The en-passant field on `b`, whose side to move is set: the pawn that just moved two
/// squares must be there, and both the square it skipped and the one it left must be empty.
fn en_passant(b: &mut Board, ep: &str) -> Result<(), FenError> {
    if ep == "-" {
        return Ok(());
    }
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
    Ok(())
}

/// The halfmove and fullmove clocks, where given.
fn clocks(b: &mut Board, halfmove: Option<&str>, fullmove: Option<&str>) -> Result<(), FenError> {
    if let Some(h) = halfmove {
        let n: u16 = h.parse().map_err(|_| FenError::Halfmove(h.to_string()))?;
        b.halfmove = u32::from(n);
    }
    if let Some(f) = fullmove {
        let n: u16 = f.parse().map_err(|_| FenError::Fullmove(f.to_string()))?;
        // Some tools write 0; treat it as the first move rather than rejecting the position.
        b.fullmove = u32::from(n.max(1));
    }
    b.window = b.halfmove;
    Ok(())
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
