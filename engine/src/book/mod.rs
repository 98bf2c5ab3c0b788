//! Opening books: Polyglot `.bin` files for chess ([`polyglot`]), ElephantEye `BOOK.DAT` files
//! for xiangqi ([`eleeye`]).
//!
//! A book is read whole into memory when it is chosen, checked as it is read, and then only
//! looked up: the controller asks for a move of the current position (given as FEN, so the
//! books do not depend on the boards' own hashing) and checks it against the legal moves. A
//! file that cannot be read or is malformed is an error the user sees; play goes on without a
//! book.

pub mod eleeye;
mod entry;
pub mod polyglot;
mod random;
pub mod shelf;

pub use entry::{BookError, Candidate, Entry};

use std::path::Path;

use crate::game::Variant;

/// An opening book, loaded.
#[derive(Clone, Debug)]
pub struct Book {
    variant: Variant,
    entries: Vec<Entry>,
    path: String,
}

impl Book {
    /// Loads the book at `path` for `variant`: a Polyglot book for chess, an ElephantEye book
    /// for xiangqi.
    pub fn open(path: &str, variant: Variant) -> Result<Book, BookError> {
        let bytes = std::fs::read(Path::new(path))
            .map_err(|e| BookError::Io { path: path.to_string(), reason: e.to_string() })?;
        let entries = match variant {
            Variant::Chess => polyglot::read(&bytes)?,
            Variant::Xiangqi => eleeye::read(&bytes)?,
        };
        Ok(Book { variant, entries, path: path.to_string() })
    }

    /// The path the book was read from.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// How many records the book holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True for a book without records.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The game the book is for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The moves the book offers in the position `fen`, with a weight above zero, in the
    /// book's order. The caller checks that each is legal.
    pub fn candidates(&self, fen: &str) -> Vec<Candidate> {
        match self.variant {
            Variant::Chess => {
                let Some(key) = polyglot::key(fen) else { return Vec::new() };
                entry::records(&self.entries, key)
                    .filter(|e| e.weight > 0)
                    .map(|e| Candidate { text: polyglot::move_text(e.mv), weight: e.weight })
                    .collect()
            }
            Variant::Xiangqi => eleeye::candidates(&self.entries, fen),
        }
    }
}

/// Chooses among `candidates`: the heaviest (the first of equals) when `best`, else at random
/// in proportion to the weights, from the random number `r`.
pub fn choose(candidates: &[Candidate], best: bool, r: u64) -> Option<&Candidate> {
    if best {
        // `max_by_key` returns the last of equals: search in reverse to keep the first.
        return candidates.iter().rev().max_by_key(|c| c.weight);
    }
    let total: u64 = candidates.iter().map(|c| u64::from(c.weight)).sum();
    if total == 0 {
        return None;
    }
    let mut pick = r % total;
    candidates.iter().find(|c| {
        let w = u64::from(c.weight);
        if pick < w {
            true
        } else {
            pick -= w;
            false
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(text: &str, weight: u16) -> Candidate {
        Candidate { text: text.to_string(), weight }
    }

    #[test]
    fn the_choice_follows_the_weights() {
        let c = [cand("a", 1), cand("b", 3), cand("c", 3)];
        assert_eq!(choose(&c, true, 0).map(|c| c.text.as_str()), Some("b"));
        let picked: Vec<_> = (0..7).map(|r| choose(&c, false, r).map(|c| c.text.clone())).collect();
        let count = |t: &str| picked.iter().filter(|p| p.as_deref() == Some(t)).count();
        assert_eq!((count("a"), count("b"), count("c")), (1, 3, 3));
        assert_eq!(choose(&[], false, 5), None);
        assert_eq!(choose(&[cand("z", 0)], false, 5), None);
    }

    #[test]
    fn a_missing_file_is_an_error_naming_it() {
        let e = Book::open("/nonexistent/book.bin", Variant::Chess).unwrap_err();
        assert!(e.to_string().contains("/nonexistent/book.bin"), "{e}");
    }
}
