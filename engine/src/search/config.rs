//! What the session tells one search besides its limits: the draw's contempt, the idle share,
//! the parameters and the tablebases. It is fixed when the search starts and read by every
//! thread, while the [`Signals`](super::signals::Signals) carry only what changes as it runs.

use super::params::Params;
use super::tb::Tablebases;

/// One search's configuration, from the session's settings.
#[derive(Copy, Clone, Debug, Default)]
pub struct Config {
    /// How much worse than zero a draw is for the side to move at the root (internal units).
    pub contempt: i32,
    /// Percent of the time to leave the processor idle (UCCI `idle`).
    pub idle: u32,
    /// The session's search parameters, read by the `tune` build (a normal build compiles its
    /// game's constants in); `None`: the game's own.
    pub params: Option<Params>,
    /// The tablebases the search probes, if any.
    pub tablebases: Option<Tablebases>,
}

impl Config {
    /// How long to sleep after `busy_ms` of searching so that the idle share of the time is
    /// left free, in milliseconds.
    pub fn rest_ms(&self, busy_ms: u64) -> u64 {
        match self.idle {
            1..=99 => busy_ms * u64::from(self.idle) / (100 - u64::from(self.idle)),
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An idle share of p% sleeps p/(100 − p) of the busy time: half the time at 50%.
    #[test]
    fn rest_leaves_the_idle_share() {
        let half = Config { idle: 50, ..Config::default() };
        assert_eq!(half.rest_ms(100), 100);
        let quarter = Config { idle: 25, ..Config::default() };
        assert_eq!(quarter.rest_ms(300), 100);
        assert_eq!(Config::default().rest_ms(100), 0);
        assert_eq!(Config { idle: 100, ..Config::default() }.rest_ms(100), 0);
    }
}
