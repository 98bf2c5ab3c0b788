//! The engine's options, declared once: [`TABLE`] holds each option with its UCI and UCCI
//! names, its type, default and range, the settings field it sets and what the session does
//! then ([`Change`]), and a line for docs/options.md. The `uci` and `ucci` announcements,
//! `setoption` checking, range errors and the documented option tables all come from it. A new
//! option is its entry and its [`Settings`] field with the default (a test checks that the two
//! defaults agree); one whose side effect is new also needs a [`Change`] and the session's
//! branch for it.
//!
//! Names match case-insensitively, and either protocol's spelling is accepted in both
//! (`Hash` / `hashsize`).
//!
//! The module's files: `table.rs`, the table and what an entry is; `settings.rs`, what the
//! options set, with its defaults and ranges; this file checks a `setoption` against the table.

mod settings;
mod table;

pub use settings::{
    BOOK_DEPTH_DEFAULT, BOOK_DEPTH_MAX, BookSettings, DRAWMOVES_DEFAULT, DRAWMOVES_MAX, ELO_MAX,
    ELO_MIN, HASH_DEFAULT, HASH_MAX, MULTIPV_MAX, NnueSettings, OVERHEAD_DEFAULT, OVERHEAD_MAX,
    Opponent, SKILL_MAX, SYZYGY_DEPTH_MAX, SYZYGY_LIMIT_MAX, Settings, Strength, SyzygySettings,
    THREADS_MAX,
};
pub use table::{ABOUT, Action, Change, Effect, GAMES, Kind, Spec, TABLE, Value, doc_table, find};

use crate::text::excerpt;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Style, Variant};
    use crate::xiangqi::rules::RuleSet;

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
        // The sizes are stored by the session, in its table and its pool: the value is checked.
        let size = |name: &str, value| {
            parse(name, Some(value), name == "hashsize" || name == "threads").map(|(_, v)| v.int())
        };
        assert_eq!(size("hash", "64"), Ok(64));
        assert_eq!(size("hashsize", "0"), Ok(HASH_DEFAULT));
        assert!(matches!(set("Hash", Some("0")), Err(OptionError::Value { expected, .. })
            if expected == "a number from 1 to 65536"));
        assert!(
            matches!(set("Hash", Some("lots")), Err(OptionError::Value { value, .. }) if value == "lots")
        );
        assert!(matches!(set("Threads", Some("100000")), Err(OptionError::Value { .. })));
        assert_eq!(size("threads", "0"), Ok(1));
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
}
