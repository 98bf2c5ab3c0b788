//! `chariot train`: learns an NNUE network from `chariot datagen` records and writes it in the
//! engine's quantised format ([`chariot_engine::nnue::network`]).
//!
//! # The network
//! The perspective network the engine evaluates: each side has an accumulator of `H` neurons,
//! the first layer's bias plus the weight rows of the pieces as that side sees them
//! ([`Layout::feature`](chariot_engine::nnue::network::Layout::feature): chess 768 inputs, xiangqi 1260);
//! each neuron is clipped to `[0, 1]` and squared (SCReLU); one output neuron reads the side to
//! move's `H` values and then the other side's. With `--buckets B` there are `B` output layers
//! and a position uses the one its number of pieces picks
//! ([`output_bucket`](chariot_engine::nnue::network::output_bucket)), so that openings and endgames
//! weigh the same neurons differently. With `--inputs king-mirrored` each side sees the board
//! flipped left to right while its king stands on the right half, and `--inputs king-buckets`
//! also gives each of four regions of its king's square rows of their own
//! ([`InputMap`](chariot_engine::nnue::network::InputMap)); `--inputs king-regions` gives four sets
//! without the mirror (the back rank's wings and centre, and the rest), so that a plain network
//! copied into each set (`--init`) starts the training exactly where that network stands.
//! Trained in `f32`, then quantised: first layer
//! `round(w·255)` as `i16`, output weights `round(w·64)` as `i16`, output bias
//! `round(b·255·64)` as `i32`. Every weight is clipped to ±1.98 after each step so that the
//! quantised products fit the engine's `i16` arithmetic. Rounding the output weights leaves a
//! near-constant offset (neurons active in most positions add up their rounding errors), so
//! the output bias is then moved by the mean float-minus-quantised difference over up to
//! 10,000 training positions.
//!
//! # The target
//! The prediction is `sigmoid(out)`, where `out · K` is the evaluation in internal units and
//! `K` is `--scale` (written into the file). The target mixes the search score and the game's
//! result, both from the side to move's view (records keep white's/red's view, so for black to
//! move the score is negated and the result mirrored):
//!
//! `target = λ · sigmoid(score / K) + (1 − λ) · result`, result 0, ½ or 1.
//!
//! The loss is the mean squared error between prediction and target. `λ` = 1 fits the search's
//! scores only; `λ` = 0 fits results only, which are noisy but carry what a shallow search
//! misses. The default is 1: on Chariot's first data, games of 5000-node searches, results
//! were mostly noise (see `--lambda`).
//!
//! # Training
//! Adam (β₁ 0.9, β₂ 0.999, ε 1e-8) on mini-batches of `--batch` positions (default 16384),
//! learning rate `--lr` (default 0.001) decayed per epoch by a cosine to 5% of it at the last
//! epoch (default) or by steps (`--decay step`: times `--gamma` every `--step` epochs). The
//! positions are shuffled every epoch from `--seed`, which also draws the initial weights
//! (uniform, fan-in scaled) and the held-out validation share (`--validation`, default 1%), so
//! a run is reproducible for a given thread count. Positions of one game resemble each other,
//! so that share measures memory as well as judgement; `--valid-data FILE` measures on the
//! positions of other games instead (a datagen run of another seed). Defaults: hidden 256,
//! 20 epochs, 2 threads, K = 400 for chess (internal units are centipawns: the usual
//! win-probability curve) and 800 for xiangqi (4 internal units per centipawn, so K is 200 of
//! its centipawns).
//!
//! Each epoch prints its training loss, the validation loss, positions per second and the
//! time; at the end the float and quantised evaluations of a few validation positions and
//! their mean absolute difference over up to 10,000 of them. Positions are held in memory at
//! 40 bytes each (20 million take 800 MB), features recomputed from the board as needed.
//!
//! `--checkpoint DIR` saves the float weights and Adam's state after every epoch
//! (`DIR/<game>-h<H>-e<epoch>.ckpt`); `--resume FILE` continues from one with the same data
//! and seed (the shuffles of later epochs depend only on the seed and the epoch number).
//!
//! `--init FILE` starts from the weights of a network file (each quantised weight divided
//! back by its factor) with a fresh optimiser, so that a generation can build on the last
//! one's network instead of on random weights; a network of one output bucket starts every
//! bucket of a bucketed run.
//!
//! # Why a trainer in Rust
//! Inputs are sparse: a position has about 30 active features per side out of 768 or 1260, so
//! a forward and backward pass touch about 60 weight rows, not the whole first layer. A
//! hand-written CPU loop over only those rows, each batch split across threads, trains about
//! half a million positions per second per core at hidden 256 (a million at 128), with no
//! Python, PyTorch or GPU to install, and it shares the engine's own code for the features and
//! the file format, so the two cannot drift apart.

pub mod loader;
pub mod net;
#[cfg(test)]
mod tests;

use chariot_engine::game::Variant;
use chariot_engine::nnue::data::{RECORD_BYTES, RecordError};
use chariot_engine::nnue::network::{InputMap, Layout, MAX_BUCKETS, Network};
use loader::{Features, Sample};
use net::{Adam, Checkpoint, Net, Rng, Scratch};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The cosine schedule's last rate, as a share of `--lr`.
const FINAL_RATE: f32 = 0.05;
/// The largest hidden layer, as the network file allows.
const MAX_HIDDEN: usize = 4096;
/// The default eval scale `K` of chess: internal units (centipawns) per unit of output.
pub const CHESS_SCALE: i32 = 400;
/// The default eval scale `K` of xiangqi (4 internal units per centipawn).
pub const XIANGQI_SCALE: i32 = 800;
/// Validation positions whose float and quantised evaluations are printed after training.
const CHECK_PRINTED: usize = 8;
/// Positions (at most) that calibrate the output bias, and as many that measure the float-quantised
/// difference.
const CHECK_POSITIONS: usize = 10_000;
/// Random streams: one per use of the seed, so that they do not repeat each other.
const STREAM_INIT: u64 = 1;
/// The stream of the train/validation split.
const STREAM_SPLIT: u64 = 2;
/// The stream of epoch `e`'s shuffle is this plus `e`.
const STREAM_EPOCH: u64 = 1000;

/// Why training stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// A file could not be read or written.
    #[error("{path}: {1}", path = .0.display())]
    Io(PathBuf, std::io::Error),
    /// A data file is not a whole number of records.
    #[error("{path}: {1} bytes is not a whole number of 40-byte records (truncated?)", path = .0.display())]
    Length(PathBuf, u64),
    /// A `.games` file holds a damaged game.
    #[error("{path}: {1}", path = .0.display())]
    Games(PathBuf, chariot_engine::nnue::games::GamesError),
    /// A record holds a bad field.
    #[error("{path}: record {1} (byte {offset}): {2}", path = .0.display(), offset = .1 * RECORD_BYTES as u64)]
    Record(PathBuf, u64, RecordError),
    /// No positions of the game were found.
    #[error("the data holds no {0} positions")]
    NoData(&'static str),
    /// A checkpoint is unreadable or does not fit the options.
    #[error("checkpoint {path}: {1}", path = .0.display())]
    Checkpoint(PathBuf, String),
    /// The `--init` network is unreadable or does not fit the options.
    #[error("--init {path}: {1}", path = .0.display())]
    Init(PathBuf, String),
    /// An option is out of range.
    #[error("{0}")]
    Option(String),
}

/// How the learning rate falls over the epochs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Decay {
    /// From `--lr` at the first epoch to 5% of it at the last, along a half cosine.
    Cosine,
    /// Times `--gamma` every `--step` epochs.
    Step,
}

fn parse_inputs(s: &str) -> Result<InputMap, String> {
    InputMap::ALL.into_iter().find(|m| m.name() == s).ok_or_else(|| {
        format!("'{s}' is not an input map: plain, king-mirrored, king-buckets or king-regions")
    })
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    match s {
        "chess" => Ok(Variant::Chess),
        "xiangqi" => Ok(Variant::Xiangqi),
        _ => Err(format!("'{s}' is not a game: chess or xiangqi")),
    }
}

/// The options of `chariot train`.
#[derive(Clone, Debug, clap::Args)]
pub struct Options {
    /// The game: chess or xiangqi. Records of the other game are skipped.
    #[arg(long, value_parser = parse_variant)]
    pub variant: Variant,
    /// A data file of `chariot datagen`: 40-byte records, or whole games for a `.games` file;
    /// repeat for several (the two kinds may be mixed).
    #[arg(long = "data", required = true, value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// Neurons per accumulator, a multiple of 16.
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// Output buckets: separate output layers chosen by the number of pieces on the board
    /// (1 to 16; 8 moves one bucket every four pieces).
    #[arg(long, default_value_t = 1)]
    pub buckets: usize,
    /// How pieces select first-layer rows: `plain`, `king-mirrored` (each side sees the board
    /// flipped left to right while its king stands on the right half), `king-buckets` (as
    /// king-mirrored, with a set of rows for each of 4 regions of the own king's square), or
    /// `king-regions` (as plain, with a set of rows for each of 4 regions of the own king's
    /// square: the back rank's queen wing, centre and king wing, and the rest).
    #[arg(long, value_parser = parse_inputs, default_value = "plain")]
    pub inputs: InputMap,
    /// Passes over the data.
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Adam's learning rate at the first epoch.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// How the learning rate falls.
    #[arg(long, value_enum, default_value_t = Decay::Cosine)]
    pub decay: Decay,
    /// Step decay: the factor applied every `--step` epochs.
    #[arg(long, default_value_t = 0.3)]
    pub gamma: f32,
    /// Step decay: epochs between reductions.
    #[arg(long, default_value_t = 8)]
    pub step: usize,
    /// The target's share of the search score; the rest is the game's result. 1 by default:
    /// on the first generation's data (chess, 768x256, 2.4M positions, depth-6 games against
    /// the classic evaluation) 0.5 scored -183, 0.75 +38 and 1 +246 Elo. A fine-tune of a later
    /// chess generation on its own games gained about 20 Elo more at 0.85 than at 1
    /// (generation 12 in `nets/recipes.toml`), perhaps as the games became good enough for their results to help.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f32,
    /// Internal units per unit of the network's output before the sigmoid (default: chess
    /// 400, xiangqi 800); written into the network file.
    #[arg(long)]
    pub scale: Option<i32>,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// The network file to write (default: `<game>-<hidden>.nnue`).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Save the float weights and optimiser state here after every epoch.
    #[arg(long, value_name = "DIR")]
    pub checkpoint: Option<PathBuf>,
    /// Continue from a checkpoint (same data and seed for the same shuffles).
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Start from the weights of this network file instead of random ones, with a fresh
    /// optimiser: an earlier generation's network trained further on new data. Its game,
    /// hidden size and scale must be those of the options; a network of one output bucket
    /// starts every bucket.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub init: Option<PathBuf>,
    /// Seed of the initial weights, the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Share of the positions held out to measure the validation loss.
    #[arg(long, default_value_t = 0.01)]
    pub validation: f64,
    /// Measure the validation loss on this data file's positions instead of a share of the
    /// training data (repeat for several; `--validation` is then ignored). Positions of one
    /// game are alike, so a share held out of the same games flatters a network that learnt
    /// those games by heart; games it never saw do not.
    #[arg(long = "valid-data", value_name = "FILE")]
    pub valid_data: Vec<PathBuf>,
    /// Use at most this many positions of the game.
    #[arg(long, value_name = "N")]
    pub max_positions: Option<usize>,
    /// Also train on every position mirrored left to right: `on` doubles the data where the
    /// game is symmetric (the default for xiangqi); chess's castling rights are not, so it is
    /// `off` there by default.
    #[arg(long, value_enum)]
    pub mirror: Option<Switch>,
}

impl Options {
    /// The options with every default, for `variant` and `data`.
    pub fn new(variant: Variant, data: Vec<PathBuf>) -> Options {
        Options {
            variant,
            data,
            hidden: 256,
            buckets: 1,
            inputs: InputMap::Plain,
            epochs: 20,
            batch: 16384,
            lr: 0.001,
            decay: Decay::Cosine,
            gamma: 0.3,
            step: 8,
            lambda: 1.0,
            scale: None,
            threads: 2,
            out: None,
            checkpoint: None,
            resume: None,
            init: None,
            seed: 1,
            validation: 0.01,
            valid_data: Vec::new(),
            max_positions: None,
            mirror: None,
        }
    }

    /// The eval scale `K`.
    pub fn scale(&self) -> i32 {
        self.scale.unwrap_or(match self.variant {
            Variant::Chess => CHESS_SCALE,
            Variant::Xiangqi => XIANGQI_SCALE,
        })
    }

    /// The learning rate of `epoch` (counted from 1).
    pub fn rate(&self, epoch: usize) -> f32 {
        let done = epoch.saturating_sub(1);
        match self.decay {
            Decay::Cosine => {
                let progress = done as f32 / (self.epochs.max(2) - 1) as f32;
                let end = self.lr * FINAL_RATE;
                end + 0.5
                    * (self.lr - end)
                    * (1.0 + (std::f32::consts::PI * progress.min(1.0)).cos())
            }
            Decay::Step => self.lr * self.gamma.powi((done / self.step.max(1)) as i32),
        }
    }

    fn check(&self) -> Result<(), TrainError> {
        let fail = |s: String| Err(TrainError::Option(s));
        if self.hidden == 0 || self.hidden > MAX_HIDDEN || !self.hidden.is_multiple_of(net::LANES) {
            return fail(format!(
                "--hidden {} must be a multiple of 16 up to {MAX_HIDDEN}",
                self.hidden
            ));
        }
        if !(1..=MAX_BUCKETS).contains(&self.buckets) {
            return fail(format!("--buckets {} must be in 1..={MAX_BUCKETS}", self.buckets));
        }
        if self.epochs == 0 || self.batch == 0 || self.step == 0 {
            return fail("--epochs, --batch and --step must be at least 1".into());
        }
        if !(1..=256).contains(&self.threads) {
            return fail(format!("--threads {} must be in 1..=256", self.threads));
        }
        let rates_ok =
            self.lr > 0.0 && self.lr.is_finite() && self.gamma > 0.0 && self.gamma <= 1.0;
        if !rates_ok {
            return fail("--lr must be positive and --gamma in (0, 1]".into());
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return fail(format!("--lambda {} must be in [0, 1]", self.lambda));
        }
        if !(0.0..0.5).contains(&self.validation) {
            return fail(format!("--validation {} must be in [0, 0.5)", self.validation));
        }
        if !(1..=100_000).contains(&self.scale()) {
            return fail(format!("--scale {} must be in 1..=100000", self.scale()));
        }
        Ok(())
    }
}

/// The training state: the float network, Adam, and the per-thread buffers.
pub struct Trainer {
    /// The network being trained.
    pub net: Net,
    /// The optimiser.
    pub adam: Adam,
    features: Features,
    grads: Vec<Vec<f32>>,
    scratch: Vec<Scratch>,
    lambda: f32,
    k: f32,
}

impl Trainer {
    /// A trainer of `net` with `threads` threads, target mix `lambda` and eval scale `k`.
    pub fn new(net: Net, adam: Adam, threads: usize, lambda: f32, k: f32) -> Trainer {
        let size = net.params.len();
        Trainer {
            features: Features::new(net.variant, net.input_map),
            grads: (0..threads).map(|_| vec![0.0; size]).collect(),
            scratch: (0..threads).map(|_| Scratch::new(net.hidden)).collect(),
            net,
            adam,
            lambda,
            k,
        }
    }

    /// The input feature tables.
    pub fn features(&self) -> &Features {
        &self.features
    }

    /// One optimiser step on the positions `samples[i]` for `i` in `batch`; returns the sum of
    /// their squared errors before the step.
    pub fn step(&mut self, samples: &[Sample], batch: &[u32], lr: f32) -> f64 {
        if batch.is_empty() {
            return 0.0;
        }
        let per = batch.len().div_ceil(self.grads.len());
        let task =
            net::Task { net: &self.net, features: &self.features, lambda: self.lambda, k: self.k };
        let mut used = 0;
        let loss = std::thread::scope(|scope| {
            let work = batch.chunks(per).zip(self.grads.iter_mut()).zip(self.scratch.iter_mut());
            let handles: Vec<_> = work
                .map(|((part, grad), s)| {
                    used += 1;
                    scope.spawn(move || {
                        grad.fill(0.0);
                        net::gradient(task, samples, part, grad, s)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .sum()
        });
        let threads = self.grads.len();
        self.adam.step(
            &mut self.net.params,
            &mut self.grads[..used],
            1.0 / batch.len() as f32,
            lr,
            threads,
        );
        loss
    }

    /// One pass over `samples` in the order `order`, `batch` positions per step; returns the
    /// mean squared error.
    pub fn epoch(&mut self, samples: &[Sample], order: &[u32], batch: usize, lr: f32) -> f64 {
        let mut loss = 0.0;
        for part in order.chunks(batch.max(1)) {
            loss += self.step(samples, part, lr);
        }
        loss / order.len().max(1) as f64
    }

    /// The mean squared error over `samples` (0 for none), split over the threads.
    pub fn loss(&mut self, samples: &[Sample]) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let per = samples.len().div_ceil(self.scratch.len());
        let (net, features, lambda, k) = (&self.net, &self.features, self.lambda, self.k);
        let sum: f64 = std::thread::scope(|scope| {
            let handles: Vec<_> = samples
                .chunks(per)
                .zip(self.scratch.iter_mut())
                .map(|(part, s)| {
                    scope.spawn(move || {
                        part.iter()
                            .map(|x| f64::from(net.error(features, x, lambda, k, s)))
                            .sum::<f64>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .sum()
        });
        sum / samples.len() as f64
    }
}

/// On or off, for options whose default depends on the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    /// On.
    On,
    /// Off.
    Off,
}

impl Options {
    /// Whether positions are mirrored too: `--mirror`, or by default for xiangqi only.
    pub fn mirrors(&self) -> bool {
        self.mirror.map_or(self.variant == Variant::Xiangqi, |m| m == Switch::On)
    }
}

/// What a training run did.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Positions trained on per epoch (mirror images included).
    pub trained: usize,
    /// Positions the validation loss was measured on.
    pub validated: usize,
    /// The last epoch's validation loss (0 without validation positions).
    pub valid_loss: f64,
}

/// Says which `.games` files ended in a game cut off mid-write: that game is skipped, and the
/// complete ones before it are read, so a run stopped mid-write loses only its last game.
fn print_cuts(loaded: &loader::Loaded) {
    for (path, cut) in &loaded.cut {
        println!("{}: {cut}: skipped", path.display());
    }
}

/// Runs `chariot train`: loads, trains, writes the network and prints a check of it.
pub fn run(opts: &Options) -> Result<Report, TrainError> {
    opts.check()?;
    let k = opts.scale();
    let started = Instant::now();
    let mut loaded = loader::load(&opts.data, opts.variant, opts.max_positions)?;
    if loaded.samples.is_empty() {
        return Err(TrainError::NoData(opts.variant.name()));
    }
    // The shuffles index positions with `u32`: 4 billion positions (160 GB) is far beyond
    // memory anyway.
    if loaded.samples.len() > u32::MAX as usize {
        return Err(TrainError::Option("more than 2^32 positions: use --max-positions".into()));
    }
    println!(
        "loaded {} {} positions from {} file(s) in {:.1} s ({} of the other game skipped)",
        loaded.samples.len(),
        opts.variant.name(),
        opts.data.len(),
        started.elapsed().as_secs_f64(),
        loaded.skipped
    );
    print_cuts(&loaded);
    // The split depends on the seed only, so a resumed run holds out the same positions.
    Rng::new(opts.seed, STREAM_SPLIT).shuffle(&mut loaded.samples);
    let separate: Vec<Sample>;
    let (valid, train) = if opts.valid_data.is_empty() {
        let held = (loaded.samples.len() as f64 * opts.validation).round() as usize;
        loaded.samples.split_at(held.min(loaded.samples.len() - 1))
    } else {
        let valid = loader::load(&opts.valid_data, opts.variant, None)?;
        print_cuts(&valid);
        separate = valid.samples;
        println!(
            "validating on {} positions of {} other file(s)",
            separate.len(),
            opts.valid_data.len()
        );
        (&separate[..], &loaded.samples[..])
    };
    let mirrored: Vec<Sample>;
    let train = if opts.mirrors() {
        // Each training position once more, mirrored: twice the data where the game is
        // symmetric. The validation positions stay as they are.
        let files = if opts.variant == Variant::Chess { 8 } else { 9 };
        mirrored = train.iter().copied().chain(train.iter().map(|s| s.mirrored(files))).collect();
        println!("training on each position and its mirror image: {}", mirrored.len());
        &mirrored[..]
    } else {
        train
    };

    let (net, adam, done) = match &opts.resume {
        Some(path) => {
            let c = Checkpoint::load(path)?;
            if c.net.variant != opts.variant
                || c.net.hidden != opts.hidden
                || c.net.buckets != opts.buckets
                || c.net.input_map != opts.inputs
            {
                let why = format!(
                    "it holds a {} network of hidden size {} with {} output buckets and {} \
                     inputs, the options ask for {}, {}, {} and {}",
                    c.net.variant.name(),
                    c.net.hidden,
                    c.net.buckets,
                    c.net.input_map.name(),
                    opts.variant.name(),
                    opts.hidden,
                    opts.buckets,
                    opts.inputs.name()
                );
                return Err(TrainError::Checkpoint(path.clone(), why));
            }
            println!("resuming after epoch {} from {}", c.epoch, path.display());
            (c.net, c.adam, c.epoch as usize)
        }
        None => {
            let net = match &opts.init {
                Some(path) => initial(path, opts)?,
                None => Net::new_mapped(
                    opts.variant,
                    opts.inputs,
                    (opts.hidden, opts.buckets),
                    &mut Rng::new(opts.seed, STREAM_INIT),
                ),
            };
            let adam = Adam::new(net.params.len());
            (net, adam, 0)
        }
    };
    if let Some(dir) = &opts.checkpoint {
        std::fs::create_dir_all(dir).map_err(|e| TrainError::Io(dir.clone(), e))?;
    }
    println!(
        "training on {} positions, validating on {}: hidden {}, batch {}, lambda {}, K {}, {} threads",
        train.len(),
        valid.len(),
        opts.hidden,
        opts.batch,
        opts.lambda,
        k,
        opts.threads
    );
    let mut trainer = Trainer::new(net, adam, opts.threads, opts.lambda, k as f32);
    let mut order: Vec<u32> = Vec::with_capacity(train.len());
    let mut last_valid_loss = 0.0;
    for epoch in done + 1..=opts.epochs {
        let lr = opts.rate(epoch);
        order.clear();
        order.extend(0..train.len() as u32);
        Rng::new(opts.seed, STREAM_EPOCH + epoch as u64).shuffle(&mut order);
        let t = Instant::now();
        let loss = trainer.epoch(train, &order, opts.batch, lr);
        let seconds = t.elapsed().as_secs_f64();
        let valid_loss = if valid.is_empty() {
            "-".to_string()
        } else {
            last_valid_loss = trainer.loss(valid);
            format!("{last_valid_loss:.6}")
        };
        println!(
            "epoch {epoch:>3}/{}  lr {lr:.6}  train loss {loss:.6}  valid loss {valid_loss}  {:.0} pos/s  epoch {seconds:.1} s  total {:.1} s",
            opts.epochs,
            train.len() as f64 / seconds.max(1e-9),
            started.elapsed().as_secs_f64()
        );
        if let Some(dir) = &opts.checkpoint {
            let name = format!("{}-h{}-e{epoch}.ckpt", opts.variant.name(), opts.hidden);
            let c = Checkpoint {
                net: trainer.net.clone(),
                adam: trainer.adam.clone(),
                epoch: epoch as u32,
            };
            c.save(&dir.join(name))?;
        }
    }

    let mut network = trainer.net.quantise(k);
    let calibration = &train[..train.len().min(CHECK_POSITIONS)];
    let shift = net::calibrate(&mut network, &trainer.net, &trainer.features, calibration);
    println!(
        "quantised; the output bias absorbs a mean rounding offset of {shift:.2} internal units"
    );
    let out = opts
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{}-{}.nnue", opts.variant.name(), opts.hidden)));
    write(&out, &network.to_bytes())?;
    println!("wrote {}", out.display());
    // Validation positions were not used for the calibration; without any, the check is not
    // independent of it.
    let sample = if valid.is_empty() { train } else { valid };
    check(&mut trainer, &network, &sample[..sample.len().min(CHECK_POSITIONS)], k);
    Ok(Report { trained: train.len(), validated: valid.len(), valid_loss: last_valid_loss })
}

/// The float network of `--init`'s file, checked against the options.
fn initial(path: &Path, opts: &Options) -> Result<Net, TrainError> {
    let fail = |why: String| TrainError::Init(path.to_path_buf(), why);
    let bytes = std::fs::read(path).map_err(|e| TrainError::Io(path.to_path_buf(), e))?;
    let network = Network::from_bytes(&bytes).map_err(|e| fail(e.to_string()))?;
    if network.variant != opts.variant || network.hidden != opts.hidden {
        return Err(fail(format!(
            "it is a {} network of hidden size {}, the options ask for {} and {}",
            network.variant.name(),
            network.hidden,
            opts.variant.name(),
            opts.hidden
        )));
    }
    if network.scale != opts.scale() {
        return Err(fail(format!(
            "its scale is {}, the options' {} (set --scale {})",
            network.scale,
            opts.scale(),
            network.scale
        )));
    }
    // A plain network starts any map: it is a king-mirrored one's view of a king on the left
    // half, and every king bucket's rows.
    let net = Net::from_network(&network, opts.buckets)
        .and_then(|net| net.remapped(opts.inputs))
        .map_err(fail)?;
    println!("starting from the weights of {}", path.display());
    Ok(net)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), TrainError> {
    std::fs::write(path, bytes).map_err(|e| TrainError::Io(path.to_path_buf(), e))
}

/// Prints the float and quantised evaluations of a few positions and their mean difference.
fn check(
    trainer: &mut Trainer,
    network: &chariot_engine::nnue::network::Network,
    samples: &[Sample],
    k: i32,
) {
    let mut s = Scratch::new(trainer.net.hidden);
    let mut diff = 0.0f64;
    println!("check: float eval vs quantised eval (internal units, side to move's view)");
    for (i, x) in samples.iter().enumerate() {
        let float = trainer.net.forward(&trainer.features, x, &mut s) * k as f32;
        let quantised = net::quantised_eval(network, &trainer.features, x);
        diff += (f64::from(float) - f64::from(quantised)).abs();
        if i < CHECK_PRINTED {
            println!("  score {:>6}  float {float:>9.1}  quantised {quantised:>6}", x.score);
        }
    }
    println!(
        "mean |float - quantised| over {} positions: {:.2}",
        samples.len(),
        diff / samples.len().max(1) as f64
    );
}

/// The input layout of `variant`'s game: the trainer reads records of either game.
pub fn layout(variant: Variant) -> Layout {
    match variant {
        Variant::Chess => Layout::of::<chariot_engine::chess::Chess>(),
        Variant::Xiangqi => Layout::of::<chariot_engine::xiangqi::Xiangqi>(),
    }
}
