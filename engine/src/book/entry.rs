//! What the book formats share: a record as read, a move offered, and what can go wrong
//! reading a file. The formats ([`super::polyglot`], [`super::eleeye`]) and the [`super::Book`]
//! that dispatches to them all use these, so they live below all three.

/// A book file that could not be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum BookError {
    /// The file could not be opened or read.
    #[error("cannot read book file '{}': {reason}", crate::text::excerpt(.path))]
    Io {
        /// The path as given.
        path: String,
        /// What the system said.
        reason: String,
    },
    /// The file is not a book of the expected format.
    #[error("not a valid book: {0}")]
    Malformed(String),
}

/// One book record: a position's key, a move in the format's encoding, its weight.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's key in the format's hashing.
    pub key: u64,
    /// The move, in the format's encoding.
    pub mv: u16,
    /// How often the move should be chosen, relative to the others of the position.
    pub weight: u16,
}

/// A move a book offers: its text in the engine's notation and its weight.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The move as coordinate text (`e2e4`, `h2e2`).
    pub text: String,
    /// Its weight in the book.
    pub weight: u16,
}

/// The records of the position with `key` in `entries` (sorted by key), by binary search.
pub(super) fn records(entries: &[Entry], key: u64) -> impl Iterator<Item = &Entry> {
    let start = entries.partition_point(|e| e.key < key);
    entries[start..].iter().take_while(move |e| e.key == key)
}
