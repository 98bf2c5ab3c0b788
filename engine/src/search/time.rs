//! The time manager: turns `go` limits into a soft limit (do not start another iteration) and a
//! hard limit (stop now), both measured from the moment the search (or `ponderhit`) began.

use super::params::Params;
use crate::command::{Clock, Limits};

// The time manager's parameters are in the search's parameter set (`moves_horizon`,
// `max_share`, `control_share`, `soft_share`, `hard_factor`, `ponder_bonus`, `min_think`,
// `reserve_moves`). The reserve of move overheads (`reserve_moves`): what that many moves lose
// outside the search (the GUI, the pipes, a busy machine) is never planned for thinking. In an
// increment game the clock settles where a move costs about the increment; without this reserve
// it settled just above one overhead (60-80 ms at 1+0.01), so that one stall of a busy machine
// lost on time. With a repeating time control, no more moves than are left before it.

/// Limits in milliseconds; `None` means unbounded by time.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Past this, start no new iteration.
    pub soft: Option<u64>,
    /// Past this, stop at once.
    pub hard: Option<u64>,
}

impl Budget {
    /// Plans the time for one move. `side` is the index of the side to move (UCI clocks are
    /// given per side), `overhead` the configured move overhead, `p` the game's parameters.
    pub fn plan(limits: &Limits, side: usize, overhead: u64, ponder: bool, p: &Params) -> Budget {
        let reserve_moves = p.reserve_moves.max(1) as u64;
        let max_share = Params::fraction(p.max_share);
        if let Some(t) = limits.movetime {
            let t = t.saturating_sub(overhead).max(1);
            return Budget { soft: Some(t), hard: Some(t) };
        }
        let (time, inc, movestogo) = match &limits.clock {
            None => return Budget::default(),
            Some(Clock::Own { time, inc, movestogo }) => (*time, *inc, *movestogo),
            // A clock without the mover's time gives it none (as Stockfish reads it): a timed
            // `go` must answer by itself, as no `stop` will come.
            Some(Clock::Sides { time, inc, movestogo }) => {
                (time[side].unwrap_or(0), inc[side], *movestogo)
            }
        };
        let reserve = movestogo.map_or(reserve_moves, |m| u64::from(m).clamp(1, reserve_moves));
        let usable = time.saturating_sub(overhead.saturating_mul(reserve));
        let horizon =
            movestogo.map(|m| m.clamp(1, 50) as u64).unwrap_or(p.moves_horizon.max(1) as u64);
        // An even share of what is left plus most of the increment...
        let mut base = (usable / horizon).saturating_add(inc.saturating_mul(3) / 4);
        // With pondering on, part of the thinking happens on the opponent's time.
        if ponder {
            base = base.saturating_add(base / p.ponder_bonus.max(1) as u64);
        }
        // ...but never more than a safe share of the clock. The clock is refilled after
        // `movestogo` moves, so the last moves before it may take a larger share; the last
        // one (UCCI's `go time t movestogo 1`, a fixed time per move) most of it.
        let control_share = Params::fraction(p.control_share);
        let share = movestogo.map_or(max_share, |m| max_share.max(control_share / m.max(1) as f64));
        let cap = ((usable as f64) * share) as u64;
        let min_think = p.min_think.max(1) as u64;
        let hard = base
            .saturating_mul(p.hard_factor.max(1) as u64)
            .min(cap)
            .max(min_think.min(usable.max(1)));
        let soft = ((base as f64) * Params::fraction(p.soft_share)) as u64;
        Budget { soft: Some(soft.min(hard).max(1)), hard: Some(hard.max(1)) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_is_exact_minus_overhead() {
        let l = Limits { movetime: Some(1000), ..Default::default() };
        assert_eq!(
            Budget::plan(&l, 0, 30, false, &Params::CHESS),
            Budget { soft: Some(970), hard: Some(970) }
        );
    }

    #[test]
    fn clock_budget_stays_within_the_clock() {
        let l = Limits {
            clock: Some(Clock::Sides {
                time: [Some(60_000), Some(10)],
                inc: [0, 0],
                movestogo: None,
            }),
            ..Default::default()
        };
        let b = Budget::plan(&l, 0, 30, false, &Params::CHESS);
        assert!(b.hard.unwrap() < 60_000 * 4 / 10 && b.soft.unwrap() <= b.hard.unwrap());
        let pondering = Budget::plan(&l, 0, 30, true, &Params::CHESS);
        assert!(pondering.soft > b.soft);
        let b = Budget::plan(&l, 1, 30, false, &Params::CHESS);
        assert!(b.hard.unwrap() <= 10);
        let only_black = Limits {
            clock: Some(Clock::Sides { time: [None, Some(1000)], inc: [0, 0], movestogo: None }),
            ..Default::default()
        };
        assert_eq!(Budget::plan(&only_black, 0, 30, false, &Params::CHESS).hard, Some(1));
        assert_eq!(
            Budget::plan(&Limits::default(), 0, 30, false, &Params::CHESS),
            Budget::default()
        );
    }

    #[test]
    fn the_last_move_before_the_time_control_keeps_a_margin() {
        let clock = |movestogo| Limits {
            clock: Some(Clock::Own { time: 130, inc: 0, movestogo: Some(movestogo) }),
            ..Default::default()
        };
        let last = Budget::plan(&clock(1), 0, 30, false, &Params::CHESS);
        assert_eq!(last.hard, Some(80), "four fifths of the clock less the overhead");
        assert!(last.soft.unwrap() >= 60 && last.soft <= last.hard);
        let two = Budget::plan(&clock(2), 0, 30, false, &Params::CHESS);
        assert_eq!(two.hard, Some(28), "two moves to go: two overheads kept, 40% of the rest");
        // The cases of the issue: 5 s for the last move, UCCI's 3 s for one move.
        let five = Limits {
            clock: Some(Clock::Sides { time: [Some(5000); 2], inc: [0; 2], movestogo: Some(1) }),
            ..Default::default()
        };
        assert!(Budget::plan(&five, 0, 30, false, &Params::CHESS).hard.unwrap() <= 4000);
        let three = Budget::plan(&clock_of(3000, 1), 0, 30, false, &Params::CHESS);
        assert!(three.hard.unwrap() <= 2400, "{three:?}");
        let many = Budget::plan(&clock(20), 0, 30, false, &Params::CHESS);
        assert!(many.hard.unwrap() <= 28, "a safe share with many moves to go");
    }

    fn clock_of(time: u64, movestogo: u32) -> Limits {
        Limits {
            clock: Some(Clock::Own { time, inc: 0, movestogo: Some(movestogo) }),
            ..Default::default()
        }
    }

    #[test]
    fn the_increment_is_spent_but_never_more_than_the_clock_allows() {
        let clock = |time, inc| Limits {
            clock: Some(Clock::Own { time, inc, movestogo: None }),
            ..Default::default()
        };
        let without = Budget::plan(&clock(10_000, 0), 0, 30, false, &Params::CHESS);
        let with = Budget::plan(&clock(10_000, 1_000), 0, 30, false, &Params::CHESS);
        assert!(with.soft > without.soft && with.hard > without.hard);
        // An absurd increment from input neither overflows nor spends more than the share cap.
        let huge = Budget::plan(&clock(10_000, u64::MAX), 0, 30, false, &Params::CHESS);
        assert!(huge.hard.unwrap() <= (10_000 - 30) * 4 / 10 + 1);
        assert!(huge.soft <= huge.hard);
    }

    /// A game at 1+0.01 where every move costs 5 ms beyond the search and every search runs to
    /// its hard limit: the clock settles above the reserve of a few overheads instead of
    /// sinking to one overhead, where a single stall of the machine loses on time.
    #[test]
    fn a_low_clock_keeps_its_reserve() {
        let (overhead, latency, inc) = (30, 5, 10);
        let mut clock: u64 = 1000;
        let mut lowest = clock;
        for _ in 0..500 {
            let l = Limits {
                clock: Some(Clock::Own { time: clock, inc, movestogo: None }),
                ..Default::default()
            };
            let hard = Budget::plan(&l, 0, overhead, false, &Params::CHESS).hard.unwrap();
            clock = clock.checked_sub(hard + latency).expect("lost on time") + inc;
            lowest = lowest.min(clock);
        }
        assert!(lowest >= 3 * overhead, "the clock fell to {lowest} ms");
    }

    /// Issue 85's bounds on a move's time, with the default overhead: at `go wtime 60000 btime
    /// 60000` a move takes 1-12% of the clock, at 10+0.1 1-15%. A search stops between its soft
    /// and hard limits, so both must lie within the bounds, for either game's parameters.
    #[test]
    fn a_move_takes_a_bounded_share_of_the_clock() {
        let clock = |time, inc| Limits {
            clock: Some(Clock::Sides { time: [Some(time); 2], inc: [inc; 2], movestogo: None }),
            ..Default::default()
        };
        let overhead = crate::options::OVERHEAD_DEFAULT as u64;
        for p in [&Params::CHESS, &Params::XIANGQI] {
            for (time, inc, most) in [(60_000, 0, 0.12), (10_000, 100, 0.15)] {
                let b = Budget::plan(&clock(time, inc), 0, overhead, false, p);
                let (soft, hard) = (b.soft.unwrap() as f64, b.hard.unwrap() as f64);
                let (soft, hard) = (soft / time as f64, hard / time as f64);
                assert!(soft >= 0.01 && soft <= hard && hard <= most, "{time}+{inc}: {b:?}");
            }
        }
    }

    #[test]
    fn overhead_beyond_the_clock_still_leaves_a_move() {
        let l = Limits {
            clock: Some(Clock::Own { time: 10, inc: 0, movestogo: None }),
            ..Default::default()
        };
        let b = Budget::plan(&l, 0, 5_000, false, &Params::CHESS);
        assert_eq!((b.soft, b.hard), (Some(1), Some(1)));
        let m = Limits { movetime: Some(10), ..Default::default() };
        assert_eq!(Budget::plan(&m, 0, 5_000, false, &Params::CHESS).hard, Some(1));
    }

    #[test]
    fn movestogo_is_read_sanely() {
        let clock = |movestogo| Limits {
            clock: Some(Clock::Sides {
                time: [Some(60_000), Some(60_000)],
                inc: [0, 0],
                movestogo: Some(movestogo),
            }),
            ..Default::default()
        };
        // Zero moves to go is read as one, and more than fifty as fifty.
        assert_eq!(
            Budget::plan(&clock(0), 0, 0, false, &Params::CHESS),
            Budget::plan(&clock(1), 0, 0, false, &Params::CHESS)
        );
        assert_eq!(
            Budget::plan(&clock(500), 1, 0, false, &Params::CHESS),
            Budget::plan(&clock(50), 1, 0, false, &Params::CHESS)
        );
        let (soon, late) = (
            Budget::plan(&clock(5), 0, 0, false, &Params::CHESS),
            Budget::plan(&clock(40), 0, 0, false, &Params::CHESS),
        );
        assert!(soon.soft > late.soft, "fewer moves to go, more time each");
    }
}
