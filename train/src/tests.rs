//! Tests of the trainer: learning, quantisation, bad data, gradients, checkpoints, the driver.

use super::loader::{self, Features, Sample};
use super::net::{self, Adam, Checkpoint, Net, Rng, Scratch};
use super::*;
use chariot_engine::chess::Chess;
use chariot_engine::game::{Game, MoveList, Side};
use chariot_engine::nnue::data::{GameResult, RECORD_BYTES, Record};
use chariot_engine::nnue::games::{Cut, GameRecord, GameWriter, MoveCode};
use chariot_engine::nnue::network::{InputMap, Layout, Network};
use chariot_engine::xiangqi::Xiangqi;

const CHESS_FENS: &[&str] = &[
    chariot_engine::chess::START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

const XIANGQI_FENS: &[&str] = &[
    chariot_engine::xiangqi::START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
];

/// Plies of a random game at most.
const GAME_PLIES: usize = 100;
/// A game counts as won when the final static eval exceeds this (internal units).
const WIN_MARGIN: i32 = 150;

/// `count` records from random games started at `fens`, scored by the static evaluation (a
/// material and piece-square rule the network can learn) and resulted by the balance at the
/// game's end.
pub(super) fn random_games<G: Game>(fens: &[&str], count: usize, seed: u64) -> Vec<Record> {
    let mut rng = Rng::new(seed, 99);
    let mut out = Vec::with_capacity(count);
    let mut list = MoveList::new();
    while out.len() < count {
        let fen = fens[rng.below(fens.len())];
        let mut board = G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let first = out.len();
        let plies = 8 + rng.below(GAME_PLIES);
        for ply in 0..plies {
            board.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            board.make(list.as_slice()[rng.below(list.len())]);
            if ply >= 4 && out.len() < count {
                let r = Record::new(&board, board.evaluate(), GameResult::Draw, ply as u32);
                out.push(r.expect("at most 32 pieces"));
            }
        }
        let eval = board.evaluate();
        let white = if board.side_to_move() == Side::First { eval } else { -eval };
        let result = match white {
            w if w > WIN_MARGIN => GameResult::Win,
            w if w < -WIN_MARGIN => GameResult::Loss,
            _ => GameResult::Draw,
        };
        out[first..].iter_mut().for_each(|r| r.result = result);
    }
    out
}

fn samples(records: &[Record]) -> Vec<Sample> {
    records.iter().map(Sample::new).collect()
}

/// A fresh temporary directory for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write_records(path: &Path, records: &[Record]) {
    let bytes: Vec<u8> = records.iter().flat_map(|r| r.to_bytes()).collect();
    std::fs::write(path, bytes).expect("write data");
}

/// Trains a small network on random games and returns it with its data and its loss before.
fn trained(variant: Variant, hidden: usize, buckets: usize) -> (Trainer, Vec<Sample>, f64) {
    let records = match variant {
        Variant::Chess => random_games::<Chess>(CHESS_FENS, 3000, 5),
        Variant::Xiangqi => random_games::<Xiangqi>(XIANGQI_FENS, 3000, 5),
    };
    let data = samples(&records);
    let k = match variant {
        Variant::Chess => CHESS_SCALE,
        Variant::Xiangqi => XIANGQI_SCALE,
    } as f32;
    let net = Net::new(variant, hidden, buckets, &mut Rng::new(3, 1));
    let adam = Adam::new(net.params.len());
    let mut trainer = Trainer::new(net, adam, 2, 1.0, k);
    let before = trainer.loss(&data);
    let mut order: Vec<u32> = (0..data.len() as u32).collect();
    for epoch in 0..12 {
        Rng::new(3, 100 + epoch).shuffle(&mut order);
        trainer.epoch(&data, &order, 64, 0.01);
    }
    (trainer, data, before)
}

#[test]
fn training_reduces_the_loss_and_quantisation_keeps_the_output() {
    // One output bucket for chess, eight for xiangqi: the quantised buckets must match too.
    for (variant, k, buckets) in
        [(Variant::Chess, CHESS_SCALE, 1), (Variant::Xiangqi, XIANGQI_SCALE, 8)]
    {
        let (mut trainer, data, before) = trained(variant, 32, buckets);
        let after = trainer.loss(&data);
        assert!(after < 0.4 * before, "{variant:?}: loss {before} -> {after}");

        let mut network = trainer.net.quantise(k);
        net::calibrate(&mut network, &trainer.net, trainer.features(), &data[..data.len() / 2]);
        let network = Network::from_bytes(&network.to_bytes()).expect("valid file");
        assert_eq!(network.buckets, buckets);
        let mut s = Scratch::new(trainer.net.hidden);
        let mut worst = 0.0f32;
        let mut mean = 0.0f32;
        let check = &data[data.len() / 2..];
        for x in check {
            let float = trainer.net.forward(trainer.features(), x, &mut s) * k as f32;
            let quantised = net::quantised_eval(&network, trainer.features(), x);
            worst = worst.max((float - quantised as f32).abs());
            mean += (float - quantised as f32).abs() / check.len() as f32;
        }

        // Rounding the output weights to 1/64 moves the output by up to 1/128 per active
        // neuron, a few internal units at K = 400 or 800 once the bias absorbs the mean (on
        // positions other than these); a sign or scale mistake would move it by hundreds.
        let k = k as f32;
        assert!(
            mean < 0.015 * k && worst < 0.05 * k,
            "{variant:?}: differ by {mean} on average, {worst} at worst"
        );
    }
}

#[test]
fn gradients_match_finite_differences() {
    let records = random_games::<Chess>(CHESS_FENS, 8, 11);
    let data = samples(&records);
    let features = Features::new(Variant::Chess, InputMap::Plain);
    let buckets = 4;
    let mut net = Net::new(Variant::Chess, 16, buckets, &mut Rng::new(7, 1));
    // Larger weights than the initialisation's put neurons on both sides of the clipping.
    let ft = net.inputs * net.hidden;
    net.params[..ft].iter_mut().for_each(|w| *w *= 8.0);
    net.params[ft..ft + 16].iter_mut().enumerate().for_each(|(i, b)| *b = 0.05 * i as f32 - 0.2);
    let (lambda, k) = (0.5, 400.0);
    let mut s = Scratch::new(net.hidden);
    let mut grad = vec![0.0f32; net.params.len()];
    let task = net::Task { net: &net, features: &features, lambda, k };
    for x in &data {
        net::accumulate(task, x, &mut grad, &mut s);
    }
    let loss = |net: &Net, s: &mut Scratch| -> f64 {
        data.iter().map(|x| f64::from(net.error(&features, x, lambda, k, s))).sum()
    };
    // Weights to probe: rows of the first position's pieces (both views), biases, outputs.
    let mut us = [0u16; loader::MAX_FEATURES];
    let mut them = [0u16; loader::MAX_FEATURES];
    let n = data[0].features(&features, &mut us, &mut them);
    assert!(n > 2);
    let h = net.hidden;
    let mut probes = vec![
        us[0] as usize * h + 3,
        us[1] as usize * h + 10,
        them[2] as usize * h + 5,
        them[0] as usize * h + 15,
    ];
    probes.extend([ft + 2, ft + 9]);
    // The output weights and bias of the first position's bucket, and of another bucket.
    let bucket = chariot_engine::nnue::network::output_bucket(n as u32, buckets);
    let (out, bias) = (ft + h + 2 * h * bucket, ft + h + 2 * h * buckets);
    probes.extend([out + 1, out + 20, out + 2 * h - 1, bias + bucket]);
    probes.extend([ft + h + 2 * h * ((bucket + 1) % buckets) + 3]);
    let eps = 1e-3f32;
    let mut checked = 0;
    for &i in &probes {
        let mut plus = net.clone();
        plus.params[i] += eps;
        let mut minus = net.clone();
        minus.params[i] -= eps;
        let numeric = (loss(&plus, &mut s) - loss(&minus, &mut s)) / (2.0 * f64::from(eps));
        let analytic = f64::from(grad[i]);
        let tolerance = 1e-4 + 0.02 * numeric.abs().max(analytic.abs());
        assert!(
            (numeric - analytic).abs() < tolerance,
            "parameter {i}: numeric {numeric}, analytic {analytic}"
        );
        checked += usize::from(analytic.abs() > 1e-4);
    }
    assert!(checked >= probes.len() / 2, "most probes should have a gradient to compare");
}

#[test]
fn bad_data_files_are_errors_naming_the_file() {
    let dir = temp_dir("bad");
    let records = random_games::<Chess>(CHESS_FENS, 10, 1);
    let path = dir.join("truncated.bin");
    let mut bytes: Vec<u8> = records.iter().flat_map(|r| r.to_bytes()).collect();
    bytes.truncate(bytes.len() - 7);
    std::fs::write(&path, &bytes).expect("write");
    let err =
        loader::load(std::slice::from_ref(&path), Variant::Chess, None).expect_err("truncated");
    assert!(matches!(err, TrainError::Length(..)));
    assert!(err.to_string().contains("truncated.bin"), "{err}");

    let path = dir.join("malformed.bin");
    bytes.truncate(5 * RECORD_BYTES);
    bytes[3 * RECORD_BYTES + 34] = 7; // a result that does not exist
    std::fs::write(&path, &bytes).expect("write");
    let err =
        loader::load(std::slice::from_ref(&path), Variant::Chess, None).expect_err("malformed");
    assert!(matches!(err, TrainError::Record(_, 3, _)), "{err}");
    assert!(err.to_string().contains("malformed.bin"), "{err}");

    let missing = dir.join("missing.bin");
    assert!(matches!(loader::load(&[missing], Variant::Chess, None), Err(TrainError::Io(..))));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn loading_keeps_one_game_and_the_features_follow_the_layout() {
    let dir = temp_dir("mixed");
    let chess = random_games::<Chess>(CHESS_FENS, 50, 2);
    let xiangqi = random_games::<Xiangqi>(XIANGQI_FENS, 30, 2);
    let path = dir.join("mixed.bin");
    write_records(&path, &[chess.clone(), xiangqi].concat());
    let loaded = loader::load(std::slice::from_ref(&path), Variant::Chess, None).expect("loads");
    assert_eq!((loaded.samples.len(), loaded.skipped), (50, 30));
    let capped = loader::load(&[path], Variant::Chess, Some(20)).expect("loads");
    assert_eq!(capped.samples.len(), 20);

    let layout = Layout::of::<chariot_engine::chess::Chess>();
    let features = Features::new(Variant::Chess, InputMap::Plain);
    for (r, x) in chess.iter().zip(&loaded.samples) {
        let (mut us, mut them) = ([0u16; 32], [0u16; 32]);
        let n = x.features(&features, &mut us, &mut them);
        let expect = |side: Side| -> Vec<u16> {
            let mut v: Vec<u16> =
                r.squares().map(|(sq, p)| layout.feature(p, sq, side) as u16).collect();
            v.sort_unstable();
            v
        };
        let sorted = |s: &[u16]| -> Vec<u16> {
            let mut v = s.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&us[..n]), expect(r.side));
        assert_eq!(sorted(&them[..n]), expect(r.side.flip()));
        // Score and result are seen from the side to move.
        let sign = if r.side == Side::First { 1 } else { -1 };
        assert_eq!(i32::from(x.score), sign * i32::from(r.score));
        let white_result = r.result as u8;
        assert_eq!(x.result, if r.side == Side::First { white_result } else { 2 - white_result });
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn checkpoints_round_trip_and_training_resumes() {
    let dir = temp_dir("checkpoint");
    let mut rng = Rng::new(9, 1);
    let net = Net::new_mapped(Variant::Xiangqi, InputMap::KingBuckets, (16, 8), &mut rng);
    let mut adam = Adam::new(net.params.len());
    adam.t = 42;
    adam.m.iter_mut().for_each(|m| *m = rng.symmetric());
    let c = Checkpoint { net, adam, epoch: 3 };
    let path = dir.join("x.ckpt");
    c.save(&path).expect("saves");
    assert_eq!(Checkpoint::load(&path).expect("loads"), c);
    let bytes = std::fs::read(&path).expect("read");
    std::fs::write(&path, &bytes[..bytes.len() - 4]).expect("write");
    assert!(matches!(Checkpoint::load(&path), Err(TrainError::Checkpoint(..))));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The options of a quick run: 600 chess positions of random games written into `dir`, a
/// hidden layer of 16, batches of 128.
fn small_chess_run(dir: &Path) -> Options {
    let data = dir.join("data.bin");
    write_records(&data, &random_games::<Chess>(CHESS_FENS, 600, 4));
    let mut opts = Options::new(Variant::Chess, vec![data]);
    opts.hidden = 16;
    opts.batch = 128;
    opts
}

#[test]
fn the_command_trains_writes_a_network_and_resumes() {
    let dir = temp_dir("run");
    let mut opts = small_chess_run(&dir);
    opts.epochs = 2;
    opts.validation = 0.1;
    opts.out = Some(dir.join("net.nnue"));
    opts.checkpoint = Some(dir.join("ckpt"));
    opts.inputs = InputMap::KingMirrored;
    run(&opts).expect("trains");
    let first = std::fs::read(dir.join("net.nnue")).expect("network written");
    let network = Network::from_bytes(&first).expect("valid network");
    assert_eq!((network.hidden, network.scale, network.qa, network.qb), (16, 400, 255, 64));
    assert_eq!(network.input_map, InputMap::KingMirrored);

    // Resuming after the first epoch repeats the second exactly.
    opts.resume = Some(dir.join("ckpt").join("chess-h16-e1.ckpt"));
    opts.out = Some(dir.join("resumed.nnue"));
    run(&opts).expect("resumes");
    assert_eq!(std::fs::read(dir.join("resumed.nnue")).expect("written"), first);
    // A checkpoint of another input map does not resume.
    opts.inputs = InputMap::Plain;
    assert!(matches!(run(&opts), Err(TrainError::Checkpoint(..))));

    opts.hidden = 20;
    assert!(matches!(run(&opts), Err(TrainError::Option(..))));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn validation_on_other_games_leaves_every_position_to_training() {
    let dir = temp_dir("valid-data");
    let mut opts = small_chess_run(&dir);
    opts.epochs = 1;
    opts.out = Some(dir.join("net.nnue"));
    let held_out = run(&opts).expect("trains");
    assert_eq!(held_out.validated, 6, "1% of the 600 positions");
    assert_eq!(held_out.trained, 594);

    let other = dir.join("other.bin");
    write_records(&other, &random_games::<Chess>(CHESS_FENS, 100, 9));
    opts.valid_data = vec![other];
    let separate = run(&opts).expect("trains");
    assert_eq!((separate.trained, separate.validated), (600, 100));
    assert!(separate.valid_loss > 0.0);

    opts.valid_data = vec![dir.join("missing.bin")];
    assert!(matches!(run(&opts), Err(TrainError::Io(..))));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_quantised_network_reads_back_as_the_float_network_it_came_from() {
    let mut rng = Rng::new(5, 1);
    for buckets in [1, 4] {
        let network = Net::new(Variant::Xiangqi, 32, buckets, &mut rng).quantise(800);
        let back = Net::from_network(&network, buckets).expect("a trainer's network");
        assert_eq!(back.quantise(800), network);
    }
    // One bucket starts every bucket of a bucketed run: each evaluates as the original.
    let one = Net::new(Variant::Chess, 16, 1, &mut rng);
    let spread = Net::from_network(&one.quantise(400), 8).expect("spreads");
    let back = Net::from_network(&one.quantise(400), 1).expect("reads");
    let features = Features::new(Variant::Chess, InputMap::Plain);
    let mut s = Scratch::new(16);
    for record in random_games::<Chess>(CHESS_FENS, 50, 6) {
        let x = Sample::new(&record);
        let (a, b) = (back.forward(&features, &x, &mut s), spread.forward(&features, &x, &mut s));
        assert!((a - b).abs() < 1e-6, "{a} vs {b}");
    }
    let four = Net::new(Variant::Chess, 16, 4, &mut rng).quantise(400);
    assert!(Net::from_network(&four, 8).is_err());
}

#[test]
fn training_starts_from_a_network_file_that_fits_the_options() {
    let dir = temp_dir("init");
    let mut opts = small_chess_run(&dir);
    opts.epochs = 1;
    opts.out = Some(dir.join("first.nnue"));
    run(&opts).expect("trains");
    let read = |name: &str| {
        Network::from_bytes(&std::fs::read(dir.join(name)).expect("written")).expect("valid")
    };
    let first = read("first.nnue");
    // The first-layer rows of each of `sets` sets stay within one unit of `first`'s.
    let starts_at_first = |net: &Network, sets: usize| {
        let rows = first.ft_weights.len();
        for set in 0..sets {
            let part = &net.ft_weights[set * rows..(set + 1) * rows];
            let most = part.iter().zip(&first.ft_weights).map(|(a, b)| (a - b).abs()).max();
            assert!(most <= Some(1), "set {set}: {most:?}");
        }
    };

    // A start from the first network with a tiny rate stays close to it.
    opts.init = Some(dir.join("first.nnue"));
    opts.lr = 1e-7;
    opts.out = Some(dir.join("second.nnue"));
    run(&opts).expect("trains further");
    starts_at_first(&read("second.nnue"), 1);

    // The plain network starts a king-bucketed one: every bucket's rows begin as its rows.
    opts.inputs = InputMap::KingBuckets;
    opts.out = Some(dir.join("buckets.nnue"));
    run(&opts).expect("trains a king-bucketed network from a plain one");
    let buckets = read("buckets.nnue");
    assert_eq!((buckets.input_map, buckets.inputs), (InputMap::KingBuckets, 4 * 768));
    starts_at_first(&buckets, 4);
    // And a king-regions one, which with its rows copied is the plain network exactly: every
    // position evaluates alike, wherever the kings stand.
    opts.inputs = InputMap::KingRegions;
    opts.out = Some(dir.join("regions.nnue"));
    run(&opts).expect("trains a king-regions network from a plain one");
    let regions = read("regions.nnue");
    assert_eq!((regions.input_map, regions.inputs), (InputMap::KingRegions, 4 * 768));
    starts_at_first(&regions, 4);
    let copied = Network {
        input_map: InputMap::KingRegions,
        inputs: 4 * 768,
        ft_weights: first.ft_weights.repeat(4),
        ..first.clone()
    };
    for fen in [
        chariot_engine::chess::START_FEN,
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        "2kr3r/ppp2ppp/8/8/8/8/PPP2PPP/2KR3R b - - 0 1",
        "8/5k2/8/3p4/3P4/2K5/8/8 w - - 0 1",
    ] {
        let board = Chess::from_fen(fen).expect("valid FEN");
        assert_eq!(
            chariot_engine::nnue::accumulator::evaluate_fresh(&copied, &board),
            chariot_engine::nnue::accumulator::evaluate_fresh(&first, &board),
            "{fen}"
        );
    }

    // ... but a king-bucketed network does not start a plain one.
    opts.init = Some(dir.join("buckets.nnue"));
    opts.inputs = InputMap::Plain;
    assert!(matches!(run(&opts), Err(TrainError::Init(..))));
    opts.init = Some(dir.join("first.nnue"));

    // A network of 8 output buckets starts a run of 8, and the error of a run of 1 says so.
    let eight = Net::new(Variant::Chess, 16, 8, &mut Rng::new(2, 1)).quantise(400);
    std::fs::write(dir.join("eight.nnue"), eight.to_bytes()).expect("write");
    opts.init = Some(dir.join("eight.nnue"));
    match run(&opts) {
        Err(TrainError::Init(_, why)) => assert!(why.contains("--buckets 8"), "{why}"),
        other => panic!("{other:?}"),
    }
    opts.buckets = 8;
    run(&opts).expect("trains on from the 8 buckets");
    opts.buckets = 1;
    opts.init = Some(dir.join("first.nnue"));

    opts.hidden = 32;
    assert!(matches!(run(&opts), Err(TrainError::Init(..))));
    opts.hidden = 16;
    opts.scale = Some(300);
    assert!(matches!(run(&opts), Err(TrainError::Init(..))));
    opts.scale = None;
    let xiangqi = Net::new(Variant::Xiangqi, 16, 1, &mut Rng::new(1, 1)).quantise(400);
    std::fs::write(dir.join("xiangqi.nnue"), xiangqi.to_bytes()).expect("write");
    opts.init = Some(dir.join("xiangqi.nnue"));
    assert!(matches!(run(&opts), Err(TrainError::Init(..))));
    std::fs::write(dir.join("bad.nnue"), b"not a network").expect("write");
    opts.init = Some(dir.join("bad.nnue"));
    assert!(matches!(run(&opts), Err(TrainError::Init(..))));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_learning_rate_decays() {
    let mut opts = Options::new(Variant::Chess, vec![]);
    opts.epochs = 10;
    assert_eq!(opts.rate(1), opts.lr);
    assert!((opts.rate(10) - opts.lr * FINAL_RATE).abs() < 1e-9);
    assert!(opts.rate(5) < opts.rate(4));
    opts.decay = Decay::Step;
    opts.step = 4;
    assert_eq!(opts.rate(4), opts.lr);
    assert!((opts.rate(5) - opts.lr * opts.gamma).abs() < 1e-9);
}

/// Writes a synthetic data file for timing: `CHARIOT_SYNTH_COUNT` (default 1,000,000) chess
/// positions from random games into `CHARIOT_SYNTH` (default `/root/nnue-synth/chess-1m.bin`).
/// Run with `cargo test --release --lib write_synthetic_data -- --ignored`.
#[test]
#[ignore]
fn write_synthetic_data() {
    let path =
        std::env::var("CHARIOT_SYNTH").unwrap_or_else(|_| "/root/nnue-synth/chess-1m.bin".into());
    let count =
        std::env::var("CHARIOT_SYNTH_COUNT").ok().and_then(|c| c.parse().ok()).unwrap_or(1_000_000);
    let path = PathBuf::from(path);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("create the directory");
    }
    write_records(&path, &random_games::<Chess>(CHESS_FENS, count, 12345));
}

/// A mirrored xiangqi position is the position of the mirrored FEN, score and result kept.
#[test]
fn mirrored_samples_are_the_mirrored_positions() {
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let mirror = "3a1ab1r/3nk4/4b1n2/p1p1p1pNp/4c4/2P6/P2R2P1P/5CcC1/9/2BAKAB2 w - - 0 1";
    let sample = |fen: &str| {
        let board = Xiangqi::from_fen(fen).expect("valid FEN");
        Sample::new(&Record::new(&board, 55, GameResult::Win, 3).expect("fits"))
    };
    assert_eq!(sample(fen).mirrored(9), sample(mirror));
    assert_eq!(sample(fen).mirrored(9).mirrored(9), sample(fen));
}

/// The trainer's view of a network (its features and quantised arithmetic) and the engine's
/// (accumulators from the board, the SIMD output) give the same number for the same position:
/// what is trained is what plays.
#[test]
fn the_engine_evaluates_as_the_trainer_quantises() {
    fn check<G: Game>(fens: &[&str], seed: u64) {
        let variant = G::VARIANT;
        let mut rng = Rng::new(seed, 7);
        // Eight output buckets: trainer and engine must pick the same one.
        for (map, fen) in
            InputMap::ALL.into_iter().flat_map(|map| fens.iter().map(move |fen| (map, fen)))
        {
            let activation = chariot_engine::nnue::network::Activation::SCRelu;
            let net = Network::random_mapped(variant, activation, (32, 8), map, seed);
            let features = Features::new(variant, map);
            let mut board = G::from_fen(fen).expect("valid FEN");
            let mut list = MoveList::new();
            // Long enough for captures to move the position through several buckets.
            for _ in 0..120 {
                let sample =
                    Sample::new(&Record::new(&board, 0, GameResult::Draw, 0).expect("fits"));
                let trainer = net::quantised_eval(&net, &features, &sample);
                let engine = chariot_engine::nnue::accumulator::evaluate_fresh(&net, &board);
                assert_eq!(trainer, engine, "{}", board.fen());
                board.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let m = list.as_slice()[rng.below(list.len())];
                board.make(m);
            }
        }
    }
    // Kings walk to both wings in the bare positions, and castle across the middle.
    check::<Chess>(&[chariot_engine::chess::START_FEN, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"], 3);
    check::<Xiangqi>(&[chariot_engine::xiangqi::START_FEN], 4);
}

/// Random games from `fens` in the `.games` form, `count` of them, scored by the static
/// evaluation, with the records their training positions make (from the fifth ply on, out of
/// check, as a filter might choose).
fn random_game_records<G: MoveCode>(
    fens: &[&str],
    count: usize,
    seed: u64,
) -> (Vec<GameRecord>, Vec<Record>) {
    let mut rng = Rng::new(seed, 98);
    let (mut games, mut records) = (Vec::new(), Vec::new());
    let mut list = MoveList::new();
    for _ in 0..count {
        let fen = fens[rng.below(fens.len())];
        let mut board = G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut game = GameRecord::new(&board);
        game.result = [GameResult::Loss, GameResult::Draw, GameResult::Win][rng.below(3)];
        for ply in 0..8 + rng.below(GAME_PLIES) {
            board.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let m = list.as_slice()[rng.below(list.len())];
            let kept = ply >= 4 && !board.in_check();
            game.push(&board, m, board.evaluate(), kept);
            if kept {
                let r = Record::new(&board, board.evaluate(), game.result, ply as u32);
                records.push(r.expect("at most 32 pieces"));
            }
            board.make(m);
        }
        games.push(game);
    }
    (games, records)
}

/// A `.games` file loads as the records its games replay to, in a list with a 40-byte file; a
/// last game cut off mid-write is skipped and reported, a damaged game is an error naming the
/// file, and the command trains on such a file.
#[test]
fn games_files_load_as_their_records_mixed_with_record_files() {
    let dir = temp_dir("games");
    let (chess_games, chess) = random_game_records::<Chess>(CHESS_FENS, 12, 3);
    let (xiangqi_games, xiangqi) = random_game_records::<Xiangqi>(XIANGQI_FENS, 4, 3);
    let mut writer = GameWriter::new(Vec::new());
    for game in xiangqi_games.iter().chain(&chess_games) {
        writer.write(game).expect("writable");
    }
    let bytes = writer.finish().expect("written");
    let path = dir.join("mixed.games");
    std::fs::write(&path, &bytes).expect("write");
    let more = random_games::<Chess>(CHESS_FENS, 40, 8);
    let data = dir.join("more.data");
    write_records(&data, &more);
    let loaded = loader::load(&[path.clone(), data.clone()], Variant::Chess, None).expect("loads");
    assert_eq!(loaded.samples, samples(&[chess.clone(), more.clone()].concat()));
    assert_eq!((loaded.skipped, loaded.cut.len()), (xiangqi.len() as u64, 0));
    let capped =
        loader::load(&[path.clone(), data.clone()], Variant::Chess, Some(7)).expect("loads");
    assert_eq!(capped.samples, samples(&chess[..7]));
    let loaded = loader::load(std::slice::from_ref(&path), Variant::Xiangqi, None).expect("loads");
    assert_eq!(loaded.samples, samples(&xiangqi));

    // The last game cut off: the others load, and the cut is reported.
    let last = chess_games.last().expect("a game");
    let last_len = last.to_bytes().expect("writable").len();
    let cut = dir.join("cut.games");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).expect("write");
    let loaded = loader::load(std::slice::from_ref(&cut), Variant::Chess, None).expect("loads");
    assert_eq!(loaded.samples, samples(&chess[..chess.len() - last.kept()]));
    let offset = (bytes.len() - last_len) as u64;
    assert_eq!(loaded.cut, vec![(cut, Cut { game: 15, offset })]);

    // A damaged game names the file.
    let mut damaged = bytes.clone();
    damaged[offset as usize] = 0;
    let bad = dir.join("damaged.games");
    std::fs::write(&bad, &damaged).expect("write");
    let err = loader::load(std::slice::from_ref(&bad), Variant::Chess, None).expect_err("damaged");
    assert!(matches!(err, TrainError::Games(..)), "{err}");
    assert!(err.to_string().contains("damaged.games") && err.to_string().contains("game 15"));

    // `chariot train --data mixed.games --data more.data`.
    let mut opts = Options::new(Variant::Chess, vec![path, data]);
    (opts.hidden, opts.batch, opts.epochs) = (16, 128, 1);
    opts.out = Some(dir.join("net.nnue"));
    let report = run(&opts).expect("trains");
    assert_eq!(report.trained + report.validated, chess.len() + more.len());
    let _ = std::fs::remove_dir_all(&dir);
}
