//! The tunable parameters of the search and the time manager: one typed set per game.
//!
//! Every margin, depth, reduction, divisor, history bonus, aspiration window, contempt and
//! time share the search uses is declared once here, with its unit and the range a tuner may
//! move it in. Score margins are in the game's internal units: chess's are centipawns,
//! xiangqi's are quarter centipawns (`Game::UNITS_PER_CP` is 4), so a xiangqi margin of 400 is
//! 100 cp. Xiangqi's set holds the values its search has always had; those that were written
//! in chess's raw units (reverse futility, null move, aspiration, contempt) are a quarter of
//! chess's size in centipawns, which is what was measured; choosing xiangqi's own values is
//! a tuner's job.
//!
//! In a normal build the search reads its game's set as compile-time constants
//! ([`Params::of`]), so a parameter costs nothing. The `tune` build reads the set the session
//! holds instead: each parameter is then a UCI `spin` option, and `chariot params --spsa`
//! prints the lines OpenBench's SPSA takes.

use crate::game::Variant;

/// What one parameter is: its name (one token: the UCI option and the SPSA name), its unit,
/// both games' values, the range a tuner may use, and the step OpenBench's SPSA ends with.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The name: one lowercase token.
    pub name: &'static str,
    /// The unit, in words.
    pub unit: &'static str,
    /// What it does.
    pub about: &'static str,
    /// Chess's value.
    pub chess: i32,
    /// Xiangqi's value.
    pub xiangqi: i32,
    /// The smallest value a tuner may try.
    pub min: i32,
    /// The largest value a tuner may try.
    pub max: i32,
    /// SPSA's final perturbation (`c_end`), in the parameter's unit.
    pub c_end: f64,
    /// Whether SPSA tunes it: contempt (which self-play tunes to noise) and the time manager
    /// (which needs long time controls) are decided by matches instead.
    pub spsa: bool,
}

/// SPSA's final learning rate (`r_end`), as OpenBench's examples use it.
pub const R_END: f64 = 0.002;

impl Spec {
    /// The value of `variant`.
    pub fn value(&self, variant: Variant) -> i32 {
        match variant {
            Variant::Chess => self.chess,
            Variant::Xiangqi => self.xiangqi,
        }
    }
}

macro_rules! parameters {
    ($(
        $(#[doc = $doc:literal])+
        $name:ident: $unit:literal = $chess:literal / $xiangqi:literal,
            $min:literal ..= $max:literal, c_end $c_end:literal $(, $fixed:ident)?;
    )*) => {
        /// One game's parameters (see the module description for the units).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $( $(#[doc = $doc])+ pub $name: i32, )*
        }

        impl Params {
            /// Chess's set.
            pub const CHESS: Params = Params { $( $name: $chess, )* };
            /// Xiangqi's set.
            pub const XIANGQI: Params = Params { $( $name: $xiangqi, )* };

            /// The value of the parameter named `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            /// The parameter named `name`, to change.
            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $( stringify!($name) => Some(&mut self.$name), )*
                    _ => None,
                }
            }
        }

        /// Every parameter, in the order of [`Params`]'s fields.
        pub const SPECS: &[Spec] = &[
            $( Spec {
                name: stringify!($name),
                unit: $unit,
                about: concat!($($doc),+),
                chess: $chess,
                xiangqi: $xiangqi,
                min: $min,
                max: $max,
                c_end: $c_end,
                spsa: parameters!(@spsa $($fixed)?),
            }, )*
        ];
    };
    (@spsa) => { true };
    (@spsa fixed) => { false };
}

parameters! {
    /// Reverse futility pruning applies at this depth and below.
    rfp_depth: "plies" = 8 / 8, 2..=12, c_end 0.5;
    /// Reverse futility pruning's margin above beta per ply of depth (a ply less when the
    /// evaluation improves).
    rfp_margin: "units per ply" = 90 / 90, 20..=300, c_end 8.0;
    /// Razoring applies at this depth and below.
    razor_depth: "plies" = 3 / 3, 1..=8, c_end 0.5;
    /// Razoring: a node whose evaluation is below alpha by `razor_base + razor_margin · depth²`
    /// is tried with the quiescence search alone.
    razor_base: "units" = 220 / 880, 0..=1000, c_end 20.0;
    /// See `razor_base`.
    razor_margin: "units per ply squared" = 120 / 480, 20..=600, c_end 10.0;
    /// Null-move pruning applies from this depth on.
    nmp_depth: "plies" = 3 / 3, 1..=8, c_end 0.5;
    /// Null-move pruning's base reduction.
    nmp_base: "plies" = 3 / 3, 1..=6, c_end 0.5;
    /// Null-move pruning reduces a ply more for every this many plies of depth.
    nmp_depth_divisor: "plies" = 4 / 4, 2..=8, c_end 0.5;
    /// Null-move pruning reduces a ply more for every this much of evaluation above beta (3 at
    /// most).
    nmp_eval_divisor: "units per ply" = 100 / 400, 25..=800, c_end 10.0;
    /// Null-move pruning needs the evaluation at least `beta − nmp_eval_slope · depth +
    /// nmp_eval_base`: a node barely above beta at shallow depth is not worth the pass.
    nmp_eval_slope: "units per ply" = 10 / 40, 0..=100, c_end 2.0;
    /// See `nmp_eval_slope`.
    nmp_eval_base: "units" = 125 / 500, 0..=1000, c_end 10.0;
    /// Quiescence search skips captures whose exchange is worth less than this.
    qs_see_margin: "units" = 0 / 0, -400..=200, c_end 10.0;
    /// The largest correction of the static evaluation by the correction history.
    correction_limit: "units" = 64 / 256, 16..=512, c_end 8.0;
    /// Internal iterative reduction applies from this depth on.
    iir_depth: "plies" = 4 / 4, 2..=10, c_end 0.5;
    /// Late move pruning applies at this depth and below.
    lmp_depth: "plies" = 8 / 8, 2..=16, c_end 0.5;
    /// Late move pruning searches `(lmp_base + depth²) / 2` quiet moves (twice as many when
    /// the evaluation improves) before it skips the rest.
    lmp_base: "moves" = 3 / 3, 0..=12, c_end 0.5;
    /// Futility pruning skips quiet moves whose reduced depth is at most this...
    fp_depth: "plies" = 8 / 8, 1..=16, c_end 0.5;
    /// ... when the evaluation plus `fp_base + fp_margin · reduced depth` stays at or below
    /// alpha.
    fp_base: "units" = 60 / 240, 0..=500, c_end 8.0;
    /// See `fp_base`.
    fp_margin: "units per ply" = 65 / 260, 10..=400, c_end 5.0;
    /// SEE pruning applies at this depth and below.
    see_prune_depth: "plies" = 8 / 8, 2..=16, c_end 0.5;
    /// SEE pruning: a capture may lose this much per ply of depth and still be searched.
    see_capture_margin: "units per ply" = 100 / 400, 20..=1600, c_end 8.0;
    /// SEE pruning: a quiet move may lose this much per ply of depth squared.
    see_quiet_margin: "units per ply squared" = 25 / 100, 5..=400, c_end 3.0;
    /// ProbCut applies from this depth on.
    probcut_depth: "plies" = 3 / 3, 2..=10, c_end 0.5;
    /// ProbCut's bar above beta.
    probcut_margin: "units" = 200 / 800, 50..=3200, c_end 12.0;
    /// ProbCut's verification search is this much shallower.
    probcut_reduction: "plies" = 4 / 4, 2..=6, c_end 0.5;
    /// Late move reductions apply from this depth on.
    lmr_depth: "plies" = 3 / 3, 1..=6, c_end 0.5;
    /// Late move reductions spare the first this many moves.
    lmr_moves: "moves" = 3 / 3, 1..=8, c_end 0.5;
    /// The base late-move reduction is `lmr_base + ln(depth) · ln(move number) / lmr_divisor`.
    lmr_base: "hundredths of a ply" = 75 / 75, 0..=200, c_end 5.0;
    /// See `lmr_base`.
    lmr_divisor: "hundredths" = 225 / 225, 100..=400, c_end 8.0;
    /// A quiet move's history lowers or raises its reduction by a ply per this much.
    lmr_history_divisor: "history points per ply" = 8192 / 8192, 2048..=32768, c_end 400.0;
    /// Late moves are reduced a ply more once the nodes below have cut off more than this
    /// many times.
    lmr_cutoffs: "cut-offs" = 3 / 3, 0..=10, c_end 0.5;
    /// Singular extensions apply from this depth on.
    se_depth: "plies" = 8 / 8, 4..=12, c_end 0.5;
    /// Singular extensions: the table's bound may be this much shallower than the node.
    se_tt_depth_slack: "plies" = 3 / 3, 1..=6, c_end 0.5;
    /// Singular extensions: every other move must stay this far below the table's score per
    /// ply of depth.
    se_margin: "units per ply" = 1 / 4, 1..=32, c_end 0.5;
    /// Singular extensions: a move singular by this much more is extended two plies.
    se_double_margin: "units" = 10 / 40, 0..=200, c_end 2.0;
    /// Singular extensions: a quiet move singular by this much more is extended three plies.
    se_triple_margin: "units" = 60 / 240, 0..=600, c_end 6.0;
    /// Singular extensions: at most this many double or triple extensions on a line.
    se_double_cap: "extensions" = 6 / 6, 0..=20, c_end 0.5;
    /// Singular extensions stop at plies beyond this many times the iteration's depth, so
    /// that extensions cannot lengthen a line without end.
    se_ply_factor: "times the depth" = 2 / 2, 1..=4, c_end 0.5;
    /// Hindsight: a node whose parent reduced it by at least this many plies, and whose
    /// evaluation the parent's move did not worsen, is searched a ply deeper.
    hindsight_deeper: "plies" = 3 / 3, 1..=6, c_end 0.5;
    /// Hindsight: a node whose parent reduced it by at least this many plies, and whose
    /// evaluation plus the parent's is above `hindsight_margin`, is searched a ply shallower.
    hindsight_shallower: "plies" = 2 / 2, 1..=6, c_end 0.5;
    /// See `hindsight_shallower`.
    hindsight_margin: "units" = 85 / 340, 0..=800, c_end 8.0;
    /// The first aspiration window is used from this depth on.
    aspiration_depth: "plies" = 5 / 5, 2..=10, c_end 0.5;
    /// Half the first aspiration window's width.
    aspiration_delta: "units" = 30 / 30, 5..=200, c_end 3.0;
    /// A history bonus is `history_slope · depth − history_offset`...
    history_slope: "history points per ply" = 300 / 300, 50..=800, c_end 20.0;
    /// ... (see `history_slope`) ...
    history_offset: "history points" = 250 / 250, 0..=1000, c_end 20.0;
    /// ... and at most this much.
    history_cap: "history points" = 2000 / 2000, 500..=4000, c_end 100.0;
    /// The history tables are divided by this as each search starts.
    history_age_divisor: "divisor" = 2 / 2, 1..=8, c_end 0.5;
    /// Correction history: an observation at depth `d` weighs `min(d + 1, this)` out of 256.
    correction_weight_max: "256ths" = 16 / 16, 4..=64, c_end 2.0;
    /// A capture's order is this times its victim-attacker score plus its capture history.
    capture_victim_weight: "history points" = 512 / 512, 64..=2048, c_end 32.0;
    /// A draw counts this much against the side to move at the root (when contempt applies).
    contempt: "units" = 15 / 15, 0..=100, c_end 3.0, fixed;
    /// Time: moves assumed to remain when the clock does not say.
    moves_horizon: "moves" = 30 / 30, 10..=60, c_end 2.0, fixed;
    /// Time: the share of the remaining time one move may take at most.
    max_share: "permille" = 400 / 400, 100..=800, c_end 20.0, fixed;
    /// Time: the share of the clock the moves up to the time control may take together.
    control_share: "permille" = 800 / 800, 400..=950, c_end 20.0, fixed;
    /// Time: the soft limit, as a share of the base time.
    soft_share: "permille" = 960 / 960, 300..=2000, c_end 50.0, fixed;
    /// Time: the hard limit is at most this many times the base time.
    hard_factor: "times the base" = 3 / 3, 1..=8, c_end 0.5, fixed;
    /// Time: with pondering on, plan 1/this more time per move.
    ponder_bonus: "divisor" = 4 / 4, 1..=10, c_end 0.5, fixed;
    /// Time: never plan for less than this.
    min_think: "ms" = 5 / 5, 1..=100, c_end 2.0, fixed;
    /// Time: this many move overheads are kept back from the clock.
    reserve_moves: "moves" = 4 / 4, 1..=10, c_end 0.5, fixed;
}

/// Why a parameter could not be set.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ParamError {
    /// No parameter has that name.
    #[error("no search parameter is named '{0}'")]
    Unknown(String),
    /// The value is outside the parameter's range.
    #[error("{name} takes {min} to {max}, not {value}")]
    OutOfRange {
        /// The parameter.
        name: &'static str,
        /// The value asked for.
        value: i32,
        /// The smallest allowed.
        min: i32,
        /// The largest allowed.
        max: i32,
    },
}

impl Params {
    /// The set `variant` plays with in a normal build: a constant, so that the search
    /// compiles every parameter in.
    #[inline(always)]
    pub const fn of(variant: Variant) -> &'static Params {
        match variant {
            Variant::Chess => &Params::CHESS,
            Variant::Xiangqi => &Params::XIANGQI,
        }
    }

    /// Sets the parameter `name` to `value`, within its range.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), ParamError> {
        let spec = spec(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        if !(spec.min..=spec.max).contains(&value) {
            return Err(ParamError::OutOfRange {
                name: spec.name,
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        if let Some(slot) = self.slot(spec.name) {
            *slot = value;
        }
        Ok(())
    }

    /// A share given in permille, as a fraction.
    #[inline]
    pub fn fraction(permille: i32) -> f64 {
        f64::from(permille) / 1000.0
    }
}

/// The parameter named `name`.
pub fn spec(name: &str) -> Option<&'static Spec> {
    SPECS.iter().find(|s| s.name == name)
}

/// What `chariot params --variant V` prints: one line per parameter, its value in `params`
/// with unit, range and what it does.
pub fn table(params: &Params) -> String {
    let width = SPECS.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for s in SPECS {
        let value = params.get(s.name).unwrap_or(0);
        let about = s.about.split_whitespace().collect::<Vec<_>>().join(" ");
        out.push_str(&format!(
            "{:width$} {value:>6} {:24} {}..{}  {about}\n",
            s.name,
            s.unit,
            s.min,
            s.max,
            width = width
        ));
    }
    out
}

/// What `chariot params --spsa` prints: OpenBench's SPSA input, one line per tuned parameter
/// (`NAME, int, value, min, max, c_end, r_end`), from `params`.
pub fn spsa_lines(params: &Params) -> String {
    let mut out = String::new();
    for s in SPECS.iter().filter(|s| s.spsa) {
        let value = params.get(s.name).unwrap_or(0);
        out.push_str(&format!(
            "{}, int, {value}, {}, {}, {}, {R_END}\n",
            s.name, s.min, s.max, s.c_end
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_is_within_its_range_and_names_are_one_token() {
        for s in SPECS {
            for v in [s.chess, s.xiangqi] {
                assert!(
                    (s.min..=s.max).contains(&v),
                    "{}: {v} outside {}..{}",
                    s.name,
                    s.min,
                    s.max
                );
            }
            assert!(
                s.name.chars().all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit()),
                "{}",
                s.name
            );
            assert!(s.c_end > 0.0, "{}", s.name);
            assert_eq!(Params::CHESS.get(s.name), Some(s.chess));
            assert_eq!(Params::XIANGQI.get(s.name), Some(s.xiangqi));
        }
        let mut names: Vec<_> = SPECS.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), SPECS.len(), "names are unique");
    }

    #[test]
    fn set_checks_name_and_range() {
        let mut p = Params::CHESS;
        assert_eq!(p.set("rfp_margin", 120), Ok(()));
        assert_eq!(p.rfp_margin, 120);
        assert!(matches!(p.set("rfp_margin", 10_000), Err(ParamError::OutOfRange { .. })));
        assert_eq!(p.rfp_margin, 120, "a refused value changes nothing");
        assert_eq!(p.set("no_such", 1), Err(ParamError::Unknown("no_such".into())));
    }

    #[test]
    fn spsa_lines_leave_out_contempt_and_time() {
        let text = spsa_lines(&Params::CHESS);
        assert!(text.contains("rfp_margin, int, 90, 20, 300, 8, 0.002\n"), "{text}");
        assert!(!text.contains("contempt") && !text.contains("soft_share"), "{text}");
        assert_eq!(text.lines().count(), SPECS.iter().filter(|s| s.spsa).count());
        let table = table(&Params::XIANGQI);
        assert!(table.lines().any(|l| l.starts_with("see_capture_margin") && l.contains(" 400 ")));
    }
}
