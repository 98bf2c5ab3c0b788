//! ElephantEye opening books (`BOOK.DAT`), the xiangqi GUIs' common format.
//!
//! A book is an array of 8-byte little-endian records sorted by their first field: a 32-bit
//! lock of the position before the move, the move (source square in the low byte, destination
//! in the high byte, on ElephantEye's 16x16 board) and a 16-bit weight. The lock is the third
//! word of ElephantEye's Zobrist triples, which are drawn from RC4 with an all-zero key: first
//! the side-to-move triple, then one per piece kind (red king, advisor, elephant, horse,
//! chariot, cannon, soldier, then black's) and per square of the 16x16 board. A position and
//! its left-right mirror are stored once, so a position without records is looked up mirrored
//! and the moves found are mirrored back, as ElephantEye does.

use std::sync::OnceLock;

use super::entry::{self, BookError, Candidate, Entry};

/// Bytes per record.
const RECORD: usize = 8;
/// Piece kinds, red's as FEN letters in ElephantEye's order; black's follow at `+ 7`. The
/// elephant and horse are also read as `e` and `h`.
const KINDS: &[u8; 7] = b"kabnrcp";
/// The first file and rank of the board inside ElephantEye's 16x16 array.
const EDGE: usize = 3;

/// Plain RC4 (key schedule and output), ElephantEye's source of Zobrist numbers.
struct Rc4 {
    s: [u8; 256],
    x: u8,
    y: u8,
}

impl Rc4 {
    /// The generator with an all-zero key (any length of zeros gives the same state).
    fn zero_key() -> Rc4 {
        let mut s = [0u8; 256];
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as u8;
        }
        let mut j = 0u8;
        for i in 0..256 {
            j = j.wrapping_add(s[i]);
            s.swap(i, usize::from(j));
        }
        Rc4 { s, x: 0, y: 0 }
    }

    fn byte(&mut self) -> u8 {
        self.x = self.x.wrapping_add(1);
        self.y = self.y.wrapping_add(self.s[usize::from(self.x)]);
        self.s.swap(usize::from(self.x), usize::from(self.y));
        self.s[usize::from(self.s[usize::from(self.x)].wrapping_add(self.s[usize::from(self.y)]))]
    }

    /// Four bytes, the first lowest (ElephantEye was built little-endian).
    fn word(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }
}

/// The lock numbers: `[0]` is the side to move's, then `1 + kind * 256 + square`.
fn locks() -> &'static [u32] {
    static LOCKS: OnceLock<Vec<u32>> = OnceLock::new();
    LOCKS.get_or_init(|| {
        let mut rc4 = Rc4::zero_key();
        // Each triple is (key, lock0, lock1); books use lock1 only.
        let mut lock1 = || {
            rc4.word();
            rc4.word();
            rc4.word()
        };
        (0..1 + 14 * 256).map(|_| lock1()).collect()
    })
}

/// Reads an ElephantEye book: every whole record, checked for order. A trailing partial
/// record is ignored, as ElephantEye ignores it.
pub(super) fn read(bytes: &[u8]) -> Result<Vec<Entry>, BookError> {
    let entries: Vec<Entry> = bytes
        .chunks_exact(RECORD)
        .map(|r| Entry {
            key: u64::from(u32::from_le_bytes([r[0], r[1], r[2], r[3]])),
            mv: u16::from_le_bytes([r[4], r[5]]),
            weight: u16::from_le_bytes([r[6], r[7]]),
        })
        .collect();
    if entries.is_empty() {
        return Err(BookError::Malformed(format!(
            "{} bytes hold no {RECORD}-byte ElephantEye record",
            bytes.len()
        )));
    }
    if let Some(i) = entries.windows(2).position(|w| w[0].key > w[1].key) {
        return Err(BookError::Malformed(format!(
            "records {} and {} are out of order (an ElephantEye book is sorted by lock)",
            i,
            i + 1
        )));
    }
    Ok(entries)
}

/// The lock of a xiangqi position given as FEN (ranks from black's side, red in upper case),
/// left-right mirrored when `mirror`; `None` when the FEN cannot be read.
pub fn lock(fen: &str, mirror: bool) -> Option<u32> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next()?;
    let black = matches!(fields.next(), Some("b"));
    let table = locks();
    let mut lock = if black { table[0] } else { 0 };
    for (row, text) in placement.split('/').enumerate() {
        let mut file = 0usize;
        for c in text.bytes() {
            if c.is_ascii_digit() {
                file += usize::from(c - b'0');
                continue;
            }
            let lower = match c.to_ascii_lowercase() {
                b'e' => b'b',
                b'h' => b'n',
                l => l,
            };
            let kind = KINDS.iter().position(|&k| k == lower)?
                + if c.is_ascii_lowercase() { 7 } else { 0 };
            let f = if mirror { 8usize.checked_sub(file)? } else { file };
            let square = (EDGE + f) + 16 * (EDGE + row);
            lock ^= table.get(1 + kind * 256 + square)?;
            file += 1;
        }
    }
    Some(lock)
}

/// A book move as ICCS text (`h2e2`), mirrored left-right when `mirror`.
pub fn move_text(mv: u16, mirror: bool) -> String {
    let square = |sq: u16| {
        let file = (sq & 15).wrapping_sub(EDGE as u16) & 15;
        let file = if mirror { 8u16.wrapping_sub(file) } else { file };
        let rank = 12u16.wrapping_sub(sq >> 4) & 15;
        [char::from(b'a'.wrapping_add(file as u8)), char::from(b'0'.wrapping_add(rank as u8))]
    };
    square(mv & 255).iter().chain(square(mv >> 8).iter()).collect()
}

/// The moves a book of `entries` offers for the position `fen`: its own records, or when it
/// has none, the mirrored position's, mirrored back. Moves off the board are left out.
pub(super) fn candidates(entries: &[Entry], fen: &str) -> Vec<Candidate> {
    for mirror in [false, true] {
        let Some(lock) = lock(fen, mirror) else { return Vec::new() };
        let mut records = entry::records(entries, u64::from(lock)).peekable();
        if records.peek().is_none() {
            continue;
        }
        return records
            .filter(|e| e.weight > 0)
            .map(|e| Candidate { text: move_text(e.mv, mirror), weight: e.weight })
            .filter(|c| c.text.bytes().all(|b| b.is_ascii_alphanumeric()))
            .collect();
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    const AFTER_H2E2: &str =
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";

    #[test]
    fn the_generator_is_rc4_with_a_zero_key() {
        // The published RC4 test vector for an all-zero key starts de 18 89 41 a3 37.
        let mut rc4 = Rc4::zero_key();
        let first: Vec<u8> = (0..6).map(|_| rc4.byte()).collect();
        assert_eq!(first, [0xde, 0x18, 0x89, 0x41, 0xa3, 0x37]);
    }

    /// Locks of ElephantEye's book: the start position (as found in a dump of BOOK.DAT), the
    /// side to move's number, and the position after h2e2 with its mirror image.
    #[test]
    fn locks_match_elephanteye() {
        assert_eq!(lock(START, false), Some(0x052656d5));
        assert_eq!(lock(START, true), Some(0x052656d5), "the start is symmetric");
        assert_eq!(locks()[0], 0x671e068a);
        assert_eq!(lock(AFTER_H2E2, false), Some(0xeb505d7d));
        assert_eq!(lock(AFTER_H2E2, true), Some(0x5396644f));
    }

    #[test]
    fn moves_decode_to_iccs() {
        assert_eq!(move_text(0xa7aa, false), "h2e2");
        assert_eq!(move_text(0xa7a4, false), "b2e2");
        assert_eq!(move_text(0xa7a4, true), "h2e2");
        assert_eq!(move_text(0xa9ca, false), "h0g2");
        assert_eq!(move_text(0x8595, false), "c3c4");
    }

    #[test]
    fn records_read_little_endian_and_must_be_sorted() {
        let record = [0xd5, 0x56, 0x26, 0x05, 0xa4, 0xa7, 0xc1, 0x05];
        let entries = read(&record).expect("one record");
        assert_eq!(entries, [Entry { key: 0x052656d5, mv: 0xa7a4, weight: 0x05c1 }]);
        assert!(read(&[0; 7]).is_err(), "no whole record");
        let mut two = [0u8; 16];
        two[0] = 1;
        assert!(read(&two).is_err(), "out of order");
    }
}
