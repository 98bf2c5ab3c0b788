//! The engine's options: what each protocol announces, and how a `setoption` is checked.
//!
//! Only options with a real effect are announced. Names match case-insensitively; UCI and
//! UCCI spell some of them differently (`Hash` / `hashsize`) but set the same setting.

use crate::game::{Style, Variant};
use crate::search::pool::View;
use crate::search::time::DEFAULT_OVERHEAD_MS;
use crate::xiangqi::rules::RuleSet;

/// Hash table size limits, in MB.
pub const HASH_DEFAULT: usize = 16;
/// The largest hash table accepted, in MB.
pub const HASH_MAX: usize = 65_536;
/// The most search threads accepted.
pub const THREADS_MAX: usize = 256;
/// The most milliseconds of move overhead accepted.
pub const OVERHEAD_MAX: u64 = 5_000;
/// Xiangqi's natural move limit by default: 120 plies (60 moves) without a capture.
pub const DRAWMOVES_DEFAULT: u32 = 120;
/// The longest natural move limit accepted.
pub const DRAWMOVES_MAX: u32 = 1000;
/// The idle levels and the share of thinking time each leaves free (percent).
const IDLE_LEVELS: [(&str, u32); 4] = [("none", 0), ("small", 25), ("medium", 50), ("large", 75)];
/// The most lines MultiPV accepts.
pub const MULTIPV_MAX: usize = 256;
/// What `UCI_EngineAbout` says.
pub const ABOUT: &str = concat!(
    "Chariot ",
    env!("CARGO_PKG_VERSION"),
    ": a chess (UCI) and xiangqi (UCCI, UCI) engine in one binary, MIT licence"
);

/// The engine's settings, as options set them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Milliseconds kept back from every clock.
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
}

/// The opponent, as `UCI_Opponent` describes it: `<title> <elo> <computer|human> <name>`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opponent {
    /// The opponent's rating, if known.
    pub elo: Option<u32>,
    /// True for an engine.
    pub computer: bool,
}

/// Contempt, internal units: how much worse than zero a draw looks to the engine in play.
const CONTEMPT: i32 = 15;
/// Against an opponent rated this high or higher, a draw is a fair result: no contempt.
const CONTEMPT_ELO: u32 = 2600;

impl Settings {
    /// The draw score offset to use: none in analysis or against a strong opponent.
    pub fn contempt(&self) -> i32 {
        if self.analyse || self.opponent.elo.is_some_and(|e| e >= CONTEMPT_ELO) {
            0
        } else {
            CONTEMPT
        }
    }
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

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: HASH_DEFAULT,
            threads: 1,
            overhead_ms: DEFAULT_OVERHEAD_MS,
            view: View::default(),
            ponder: false,
            analyse: false,
            chess960: false,
            opponent: Opponent::default(),
            drawmoves: DRAWMOVES_DEFAULT,
            rules: RuleSet::default(),
            idle: 0,
            resign: true,
            style: Style::Letters,
        }
    }
}

/// A validated `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Resize the hash table.
    Hash(usize),
    /// Set the number of search threads.
    Threads(usize),
    /// Set the move overhead.
    Overhead(u64),
    /// Empty the hash table.
    ClearHash,
    /// Switch the game.
    Variant(Variant),
    /// MultiPV lines.
    MultiPv(usize),
    /// Show win/draw/loss.
    ShowWdl(bool),
    /// Show the current line.
    ShowCurrLine(bool),
    /// Show refutations.
    ShowRefutations(bool),
    /// The GUI ponders.
    Ponder(bool),
    /// Analysis mode.
    Analyse(bool),
    /// Chess960.
    Chess960(bool),
    /// The opponent.
    Opponent(Opponent),
    /// Start (or, with an empty path, stop) the debug log.
    LogFile(String),
    /// A new game: clear the hash table and the game's memory.
    NewGame,
    /// Debug output on or off.
    Debug(bool),
    /// The natural move limit in plies.
    DrawMoves(u32),
    /// The xiangqi repetition rules.
    Rules(RuleSet),
    /// Percent of thinking time to leave idle.
    Idle(u32),
    /// Allow resigning.
    Resign(bool),
    /// Add the PV in the game's traditional notation (xiangqi: Chinese) as a message.
    MoveNames(bool),
    /// The default style of `d`.
    Style(Style),
    /// An option that needs no engine action (UCCI `usemillisec`, handled by the front-end).
    None,
}

/// The UCI `option` lines.
pub fn uci_lines(variant: Variant) -> Vec<String> {
    vec![
        format!("option name Hash type spin default {HASH_DEFAULT} min 1 max {HASH_MAX}"),
        format!("option name Threads type spin default 1 min 1 max {THREADS_MAX}"),
        format!(
            "option name Move Overhead type spin default {DEFAULT_OVERHEAD_MS} min 0 max {OVERHEAD_MAX}"
        ),
        "option name Clear Hash type button".to_string(),
        "option name Ponder type check default false".to_string(),
        format!("option name MultiPV type spin default 1 min 1 max {MULTIPV_MAX}"),
        "option name UCI_ShowWDL type check default false".to_string(),
        "option name UCI_ShowCurrLine type check default false".to_string(),
        "option name UCI_ShowRefutations type check default false".to_string(),
        "option name UCI_AnalyseMode type check default false".to_string(),
        "option name UCI_Chess960 type check default false".to_string(),
        "option name UCI_Opponent type string default <empty>".to_string(),
        format!("option name UCI_EngineAbout type string default {ABOUT}"),
        "option name Debug Log File type string default <empty>".to_string(),
        format!(
            "option name Draw Moves type spin default {DRAWMOVES_DEFAULT} min 0 max {DRAWMOVES_MAX}"
        ),
        format!(
            "option name Repetition Rule type combo default {} {}",
            RuleSet::default().name(),
            rule_vars()
        ),
        "option name Chinese Notation type check default false".to_string(),
        "option name Board Symbols type check default false".to_string(),
        format!(
            "option name UCI_Variant type combo default {} var chess var xiangqi",
            variant.name()
        ),
    ]
}

/// `var <name> ...` for the repetition rules' combo.
fn rule_vars() -> String {
    let vars: Vec<String> = RuleSet::ALL.iter().map(|r| format!("var {}", r.name())).collect();
    vars.join(" ")
}

/// The UCCI `option` lines (no `name` keyword, as the spec writes them).
pub fn ucci_lines() -> Vec<String> {
    vec![
        "option usemillisec type check default false".to_string(),
        format!("option hashsize type spin min 1 max {HASH_MAX} default {HASH_DEFAULT}"),
        format!("option threads type spin min 1 max {THREADS_MAX} default 1"),
        "option batch type check default false".to_string(),
        "option debug type check default false".to_string(),
        "option ponder type check default false".to_string(),
        format!("option drawmoves type spin min 0 max {DRAWMOVES_MAX} default {DRAWMOVES_DEFAULT}"),
        format!(
            "option repetition type combo {} default {}",
            rule_vars(),
            RuleSet::default().name()
        ),
        "option idle type combo var none var small var medium var large default none".to_string(),
        "option resign type check default true".to_string(),
        "option newgame type button".to_string(),
        "option clearhash type button".to_string(),
        "option dualtime type label".to_string(),
        "option chinesenotation type check default false".to_string(),
        "option boardsymbols type check default false".to_string(),
    ]
}

/// Why a `setoption` was refused; the message names the offending token.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// No such option.
    #[error("unknown option '{0}'")]
    Unknown(String),
    /// The value is missing, not a number, or out of range.
    #[error("bad value '{value}' for option '{name}' ({expected})")]
    Value {
        /// The option.
        name: String,
        /// The value as given.
        value: String,
        /// What would have been accepted.
        expected: String,
    },
}

fn spin<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    name: &str,
    value: Option<&str>,
    min: T,
    max: T,
) -> Result<T, OptionError> {
    let bad = || OptionError::Value {
        name: name.to_string(),
        value: value.unwrap_or("").to_string(),
        expected: format!("a number from {min} to {max}"),
    };
    let v: T = value.ok_or_else(bad)?.trim().parse().map_err(|_| bad())?;
    if v < min || v > max {
        return Err(bad());
    }
    Ok(v)
}

fn check(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        // UCCI GUIs write `setoption debug` for "on".
        None | Some("true" | "on") => Ok(true),
        Some("false" | "off") => Ok(false),
        _ => Err(OptionError::Value {
            name: name.to_string(),
            value: value.unwrap_or("").to_string(),
            expected: "true or false".to_string(),
        }),
    }
}

/// A string option's value; `<empty>` (as GUIs echo the default) means empty.
fn string(value: Option<&str>) -> String {
    match value.map(str::trim) {
        None | Some("<empty>") => String::new(),
        Some(v) => v.to_string(),
    }
}

/// Checks a `setoption` and says what it changes.
pub fn parse(name: &str, value: Option<&str>) -> Result<Change, OptionError> {
    match name.to_ascii_lowercase().as_str() {
        "hash" | "hashsize" => {
            // UCCI allows 0 for "engine's choice".
            let mb = spin(name, value, 0, HASH_MAX)?;
            Ok(Change::Hash(if mb == 0 { HASH_DEFAULT } else { mb }))
        }
        "threads" => {
            let n = spin(name, value, 0, THREADS_MAX)?;
            Ok(Change::Threads(n.max(1)))
        }
        "move overhead" => Ok(Change::Overhead(spin(name, value, 0, OVERHEAD_MAX)?)),
        "clear hash" | "clearhash" => Ok(Change::ClearHash),
        "uci_variant" => match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            Some("chess") => Ok(Change::Variant(Variant::Chess)),
            Some("xiangqi") => Ok(Change::Variant(Variant::Xiangqi)),
            _ => Err(OptionError::Value {
                name: name.to_string(),
                value: value.unwrap_or("").to_string(),
                expected: "chess or xiangqi".to_string(),
            }),
        },
        "multipv" => Ok(Change::MultiPv(spin(name, value, 1, MULTIPV_MAX)?)),
        "uci_showwdl" => Ok(Change::ShowWdl(check(name, value)?)),
        "uci_showcurrline" => Ok(Change::ShowCurrLine(check(name, value)?)),
        "uci_showrefutations" => Ok(Change::ShowRefutations(check(name, value)?)),
        "ponder" => Ok(Change::Ponder(check(name, value)?)),
        "uci_analysemode" => Ok(Change::Analyse(check(name, value)?)),
        "uci_chess960" => Ok(Change::Chess960(check(name, value)?)),
        "uci_opponent" => Ok(Change::Opponent(Opponent::parse(&string(value)))),
        // Information for the GUI to show; setting it changes nothing.
        "uci_engineabout" => Ok(Change::None),
        "debug log file" => Ok(Change::LogFile(string(value))),
        // Handled by the UCCI front-end (time unit, batch reading); announced, nothing to do here.
        "usemillisec" | "batch" | "dualtime" => Ok(Change::None),
        "debug" => Ok(Change::Debug(check(name, value)?)),
        "chinese notation" | "chinesenotation" => Ok(Change::MoveNames(check(name, value)?)),
        "board symbols" | "boardsymbols" => {
            Ok(Change::Style(if check(name, value)? { Style::Symbols } else { Style::Letters }))
        }
        "newgame" => Ok(Change::NewGame),
        "drawmoves" | "draw moves" => Ok(Change::DrawMoves(spin(name, value, 0, DRAWMOVES_MAX)?)),
        "repetition" | "repetition rule" => match value.and_then(RuleSet::parse) {
            Some(rules) => Ok(Change::Rules(rules)),
            None => Err(OptionError::Value {
                name: name.to_string(),
                value: value.unwrap_or("").to_string(),
                expected: "asianrule, checkban or alwaysdraw".to_string(),
            }),
        },
        "resign" => Ok(Change::Resign(check(name, value)?)),
        "idle" => {
            let v = value.map(|v| v.trim().to_ascii_lowercase()).unwrap_or_default();
            match IDLE_LEVELS.iter().find(|(n, _)| *n == v) {
                Some((_, share)) => Ok(Change::Idle(*share)),
                None => Err(OptionError::Value {
                    name: name.to_string(),
                    value: value.unwrap_or("").to_string(),
                    expected: "none, small, medium or large".to_string(),
                }),
            }
        }
        _ => Err(OptionError::Unknown(name.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked() {
        assert_eq!(parse("hash", Some("64")), Ok(Change::Hash(64)));
        assert_eq!(parse("HashSize", Some("0")), Ok(Change::Hash(HASH_DEFAULT)));
        assert!(
            matches!(parse("Hash", Some("lots")), Err(OptionError::Value { value, .. }) if value == "lots")
        );
        assert!(matches!(parse("Threads", Some("100000")), Err(OptionError::Value { .. })));
        assert!(
            matches!(parse("Frobnicate", None), Err(OptionError::Unknown(n)) if n == "Frobnicate")
        );
        assert_eq!(parse("uci_variant", Some("Xiangqi")), Ok(Change::Variant(Variant::Xiangqi)));
        assert_eq!(parse("UCI_ShowWDL", Some("true")), Ok(Change::ShowWdl(true)));
        assert!(
            matches!(parse("Ponder", Some("maybe")), Err(OptionError::Value { value, .. }) if value == "maybe")
        );
        assert_eq!(parse("Debug Log File", Some("<empty>")), Ok(Change::LogFile(String::new())));
        assert_eq!(parse("MultiPV", Some("3")), Ok(Change::MultiPv(3)));
        assert_eq!(parse("repetition", Some("CheckBan")), Ok(Change::Rules(RuleSet::CheckBan)));
        assert_eq!(parse("Draw Moves", Some("0")), Ok(Change::DrawMoves(0)));
        // Chinese rules are not implemented, so not accepted.
        assert!(matches!(parse("repetition", Some("chineserule")), Err(OptionError::Value { .. })));
    }

    #[test]
    fn opponent_and_contempt() {
        let o = Opponent::parse("GM 2800 human Garry Kasparov");
        assert_eq!(o, Opponent { elo: Some(2800), computer: false });
        let mut s = Settings { opponent: o, ..Default::default() };
        assert_eq!(s.contempt(), 0);
        s.opponent = Opponent::parse("none none computer Stockfish");
        assert_eq!(s.contempt(), CONTEMPT);
        s.analyse = true;
        assert_eq!(s.contempt(), 0);
    }
}
