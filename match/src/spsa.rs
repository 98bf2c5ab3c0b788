//! SPSA tuning as OpenBench runs it: each iteration plays a pair of games (one opening,
//! colours swapped) between the engine at θ + cΔ and at θ − cΔ, Δ a random ±1 per
//! parameter, and moves θ by r·c·(wins − losses)·Δ.
//!
//! The schedule is fixed by the end values each parameter's line gives (`c_end`, `r_end`)
//! and the planned number of iterations N: c = c_end·N^γ, a = r_end·c_end²·(A + N)^α with
//! A = N/10, α = 0.602, γ = 0.101; at iteration k (from 1), c_k = c / k^γ (at least ½ for
//! integers, so that a step can round to a change) and r_k = a / (A + k)^α / c_k². Integer
//! parameters are rounded probabilistically (⌊x + u⌋, one u for both sides) and everything is
//! clamped to its range. The current values are kept in a small text state file, rewritten
//! after every iteration, so that a stopped run resumes where it was.

use crate::engine::{Engine, EngineSpec};
use crate::play::{GameConfig, PlayError, play_game};
use crate::referee::GameResult;
use crate::runner::shuffle;
use chariot_engine::chess::Chess;
use chariot_engine::game::Variant;
use chariot_engine::rng::SplitMix;
use chariot_engine::xiangqi::Xiangqi;
use parking_lot::Mutex;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The exponent of the step size's decay (Spall's recommended 0.602).
pub const ALPHA: f64 = 0.602;
/// The exponent of the perturbation's decay (Spall's recommended 0.101).
pub const GAMMA: f64 = 0.101;
/// The stability constant A as a fraction of the iterations (OpenBench: 10%).
pub const A_RATIO: f64 = 0.1;
/// The smallest perturbation of an integer parameter: below ½ the rounded values would
/// usually equal the current one.
const MIN_INT_C: f64 = 0.5;

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The name, which is also the engine option's.
    pub name: String,
    /// Whether the engine takes an integer.
    pub is_int: bool,
    /// The current value.
    pub value: f64,
    /// The starting value.
    pub start: f64,
    /// The smallest allowed value.
    pub min: f64,
    /// The largest allowed value.
    pub max: f64,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// The relative step at the last iteration.
    pub r_end: f64,
}

/// Why a parameter file or state file was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpsaError {
    /// A line that is not `NAME, int|float, value, min, max, c_end, r_end`.
    #[error("line {line}: {why}")]
    Line {
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// No parameter at all.
    #[error("no parameters")]
    Empty,
    /// The state file does not belong to these parameters.
    #[error("state file: {0}")]
    State(String),
    /// A file could not be read or written.
    #[error("{0}")]
    Io(String),
}

/// Reads parameter lines as `chariot params --spsa` prints them:
/// `NAME, int|float, value, min, max, c_end, r_end`; blank lines and `#` comments skipped.
pub fn parse_params(text: &str) -> Result<Vec<Param>, SpsaError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |why: &str| SpsaError::Line { line: i + 1, why: why.to_string() };
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() != 7 {
            return Err(err("expected NAME, int|float, value, min, max, c_end, r_end"));
        }
        let is_int = match f[1] {
            "int" => true,
            "float" => false,
            _ => return Err(err("the type must be int or float")),
        };
        let num = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite());
        let (Some(value), Some(min), Some(max), Some(c_end), Some(r_end)) =
            (num(f[2]), num(f[3]), num(f[4]), num(f[5]), num(f[6]))
        else {
            return Err(err("value, min, max, c_end and r_end must be numbers"));
        };
        if f[0].is_empty() || f[0].contains(char::is_whitespace) {
            return Err(err("the name must be one token"));
        }
        if !(min <= value && value <= max) || c_end <= 0.0 || r_end <= 0.0 {
            return Err(err("need min <= value <= max and positive c_end, r_end"));
        }
        out.push(Param {
            name: f[0].to_string(),
            is_int,
            value,
            start: value,
            min,
            max,
            c_end,
            r_end,
        });
    }
    if out.is_empty() {
        return Err(SpsaError::Empty);
    }
    Ok(out)
}

/// The gains of one iteration for one parameter.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Gains {
    /// The perturbation c_k.
    pub c: f64,
    /// The relative step r_k (the update is r_k · c_k · result · Δ).
    pub r: f64,
}

/// c_k and r_k of `p` at iteration `k` (from 1) of `iterations`.
pub fn gains(p: &Param, k: u64, iterations: u64) -> Gains {
    let n = iterations.max(1) as f64;
    let a_big = A_RATIO * n;
    let c0 = p.c_end * n.powf(GAMMA);
    let a0 = p.r_end * p.c_end * p.c_end * (a_big + n).powf(ALPHA);
    let k = k.max(1) as f64;
    let mut c = c0 / k.powf(GAMMA);
    if p.is_int {
        c = c.max(MIN_INT_C);
    }
    let r = a0 / (a_big + k).powf(ALPHA) / (c * c);
    Gains { c, r }
}

/// The values each side plays with in one iteration, and the signs.
#[derive(Clone, Debug)]
pub struct Perturbation {
    /// θ + cΔ (rounded, clamped).
    pub plus: Vec<f64>,
    /// θ − cΔ.
    pub minus: Vec<f64>,
    /// Δ, ±1 per parameter.
    pub flips: Vec<f64>,
    /// The gains used.
    pub gains: Vec<Gains>,
}

/// Draws the perturbation of iteration `k` for `params` with `rng`.
pub fn perturb(params: &[Param], k: u64, iterations: u64, rng: &mut SplitMix) -> Perturbation {
    let mut out = Perturbation { plus: vec![], minus: vec![], flips: vec![], gains: vec![] };
    for p in params {
        let g = gains(p, k, iterations);
        let flip = if rng.next_u64() & 1 == 1 { 1.0 } else { -1.0 };
        let (mut hi, mut lo) = (p.value + flip * g.c, p.value - flip * g.c);
        if p.is_int {
            // One uniform draw for both: their difference stays 2c rounded the same way.
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            hi = (hi + u).floor();
            lo = (lo + u).floor();
        }
        out.plus.push(hi.clamp(p.min, p.max));
        out.minus.push(lo.clamp(p.min, p.max));
        out.flips.push(flip);
        out.gains.push(g);
    }
    out
}

/// Moves θ after a result of `score` (wins − losses of θ + cΔ) under `pert`.
pub fn update(params: &mut [Param], pert: &Perturbation, score: f64) {
    for (i, p) in params.iter_mut().enumerate() {
        let g = pert.gains[i];
        p.value = (p.value + g.r * g.c * score * pert.flips[i]).clamp(p.min, p.max);
    }
}

/// The options for one side: each parameter's name and value as the engine takes it.
fn options(params: &[Param], values: &[f64]) -> Vec<(String, String)> {
    params
        .iter()
        .zip(values)
        .map(|(p, v)| {
            (
                p.name.clone(),
                if p.is_int { format!("{}", v.round() as i64) } else { format!("{v}") },
            )
        })
        .collect()
}

/// The state: iterations done and the current values, one `NAME value` a line.
fn write_state(path: &Path, done: u64, params: &[Param]) -> Result<(), SpsaError> {
    let mut text = format!("iterations {done}\n");
    for p in params {
        text.push_str(&format!("{} {}\n", p.name, p.value));
    }
    // Write aside and rename, so that a crash mid-write never leaves half a state.
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| SpsaError::Io(format!("{}: {e}", path.display())))
}

/// Reads a state file into `params`; returns the iterations done (0 without a file).
pub fn read_state(path: &Path, params: &mut [Param]) -> Result<u64, SpsaError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(SpsaError::Io(format!("{}: {e}", path.display()))),
    };
    let mut done = None;
    let mut seen = 0;
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            [] => {}
            ["iterations", n] => done = n.parse().ok(),
            [name, v] => {
                let p = params
                    .iter_mut()
                    .find(|p| p.name == *name)
                    .ok_or_else(|| SpsaError::State(format!("unknown parameter {name}")))?;
                p.value = v
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| SpsaError::State(format!("bad value in '{line}'")))?
                    .clamp(p.min, p.max);
                seen += 1;
            }
            _ => return Err(SpsaError::State(format!("bad line '{line}'"))),
        }
    }
    if seen != params.len() {
        return Err(SpsaError::State(format!("{seen} values for {} parameters", params.len())));
    }
    done.ok_or_else(|| SpsaError::State("no iteration count".into()))
}

/// An SPSA run's settings.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// The game.
    pub variant: Variant,
    /// The engine being tuned (both sides run it).
    pub engine: Arc<EngineSpec>,
    /// Per-game settings.
    pub game: GameConfig,
    /// Openings, shuffled by `seed`.
    pub openings: Vec<String>,
    /// The seed of the shuffle and of the perturbations.
    pub seed: u64,
    /// Planned iterations (game pairs).
    pub iterations: u64,
    /// Iterations played at once.
    pub concurrency: usize,
    /// Pin each slot's engines to one CPU.
    pub affinity: bool,
    /// The state file, if any.
    pub state: Option<PathBuf>,
    /// Print the values every this many iterations.
    pub report_every: u64,
}

/// Runs SPSA from `params` (or the state file's values) until `iterations` are done or
/// `abort` is set; returns the final values.
pub fn run(
    cfg: &SpsaConfig,
    mut params: Vec<Param>,
    abort: &Arc<AtomicBool>,
) -> Result<Vec<Param>, SpsaError> {
    let done = match &cfg.state {
        Some(path) => read_state(path, &mut params)?,
        None => 0,
    };
    if done > 0 {
        println!("Resuming SPSA after {done} iterations");
    }
    let mut openings = cfg.openings.clone();
    shuffle(&mut openings, cfg.seed);
    let openings = Arc::new(openings);
    let shared = Arc::new(Mutex::new((params, done)));
    let next = Arc::new(AtomicU64::new(done));
    let epoch = Instant::now();
    let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let errors = Arc::new(Mutex::new(Vec::<SpsaError>::new()));
    let mut handles = Vec::new();
    for slot in 0..cfg.concurrency.max(1) {
        let (cfg, shared, next, openings, abort, errors) = (
            cfg.clone(),
            Arc::clone(&shared),
            Arc::clone(&next),
            Arc::clone(&openings),
            Arc::clone(abort),
            Arc::clone(&errors),
        );
        handles.push(std::thread::spawn(move || {
            let cpu = cfg.affinity.then_some(slot % cpus);
            let make = |suffix: &str| {
                let mut spec = (*cfg.engine).clone();
                spec.name = format!("{}{suffix}", spec.name);
                Engine::new(
                    Arc::new(spec),
                    cfg.variant,
                    cfg.game.chess960,
                    cpu,
                    epoch,
                    Arc::clone(&abort),
                )
            };
            let (Ok(mut plus), Ok(mut minus)) = (make("+"), make("-")) else {
                errors.lock().push(SpsaError::Io("cannot open an engine log".into()));
                return;
            };
            loop {
                if abort.load(Ordering::Relaxed) {
                    break;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= cfg.iterations {
                    break;
                }
                let k = index + 1;
                let (names, pert) = {
                    let guard = shared.lock();
                    let mut rng = SplitMix::new(cfg.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
                    (guard.0.clone(), perturb(&guard.0, k, cfg.iterations, &mut rng))
                };
                plus.set_game_options(options(&names, &pert.plus));
                minus.set_game_options(options(&names, &pert.minus));
                let opening = &openings[(index as usize) % openings.len()];
                let mut score = 0.0;
                let mut aborted = false;
                for first_white in [true, false] {
                    let engines =
                        if first_white { [&mut plus, &mut minus] } else { [&mut minus, &mut plus] };
                    let played = match cfg.variant {
                        Variant::Chess => play_game::<Chess>(engines, opening, &cfg.game),
                        Variant::Xiangqi => play_game::<Xiangqi>(engines, opening, &cfg.game),
                    };
                    match played {
                        Ok(r) => {
                            score += match (r.result, first_white) {
                                (GameResult::Draw, _) => 0.0,
                                (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => {
                                    1.0
                                }
                                _ => -1.0,
                            }
                        }
                        Err(PlayError::Aborted) => {
                            aborted = true;
                            break;
                        }
                        Err(e) => {
                            errors.lock().push(SpsaError::Io(e.to_string()));
                            aborted = true;
                            break;
                        }
                    }
                }
                if aborted {
                    break;
                }
                let mut guard = shared.lock();
                update(&mut guard.0, &pert, score);
                guard.1 += 1;
                if let Some(path) = &cfg.state
                    && let Err(e) = write_state(path, guard.1, &guard.0)
                {
                    eprintln!("warning: {e}");
                }
                if guard.1.is_multiple_of(cfg.report_every.max(1)) {
                    let values: Vec<String> =
                        guard.0.iter().map(|p| format!("{} {:.2}", p.name, p.value)).collect();
                    println!("SPSA {}/{}: {}", guard.1, cfg.iterations, values.join(", "));
                }
            }
            plus.quit();
            minus.quit();
        }));
    }
    for h in handles {
        let _ = h.join();
    }
    if let Some(e) = errors.lock().first() {
        return Err(e.clone());
    }
    let params = shared.lock().0.clone();
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: &str =
        "rfp_depth, int, 6, 2, 12, 0.5, 0.002\n# c\n\nrfp_margin, int, 90, 20, 300, 8, 0.002\n";

    #[test]
    fn parameter_lines_parse() {
        let p = parse_params(LINES).expect("valid");
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].name, "rfp_margin");
        assert_eq!(
            (p[1].value, p[1].min, p[1].max, p[1].c_end, p[1].r_end),
            (90.0, 20.0, 300.0, 8.0, 0.002)
        );
        assert!(parse_params("x, int, 1, 2, 3, 1, 0.1").is_err(), "value below min");
        assert!(parse_params("x, bool, 1, 0, 3, 1, 0.1").is_err());
        assert!(parse_params("x, int, 1, 0, 3").is_err());
        assert_eq!(parse_params("# nothing\n"), Err(SpsaError::Empty));
    }

    /// The schedule ends at c_end and r_end: at k = N, c_k = c_end·N^γ/N^γ and
    /// r_k = r_end·c_end²·(A+N)^α/(A+N)^α/c_end² = r_end. At k = 1 with N = 1000:
    /// c = 8·1000^0.101 = 8·2.00909 = 16.0727; r = 0.002·64·1100^0.602/101^0.602/16.0727²
    /// = 0.128·(1100/101)^0.602/258.33 = 0.128·4.2106/258.33 = 0.0020862.
    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let p = &parse_params(LINES).expect("valid")[1];
        let g = gains(p, 1000, 1000);
        assert!((g.c - 8.0).abs() < 1e-9 && (g.r - 0.002).abs() < 1e-12, "{g:?}");
        let g = gains(p, 1, 1000);
        assert!((g.c - 16.0727).abs() < 1e-3, "{g:?}");
        assert!((g.r - 0.0020862).abs() < 1e-6, "{g:?}");
        // Integers never perturb by less than a half.
        let q = &parse_params("x, int, 5, 0, 10, 0.1, 0.002").expect("valid")[0];
        assert_eq!(gains(q, 1000, 1000).c, 0.5);
    }

    #[test]
    fn perturbations_are_symmetric_and_updates_follow_the_result() {
        let mut params = parse_params("x, float, 50, 0, 100, 4, 0.01").expect("valid");
        let mut rng = SplitMix::new(3);
        let pert = perturb(&params, 1, 100, &mut rng);
        let c = pert.gains[0].c;
        assert!((pert.plus[0] - (50.0 + pert.flips[0] * c)).abs() < 1e-12);
        assert!((pert.minus[0] - (50.0 - pert.flips[0] * c)).abs() < 1e-12);
        // θ+ won the pair 2-0: θ moves towards θ+ by r·c·2.
        update(&mut params, &pert, 2.0);
        let step = pert.gains[0].r * c * 2.0;
        assert!((params[0].value - (50.0 + pert.flips[0] * step)).abs() < 1e-12);
    }

    #[test]
    fn state_files_round_trip() {
        let dir = std::env::temp_dir().join(format!("chariot-spsa-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("spsa.state");
        let mut params = parse_params(LINES).expect("valid");
        params[1].value = 123.5;
        write_state(&path, 17, &params).expect("written");
        let mut fresh = parse_params(LINES).expect("valid");
        assert_eq!(read_state(&path, &mut fresh), Ok(17));
        assert_eq!(fresh[1].value, 123.5);
        let mut other = parse_params("y, int, 1, 0, 3, 1, 0.1").expect("valid");
        assert!(read_state(&path, &mut other).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
