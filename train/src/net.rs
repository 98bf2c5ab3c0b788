//! The float network being trained: forward and backward passes over sparse inputs, Adam,
//! checkpoints, and quantisation into the engine's [`Network`].
//!
//! All parameters live in one flat vector, `[ft weights | ft bias | out weights | out biases]`
//! (the output layer once per output bucket),
//! so that Adam, weight clipping, gradient sums and checkpoints are plain loops over slices.
//! The hidden size is a multiple of [`LANES`], and every loop over it is written element-wise
//! or with `LANES` partial sums so that the compiler vectorises it (a float sum is only
//! vectorised when written with explicit lanes, as reassociation changes rounding).

use super::TrainError;
use super::loader::{Features, MAX_FEATURES, Sample};
use chariot_engine::game::Variant;
use chariot_engine::nnue::network::{
    Activation, InputMap, Layout, Network, bucket_rows, buckets_byte, buckets_from_byte,
    output_bucket,
};
use chariot_engine::rng::SplitMix;
use std::io::Write;
use std::path::Path;

/// The first layer's quantisation: a clipped activation of 1.0 is 255.
pub const QA: i32 = 255;
/// The output layer's quantisation.
pub const QB: i32 = 64;
/// Every weight stays within this bound after each step, so that quantised output weights
/// times a clipped activation fit an `i16` product (1.98·64·255 < 32768) and a sum of 32
/// first-layer rows and a bias fits an `i16` accumulator.
pub const WEIGHT_CLIP: f32 = 1.98;
/// Adam's decay of the mean gradient.
const BETA1: f32 = 0.9;
/// Adam's decay of the mean squared gradient.
const BETA2: f32 = 0.999;
/// Adam's guard against division by zero.
const EPSILON: f32 = 1e-8;
/// Partial sums per dot product: enough for a 512-bit register of `f32`.
pub const LANES: usize = 16;
/// The checkpoint file's magic bytes.
const CHECKPOINT_MAGIC: &[u8; 8] = b"CHTRAIN1";
/// The checkpoint header's size in bytes.
const CHECKPOINT_HEADER: usize = 32;

/// The engine's SplitMix64 with the trainer's draws: initialisation and shuffles follow the
/// seed.
#[derive(Clone, Debug)]
pub struct Rng(SplitMix);

impl Rng {
    /// A generator for `seed`, decorrelated from other streams by `stream`.
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut rng = SplitMix::new(seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F));
        rng.next_u64();
        Rng(rng)
    }

    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (multiply-shift: no modulo bias worth the name for `n` < 2³²).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.bits() >> 32) * n as u64) >> 32) as usize
    }

    /// A number in `[-1, 1)`.
    pub fn symmetric(&mut self) -> f32 {
        (self.bits() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }

    /// Shuffles `items` (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// The float network: `inputs → hidden` per perspective, SCReLU, then one output over both,
/// from the output layer of the position's bucket.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// The game.
    pub variant: Variant,
    /// Input features.
    pub inputs: usize,
    /// Neurons per accumulator.
    pub hidden: usize,
    /// Output buckets ([`output_bucket`]).
    pub buckets: usize,
    /// How pieces select first-layer rows.
    pub input_map: InputMap,
    /// Every parameter: ft weights (input-major), ft bias, out weights (bucket by bucket, the
    /// side to move's half first), out biases (one per bucket).
    pub params: Vec<f32>,
}

/// The parameters split by role.
struct Parts<'a, T> {
    ft_weights: &'a [T],
    ft_bias: &'a [T],
    out_weights: &'a [T],
    out_bias: &'a [T],
}

/// The parameters split by role, writable (gradients).
struct PartsMut<'a, T> {
    ft_weights: &'a mut [T],
    ft_bias: &'a mut [T],
    out_weights: &'a mut [T],
    out_bias: &'a mut [T],
}

fn split<T>(all: &[T], inputs: usize, hidden: usize, buckets: usize) -> Parts<'_, T> {
    let (ft_weights, rest) = all.split_at(inputs * hidden);
    let (ft_bias, rest) = rest.split_at(hidden);
    let (out_weights, out_bias) = rest.split_at(2 * hidden * buckets);
    Parts { ft_weights, ft_bias, out_weights, out_bias }
}

fn split_mut<T>(all: &mut [T], inputs: usize, hidden: usize, buckets: usize) -> PartsMut<'_, T> {
    let (ft_weights, rest) = all.split_at_mut(inputs * hidden);
    let (ft_bias, rest) = rest.split_at_mut(hidden);
    let (out_weights, out_bias) = rest.split_at_mut(2 * hidden * buckets);
    PartsMut { ft_weights, ft_bias, out_weights, out_bias }
}

/// Per-thread working memory for one position.
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
    f_us: [u16; MAX_FEATURES],
    f_them: [u16; MAX_FEATURES],
}

impl Scratch {
    /// Working memory for a hidden layer of `hidden`.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
            d_us: vec![0.0; hidden],
            d_them: vec![0.0; hidden],
            f_us: [0; MAX_FEATURES],
            f_them: [0; MAX_FEATURES],
        }
    }
}

/// `acc += row`, element-wise (vectorised).
#[inline(always)]
fn add_row(acc: &mut [f32], row: &[f32]) {
    for (a, &w) in acc.iter_mut().zip(row) {
        *a += w;
    }
}

/// `Σ screlu(acc)·w` with `LANES` partial sums.
#[inline(always)]
fn screlu_dot(acc: &[f32], weights: &[f32]) -> f32 {
    let mut lanes = [0.0f32; LANES];
    for (a, w) in acc.chunks_exact(LANES).zip(weights.chunks_exact(LANES)) {
        for j in 0..LANES {
            let c = a[j].clamp(0.0, 1.0);
            lanes[j] += c * c * w[j];
        }
    }
    lanes.iter().sum()
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What a gradient is taken of: the network, its features and the target's parameters.
#[derive(Copy, Clone)]
pub struct Task<'a> {
    /// The network.
    pub net: &'a Net,
    /// Its input features.
    pub features: &'a Features,
    /// The target's share of the score.
    pub lambda: f32,
    /// The eval scale.
    pub k: f32,
}

/// Adds the gradient of the squared errors of `samples[i]` for `i` in `part` to `grad`, and
/// returns the sum of the squared errors. The caller divides by the batch size.
pub fn gradient(
    task: Task<'_>,
    samples: &[Sample],
    part: &[u32],
    grad: &mut [f32],
    s: &mut Scratch,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2, as checked just above.
        return unsafe { gradient_avx2(task, samples, part, grad, s) };
    }
    gradient_body(task, samples, part, grad, s)
}

/// [`gradient`] compiled for 256-bit vectors. The release build targets baseline x86-64
/// (128-bit SSE2); AVX2 measured 20% more positions per second at hidden 256 (490-550k
/// against 425-450k on one thread). AVX-512 measured no better: the row loops are bound by
/// the cache, not by arithmetic.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn gradient_avx2(
    task: Task<'_>,
    samples: &[Sample],
    part: &[u32],
    grad: &mut [f32],
    s: &mut Scratch,
) -> f64 {
    gradient_body(task, samples, part, grad, s)
}

#[inline(always)]
fn gradient_body(
    task: Task<'_>,
    samples: &[Sample],
    part: &[u32],
    grad: &mut [f32],
    s: &mut Scratch,
) -> f64 {
    let mut loss = 0.0f64;
    for &i in part {
        loss += f64::from(accumulate(task, &samples[i as usize], grad, s));
    }
    loss
}

/// One position's share of the gradient: adds the gradient of `err²` to `grad`, returns the
/// squared error.
#[inline(always)]
pub fn accumulate(task: Task<'_>, sample: &Sample, grad: &mut [f32], s: &mut Scratch) -> f32 {
    let Task { net, features, lambda, k } = task;
    let h = net.hidden;
    let p = split(&net.params, net.inputs, h, net.buckets);
    let n = sample.features(features, &mut s.f_us, &mut s.f_them);
    let b = output_bucket(n as u32, net.buckets);
    let out = forward_parts(&p, h, b, &s.f_us[..n], &s.f_them[..n], &mut s.us, &mut s.them);
    let prediction = sigmoid(out);
    let err = prediction - sample.target(lambda, k);
    // d(err²)/d(out) through the sigmoid.
    let d_out = 2.0 * err * prediction * (1.0 - prediction);
    let g = split_mut(grad, net.inputs, h, net.buckets);
    g.out_bias[b] += d_out;
    let (w_us, w_them) = p.out_weights[bucket_rows(h, b)].split_at(h);
    let (g_us, g_them) = g.out_weights[bucket_rows(h, b)].split_at_mut(h);
    for (acc, w, gw, d) in
        [(&s.us, w_us, g_us, &mut s.d_us), (&s.them, w_them, g_them, &mut s.d_them)]
    {
        for (((&x, &w), gw), d) in acc.iter().zip(w).zip(gw.iter_mut()).zip(d.iter_mut()) {
            let c = x.clamp(0.0, 1.0);
            *gw += d_out * c * c;
            // SCReLU's slope is 2x inside (0, 1) and 0 where it clips.
            *d = if x > 0.0 && x < 1.0 { 2.0 * x * d_out * w } else { 0.0 };
        }
    }
    for ((b, &du), &dt) in g.ft_bias.iter_mut().zip(&s.d_us).zip(&s.d_them) {
        *b += du + dt;
    }
    for (list, d) in [(&s.f_us[..n], &s.d_us), (&s.f_them[..n], &s.d_them)] {
        for &f in list {
            let at = f as usize * h;
            add_row(&mut g.ft_weights[at..at + h], d);
        }
    }
    err * err
}

/// The output before the sigmoid through output bucket `bucket`, leaving the two
/// accumulators in `us` and `them`.
#[inline(always)]
fn forward_parts(
    p: &Parts<'_, f32>,
    h: usize,
    bucket: usize,
    f_us: &[u16],
    f_them: &[u16],
    us: &mut [f32],
    them: &mut [f32],
) -> f32 {
    for (acc, list) in [(&mut *us, f_us), (&mut *them, f_them)] {
        acc.copy_from_slice(p.ft_bias);
        for &f in list {
            let at = f as usize * h;
            add_row(acc, &p.ft_weights[at..at + h]);
        }
    }
    let (w_us, w_them) = p.out_weights[bucket_rows(h, bucket)].split_at(h);
    screlu_dot(us, w_us) + screlu_dot(them, w_them) + p.out_bias[bucket]
}

impl Net {
    /// A randomly initialised network of the plain input map: first-layer weights uniform in
    /// ±1/√inputs and output weights in ±1/√(2·hidden) (fan-in scaling), biases zero. With one
    /// bucket the random draws are those of the networks made before the buckets, so that old
    /// recipes still give the same network.
    pub fn new(variant: Variant, hidden: usize, buckets: usize, rng: &mut Rng) -> Net {
        Net::new_mapped(variant, InputMap::Plain, (hidden, buckets), rng)
    }

    /// [`Net::new`] under the input map `map`: the king-mirrored map draws the plain one's
    /// weights; king buckets draw each set of rows at the scale of one.
    pub fn new_mapped(
        variant: Variant,
        map: InputMap,
        (hidden, buckets): (usize, usize),
        rng: &mut Rng,
    ) -> Net {
        let base = Layout::inputs_of(variant);
        let inputs = base * map.king_buckets();
        let mut params = vec![0.0f32; Net::size(inputs, hidden, buckets)];
        // A position selects one row per piece whatever the map: the fan-in is the layout's.
        let ft = 1.0 / (base as f32).sqrt();
        let out = 1.0 / ((2 * hidden) as f32).sqrt();
        let p = split_mut(&mut params, inputs, hidden, buckets);
        p.ft_weights.iter_mut().for_each(|w| *w = ft * rng.symmetric());
        p.out_weights.iter_mut().for_each(|w| *w = out * rng.symmetric());
        Net { variant, inputs, hidden, buckets, input_map: map, params }
    }

    /// The network under the input map `map`: a map of as many king buckets keeps the weights;
    /// a network of one set of rows gives it to every king bucket.
    pub fn remapped(self, map: InputMap) -> Result<Net, String> {
        let (from, to) = (self.input_map.king_buckets(), map.king_buckets());
        if from == to {
            return Ok(Net { input_map: map, ..self });
        }
        if from != 1 {
            return Err(format!(
                "its {} input map does not start a {} one",
                self.input_map.name(),
                map.name()
            ));
        }
        let rows = self.inputs * self.hidden;
        let (ft, rest) = self.params.split_at(rows);
        let params: Vec<f32> = ft.repeat(to).into_iter().chain(rest.iter().copied()).collect();
        Ok(Net { inputs: self.inputs * to, input_map: map, params, ..self })
    }

    /// The float network a quantised one stands for, each weight divided by its quantisation
    /// factor: the start of a run that trains an existing network further (`--init`). A
    /// network of one output bucket gives its output layer to each of `buckets`; otherwise the
    /// bucket counts must agree.
    pub fn from_network(n: &Network, buckets: usize) -> Result<Net, String> {
        if n.activation != Activation::SCRelu || n.qa != QA || n.qb != QB {
            return Err(format!(
                "it is not a network this trainer makes (activation {:?}, quantisation {}/{}; \
                 SCReLU {QA}/{QB} expected)",
                n.activation, n.qa, n.qb
            ));
        }
        if n.buckets != buckets && n.buckets != 1 {
            return Err(format!(
                "it has {} output buckets and the run asks for {buckets} (set --buckets {})",
                n.buckets, n.buckets
            ));
        }
        let (inputs, hidden) = (n.inputs, n.hidden);
        let mut params = vec![0.0f32; Net::size(inputs, hidden, buckets)];
        let p = split_mut(&mut params, inputs, hidden, buckets);
        let by = |w: i16, q: i32| f32::from(w) / q as f32;
        p.ft_weights.iter_mut().zip(&n.ft_weights).for_each(|(w, &q)| *w = by(q, QA));
        p.ft_bias.iter_mut().zip(&n.ft_bias).for_each(|(w, &q)| *w = by(q, QA));
        for (b, (weights, bias)) in
            p.out_weights.chunks_exact_mut(2 * hidden).zip(p.out_bias.iter_mut()).enumerate()
        {
            let from = if n.buckets == 1 { 0 } else { b };
            let source = &n.out_weights[bucket_rows(hidden, from)];
            weights.iter_mut().zip(source).for_each(|(w, &q)| *w = by(q, QB));
            *bias = (f64::from(n.out_bias[from]) / f64::from(QA * QB)) as f32;
        }
        Ok(Net { variant: n.variant, inputs, hidden, buckets, input_map: n.input_map, params })
    }

    /// The number of parameters.
    pub fn size(inputs: usize, hidden: usize, buckets: usize) -> usize {
        inputs * hidden + hidden + (2 * hidden + 1) * buckets
    }

    /// The output before the sigmoid (multiply by the scale for internal units).
    pub fn forward(&self, features: &Features, sample: &Sample, s: &mut Scratch) -> f32 {
        let n = sample.features(features, &mut s.f_us, &mut s.f_them);
        let p = split(&self.params, self.inputs, self.hidden, self.buckets);
        let b = output_bucket(n as u32, self.buckets);
        forward_parts(&p, self.hidden, b, &s.f_us[..n], &s.f_them[..n], &mut s.us, &mut s.them)
    }

    /// The squared error of a position.
    pub fn error(
        &self,
        features: &Features,
        sample: &Sample,
        lambda: f32,
        k: f32,
        s: &mut Scratch,
    ) -> f32 {
        let err = sigmoid(self.forward(features, sample, s)) - sample.target(lambda, k);
        err * err
    }

    /// The quantised network the engine reads, with `scale` internal units per unit of output.
    pub fn quantise(&self, scale: i32) -> Network {
        let p = split(&self.params, self.inputs, self.hidden, self.buckets);
        // `as` saturates, and clipping keeps every weight far inside the range anyway.
        let q = |w: f32, by: i32| (w * by as f32).round() as i16;
        Network {
            variant: self.variant,
            activation: Activation::SCRelu,
            inputs: self.inputs,
            hidden: self.hidden,
            qa: QA,
            qb: QB,
            scale,
            ft_weights: p.ft_weights.iter().map(|&w| q(w, QA)).collect(),
            ft_bias: p.ft_bias.iter().map(|&w| q(w, QA)).collect(),
            buckets: self.buckets,
            out_weights: p.out_weights.iter().map(|&w| q(w, QB)).collect(),
            out_bias: p
                .out_bias
                .iter()
                .map(|&b| (f64::from(b) * f64::from(QA * QB)).round() as i32)
                .collect(),
            input_map: self.input_map,
        }
    }
}

/// The quantised network's output for a position, in internal units: accumulators of `i16`
/// rows as the engine builds them, then [`Network::output_reference`].
pub fn quantised_eval(net: &Network, features: &Features, sample: &Sample) -> i32 {
    let mut f_us = [0u16; MAX_FEATURES];
    let mut f_them = [0u16; MAX_FEATURES];
    let n = sample.features(features, &mut f_us, &mut f_them);
    let h = net.hidden;
    let acc = |list: &[u16]| -> Vec<i16> {
        let mut acc = net.ft_bias.clone();
        for &f in list {
            let row = &net.ft_weights[f as usize * h..(f as usize + 1) * h];
            for (a, &w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(w);
            }
        }
        acc
    };
    net.output_reference(&acc(&f_us[..n]), &acc(&f_them[..n]), net.bucket(n as u32))
}

/// Moves each bucket's quantised output bias by the mean difference between the float and the
/// quantised outputs over the bucket's `samples`, and returns the mean difference over all of
/// them in internal units.
///
/// Rounding the output weights to 1/`QB` errs by up to 1/(2·`QB`) per weight; for neurons
/// that are active in almost every position the errors add up to a near-constant offset
/// (measured: 10-15 internal units at hidden 128 and K = 400), which the bias absorbs.
pub fn calibrate(network: &mut Network, net: &Net, features: &Features, samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut s = Scratch::new(net.hidden);
    let k = f64::from(network.scale);
    let mut sums = vec![(0.0f64, 0usize); network.buckets];
    for x in samples {
        let d = f64::from(net.forward(features, x, &mut s)) * k
            - f64::from(quantised_eval(network, features, x));
        let slot = &mut sums[network.bucket(x.pieces())];
        slot.0 += d;
        slot.1 += 1;
    }
    for (bias, &(sum, n)) in network.out_bias.iter_mut().zip(&sums) {
        if n > 0 {
            let shift = sum / n as f64 / k * f64::from(network.qa * network.qb);
            *bias = bias.saturating_add(shift.round() as i32);
        }
    }
    sums.iter().map(|&(sum, _)| sum).sum::<f64>() / samples.len() as f64
}

/// Adam's state: the decaying mean and mean square of each parameter's gradient.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// Mean gradient.
    pub m: Vec<f32>,
    /// Mean squared gradient.
    pub v: Vec<f32>,
    /// Steps taken.
    pub t: u64,
}

impl Adam {
    /// Fresh state for `size` parameters.
    pub fn new(size: usize) -> Adam {
        Adam { m: vec![0.0; size], v: vec![0.0; size], t: 0 }
    }

    /// One step over all parameters with the gradient `Σ grads · scale` at learning rate
    /// `lr`, then clipping, split over `threads` threads. The per-thread gradients are
    /// summed into the first one on the way.
    pub fn step(
        &mut self,
        params: &mut [f32],
        grads: &mut [Vec<f32>],
        scale: f32,
        lr: f32,
        threads: usize,
    ) {
        self.t += 1;
        let t = self.t as i32;
        // Bias correction folded into the rate, as in the Adam paper's efficient form.
        let rate = lr * (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
        let chunk = params.len().div_ceil(threads.max(1)).max(1);
        let mut shares: Vec<Vec<&mut [f32]>> = Vec::new();
        for g in grads.iter_mut() {
            for (i, c) in g.chunks_mut(chunk).enumerate() {
                if shares.len() <= i {
                    shares.push(Vec::new());
                }
                shares[i].push(c);
            }
        }
        std::thread::scope(|scope| {
            let pieces = params
                .chunks_mut(chunk)
                .zip(self.m.chunks_mut(chunk))
                .zip(self.v.chunks_mut(chunk));
            for (((p, m), v), mut share) in pieces.zip(shares) {
                scope.spawn(move || {
                    let Some((sum, rest)) = share.split_first_mut() else {
                        return;
                    };
                    for other in rest {
                        add_row(sum, other);
                    }
                    adam_update(p, m, v, sum, scale, rate);
                });
            }
        });
    }
}

/// Adam's update of one slice of parameters with the gradient `grad · scale`, then clipping.
fn adam_update(p: &mut [f32], m: &mut [f32], v: &mut [f32], grad: &[f32], scale: f32, rate: f32) {
    for (((p, m), v), &g) in p.iter_mut().zip(m.iter_mut()).zip(v.iter_mut()).zip(grad) {
        let g = g * scale;
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        let w = *p - rate * *m / (v.sqrt() + EPSILON);
        *p = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
    }
}

/// A training state saved after an epoch.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The network.
    pub net: Net,
    /// The optimiser.
    pub adam: Adam,
    /// Epochs completed.
    pub epoch: u32,
}

impl Checkpoint {
    /// Writes the checkpoint: a 32-byte header (magic, game, output buckets (0 for one), input
    /// map, inputs, hidden, epoch, Adam's step count), then the parameters, Adam's means and
    /// mean squares as little-endian `f32`.
    pub fn save(&self, path: &Path) -> Result<(), TrainError> {
        let net = &self.net;
        let mut b = Vec::with_capacity(CHECKPOINT_HEADER + 12 * net.params.len());
        b.extend_from_slice(CHECKPOINT_MAGIC);
        let game = u8::from(net.variant == Variant::Xiangqi);
        b.extend_from_slice(&[game, buckets_byte(net.buckets), net.input_map.byte(), 0]);
        for v in [net.inputs as u32, net.hidden as u32, self.epoch] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&self.adam.t.to_le_bytes());
        for x in net.params.iter().chain(&self.adam.m).chain(&self.adam.v) {
            b.extend_from_slice(&x.to_le_bytes());
        }
        // Write to a temporary name first: an interrupted save never damages the last one.
        let tmp = path.with_extension("tmp");
        let io = |e| TrainError::Io(path.to_path_buf(), e);
        let mut file = std::fs::File::create(&tmp).map_err(io)?;
        file.write_all(&b).map_err(io)?;
        file.sync_all().map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Reads a checkpoint written by [`Checkpoint::save`], checking its header and size.
    pub fn load(path: &Path) -> Result<Checkpoint, TrainError> {
        let b = std::fs::read(path).map_err(|e| TrainError::Io(path.to_path_buf(), e))?;
        let bad = |why: &str| TrainError::Checkpoint(path.to_path_buf(), why.to_string());
        if b.len() < CHECKPOINT_HEADER || &b[..8] != CHECKPOINT_MAGIC {
            return Err(bad("not a Chariot training checkpoint"));
        }
        let u32_at = |at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        let variant = match b[8] {
            0 => Variant::Chess,
            1 => Variant::Xiangqi,
            _ => return Err(bad("unknown game")),
        };
        let (inputs, hidden, epoch) = (u32_at(12) as usize, u32_at(16) as usize, u32_at(20));
        let Some(input_map) = InputMap::from_byte(b[10]) else {
            return Err(bad("unknown input map"));
        };
        let base = Layout::inputs_of(variant);
        let sizes_ok =
            inputs == base * input_map.king_buckets() && hidden != 0 && hidden % LANES == 0;
        let Some(buckets) = buckets_from_byte(b[9]).filter(|_| sizes_ok) else {
            return Err(bad("bad dimensions"));
        };
        let mut t = [0u8; 8];
        t.copy_from_slice(&b[24..32]);
        let size = Net::size(inputs, hidden, buckets);
        if b.len() != CHECKPOINT_HEADER + 12 * size {
            return Err(bad("truncated or oversized"));
        }
        let floats: Vec<f32> = b[CHECKPOINT_HEADER..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Checkpoint {
            net: Net {
                variant,
                inputs,
                hidden,
                buckets,
                input_map,
                params: floats[..size].to_vec(),
            },
            adam: Adam {
                m: floats[size..2 * size].to_vec(),
                v: floats[2 * size..].to_vec(),
                t: u64::from_le_bytes(t),
            },
            epoch,
        })
    }
}
