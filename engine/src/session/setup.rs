//! The commands that set the session up between searches: options, positions, `banmoves`, a
//! new game, and the views of the position (`d`, `eval`, `flip`, `probe`, `export_net`). Each
//! reports its errors and messages to the session's sink.

use super::Session;
use super::board::{Board, display_text, eval_text, variant_of_fen, with_board};
use super::notice::Notice;
use super::temper::Temper;
use crate::command::{Dialect, Start};
use crate::game::{Inspect, Variant};
use crate::options::{self, Action, Change, Effect, OptionError, Settings};
use crate::report::Report;
use std::sync::Arc;

impl Session {
    /// Switches the session's game (`UCI_Variant`, or a protocol that plays one game): its
    /// start position, and an empty table (the other game's entries are of no use).
    pub fn set_variant(&mut self, v: Variant) {
        if v != self.variant() {
            self.settings.variant = v;
            self.board = Some(Board::startpos(v));
            if let Some(b) = self.board.as_mut() {
                b.apply(&self.settings);
            }
            self.last_move = None;
            self.banned.clear();
            self.table_mut().clear();
        }
    }

    /// A new game: the hash table, the threads' history and the draw/resign memory start over.
    pub fn new_game(&mut self) {
        self.clear();
        self.temper = Some(Temper::default());
    }

    /// `setoption`, under the conventions of the protocol spoken.
    pub fn set_option(&mut self, name: &str, value: Option<&str>, dialect: &Dialect) {
        // The `tune` build: a search parameter of the session's game.
        #[cfg(feature = "tune")]
        if let Some(spec) = crate::search::params::spec(&name.trim().to_ascii_lowercase()) {
            let variant = self.variant();
            let result = match value.and_then(|v| v.trim().parse::<i32>().ok()) {
                Some(v) => self.params_mut(variant).set(spec.name, v).map_err(|e| e.to_string()),
                None => Err(OptionError::Value {
                    name: spec.name.to_string(),
                    value: value.unwrap_or("").to_string(),
                    expected: format!("a number from {} to {}", spec.min, spec.max),
                }
                .to_string()),
            };
            if let Err(e) = result {
                self.send(Report::Error(e));
            }
            return;
        }
        let (spec, value) = match options::parse(name, value, dialect.auto_zero) {
            Ok(found) => found,
            Err(OptionError::Unknown(n)) if dialect.ignore_unknown_options => {
                if self.settings.debug {
                    self.note(Notice::UnknownOption(n));
                }
                return;
            }
            Err(e) => return self.send(Report::Error(e.to_string())),
        };
        match spec.effect {
            Effect::Nothing => {}
            Effect::Act(Action::ClearHash) => self.clear(),
            Effect::Act(Action::NewGame) => self.new_game(),
            Effect::Hash => self.set_hash(value.int() as usize),
            Effect::Threads => self.set_threads_or_keep(value.int() as usize),
            Effect::Set { apply, then } => {
                let old = self.settings.clone();
                apply(&mut self.settings, &value);
                self.changed(then, &old);
            }
        }
    }

    /// `Hash`: a table of `mb` MB, or the same one emptied; the history tables start over too.
    fn set_hash(&mut self, mb: usize) {
        let table = self.table_mut();
        if mb == table.megabytes() {
            // A resized table is empty already; clearing a big one again costs time.
            table.clear();
        } else if table.resize(mb).is_err() {
            let kept = table.megabytes();
            self.error(Notice::Hash { wanted: mb, kept });
        }
        self.clear_history();
    }

    /// `Threads`: `n` search threads, or as many as could be started.
    fn set_threads_or_keep(&mut self, n: usize) {
        if let Err(e) = self.set_threads(n) {
            let using = self.threads();
            self.error(Notice::Threads { wanted: n, error: e.to_string(), using });
        }
    }

    /// Does what an option's [`Change`] asks once its value is stored; `old`: the settings
    /// before, to go back to when the change cannot be made.
    fn changed(&mut self, change: Change, old: &Settings) {
        let new = self.settings.clone();
        match change {
            Change::Stored => {}
            Change::Game => {
                self.settings.variant = old.variant;
                self.set_variant(new.variant);
            }
            Change::Rules => {
                if let Some(b) = self.board.as_mut() {
                    b.apply(&new);
                }
            }
            Change::Book => {
                if (new.book.on, &new.book.file) != (old.book.on, &old.book.file) {
                    let variant = self.board.as_ref().map_or(self.variant(), Board::variant);
                    let mut reports = Vec::new();
                    self.shelf().load(&new.book, variant, &mut reports);
                    reports.into_iter().for_each(|r| self.send(r));
                }
            }
            Change::Network => {
                if new.nnue != old.nnue {
                    self.apply_nnue(old);
                }
            }
            Change::Tablebases => match crate::chess::tb::load(&new.syzygy.path) {
                Ok(Some(found)) => self.note(Notice::Tablebases(found)),
                Ok(None) => {}
                Err(e) => {
                    // The old tables are gone too: the settings say so.
                    self.settings.syzygy.path.clear();
                    self.error(Notice::Syzygy(e));
                }
            },
            Change::Log => {
                if new.log_file != old.log_file
                    && let Err(e) = self.sink.set_log(&new.log_file)
                {
                    // The old log (if any) goes on; the same path may be tried again.
                    self.settings.log_file = old.log_file.clone();
                    self.error(Notice::Log { path: new.log_file, error: e });
                }
            }
        }
    }

    /// `export_net [file]`: writes the network the position's game evaluates with, to `file`
    /// or to its default name (`chess.nnue`, `xiangqi.nnue`).
    pub fn export_net(&mut self, file: Option<String>) {
        let variant = self.board.as_ref().map_or(self.variant(), Board::variant);
        let Some(net) = self.nets().get(variant).cloned() else {
            return self.error(Notice::NoNetwork(variant));
        };
        let path = file.unwrap_or_else(|| crate::nnue::default_name(variant).to_string());
        match std::fs::write(&path, net.to_bytes()) {
            Ok(()) => self.note(Notice::Exported { variant, path }),
            Err(error) => self.error(Notice::Write { path, error }),
        }
    }

    /// Installs the networks the settings ask for. A file that cannot be read or is not a
    /// network is reported and the networks in use stay.
    fn apply_nnue(&mut self, old: &Settings) {
        let nnue = self.settings.nnue.clone();
        let mut loaded = None;
        if !nnue.file.is_empty() {
            match crate::nnue::load(&nnue.file) {
                Ok(net) => loaded = Some(Arc::new(net)),
                Err(e) => {
                    self.settings.nnue.file = old.nnue.file.clone();
                    return self.error(Notice::EvalFile(e));
                }
            }
        }
        for v in [Variant::Chess, Variant::Xiangqi] {
            let net = match &loaded {
                Some(net) if net.variant == v => Some(net.clone()),
                _ => crate::nnue::embedded(v),
            };
            self.nets_mut().set(v, if nnue.on { net } else { None });
        }
        if let Some(net) = loaded.as_ref().filter(|_| nnue.file != old.nnue.file) {
            self.note(Notice::Loaded { variant: net.variant, path: nnue.file, hidden: net.hidden });
        }
    }

    /// `position`: the position becomes the session's, or, when rejected, there is none.
    pub fn set_position(&mut self, start: Start, moves: Vec<String>) {
        self.banned.clear();
        // A FEN's shape chooses the game of that position only; `startpos` is the game of the
        // session (`UCI_Variant`). A rejected position applies nothing.
        let variant = match &start {
            Start::Fen(fen) => variant_of_fen(fen).unwrap_or(self.variant()),
            Start::Startpos => self.variant(),
        };
        match Board::setup(variant, &start, &moves, &self.settings) {
            Ok((b, last)) => {
                let previous = self.board.as_ref().map(Board::variant);
                if previous.is_some_and(|p| p != variant) {
                    // The other game's entries are of no use.
                    self.table_mut().clear();
                }
                if variant != self.variant() && previous != Some(variant) {
                    self.note(Notice::OtherGame { position: variant, session: self.variant() });
                }
                self.board = Some(b);
                self.last_move = last;
            }
            Err(e) => {
                self.invalid_reason = e.to_string();
                self.error(Notice::Rejected(e));
                self.board = None;
            }
        }
    }

    /// A `position` that could not be read: reported, and no position until the next one.
    pub fn bad_position(&mut self, error: String) {
        self.banned.clear();
        self.send(Report::Error(error.clone()));
        self.invalid_reason = error;
        self.board = None;
    }

    /// `d`: the board, its FEN, key, checkers and last move, in `style` or the session's.
    pub fn display(&self, style: Option<crate::game::Style>) {
        let style = style.unwrap_or(self.settings.style);
        let Some(board) = &self.board else {
            return self
                .error(Notice::NoPosition { doing: "show", reason: self.invalid_reason.clone() });
        };
        let text = with_board!(board, b => display_text(&**b, style, self.last_move));
        self.send(Report::Text(text));
    }

    /// `eval`: the static evaluation and its terms.
    pub fn eval(&self) {
        match &self.board {
            Some(board) => {
                let net = self.nets().get(board.variant()).cloned();
                with_board!(board, b => self.send(Report::Text(eval_text(&**b, net.as_deref()))))
            }
            None => self.error(Notice::NoPosition {
                doing: "evaluate",
                reason: self.invalid_reason.clone(),
            }),
        }
    }

    /// `flip`: the position's colour mirror replaces it.
    pub fn flip(&mut self) {
        if let Some(board) = &self.board {
            let flipped: Board = with_board!(board, b => b.flipped().into());
            self.board = Some(flipped);
            self.last_move = None;
            self.banned.clear();
        }
    }

    /// `probe`: what the table holds for a position, which stays out of the session.
    pub fn probe_position(&self, start: Start, moves: Vec<String>) {
        let variant = match &start {
            Start::Fen(fen) => variant_of_fen(fen).unwrap_or(self.variant()),
            Start::Startpos => self.variant(),
        };
        match Board::setup(variant, &start, &moves, &self.settings) {
            Ok((board, _)) => {
                let report = with_board!(board, b => self.probe(&*b));
                self.send(report);
            }
            Err(e) => self.error(Notice::Failed { command: "probe", error: e.to_string() }),
        }
    }
}
