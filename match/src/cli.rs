//! Command-line values that need more than clap: engine specifications and time controls.

use crate::engine::{EngineSpec, Protocol, split_command};
use crate::notation::Notation;
use crate::play::TimeControl;
use std::path::PathBuf;

/// Why a command-line value was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CliError {
    /// An engine token without `=`.
    #[error("engine token without '=': '{0}'")]
    Token(String),
    /// An engine key the runner does not know.
    #[error(
        "unknown engine key '{0}' (known: name cmd dir proto notation tcfactor ponder option.NAME)"
    )]
    Key(String),
    /// A value that does not parse.
    #[error("bad value for {key}: '{value}'")]
    Value {
        /// The key.
        key: String,
        /// The value.
        value: String,
    },
    /// An engine without `cmd=`.
    #[error("an engine needs cmd=")]
    NoCommand,
    /// A time control that does not parse.
    #[error(
        "bad time control '{0}' (expected base+inc in seconds, e.g. 10+0.1, or moves/base+inc)"
    )]
    TimeControl(String),
}

/// Reads an engine from `key=value` tokens: `name=`, `cmd=` (split like a shell), `dir=`,
/// `proto=uci|ucci`, `notation=iccs|fsf`, `tcfactor=F`, `ponder=true|false`, and `option.NAME=VALUE` (repeatable).
pub fn parse_engine(tokens: &[String]) -> Result<EngineSpec, CliError> {
    let mut spec = EngineSpec::new(String::new(), Vec::new());
    let bad = |key: &str, value: &str| CliError::Value { key: key.into(), value: value.into() };
    for token in tokens {
        let (key, value) = token.split_once('=').ok_or_else(|| CliError::Token(token.clone()))?;
        match key {
            "name" => spec.name = value.to_string(),
            "cmd" => spec.cmd = split_command(value),
            "dir" => spec.dir = Some(PathBuf::from(value)),
            "ponder" => {
                spec.ponder = match value.to_ascii_lowercase().as_str() {
                    "true" | "on" | "1" => true,
                    "false" | "off" | "0" => false,
                    _ => return Err(bad(key, value)),
                }
            }
            "proto" => {
                spec.proto = match value.to_ascii_lowercase().as_str() {
                    "uci" => Protocol::Uci,
                    "ucci" => Protocol::Ucci,
                    _ => return Err(bad(key, value)),
                }
            }
            "notation" => spec.notation = Notation::parse(value).ok_or_else(|| bad(key, value))?,
            "tcfactor" => {
                spec.tc_factor = value
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite() && *f > 0.0)
                    .ok_or_else(|| bad(key, value))?
            }
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.is_empty() => {
                    spec.options.push((name.to_string(), value.to_string()))
                }
                _ => return Err(CliError::Key(key.to_string())),
            },
        }
    }
    if spec.cmd.is_empty() {
        return Err(CliError::NoCommand);
    }
    if spec.name.is_empty() {
        let program = spec.cmd[0].rsplit('/').next().unwrap_or("engine");
        spec.name = program.to_string();
    }
    Ok(spec)
}

/// Seconds (decimal) to milliseconds; `None` for negatives, NaN or absurd values.
fn millis(text: &str) -> Option<u64> {
    let s: f64 = text.parse().ok()?;
    (s.is_finite() && (0.0..1e9).contains(&s)).then(|| (s * 1000.0).round() as u64)
}

/// Reads `base+inc` or `moves/base+inc` (seconds; `+inc` optional).
pub fn parse_tc(text: &str) -> Result<TimeControl, CliError> {
    let err = || CliError::TimeControl(text.to_string());
    let (moves, rest) = match text.split_once('/') {
        Some((m, r)) => (Some(m.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(err)?), r),
        None => (None, text),
    };
    let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
    let base_ms = millis(base).filter(|&b| b > 0).ok_or_else(err)?;
    let inc_ms = millis(inc).ok_or_else(err)?;
    Ok(TimeControl::Clock { base_ms, inc_ms, moves_to_go: moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn engines_parse() {
        let e = parse_engine(&toks(
            "cmd=/usr/games/fairy-stockfish proto=uci notation=fsf tcfactor=2 option.Hash=64",
        ))
        .expect("valid");
        assert_eq!(e.name, "fairy-stockfish");
        assert_eq!(e.notation, Notation::Fsf);
        assert_eq!(e.tc_factor, 2.0);
        assert_eq!(e.options, [("Hash".to_string(), "64".to_string())]);
        let e = parse_engine(&[String::from("cmd=./x --flag 'a b'"), String::from("proto=ucci")])
            .expect("valid");
        assert_eq!(e.cmd, ["./x", "--flag", "a b"]);
        assert_eq!(e.proto, Protocol::Ucci);
        assert_eq!(parse_engine(&toks("name=x")).err(), Some(CliError::NoCommand));
        assert!(parse_engine(&toks("cmd=x proto=xboard")).is_err());
        assert!(parse_engine(&toks("cmd=x tcfactor=-1")).is_err());
        assert!(parse_engine(&toks("cmd=x colour=red")).is_err());
        assert!(parse_engine(&toks("cmd=x option.=1")).is_err());
    }

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            parse_tc("10+0.1"),
            Ok(TimeControl::Clock { base_ms: 10_000, inc_ms: 100, moves_to_go: None })
        );
        assert_eq!(
            parse_tc("0.5+0.01"),
            Ok(TimeControl::Clock { base_ms: 500, inc_ms: 10, moves_to_go: None })
        );
        assert_eq!(
            parse_tc("40/60"),
            Ok(TimeControl::Clock { base_ms: 60_000, inc_ms: 0, moves_to_go: Some(40) })
        );
        for bad in ["", "x", "10+", "-1+0", "0+1", "0/10", "1e99+0", "NaN"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }
}
