//! Match statistics as fastchess and OpenBench compute them: W-L-D and pentanomial counts,
//! Elo and normalized Elo with 95% error bars, the likelihood of superiority, and a
//! generalized SPRT on the pentanomial counts with bounds in normalized Elo.
//!
//! Everything is from the first engine's point of view. A game pair is the two games of one
//! opening with colours swapped; its score (0, ½, 1, 1½ or 2 points) is one of the five
//! pentanomial classes. Pairs are what the error bars and the SPRT count, because the two
//! games of an opening are correlated (a lopsided opening tends to win one and lose the
//! other), and counting games as independent would overstate the variance.
//!
//! The formulas follow fastchess (`elo_pentanomial`, `elo_wdl`, `sprt`) and Michel Van den
//! Bergh's "Comments on Normalized Elo" (section 4.1: the maximum-likelihood distribution
//! under a normalized-Elo constraint), which is what fishtest and fastchess use for the
//! pentanomial GSPRT.

use std::f64::consts::LN_10;

/// The 97.5% quantile of the standard normal distribution: the half width of a two-sided
/// 95% confidence interval, in standard deviations.
pub const CI95_Z: f64 = 1.959_963_984_540_054;

/// Normalized Elo per unit of t = (score - ½) / σ: 800 / ln 10, the slope of the logistic
/// Elo curve at a score of ½ times 2 (so that a small Elo difference is about the same in
/// both scales when the draw rate is zero).
const NELO_PER_T: f64 = 800.0 / LN_10;

/// A count of zero is replaced by this before the SPRT's maximum-likelihood estimates, so
/// that no class has probability zero and the logarithms stay finite (as fastchess does).
const REGULARIZE: f64 = 1e-3;

/// The maximum-likelihood iteration stops when no class probability moves by more than this.
const MLE_EPSILON: f64 = 1e-9;
/// ...or after this many rounds (it converges in a handful; the cap only guards the loop).
const MLE_MAX_ROUNDS: usize = 1000;
/// Bisection steps for the Lagrange multiplier θ: each halves the bracket, so 200 steps
/// reach the limit of f64 precision from any finite bracket.
const THETA_STEPS: usize = 200;

/// Win, draw and loss counts of single games.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won by the first engine.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost by the first engine.
    pub losses: u64,
}

impl Wdl {
    /// The number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points scored, a draw counting half.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }
}

/// Counts of game pairs by the first engine's points in the pair, named as fastchess names
/// them: `ww` two wins (2 points), `wd` a win and a draw (1½), `wl` a win and a loss and
/// `dd` two draws (both 1), `ld` (½), `ll` (0).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    /// Two losses.
    pub ll: u64,
    /// A loss and a draw.
    pub ld: u64,
    /// A win and a loss.
    pub wl: u64,
    /// Two draws.
    pub dd: u64,
    /// A win and a draw.
    pub wd: u64,
    /// Two wins.
    pub ww: u64,
}

/// One game's result from the first engine's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The first engine won.
    Win,
    /// A draw.
    Draw,
    /// The first engine lost.
    Loss,
}

impl Outcome {
    /// Points for the first engine: 1, ½ or 0, in half points (2, 1, 0) to stay exact.
    fn half_points(self) -> u8 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }
}

impl Penta {
    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// Counts a finished pair.
    pub fn add(&mut self, a: Outcome, b: Outcome) {
        match (a.half_points() + b.half_points(), a == Outcome::Draw) {
            (0, _) => self.ll += 1,
            (1, _) => self.ld += 1,
            (2, true) => self.dd += 1,
            (2, false) => self.wl += 1,
            (3, _) => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// The class frequencies over the pair scores 0, ¼, ½, ¾, 1 (a pair's points over 2),
    /// with `wl` and `dd` merged: both score ½.
    fn frequencies(&self) -> [f64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww].map(|c| c as f64)
    }
}

/// The pair scores the five pentanomial classes stand for (a pair's points over 2).
const PENTA_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
/// The game scores of loss, draw and win.
const WDL_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// An estimate of the strength difference, with 95% error bars.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    /// The mean score per game, 0 to 1.
    pub score: f64,
    /// Logistic Elo of the mean score (infinite at a score of 0 or 1).
    pub elo: f64,
    /// Half the width of the 95% interval in logistic Elo (NaN when it is unbounded).
    pub elo_error: f64,
    /// Normalized Elo: the score's distance from ½ in standard deviations, scaled so that
    /// it reads like Elo (NaN when every result was the same).
    pub nelo: f64,
    /// Half the width of the 95% interval in normalized Elo.
    pub nelo_error: f64,
    /// The likelihood of superiority: the probability, in a normal approximation, that the
    /// first engine is the stronger.
    pub los: f64,
}

/// Logistic Elo of a mean score.
pub fn score_to_elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The mean score of a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Mean and variance of a distribution over `scores` with probabilities `p`.
fn mean_var<const N: usize>(scores: &[f64; N], p: &[f64; N]) -> (f64, f64) {
    let mean: f64 = scores.iter().zip(p).map(|(a, q)| a * q).sum();
    let var = scores.iter().zip(p).map(|(a, q)| q * (a - mean) * (a - mean)).sum();
    (mean, var)
}

/// The estimate from samples (games or pairs) with class counts `counts` over `scores`;
/// normalized Elo divides by `per_game` times a sample's standard deviation (1 for games, √2
/// for pairs, as fastchess).
fn estimate<const N: usize>(
    counts: &[f64; N],
    scores: &[f64; N],
    per_game: f64,
) -> Option<Estimate> {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return None;
    }
    let p = counts.map(|c| c / n);
    let (score, var) = mean_var(scores, &p);
    let var_of_mean = var / n;
    let upper = score + CI95_Z * var_of_mean.sqrt();
    let lower = score - CI95_Z * var_of_mean.sqrt();
    let nelo = |s: f64| (s - 0.5) / (per_game * var.sqrt()) * NELO_PER_T;
    Some(Estimate {
        score,
        elo: score_to_elo(score),
        elo_error: (score_to_elo(upper) - score_to_elo(lower)) / 2.0,
        nelo: nelo(score),
        nelo_error: (nelo(upper) - nelo(lower)) / 2.0,
        los: (1.0 - erf(-(score - 0.5) / (2.0 * var_of_mean).sqrt())) / 2.0,
    })
}

/// Elo from single games, as if they were independent (fastchess's `EloWDL`).
pub fn elo_wdl(wdl: &Wdl) -> Option<Estimate> {
    let counts = [wdl.losses, wdl.draws, wdl.wins].map(|c| c as f64);
    estimate(&counts, &WDL_SCORES, 1.0)
}

/// Elo from game pairs (fastchess's `EloPentanomial`): the mean pair score is the mean game
/// score, and its variance is measured over pairs.
pub fn elo_penta(penta: &Penta) -> Option<Estimate> {
    estimate(&penta.frequencies(), &PENTA_SCORES, std::f64::consts::SQRT_2)
}

/// The error function, from the Chebyshev fit of `erfc` in Numerical Recipes (fractional
/// error below 1.2e-7 everywhere): the standard library has none, and a percentage needs no
/// more.
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 { 1.0 - erfc } else { erfc - 1.0 }
}

/// What an SPRT concludes so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Neither bound crossed: play on.
    Continue,
    /// The lower bound crossed: the difference is at most `elo0` (H0 accepted).
    H0,
    /// The upper bound crossed: the difference is at least `elo1` (H1 accepted).
    H1,
}

/// A generalized sequential probability ratio test of H0 "normalized Elo = `elo0`" against
/// H1 "normalized Elo = `elo1`" on the pentanomial counts, as fastchess's default
/// (`normalized`) model and fishtest run it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// The normalized Elo of H0.
    pub elo0: f64,
    /// The normalized Elo of H1.
    pub elo1: f64,
    /// The false-positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// The false-negative rate (accepting H0 when H1 holds).
    pub beta: f64,
}

/// Why SPRT parameters were rejected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// The hypotheses are not ordered.
    #[error("SPRT: elo0 ({0}) must be below elo1 ({1})")]
    Order(f64, f64),
    /// An error rate outside (0, 1), or two that add up to 1 or more.
    #[error("SPRT: alpha and beta must lie in (0, 1) with alpha + beta < 1 (got {0}, {1})")]
    Rates(f64, f64),
}

impl Sprt {
    /// Checks and builds the test.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if elo0.is_nan() || elo1.is_nan() || elo0 >= elo1 {
            return Err(SprtError::Order(elo0, elo1));
        }
        let rate_ok = |r: f64| r > 0.0 && r < 1.0;
        // Comparisons with NaN are false, so a NaN rate fails here too.
        if !(rate_ok(alpha) && rate_ok(beta) && alpha + beta < 1.0) {
            return Err(SprtError::Rates(alpha, beta));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// The lower bound of the LLR, ln(β / (1 − α)): crossing it accepts H0.
    pub fn lower(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound of the LLR, ln((1 − β) / α): crossing it accepts H1.
    pub fn upper(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of H1 against H0 on the pair counts (0 before any pair).
    pub fn llr(&self, penta: &Penta) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        let counts = penta.frequencies().map(|c| if c == 0.0 { REGULARIZE } else { c });
        // Normalized Elo is defined per game, and a pair's score (the mean of two games)
        // has 1/√2 of a game's standard deviation when the games are independent, so the
        // per-pair t that the MLE constrains is √2 times the per-game one (as fastchess).
        let t = |elo: f64| std::f64::consts::SQRT_2 * elo / NELO_PER_T;
        llr_normalized(&counts, &PENTA_SCORES, t(self.elo0), t(self.elo1))
    }

    /// The log-likelihood ratio on single games (the trinomial model), for comparison.
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        let counts =
            [wdl.losses, wdl.draws, wdl.wins].map(|c| if c == 0 { REGULARIZE } else { c as f64 });
        llr_normalized(&counts, &WDL_SCORES, self.elo0 / NELO_PER_T, self.elo1 / NELO_PER_T)
    }

    /// What the test concludes at this LLR.
    pub fn verdict(&self, llr: f64) -> Verdict {
        if llr >= self.upper() {
            Verdict::H1
        } else if llr <= self.lower() {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// The LLR of "t = t1" against "t = t0", where t = (mean − ½) / σ, for the empirical
/// distribution `counts` over `scores`: the total count times the mean log ratio of the two
/// maximum-likelihood distributions.
fn llr_normalized<const N: usize>(counts: &[f64; N], scores: &[f64; N], t0: f64, t1: f64) -> f64 {
    let n: f64 = counts.iter().sum();
    let phat = counts.map(|c| c / n);
    let (p0, p1) = (mle_normalized(&phat, scores, t0), mle_normalized(&phat, scores, t1));
    let mean_log_ratio: f64 = (0..N).map(|i| phat[i] * (p1[i].ln() - p0[i].ln())).sum();
    n * mean_log_ratio
}

/// The distribution closest (in likelihood) to `phat` among those with (mean − ½) / σ =
/// `t`, by Van den Bergh's fixed-point iteration: linearize the constraint around the current
/// estimate as Σ pᵢ φᵢ = 0, solve for the Lagrange multiplier θ with Σ p̂ᵢ φᵢ / (1 + θ φᵢ) = 0,
/// and take pᵢ = p̂ᵢ / (1 + θ φᵢ); start from the uniform distribution.
fn mle_normalized<const N: usize>(phat: &[f64; N], scores: &[f64; N], t: f64) -> [f64; N] {
    let mut p = [1.0 / N as f64; N];
    for _ in 0..MLE_MAX_ROUNDS {
        let (mu, var) = mean_var(scores, &p);
        let sigma = var.sqrt();
        let phi = scores.map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)));
        let Some(theta) = solve_theta(phat, &phi) else {
            return p;
        };
        let mut moved = 0.0f64;
        for i in 0..N {
            let next = phat[i] / (1.0 + theta * phi[i]);
            moved = moved.max((next - p[i]).abs());
            p[i] = next;
        }
        if moved < MLE_EPSILON {
            break;
        }
    }
    p
}

/// The root θ of Σ p̂ᵢ φᵢ / (1 + θ φᵢ) in (−1 / max φ, −1 / min φ), where every 1 + θ φᵢ is
/// positive; the sum falls from +∞ to −∞ across that interval, so bisection finds it. `None`
/// when φ does not change sign (no such distribution: cannot happen with every p̂ᵢ > 0 and
/// a finite t, but the input is data).
fn solve_theta<const N: usize>(phat: &[f64; N], phi: &[f64; N]) -> Option<f64> {
    let (lo_phi, hi_phi) =
        phi.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    if !(lo_phi < 0.0 && hi_phi > 0.0) {
        return None;
    }
    let f = |x: f64| (0..N).map(|i| phat[i] * phi[i] / (1.0 + x * phi[i])).sum::<f64>();
    let (mut a, mut b) = (-1.0 / hi_phi, -1.0 / lo_phi);
    for _ in 0..THETA_STEPS {
        let mid = 0.5 * (a + b);
        if mid <= a || mid >= b {
            break;
        }
        if f(mid) > 0.0 {
            a = mid;
        } else {
            b = mid;
        }
    }
    Some(0.5 * (a + b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts `got` within `rel` (relative) of `want`.
    fn close(got: f64, want: f64, rel: f64, what: &str) {
        assert!(
            (got - want).abs() <= rel * want.abs(),
            "{what}: got {got}, want {want} (within {}%)",
            rel * 100.0
        );
    }

    /// fastchess's `Stats(ll, ld, wl, dd, wd, ww)` order.
    fn penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Penta {
        Penta { ll, ld, wl, dd, wd, ww }
    }

    #[test]
    fn pairs_are_classified_by_points() {
        let mut p = Penta::default();
        use Outcome::*;
        p.add(Win, Win);
        p.add(Win, Draw);
        p.add(Draw, Win);
        p.add(Win, Loss);
        p.add(Loss, Win);
        p.add(Draw, Draw);
        p.add(Loss, Draw);
        p.add(Loss, Loss);
        assert_eq!(p, penta(1, 1, 2, 1, 2, 1));
        assert_eq!(p.pairs(), 8);
    }

    /// A case small enough to check by hand: 10 pairs, 4 x 1½, 4 x 1, 2 x ½.
    /// Mean pair score over 2: (4·0.75 + 4·0.5 + 2·0.25) / 10 = 0.55.
    /// Variance: (4·0.2² + 4·0.05² + 2·0.3²) / 10 = (0.16 + 0.01 + 0.18) / 10 = 0.035.
    /// Variance of the mean: 0.0035, σ = 0.059161; 95%: 0.55 ± 0.115953 → [0.434047, 0.665953].
    /// Elo(0.55) = −400 log10(0.45 / 0.55) = 34.8601.
    /// Elo(0.665953) = 119.8544, Elo(0.434047) = −46.0975, error = 82.9759.
    /// nElo = 0.05 / √(2·0.035) · 347.4355 = 65.6592; error = 0.115953 / 0.264575 · 347.4355
    /// = 152.2676.  LOS = Φ(0.05 / 0.059161) = Φ(0.845154) = 0.800988.
    #[test]
    fn pentanomial_by_hand() {
        let e = elo_penta(&penta(0, 2, 2, 2, 4, 0)).expect("pairs");
        close(e.score, 0.55, 1e-9, "score");
        close(e.elo, 34.8601, 0.005, "elo");
        close(e.elo_error, 82.9759, 0.005, "elo error");
        close(e.nelo, 65.6592, 0.005, "nelo");
        close(e.nelo_error, 152.2676, 0.005, "nelo error");
        close(e.los, 0.800988, 0.005, "los");
    }

    /// 10 games: 5 wins, 3 draws, 2 losses. Score 0.65; variance (5·0.35² + 3·0.15² +
    /// 2·0.65²) / 10 = (0.6125 + 0.0675 + 0.845) / 10 = 0.1525; of the mean 0.01525, σ =
    /// 0.123491; 95%: [0.407962, 0.892038]. Elo(0.65) = 107.5381; Elo(0.892038) = 366.8444,
    /// Elo(0.407962) = −64.6917, error 215.7681. nElo = 0.15 / 0.390512 · 347.4355 = 133.4537,
    /// error = 0.242038 / 0.390512 · 347.4355 = 215.3388. LOS = Φ(1.214666) = 0.887753.
    #[test]
    fn wdl_by_hand() {
        let e = elo_wdl(&Wdl { wins: 5, draws: 3, losses: 2 }).expect("games");
        close(e.score, 0.65, 1e-9, "score");
        close(e.elo, 107.5381, 0.005, "elo");
        close(e.elo_error, 215.7681, 0.005, "elo error");
        close(e.nelo, 133.4537, 0.005, "nelo");
        close(e.nelo_error, 215.3388, 0.005, "nelo error");
        close(e.los, 0.887753, 0.005, "los");
    }

    /// fastchess's own test cases (its `elo_test.cpp`), same counts and expected values.
    #[test]
    fn pentanomial_as_fastchess() {
        let e = elo_penta(&penta(34, 54, 31, 32, 64, 75)).expect("pairs");
        close(e.nelo, 57.94, 0.005, "nelo 1");
        close(e.nelo_error, 28.28, 0.005, "nelo error 1");
        close(e.elo, 55.58, 0.005, "elo 1");
        close(e.elo_error, 27.65, 0.005, "elo error 1");
        let e = elo_penta(&penta(332, 433, 457, 41, 333, 334)).expect("pairs");
        close(e.nelo, -9.17, 0.005, "nelo 2");
        close(e.nelo_error, 10.96, 0.005, "nelo error 2");
        close(e.elo, -8.64, 0.005, "elo 2");
        close(e.elo_error, 10.33, 0.005, "elo error 2");
        close(e.los, 0.0505, 0.005, "los 2");
        let e = elo_penta(&penta(7895, 8757, 5485, 200, 568, 9999)).expect("pairs");
        close(e.nelo, -19.01, 0.005, "nelo 3");
        close(e.nelo_error, 2.65, 0.005, "nelo error 3");
        close(e.elo, -21.04, 0.005, "elo 3");
        close(e.elo_error, 2.95, 0.005, "elo error 3");
    }

    #[test]
    fn wdl_as_fastchess() {
        let e = elo_wdl(&Wdl { wins: 136, losses: 96, draws: 111 }).expect("games");
        close(e.nelo, 49.77, 0.005, "nelo");
        close(e.nelo_error, 36.77, 0.005, "nelo error");
        close(e.elo, 40.70, 0.005, "elo");
        close(e.elo_error, 30.43, 0.005, "elo error");
        close(e.los, 0.9960, 0.005, "los");
        let e = elo_wdl(&Wdl { wins: 76, losses: 89, draws: 123 }).expect("games");
        close(e.nelo, -20.76, 0.005, "nelo 1");
        close(e.nelo_error, 40.13, 0.005, "nelo error 1");
        close(e.los, 0.1553, 0.005, "los 1");
    }

    /// fastchess's SPRT test cases (`sprt_test.cpp`, normalized model; the all-wins case
    /// as its current version has it).
    #[test]
    fn llr_as_fastchess() {
        let s = Sprt::new(0.0, 2.0, 0.05, 0.05).expect("valid");
        close(s.llr(&penta(365, 16618, 36029, 200, 16974, 390)), 2.25, 0.005, "penta 1");
        let s = Sprt::new(-1.75, 0.25, 0.05, 0.05).expect("valid");
        close(s.llr(&penta(127, 4883, 10311, 401, 5150, 104)), 3.01, 0.005, "penta 2");
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid");
        close(s.llr(&penta(0, 0, 0, 0, 0, 5550)), 111.82, 0.005, "penta 3");
        let s = Sprt::new(0.0, 2.0, 0.05, 0.05).expect("valid");
        close(s.llr_wdl(&Wdl { wins: 36433, losses: 36027, draws: 68692 }), 0.92, 0.01, "wdl 1");
        let s = Sprt::new(-1.75, 0.25, 0.05, 0.05).expect("valid");
        close(s.llr_wdl(&Wdl { wins: 10871, losses: 10650, draws: 20431 }), 2.30, 0.005, "wdl 2");
    }

    /// For a large sample the GSPRT's LLR approaches the normal approximation
    /// n (t1 − t0)(2t̂ − t0 − t1) / 2 in the per-pair t (fishtest's `LLR_normalized`
    /// asymptote), a check of the MLE that does not depend on any program's output.
    /// Counts: 4000 pairs, 400 / 1000 / 1300 / 1000 / 300 over LL, LD, (WL+DD), WD, WW.
    /// Mean 0.4875, variance 0.0748437, σ 0.273576, t̂ = −0.0456912. With elo0 = −5, elo1 = 0:
    /// t0 = √2 · −5 / 347.4355 = −0.0203522, t1 = 0; LLR ≈ 4000 · 0.0203522 · (−0.0913823 +
    /// 0.0203522) / 2 = −2.8912.
    #[test]
    fn llr_matches_the_normal_approximation() {
        let s = Sprt::new(-5.0, 0.0, 0.05, 0.05).expect("valid");
        close(s.llr(&penta(400, 1000, 600, 700, 1000, 300)), -2.8912, 0.02, "llr");
    }

    #[test]
    fn bounds_and_verdicts() {
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05).expect("valid");
        close(s.lower(), -2.944439, 1e-6, "lower");
        close(s.upper(), 2.944439, 1e-6, "upper");
        assert_eq!(s.verdict(3.0), Verdict::H1);
        assert_eq!(s.verdict(-3.0), Verdict::H0);
        assert_eq!(s.verdict(0.0), Verdict::Continue);
        assert_eq!(s.llr(&Penta::default()), 0.0);
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.5, 0.5).is_err());
        assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05).is_err());
    }

    #[test]
    fn degenerate_samples_do_not_panic() {
        assert!(elo_penta(&Penta::default()).is_none());
        let e = elo_penta(&penta(0, 0, 0, 3, 0, 0)).expect("pairs");
        assert_eq!(e.elo, 0.0);
        assert!(e.nelo.is_nan());
        let e = elo_penta(&penta(0, 0, 0, 0, 0, 5)).expect("pairs");
        assert!(e.elo.is_infinite());
    }

    #[test]
    fn erf_is_accurate() {
        close(erf(0.5), 0.520_499_877_8, 1e-6, "erf 0.5");
        close(erf(-1.5), -0.966_105_146_5, 1e-6, "erf -1.5");
        close(erf(2.5), 0.999_593_047_98, 1e-6, "erf 2.5");
    }
}
