//! The option table: [`TABLE`] holds every option once, with its UCI and UCCI names, its
//! type, default and range ([`Kind`]), what setting it does ([`Effect`]: the [`Settings`] field
//! it writes and the [`Change`] the session makes then) and its line for docs/options.md.
//! The protocols announce it, `setoption` looks names up in it, and [`doc_table`] prints it.

use super::settings::{
    BOOK_DEPTH_DEFAULT, BOOK_DEPTH_MAX, DRAWMOVES_DEFAULT, DRAWMOVES_MAX, ELO_MAX, ELO_MIN, GRADES,
    HASH_DEFAULT, HASH_MAX, MULTIPV_MAX, OVERHEAD_DEFAULT, OVERHEAD_MAX, Opponent, RANDOMNESS,
    SKILL_MAX, SYZYGY_DEPTH_MAX, SYZYGY_LIMIT_MAX, Settings, THREADS_MAX, grade,
};
use crate::game::{Style, Variant};
use crate::xiangqi::rules::RuleSet;

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

impl Kind {
    /// The smallest value a spin accepts: `min`, or 0 where `auto_zero` says the protocol
    /// reserves 0 for the engine's choice and the option has one.
    pub fn low(min: i64, zero: Option<i64>, auto_zero: bool) -> i64 {
        if auto_zero && zero.is_some() { 0 } else { min }
    }
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
    /// The number of a spin option (0 for any other value).
    pub fn int(&self) -> i64 {
        if let Value::Int(n) = self { *n } else { 0 }
    }
    fn text(&self) -> &str {
        if let Value::Text(t) = self { t } else { "" }
    }
}

/// What setting an option does.
#[derive(Copy, Clone)]
pub enum Effect {
    /// Stores the value in the settings (`apply`); then the session does what `then` says.
    /// The table's defaults, applied in turn, are [`Settings::default`].
    Set {
        /// Writes the checked value into its settings field.
        apply: fn(&mut Settings, &Value),
        /// What the session does next.
        then: Change,
    },
    /// Asks the session to act at once.
    Act(Action),
    /// Resizes the hash table to the value, in MB, or empties it when the size is the same
    /// (setting `Hash` starts the table afresh, as GUIs expect), and the history tables with
    /// it. The size is stored once, in the table.
    Hash,
    /// Starts or stops search threads until the value run. The number is stored once, in the
    /// pool of threads.
    Threads,
    /// Nothing for the session: information only, or handled by the front-end.
    Nothing,
}

/// What the session does once an option has stored its value: each is one branch of the
/// session's `changed`, shared by every option that needs it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Nothing: the value is read where it is used (the next `go`, the next report).
    Stored,
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

/// A [`Effect::Set`] that the session acts on with `then`.
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
        effect: Effect::Hash,
        doc: "transposition table size in MB (UCCI 0: the default, 16)",
    },
    Spec {
        uci: Some("Threads"),
        ucci: Some("threads"),
        kind: Kind::Spin { default: 1, min: 1, max: THREADS_MAX, zero: Some(1) },
        effect: Effect::Threads,
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

/// Finds an option by either of its names.
pub fn find(name: &str) -> Option<&'static Spec> {
    TABLE.iter().find(|s| s.is_named(name.trim()))
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
        let doc = include_str!("../../../docs/options.md");
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
}
