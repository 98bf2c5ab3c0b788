//! The engine's options, declared once: [`TABLE`] holds each option with its UCI and UCCI
//! names, its type, default and range, the settings field it sets and what the controller does
//! then ([`Change`]), and a line for docs/options.md. The `uci` and `ucci` announcements,
//! `setoption` checking, range errors and the documented option tables all come from it. A new
//! option is its entry and its [`Settings`] field with the default (a test checks that the two
//! defaults agree); one whose side effect is new also needs a [`Change`] and the controller's
//! branch for it.
//!
//! Names match case-insensitively, and either protocol's spelling is accepted in both
//! (`Hash` / `hashsize`).

use crate::game::{Style, Variant};
use crate::report::View;
use crate::search::skill::{ELO_LADDER_CHESS, ELO_LADDER_XIANGQI, Skill};
use crate::search::tb::Tablebases;
use crate::text::excerpt;
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
const GRADES: &[&str] = &["none", "small", "medium", "large"];
const GRADE_LEVELS: [f64; 4] = [5.0, 10.0, 15.0, 20.0];
/// UCCI's `randomness` grades, and the choice error each adds (centipawns): each grade at
/// least doubles the one before, so that each is a clear step (the larger ones also widen the
/// choice, see `Skill::candidates`).
const RANDOMNESS: &[&str] = &["none", "tiny", "small", "medium", "large", "huge"];
const RANDOMNESS_CP: [f64; 6] = [0.0, 20.0, 60.0, 150.0, 300.0, 600.0];

/// The index of a `knowledge` or `pruning` grade.
fn grade(name: &str) -> usize {
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
/// The idle levels and the share of thinking time each leaves free (percent).
const IDLE_LEVELS: [(&str, u32); 4] = [("none", 0), ("small", 25), ("medium", 50), ("large", 75)];
/// The repetition rule sets, by name.
const RULE_NAMES: &[&str] = &["asianrule", "checkban", "alwaysdraw"];
/// The games, by name.
pub const GAMES: &[&str] = &["chess", "xiangqi"];
/// What `UCI_EngineAbout` says.
pub const ABOUT: &str = concat!(
    "Chariot ",
    env!("CARGO_PKG_VERSION"),
    ": a chess (UCI) and xiangqi (UCCI, UCI) engine in one binary, MIT licence"
);
/// Against an opponent rated this high or higher, a draw is a fair result: no contempt.
const CONTEMPT_ELO: u32 = 2600;

/// An option's type, with its default and range, as the protocols announce it.
#[derive(Copy, Clone, Debug)]
pub enum Kind {
    /// On or off.
    Check(bool),
    /// A whole number in `min..=max`. `zero`: where the protocol reserves 0 for "the engine's
    /// choice" (UCCI's `hashsize` and `threads`), 0 is accepted too and means this value.
    Spin {
        /// The default.
        default: i64,
        /// The smallest value announced.
        min: i64,
        /// The largest value.
        max: i64,
        /// What 0 means, when 0 is below `min` but the protocol allows it.
        zero: Option<i64>,
    },
    /// One of a list of words.
    Combo {
        /// The default.
        default: &'static str,
        /// The words.
        vars: &'static [&'static str],
    },
    /// The game: a combo of the games whose default is the session's game.
    Game,
    /// Free text; `<empty>` stands for none.
    Text(&'static str),
    /// A button: no value, an action.
    Button,
    /// A label: announced for the GUI's information, nothing to set.
    Label,
}

/// A checked value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A check's state.
    Bool(bool),
    /// A spin's number.
    Int(i64),
    /// A combo's word (lower case, one of the vars) or a string option's text.
    Text(String),
    /// A button was pressed.
    Press,
}

impl Value {
    fn bool(&self) -> bool {
        matches!(self, Value::Bool(true))
    }
    fn int(&self) -> i64 {
        if let Value::Int(n) = self { *n } else { 0 }
    }
    fn text(&self) -> &str {
        if let Value::Text(t) = self { t } else { "" }
    }
}

/// What setting an option does.
#[derive(Copy, Clone)]
pub enum Effect {
    /// Stores the value in the settings (`apply`); then the controller does what `then` says.
    /// The table's defaults, applied in turn, are [`Settings::default`].
    Set {
        /// Writes the checked value into its settings field.
        apply: fn(&mut Settings, &Value),
        /// What the controller does next.
        then: Change,
    },
    /// Asks the controller to act at once.
    Act(Action),
    /// Nothing for the controller: information only, or handled by the front-end.
    Nothing,
}

/// What the controller does once an option has stored its value: each is one branch of the
/// controller's `changed`, shared by every option that needs it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing: the value is read where it is used (the next `go`, the next report).
    Stored,
    /// Resize the hash table, or empty it when the size is the same (setting `Hash` starts
    /// the table afresh, as GUIs expect), and the history tables with it.
    Table,
    /// Start or stop search threads.
    Threads,
    /// Switch the session's game.
    Game,
    /// Set the position's rules again (Chess960 castling, xiangqi's move limit and
    /// repetition rules).
    Rules,
    /// Load the book now, so that a bad path is reported when it is set.
    Book,
    /// Install the networks the settings ask for.
    Network,
    /// Open the debug log.
    Log,
    /// Load the Syzygy tablebases (chess) of the path, or none.
    Tablebases,
}

/// A [`Effect::Set`] whose value is only read where it is used.
const fn stored(apply: fn(&mut Settings, &Value)) -> Effect {
    Effect::Set { apply, then: Change::Stored }
}

/// A [`Effect::Set`] that the controller acts on with `then`.
const fn then(then: Change, apply: fn(&mut Settings, &Value)) -> Effect {
    Effect::Set { apply, then }
}

/// A button's action.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Empty the hash table.
    ClearHash,
    /// A new game: clear the hash table, the history tables and the draw/resign memory.
    NewGame,
}

/// One option.
pub struct Spec {
    /// Its UCI name, if UCI announces it.
    pub uci: Option<&'static str>,
    /// Its UCCI name, if UCCI announces it.
    pub ucci: Option<&'static str>,
    /// Its type, default and range.
    pub kind: Kind,
    /// What setting it does.
    pub effect: Effect,
    /// What it does, for the option tables of docs/options.md.
    pub doc: &'static str,
}

impl Spec {
    /// True when `name` is one of this option's names.
    fn is_named(&self, name: &str) -> bool {
        [self.uci, self.ucci].iter().flatten().any(|n| n.eq_ignore_ascii_case(name))
    }
}

/// Every option, in the order the protocols announce them.
pub static TABLE: &[Spec] = &[
    Spec {
        uci: None,
        ucci: Some("usemillisec"),
        kind: Kind::Check(false),
        effect: Effect::Nothing,
        doc: "`go` times in milliseconds instead of seconds",
    },
    Spec {
        uci: Some("Hash"),
        ucci: Some("hashsize"),
        kind: Kind::Spin { default: HASH_DEFAULT, min: 1, max: HASH_MAX, zero: Some(HASH_DEFAULT) },
        effect: then(Change::Table, |s, v| s.hash_mb = v.int() as usize),
        doc: "transposition table size in MB (UCCI 0: the default, 16)",
    },
    Spec {
        uci: Some("Threads"),
        ucci: Some("threads"),
        kind: Kind::Spin { default: 1, min: 1, max: THREADS_MAX, zero: Some(1) },
        effect: then(Change::Threads, |s, v| s.threads = v.int() as usize),
        doc: "search threads (Lazy SMP, one shared table; UCCI 0: one)",
    },
    Spec {
        uci: Some("Move Overhead"),
        ucci: Some("moveoverhead"),
        kind: Kind::Spin { default: OVERHEAD_DEFAULT, min: 0, max: OVERHEAD_MAX, zero: None },
        effect: stored(|s, v| s.overhead_ms = v.int() as u64),
        doc: "milliseconds a move loses outside the search; up to four are kept back from the clock",
    },
    Spec {
        uci: Some("Clear Hash"),
        ucci: Some("clearhash"),
        kind: Kind::Button,
        effect: Effect::Act(Action::ClearHash),
        doc: "empties the hash table",
    },
    Spec {
        uci: None,
        ucci: Some("batch"),
        kind: Kind::Check(false),
        effect: Effect::Nothing,
        doc: "read no input while a timed search runs",
    },
    Spec {
        uci: None,
        ucci: Some("debug"),
        kind: Kind::Check(false),
        effect: stored(|s, v| s.debug = v.bool()),
        doc: "more `info message` lines (time budget, ignored options)",
    },
    Spec {
        uci: Some("Ponder"),
        ucci: Some("ponder"),
        kind: Kind::Check(false),
        effect: stored(|s, v| s.ponder = v.bool()),
        doc: "plans a quarter more time per move, as pondering recovers it",
    },
    Spec {
        uci: Some("MultiPV"),
        ucci: None,
        kind: Kind::Spin { default: 1, min: 1, max: MULTIPV_MAX, zero: None },
        effect: stored(|s, v| s.view.multipv = v.int() as usize),
        doc: "number of best lines reported",
    },
    Spec {
        uci: Some("UCI_ShowWDL"),
        ucci: None,
        kind: Kind::Check(false),
        effect: stored(|s, v| s.view.wdl = v.bool()),
        doc: "adds `wdl w d l` (permille) to scores",
    },
    Spec {
        uci: Some("UCI_ShowCurrLine"),
        ucci: None,
        kind: Kind::Check(false),
        effect: stored(|s, v| s.view.currline = v.bool()),
        doc: "reports `currline` once a second",
    },
    Spec {
        uci: Some("UCI_ShowRefutations"),
        ucci: None,
        kind: Kind::Check(false),
        effect: stored(|s, v| s.view.refutations = v.bool()),
        doc: "reports `refutation` for each root move",
    },
    Spec {
        uci: Some("UCI_AnalyseMode"),
        ucci: None,
        kind: Kind::Check(false),
        effect: stored(|s, v| s.analyse = v.bool()),
        doc: "no contempt for draws",
    },
    Spec {
        uci: Some("UCI_Chess960"),
        ucci: None,
        kind: Kind::Check(false),
        effect: then(Change::Rules, |s, v| s.chess960 = v.bool()),
        doc: "castling written king-takes-rook (`e1h1`); X-FEN and Shredder-FEN read always",
    },
    Spec {
        uci: Some("UCI_Opponent"),
        ucci: None,
        kind: Kind::Text("<empty>"),
        effect: stored(|s, v| s.opponent = Opponent::parse(v.text())),
        doc: "against an opponent rated 2600 or more, no contempt",
    },
    Spec {
        uci: Some("UCI_EngineAbout"),
        ucci: None,
        kind: Kind::Text(ABOUT),
        effect: Effect::Nothing,
        doc: "information for the GUI",
    },
    Spec {
        uci: Some("Debug Log File"),
        ucci: None,
        kind: Kind::Text("<empty>"),
        effect: then(Change::Log, |s, v| s.log_file = v.text().to_string()),
        doc: "appends every line in and out, with direction markers",
    },
    Spec {
        uci: Some("Draw Moves"),
        ucci: Some("drawmoves"),
        kind: Kind::Spin { default: DRAWMOVES_DEFAULT, min: 0, max: DRAWMOVES_MAX, zero: None },
        effect: then(Change::Rules, |s, v| s.drawmoves = v.int() as u32),
        doc: "xiangqi: plies without capture before the natural move limit draws (0: no limit)",
    },
    Spec {
        uci: Some("Repetition Rule"),
        ucci: Some("repetition"),
        kind: Kind::Combo { default: "asianrule", vars: RULE_NAMES },
        effect: then(Change::Rules, |s, v| s.rules = RuleSet::parse(v.text()).unwrap_or_default()),
        doc: "xiangqi: how repetitions are judged (see below)",
    },
    Spec {
        uci: None,
        ucci: Some("idle"),
        kind: Kind::Combo { default: "none", vars: &["none", "small", "medium", "large"] },
        effect: stored(|s, v| {
            s.idle = IDLE_LEVELS.iter().find(|(n, _)| *n == v.text()).map_or(0, |(_, p)| *p)
        }),
        doc: "leave 0/25/50/75% of the thinking time idle",
    },
    Spec {
        uci: None,
        ucci: Some("resign"),
        kind: Kind::Check(true),
        effect: stored(|s, v| s.resign = v.bool()),
        doc: "allow `bestmove ... resign`",
    },
    Spec {
        uci: None,
        ucci: Some("newgame"),
        kind: Kind::Button,
        effect: Effect::Act(Action::NewGame),
        doc: "a new game: clears the hash and history tables and the draw/resign memory",
    },
    Spec {
        uci: None,
        ucci: Some("dualtime"),
        kind: Kind::Label,
        effect: Effect::Nothing,
        doc: "`go wtime ... btime ...` is understood",
    },
    Spec {
        uci: Some("Chinese Notation"),
        ucci: Some("chinesenotation"),
        kind: Kind::Check(false),
        effect: stored(|s, v| s.view.move_names = v.bool()),
        doc: "xiangqi: the PV in Chinese notation as an extra message line",
    },
    Spec {
        uci: Some("Board Symbols"),
        ucci: Some("boardsymbols"),
        kind: Kind::Check(false),
        effect: stored(|s, v| s.style = if v.bool() { Style::Symbols } else { Style::Letters }),
        doc: "`d` draws Unicode / Chinese pieces by default",
    },
    Spec {
        uci: Some("UCI_LimitStrength"),
        ucci: None,
        kind: Kind::Check(false),
        effect: stored(|s, v| s.strength.limit = v.bool()),
        doc: "play at the strength of `UCI_Elo`",
    },
    Spec {
        uci: Some("UCI_Elo"),
        ucci: None,
        kind: Kind::Spin { default: ELO_MIN, min: ELO_MIN, max: ELO_MAX, zero: None },
        effect: stored(|s, v| s.strength.elo = v.int() as u32),
        doc: "the strength `UCI_LimitStrength` plays at (Stockfish 15.1's scale)",
    },
    Spec {
        uci: Some("Skill Level"),
        ucci: None,
        kind: Kind::Spin { default: SKILL_MAX, min: 0, max: SKILL_MAX, zero: None },
        effect: stored(|s, v| s.strength.level = v.int() as u32),
        doc: "0 (weakest) to 20 (full strength)",
    },
    Spec {
        uci: None,
        ucci: Some("knowledge"),
        kind: Kind::Combo { default: "large", vars: GRADES },
        effect: stored(|s, v| s.strength.knowledge = grade(v.text())),
        doc: "how much the engine knows: less plays weaker",
    },
    Spec {
        uci: None,
        ucci: Some("pruning"),
        kind: Kind::Combo { default: "large", vars: GRADES },
        effect: stored(|s, v| s.strength.pruning = grade(v.text())),
        doc: "how selectively it searches: less plays weaker",
    },
    Spec {
        uci: None,
        ucci: Some("randomness"),
        kind: Kind::Combo { default: "none", vars: RANDOMNESS },
        effect: stored(|s, v| {
            s.strength.randomness = RANDOMNESS.iter().position(|r| *r == v.text()).unwrap_or(0)
        }),
        doc: "how freely it chooses among good moves: more plays weaker and more varied",
    },
    Spec {
        uci: Some("OwnBook"),
        ucci: Some("usebook"),
        kind: Kind::Check(false),
        effect: then(Change::Book, |s, v| s.book.on = v.bool()),
        doc: "play from the opening book of `Book File` while it has a move",
    },
    Spec {
        uci: Some("Book File"),
        ucci: Some("bookfiles"),
        kind: Kind::Text("<empty>"),
        effect: then(Change::Book, |s, v| s.book.file = v.text().to_string()),
        doc: "the book: Polyglot `.bin` for chess, ElephantEye `BOOK.DAT` for xiangqi",
    },
    Spec {
        uci: Some("Book Depth"),
        ucci: Some("bookdepth"),
        kind: Kind::Spin { default: BOOK_DEPTH_DEFAULT, min: 1, max: BOOK_DEPTH_MAX, zero: None },
        effect: stored(|s, v| s.book.depth = v.int() as u32),
        doc: "the book is used up to this many plies into the game",
    },
    Spec {
        uci: Some("Book Best Move"),
        ucci: Some("bookbestmove"),
        kind: Kind::Check(false),
        effect: stored(|s, v| s.book.best = v.bool()),
        doc: "the book's heaviest move, not a choice weighted at random",
    },
    Spec {
        uci: Some("Use NNUE"),
        ucci: Some("usennue"),
        kind: Kind::Check(true),
        effect: then(Change::Network, |s, v| s.nnue.on = v.bool()),
        doc: "evaluate with the network; off: the classic evaluation (material and piece-square)",
    },
    Spec {
        uci: Some("EvalFile"),
        ucci: Some("evalfile"),
        kind: Kind::Text("<empty>"),
        effect: then(Change::Network, |s, v| s.nnue.file = v.text().to_string()),
        doc: "a network file to use instead of the embedded one of its game (empty: embedded)",
    },
    Spec {
        uci: Some("SyzygyPath"),
        ucci: None,
        kind: Kind::Text("<empty>"),
        effect: then(Change::Tablebases, |s, v| s.syzygy.path = v.text().to_string()),
        doc: "chess: folders of Syzygy tablebases, joined by `:` (`;` on Windows); loaded when set",
    },
    Spec {
        uci: Some("SyzygyProbeDepth"),
        ucci: None,
        kind: Kind::Spin { default: 1, min: 1, max: SYZYGY_DEPTH_MAX, zero: None },
        effect: stored(|s, v| s.syzygy.probe_depth = v.int() as u32),
        doc: "chess: the least depth left at which the search probes positions with the most pieces the tables hold",
    },
    Spec {
        uci: Some("Syzygy50MoveRule"),
        ucci: None,
        kind: Kind::Check(true),
        effect: stored(|s, v| s.syzygy.rule50 = v.bool()),
        doc: "chess: wins and losses that the fifty-move rule turns into draws count as draws",
    },
    Spec {
        uci: Some("SyzygyProbeLimit"),
        ucci: None,
        kind: Kind::Spin { default: SYZYGY_LIMIT_MAX, min: 0, max: SYZYGY_LIMIT_MAX, zero: None },
        effect: stored(|s, v| s.syzygy.probe_limit = v.int() as u32),
        doc: "chess: the most pieces (kings included) of a position probed; 0: none",
    },
    Spec {
        uci: Some("UCI_Variant"),
        ucci: None,
        kind: Kind::Game,
        effect: then(Change::Game, |s, v| {
            s.variant = if v.text() == "xiangqi" { Variant::Xiangqi } else { Variant::Chess }
        }),
        doc: "the game; a 10-rank FEN also switches to xiangqi",
    },
];

/// The engine's settings, as options set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The game that `startpos` sets up.
    pub variant: Variant,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
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
            hash_mb: HASH_DEFAULT as usize,
            threads: 1,
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

/// Why a `setoption` was refused; the message names the offending token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No such option.
    #[error("unknown option '{}'", excerpt(.0))]
    Unknown(String),
    /// The value is missing, not a number, or out of range.
    #[error("bad value '{}' for option '{}' ({expected})", excerpt(.value), excerpt(.name))]
    Value {
        /// The option.
        name: String,
        /// The value as given.
        value: String,
        /// What would have been accepted.
        expected: String,
    },
}

/// Finds an option by either of its names.
pub fn find(name: &str) -> Option<&'static Spec> {
    TABLE.iter().find(|s| s.is_named(name.trim()))
}

impl Kind {
    /// The smallest value a spin accepts: `min`, or 0 where `auto_zero` says the protocol
    /// reserves 0 for the engine's choice and the option has one.
    pub fn low(min: i64, zero: Option<i64>, auto_zero: bool) -> i64 {
        if auto_zero && zero.is_some() { 0 } else { min }
    }
}

/// Checks a `setoption`: the option and its value, ready to apply. `auto_zero`: the protocol
/// reserves 0 for the engine's choice (UCCI).
pub fn parse(
    name: &str,
    value: Option<&str>,
    auto_zero: bool,
) -> Result<(&'static Spec, Value), OptionError> {
    let spec = find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
    // The name as matched, without the spaces around it: a known name is short.
    let bad = |expected: String| OptionError::Value {
        name: name.trim().to_string(),
        value: value.unwrap_or("").to_string(),
        expected,
    };
    let word = value.map(|v| v.trim().to_ascii_lowercase());
    let value = match spec.kind {
        // UCCI GUIs write `setoption debug` for "on".
        Kind::Check(_) => match word.as_deref() {
            None | Some("true" | "on") => Value::Bool(true),
            Some("false" | "off") => Value::Bool(false),
            _ => return Err(bad("true or false".into())),
        },
        Kind::Spin { min, max, zero, .. } => {
            let low = Kind::low(min, zero, auto_zero);
            let expected = || format!("a number from {low} to {max}");
            let n: i64 =
                word.as_deref().and_then(|w| w.parse().ok()).ok_or_else(|| bad(expected()))?;
            match zero {
                _ if n < low || n > max => return Err(bad(expected())),
                Some(z) if n == 0 => Value::Int(z),
                _ => Value::Int(n),
            }
        }
        Kind::Combo { vars, .. } => match word {
            Some(w) if vars.contains(&w.as_str()) => Value::Text(w),
            _ => return Err(bad(or_list(vars))),
        },
        Kind::Game => match word {
            Some(w) if GAMES.contains(&w.as_str()) => Value::Text(w),
            _ => return Err(bad(or_list(GAMES))),
        },
        // A string option; `<empty>` (as GUIs echo the default) means empty.
        Kind::Text(_) => Value::Text(match value.map(str::trim) {
            None | Some("<empty>") => String::new(),
            Some(v) => v.to_string(),
        }),
        Kind::Button | Kind::Label => Value::Press,
    };
    Ok((spec, value))
}

/// `a, b or c`.
fn or_list(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The option table of docs/options.md for one protocol (`ucci`: UCCI names, else UCI
/// names).
pub fn doc_table(ucci: bool) -> String {
    let mut out = String::from("| option | type | default | effect |\n|---|---|---|---|\n");
    for spec in TABLE {
        let Some(name) = (if ucci { spec.ucci } else { spec.uci }) else { continue };
        let (ty, default) = match spec.kind {
            Kind::Check(d) => ("check".to_string(), d.to_string()),
            Kind::Spin { default, min, max, zero } => {
                let min = Kind::low(min, zero, ucci);
                (format!("spin {min}..{max}"), default.to_string())
            }
            Kind::Combo { default, vars } => (format!("combo {}", vars.join(", ")), default.into()),
            Kind::Game => (format!("combo {}", GAMES.join(", ")), "chess".into()),
            Kind::Text(d) if d == ABOUT => ("string".into(), "(about text)".into()),
            Kind::Text(_) => ("string".into(), String::new()),
            Kind::Button => ("button".into(), String::new()),
            Kind::Label => ("label".into(), String::new()),
        };
        out.push_str(&format!("| {name} | {ty} | {default} | {} |\n", spec.doc));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sets an option as UCCI would when the name is UCCI's (lower case), else as UCI would.
    fn set(name: &str, value: Option<&str>) -> Result<Settings, OptionError> {
        let ucci = name.chars().all(|c| c.is_ascii_lowercase());
        let (spec, v) = parse(name, value, ucci)?;
        let mut s = Settings::default();
        if let Effect::Set { apply, .. } = spec.effect {
            apply(&mut s, &v);
        }
        Ok(s)
    }

    #[test]
    fn values_are_checked() {
        assert_eq!(set("hash", Some("64")).map(|s| s.hash_mb), Ok(64));
        assert_eq!(set("hashsize", Some("0")).map(|s| s.hash_mb), Ok(HASH_DEFAULT as usize));
        assert!(matches!(set("Hash", Some("0")), Err(OptionError::Value { expected, .. })
            if expected == "a number from 1 to 65536"));
        assert!(
            matches!(set("Hash", Some("lots")), Err(OptionError::Value { value, .. }) if value == "lots")
        );
        assert!(matches!(set("Threads", Some("100000")), Err(OptionError::Value { .. })));
        assert_eq!(set("threads", Some("0")).map(|s| s.threads), Ok(1));
        assert!(matches!(set("Threads", Some("0")), Err(OptionError::Value { .. })));
        assert!(
            matches!(set("Frobnicate", None), Err(OptionError::Unknown(n)) if n == "Frobnicate")
        );
        assert_eq!(set("uci_variant", Some("Xiangqi")).map(|s| s.variant), Ok(Variant::Xiangqi));
        assert_eq!(set("UCI_ShowWDL", Some("true")).map(|s| s.view.wdl), Ok(true));
        assert!(
            matches!(set("Ponder", Some("maybe")), Err(OptionError::Value { value, .. }) if value == "maybe")
        );
        assert_eq!(set("Debug Log File", Some("<empty>")).map(|s| s.log_file), Ok(String::new()));
        assert_eq!(set("MultiPV", Some("3")).map(|s| s.view.multipv), Ok(3));
        assert!(matches!(set("MultiPV", Some("0")), Err(OptionError::Value { .. })));
        assert_eq!(set("repetition", Some("CheckBan")).map(|s| s.rules), Ok(RuleSet::CheckBan));
        assert_eq!(set("Draw Moves", Some("0")).map(|s| s.drawmoves), Ok(0));
        assert_eq!(set("idle", Some("medium")).map(|s| s.idle), Ok(50));
        assert_eq!(set("boardsymbols", None).map(|s| s.style), Ok(Style::Symbols));
        // Input is quoted in errors at most 80 characters long (found by fuzzing).
        let long = "車".repeat(1000);
        let e = set("Draw Moves", Some(&long)).map(|_| ()).unwrap_err().to_string();
        assert!(e.chars().count() < 200 && e.contains("車..."), "{e}");
        let e = set(&format!("{}UCI_ShowWDL", " ".repeat(100)), Some(&long));
        let e = e.map(|_| ()).unwrap_err().to_string();
        assert!(e.chars().count() < 200 && e.contains("option 'UCI_ShowWDL'"), "{e}");
        // Chinese rules are not implemented, so not accepted.
        assert!(matches!(set("repetition", Some("chineserule")), Err(OptionError::Value { .. })));
    }

    /// The defaults the protocols announce are the settings' defaults: each option's default,
    /// set through the option, leaves the default settings as they are.
    #[test]
    fn announced_defaults_are_the_settings_defaults() {
        let defaults = Settings::default();
        for spec in TABLE {
            let Effect::Set { apply, .. } = spec.effect else { continue };
            let value = match spec.kind {
                Kind::Check(d) => Value::Bool(d),
                Kind::Spin { default, .. } => Value::Int(default),
                Kind::Combo { default, .. } => Value::Text(default.to_string()),
                Kind::Game => Value::Text(defaults.variant.name().to_string()),
                Kind::Text(d) => Value::Text(if d == "<empty>" { "" } else { d }.to_string()),
                Kind::Button | Kind::Label => Value::Press,
            };
            let mut set = defaults.clone();
            apply(&mut set, &value);
            assert_eq!(set, defaults, "{:?}'s default", spec.uci.or(spec.ucci));
        }
    }

    #[test]
    fn every_option_has_a_name_and_a_unique_one() {
        let mut names: Vec<String> = TABLE
            .iter()
            .flat_map(|s| [s.uci, s.ucci])
            .flatten()
            .map(str::to_ascii_lowercase)
            .collect();
        assert!(TABLE.iter().all(|s| s.uci.is_some() || s.ucci.is_some()));
        let n = names.len();
        names.sort();
        names.dedup();
        // A UCI and a UCCI name may coincide (`ponder`), but only within one entry.
        let per_entry: usize = TABLE
            .iter()
            .map(|s| match (s.uci, s.ucci) {
                (Some(a), Some(b)) if a.eq_ignore_ascii_case(b) => 1,
                (a, b) => a.is_some() as usize + b.is_some() as usize,
            })
            .sum();
        assert_eq!(names.len(), per_entry, "{n} names");
    }

    /// The option tables of docs/options.md are these tables, so that they cannot drift.
    #[test]
    fn documented_tables_come_from_the_table() {
        let doc = include_str!("../../docs/options.md");
        let tables = [doc_table(false), doc_table(true)];
        for table in &tables {
            assert!(
                doc.contains(table.as_str()),
                "docs/options.md should hold:\n{}",
                tables.join("\n")
            );
        }
    }

    #[test]
    fn rule_names_match_the_rule_sets() {
        let names: Vec<&str> = RuleSet::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(names, RULE_NAMES);
        assert_eq!(RuleSet::default().name(), "asianrule");
    }

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
