//! The opening book the settings name: loaded once per path and game, asked for a move before
//! each search.

use crate::book::{self, Book};
use crate::game::Variant;
use crate::options::BookSettings;
use crate::report::Report;
use crate::rng::Stream;
use crate::text::excerpt;

/// The book in use, if any, and the random numbers for choosing among its moves.
pub struct Shelf {
    /// The path and game the book was loaded for, and the book (`None` when loading failed:
    /// the error was reported once and is not repeated for every move).
    loaded: Option<(String, Variant, Option<Book>)>,
    /// Seeded from the clock: book choices vary between runs.
    rng: Stream,
}

impl Default for Shelf {
    fn default() -> Self {
        Shelf { loaded: None, rng: Stream::from_clock() }
    }
}

impl Shelf {
    /// Loads the book `settings` name for `variant` unless it is loaded already; reports what
    /// happened (the error of a bad file, or how many records a new book has).
    pub fn load(&mut self, settings: &BookSettings, variant: Variant, reports: &mut Vec<Report>) {
        if !settings.active() {
            return;
        }
        if let Some((path, v, _)) = &self.loaded
            && *path == settings.file
            && *v == variant
        {
            return;
        }
        let book = match Book::open(&settings.file, variant) {
            Ok(b) => {
                reports.push(Report::Message(format!(
                    "{} book '{}': {} records",
                    variant.name(),
                    excerpt(&settings.file),
                    b.len()
                )));
                Some(b)
            }
            Err(e) => {
                reports.push(Report::Error(format!("{e}; playing without a book")));
                None
            }
        };
        self.loaded = Some((settings.file.clone(), variant, book));
    }

    /// A book move for the position `fen` of `variant`, `ply` plies into the game: one of the
    /// book's moves that `playable` accepts, chosen as `settings` say. Reports a book that
    /// could not be loaded.
    pub fn pick(
        &mut self,
        settings: &BookSettings,
        variant: Variant,
        fen: &str,
        ply: u32,
        playable: impl Fn(&str) -> bool,
        reports: &mut Vec<Report>,
    ) -> Option<String> {
        if !settings.active() || ply >= settings.depth {
            return None;
        }
        self.load(settings, variant, reports);
        let book = self.loaded.as_ref()?.2.as_ref()?;
        let candidates: Vec<_> =
            book.candidates(fen).into_iter().filter(|c| playable(&c.text)).collect();
        let r = self.rng.next_u64();
        book::choose(&candidates, settings.best, r).map(|c| c.text.clone())
    }
}
