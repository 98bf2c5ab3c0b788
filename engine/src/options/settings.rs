//! What the options set: the [`Settings`] a session keeps and its parts (strength, book,
//! network, tablebases, opponent), each with its default, and the ranges the option table
//! announces for them. Nothing here knows an option's name: the table (`table.rs`) maps names
//! to these fields, so that the settings can be read without the protocols.

use crate::game::{Style, Variant};
use crate::report::View;
use crate::search::skill::{ELO_LADDER_CHESS, ELO_LADDER_XIANGQI, Skill};
use crate::search::tb::Tablebases;
use crate::xiangqi::rules::RuleSet;

/// The default hash table size, in MB.
pub const HASH_DEFAULT: i64 = 16;
/// The largest hash table accepted, in MB.
pub const HASH_MAX: i64 = 65_536;
/// The most search threads accepted.
pub const THREADS_MAX: i64 = 256;
/// Milliseconds a move loses outside the search (GUI, pipes), by default.
pub const OVERHEAD_DEFAULT: i64 = 30;
/// The most milliseconds of move overhead accepted.
pub const OVERHEAD_MAX: i64 = 5_000;
/// Xiangqi's natural move limit by default: 120 plies (60 moves) without a capture.
pub const DRAWMOVES_DEFAULT: i64 = 120;
/// The longest natural move limit accepted.
pub const DRAWMOVES_MAX: i64 = 1000;
/// The most lines MultiPV accepts.
pub const MULTIPV_MAX: i64 = 256;
/// The lowest and highest `UCI_Elo`: Stockfish 15.1's range.
pub const ELO_MIN: i64 = 1350;
/// See [`ELO_MIN`].
pub const ELO_MAX: i64 = 2850;
/// The full-strength `Skill Level`.
pub const SKILL_MAX: i64 = 20;
/// UCCI's `knowledge` and `pruning` grades, and the level each stands for.
pub(super) const GRADES: &[&str] = &["none", "small", "medium", "large"];
const GRADE_LEVELS: [f64; 4] = [5.0, 10.0, 15.0, 20.0];
/// UCCI's `randomness` grades, and the choice error each adds (centipawns): each grade at
/// least doubles the one before, so that each is a clear step (the larger ones also widen the
/// choice, see `Skill::candidates`).
pub(super) const RANDOMNESS: &[&str] = &["none", "tiny", "small", "medium", "large", "huge"];
const RANDOMNESS_CP: [f64; 6] = [0.0, 20.0, 60.0, 150.0, 300.0, 600.0];

/// The index of a `knowledge` or `pruning` grade.
pub(super) fn grade(name: &str) -> usize {
    GRADES.iter().position(|g| *g == name).unwrap_or(GRADES.len() - 1)
}

/// The book is used up to this many plies into the game, by default.
pub const BOOK_DEPTH_DEFAULT: i64 = 255;
/// The largest book depth accepted.
pub const BOOK_DEPTH_MAX: i64 = 1000;
/// The largest `SyzygyProbeDepth` accepted (Stockfish's range, 1..100).
pub const SYZYGY_DEPTH_MAX: i64 = 100;
/// The most pieces a Syzygy table has: `SyzygyProbeLimit`'s default and largest value.
pub const SYZYGY_LIMIT_MAX: i64 = crate::chess::tb::MAX_PIECES as i64;
/// Against an opponent rated this high or higher, a draw is a fair result: no contempt.
const CONTEMPT_ELO: u32 = 2600;

/// The engine's settings, as options set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The game that `startpos` sets up.
    pub variant: Variant,
    /// Milliseconds a move loses outside the search (GUI, pipes); see `search::time`.
    pub overhead_ms: u64,
    /// What the GUI wants to see of the search.
    pub view: View,
    /// The GUI may ponder: plan a little more time per move, as pondering recovers it.
    pub ponder: bool,
    /// The GUI analyses rather than plays: no contempt for draws.
    pub analyse: bool,
    /// Chess960 castling rules and notation.
    pub chess960: bool,
    /// What the GUI said about the opponent (`UCI_Opponent`).
    pub opponent: Opponent,
    /// The debug log's path; empty for none.
    pub log_file: String,
    /// More messages (UCI `debug on`, UCCI `debug`).
    pub debug: bool,
    /// Xiangqi's natural move limit, in plies without a capture (0: none).
    pub drawmoves: u32,
    /// Which xiangqi repetitions lose.
    pub rules: RuleSet,
    /// Percent of the thinking time left idle (UCCI `idle`).
    pub idle: u32,
    /// Resign hopeless games (UCCI `bestmove ... resign`).
    pub resign: bool,
    /// How `d` draws the pieces unless told.
    pub style: Style,
    /// The opening book.
    pub book: BookSettings,
    /// The playing strength.
    pub strength: Strength,
    /// The evaluation: network on or off, and which file.
    pub nnue: NnueSettings,
    /// The Syzygy tablebases (chess).
    pub syzygy: SyzygySettings,
}

/// How the Syzygy tablebases are used, as the options set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyzygySettings {
    /// The folders of the tables (`SyzygyPath`); empty for none.
    pub path: String,
    /// The least depth left at which the search probes (`SyzygyProbeDepth`).
    pub probe_depth: u32,
    /// Count the fifty-move rule: cursed wins and blessed losses are draws
    /// (`Syzygy50MoveRule`).
    pub rule50: bool,
    /// The most pieces of a position probed (`SyzygyProbeLimit`); 0 for none.
    pub probe_limit: u32,
}

impl SyzygySettings {
    /// How the search uses the tables: only when this session named a path and tables of it
    /// are loaded (the loaded tables are the process's, see [`crate::chess::tb`]).
    pub fn in_use(&self) -> Option<Tablebases> {
        if self.path.is_empty() || self.probe_limit == 0 {
            return None;
        }
        let found = crate::chess::tb::found()?;
        Some(Tablebases::new(self.probe_limit, found.largest, self.probe_depth, self.rule50))
    }
}

impl Default for SyzygySettings {
    fn default() -> Self {
        SyzygySettings {
            path: String::new(),
            probe_depth: 1,
            rule50: true,
            probe_limit: SYZYGY_LIMIT_MAX as u32,
        }
    }
}

/// Which evaluation to use, as the options set it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NnueSettings {
    /// Evaluate with a network (`Use NNUE`).
    pub on: bool,
    /// A network file to load instead of the embedded one of its game; empty for none.
    pub file: String,
}

impl Default for NnueSettings {
    fn default() -> Self {
        NnueSettings { on: true, file: String::new() }
    }
}

/// The playing strength, as the options set it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Strength {
    /// Play at `elo` (`UCI_LimitStrength`).
    pub limit: bool,
    /// The Elo target (`UCI_Elo`).
    pub elo: u32,
    /// `Skill Level`, 0..=20.
    pub level: u32,
    /// UCCI `knowledge` and `pruning`: indices into their grades.
    pub knowledge: usize,
    /// See `knowledge`.
    pub pruning: usize,
    /// UCCI `randomness`: an index into its grades.
    pub randomness: usize,
}

impl Default for Strength {
    fn default() -> Self {
        Strength {
            limit: false,
            elo: ELO_MIN as u32,
            level: SKILL_MAX as u32,
            knowledge: GRADES.len() - 1,
            pruning: GRADES.len() - 1,
            randomness: 0,
        }
    }
}

impl Strength {
    /// The skill these settings ask for in `variant`: the Elo target when limited, else the
    /// weakest of the level and the UCCI grades, with the randomness's error on top.
    pub fn skill(&self, variant: Variant) -> Skill {
        let ladder = match variant {
            Variant::Chess => ELO_LADDER_CHESS,
            Variant::Xiangqi => ELO_LADDER_XIANGQI,
        };
        let mut skill =
            if self.limit { Skill::from_elo(self.elo, ladder) } else { Skill::default() };
        let graded = GRADE_LEVELS[self.knowledge.min(3)].min(GRADE_LEVELS[self.pruning.min(3)]);
        skill.level = skill.level.min(Skill::option_level(self.level)).min(graded);
        skill.extra_error_cp = RANDOMNESS_CP[self.randomness.min(RANDOMNESS_CP.len() - 1)];
        skill
    }
}

/// How the opening book is used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookSettings {
    /// Play from the book (`OwnBook`, UCCI `usebook`).
    pub on: bool,
    /// The book's path; empty for none.
    pub file: String,
    /// The book is used up to this many plies into the game.
    pub depth: u32,
    /// Play the heaviest move rather than a weighted random one.
    pub best: bool,
}

impl BookSettings {
    /// True when a book is to be played from: switched on, with a file named.
    pub fn active(&self) -> bool {
        self.on && !self.file.is_empty()
    }
}

impl Default for BookSettings {
    fn default() -> Self {
        BookSettings {
            on: false,
            file: String::new(),
            depth: BOOK_DEPTH_DEFAULT as u32,
            best: false,
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            variant: Variant::Chess,
            overhead_ms: OVERHEAD_DEFAULT as u64,
            view: View::default(),
            ponder: false,
            analyse: false,
            chess960: false,
            opponent: Opponent::default(),
            log_file: String::new(),
            debug: false,
            drawmoves: DRAWMOVES_DEFAULT as u32,
            rules: RuleSet::default(),
            idle: 0,
            resign: true,
            style: Style::Letters,
            book: BookSettings::default(),
            strength: Strength::default(),
            nnue: NnueSettings::default(),
            syzygy: SyzygySettings::default(),
        }
    }
}

impl Settings {
    /// The draw score offset to use, out of the game's `contempt` parameter: none in
    /// analysis or against a strong opponent.
    pub fn contempt(&self, contempt: i32) -> i32 {
        if self.analyse || self.opponent.elo.is_some_and(|e| e >= CONTEMPT_ELO) {
            0
        } else {
            contempt
        }
    }
}

/// The opponent, as `UCI_Opponent` describes it: `<title> <elo> <computer|human> <name>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opponent {
    /// The opponent's rating, if known.
    pub elo: Option<u32>,
    /// True for an engine.
    pub computer: bool,
}

impl Opponent {
    /// Parses `UCI_Opponent`'s value; an unreadable value describes nobody.
    pub fn parse(value: &str) -> Opponent {
        let words: Vec<&str> = value.split_whitespace().collect();
        let elo = words.get(1).and_then(|w| w.parse().ok());
        let computer = words.get(2).is_some_and(|w| w.eq_ignore_ascii_case("computer"));
        Opponent { elo, computer }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_and_contempt() {
        const CONTEMPT: i32 = 15;
        let o = Opponent::parse("GM 2800 human Garry Kasparov");
        assert_eq!(o, Opponent { elo: Some(2800), computer: false });
        let mut s = Settings { opponent: o, ..Default::default() };
        assert_eq!(s.contempt(CONTEMPT), 0);
        s.opponent = Opponent::parse("none none computer Stockfish");
        assert_eq!(s.contempt(CONTEMPT), CONTEMPT);
        s.analyse = true;
        assert_eq!(s.contempt(CONTEMPT), 0);
    }
}
