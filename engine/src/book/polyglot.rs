//! Polyglot opening books (`.bin`), the chess GUIs' common format.
//!
//! A book is a sorted array of 16-byte big-endian records: the position's key (64 bits), the
//! move (16 bits), its weight (16 bits) and a learning field (32 bits, unused). The key is a
//! Zobrist hash over the format's own random numbers (`RANDOM`): one per piece on a square,
//! one per castling right, one for the en-passant file when a pawn of the side to move stands
//! ready to take, and one when white is to move. Keys are computed here from the FEN, so the
//! board's own hashing stays free to change.

use super::entry::{BookError, Entry};
use super::random::RANDOM;

/// Bytes per record.
const RECORD: usize = 16;
/// Where the castling numbers start in [`RANDOM`].
const CASTLE_OFFSET: usize = 768;
/// Where the en-passant numbers start.
const EP_OFFSET: usize = 772;
/// The number for white to move.
const TURN_OFFSET: usize = 780;
/// Piece letters in the format's order (pawn to king); white's kind is black's plus one.
const PIECES: &[u8; 6] = b"pnbrqk";

/// Reads a Polyglot book: every record, checked for order.
pub(super) fn read(bytes: &[u8]) -> Result<Vec<Entry>, BookError> {
    if !bytes.len().is_multiple_of(RECORD) {
        return Err(BookError::Malformed(format!(
            "{} bytes is not a whole number of {RECORD}-byte Polyglot records",
            bytes.len()
        )));
    }
    let entries: Vec<Entry> = bytes
        .chunks_exact(RECORD)
        .map(|r| Entry {
            key: u64::from_be_bytes([r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]]),
            mv: u16::from_be_bytes([r[8], r[9]]),
            weight: u16::from_be_bytes([r[10], r[11]]),
        })
        .collect();
    if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
        return Err(BookError::Malformed(format!(
            "records {} and {} are out of order (a Polyglot book is sorted by key)",
            i,
            i + 1
        )));
    }
    Ok(entries)
}

/// The Polyglot key of a chess position given as FEN, or `None` when the FEN cannot be read
/// (the engine's FEN is always readable).
pub fn key(fen: &str) -> Option<u64> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next()?;
    let white = fields.next()? == "w";
    let castling = fields.next().unwrap_or("-");
    let ep = fields.next().unwrap_or("-");

    let mut board = [[0u8; 8]; 8];
    let mut key = 0u64;
    for (i, row) in placement.split('/').enumerate() {
        let rank = 7usize.checked_sub(i)?;
        let mut file = 0usize;
        for c in row.bytes() {
            if c.is_ascii_digit() {
                file += usize::from(c - b'0');
                continue;
            }
            let piece = PIECES.iter().position(|&p| p == c.to_ascii_lowercase())?;
            let kind = 2 * piece + usize::from(c.is_ascii_uppercase());
            *board.get_mut(rank)?.get_mut(file)? = c;
            key ^= RANDOM[64 * kind + 8 * rank + file];
            file += 1;
        }
    }

    // Castling: K/Q/k/q, or the rook's file (Shredder-FEN) in a standard setup.
    for c in castling.bytes() {
        let right = match c {
            b'K' | b'H' => Some(0),
            b'Q' | b'A' => Some(1),
            b'k' | b'h' => Some(2),
            b'q' | b'a' => Some(3),
            _ => None,
        };
        if let Some(r) = right {
            key ^= RANDOM[CASTLE_OFFSET + r];
        }
    }

    // En passant counts only when a pawn of the side to move could take (legal or not).
    if let &[f @ b'a'..=b'h', b'3' | b'6'] = ep.as_bytes() {
        let file = usize::from(f - b'a');
        let (pawn_rank, pawn) = if white { (4, b'P') } else { (3, b'p') };
        let beside = [file.checked_sub(1), (file < 7).then_some(file + 1)];
        if beside.iter().flatten().any(|&x| board[pawn_rank][x] == pawn) {
            key ^= RANDOM[EP_OFFSET + file];
        }
    }
    if white {
        key ^= RANDOM[TURN_OFFSET];
    }
    Some(key)
}

/// A book move as coordinate text (`e2e4`, `e7e8q`; castling as king takes rook, `e1h1`, which
/// the chess board reads as castling).
pub fn move_text(mv: u16) -> String {
    let square = |file: u16, rank: u16| {
        [char::from(b'a' + (file & 7) as u8), char::from(b'1' + (rank & 7) as u8)]
    };
    let mut text: String = square(mv >> 6, mv >> 9).iter().collect();
    text.extend(square(mv, mv >> 3));
    if let Some(p) = [None, Some('n'), Some('b'), Some('r'), Some('q')]
        .get(usize::from((mv >> 12) & 7))
        .copied()
        .flatten()
    {
        text.push(p);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys the format's description lists for a short opening sequence.
    #[test]
    fn keys_match_the_published_examples() {
        let cases = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c),
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196),
            ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0),
            ("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78),
            ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 1 3", 0x652a607ca3f242c1),
            ("rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 2 4", 0x00fdd303c946bdd9),
            ("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637),
            ("rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 1 4", 0x5c3f9b829b279560),
        ];
        for (fen, expected) in cases {
            assert_eq!(key(fen), Some(expected), "{fen}");
        }
    }

    #[test]
    fn moves_decode_to_coordinates() {
        // e2e4: from e2 (file 4, rank 1), to e4 (file 4, rank 3).
        let e2e4 = (1 << 9) | (4 << 6) | (3 << 3) | 4;
        assert_eq!(move_text(e2e4), "e2e4");
        // a7a8q: from a7 (file 0, rank 6) to a8 (file 0, rank 7), promoting to a queen (4).
        let promo = (4 << 12) | (6 << 9) | (7 << 3);
        assert_eq!(move_text(promo), "a7a8q");
        let castle = (4 << 6) | 7;
        assert_eq!(move_text(castle), "e1h1");
    }

    #[test]
    fn malformed_books_are_refused() {
        assert!(read(&[0; 15]).is_err());
        let mut two = [0u8; 32];
        two[0] = 1;
        assert!(read(&two).is_err(), "out of order");
        assert_eq!(read(&[0; 32]).map(|e| e.len()).ok(), Some(2));
    }
}
