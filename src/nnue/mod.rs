//! NNUE: an efficiently updatable neural network evaluation, and the data it learns from.
//!
//! - [`data`]: the training record format of `chariot datagen` and `chariot train`;
//! - [`network`]: the inputs, the quantised weights and their file format;
//! - [`accumulator`]: the first layer's sums, updated lazily move by move;
//! - [`simd`]: the inner loops and the run-time choice of the CPU's vector path.
//!
//! Each game has one network in use at a time, shared by every search thread: the one
//! embedded in the binary, one loaded by the `EvalFile` option, or none (the classic
//! evaluation). A search picks it up when it starts.

pub mod accumulator;
pub mod data;
pub mod network;
pub mod simd;

use crate::game::{Evaluator, Game, Move, Score, Variant};
use accumulator::Accumulators;
use network::Network;
use parking_lot::RwLock;
use std::sync::Arc;

/// The network each game evaluates with (chess, xiangqi); `None`: the classic evaluation.
static IN_USE: [RwLock<Option<Arc<Network>>>; 2] = [RwLock::new(None), RwLock::new(None)];

fn slot(variant: Variant) -> &'static RwLock<Option<Arc<Network>>> {
    match variant {
        Variant::Chess => &IN_USE[0],
        Variant::Xiangqi => &IN_USE[1],
    }
}

/// The network `variant` evaluates with now, if any.
pub fn in_use(variant: Variant) -> Option<Arc<Network>> {
    slot(variant).read().clone()
}

/// Makes `net` the network of `variant` (`None`: the classic evaluation) for every search
/// started from now on.
pub fn install(variant: Variant, net: Option<Arc<Network>>) {
    *slot(variant).write() = net;
}

/// The networks built into the binary, by game, from `nets/` (README, Networks, says how each
/// was made).
const EMBEDDED: &[(Variant, &[u8])] = &[
    (Variant::Chess, include_bytes!("../../nets/chess.nnue")),
    (Variant::Xiangqi, include_bytes!("../../nets/xiangqi.nnue")),
];

/// The network embedded for `variant`, if the binary has one.
pub fn embedded(variant: Variant) -> Option<Arc<Network>> {
    static PARSED: std::sync::OnceLock<Vec<(Variant, Arc<Network>)>> = std::sync::OnceLock::new();
    let nets = PARSED.get_or_init(|| {
        EMBEDDED
            .iter()
            .filter_map(|&(v, bytes)| match Network::from_bytes(bytes) {
                Ok(net) if net.variant == v => Some((v, Arc::new(net))),
                // A build with a damaged net plays with the classic evaluation; the test
                // of the embedded nets keeps this from ever shipping.
                _ => None,
            })
            .collect()
    });
    nets.iter().find(|(v, _)| *v == variant).map(|(_, net)| net.clone())
}

/// Makes the embedded networks (where there are any) the ones in use: what the engine and
/// its tools start with.
pub fn install_embedded() {
    for v in [Variant::Chess, Variant::Xiangqi] {
        install(v, embedded(v));
    }
}

/// The file name of `variant`'s embedded network, as `export_net` writes it by default.
pub fn default_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess => "chess.nnue",
        Variant::Xiangqi => "xiangqi.nnue",
    }
}

/// What `compiler` prints: version, compiler, target, profile, and the vector path the CPU
/// selected, with the networks in use.
pub fn compiler_text() -> String {
    let mut out = format!(
        "Chariot {} built by {} for {} ({} profile)\nSIMD: {} (this CPU supports {})",
        env!("CARGO_PKG_VERSION"),
        env!("CHARIOT_RUSTC"),
        env!("CHARIOT_TARGET"),
        env!("CHARIOT_PROFILE"),
        simd::selected().name(),
        simd::detect().name(),
    );
    for v in [Variant::Chess, Variant::Xiangqi] {
        let net = match in_use(v) {
            Some(net) => format!("network with {} hidden neurons", net.hidden),
            None => "classic evaluation".to_string(),
        };
        out.push_str(&format!("\n{}: {net}", v.name()));
    }
    out
}

/// The largest network file read: the largest hidden layer of the format for xiangqi's inputs
/// is about 10 MB.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a network file.
pub fn load(path: &str) -> Result<Network, String> {
    // Errors quote at most an excerpt of the path: it comes from input.
    let name = crate::report::excerpt(path);
    // Only a regular file of a network's size is read: a device or a pipe named by mistake
    // must not block the session or fill the memory.
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read '{name}': {e}"))?;
    if !meta.is_file() {
        return Err(format!("'{name}' is not a regular file"));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!("'{name}' has {} bytes, more than any network", meta.len()));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{name}': {e}"))?;
    Network::from_bytes(&bytes).map_err(|e| format!("'{name}': {e}"))
}

/// The evaluation of `board`: by the network in use, computed from scratch, or by
/// `classic` when there is none. What [`Game::evaluate`] answers.
pub fn evaluate<G: Game>(board: &G, classic: impl FnOnce(&G) -> Score) -> Score {
    match in_use(G::VARIANT) {
        Some(net) => accumulator::evaluate_fresh(&net, board),
        None => classic(board),
    }
}

/// A game's evaluation state: its classic evaluator `C`, or the network's accumulators, as
/// the network in use was when the search began.
#[derive(Clone)]
pub enum Hybrid<C> {
    /// The classic evaluation.
    Classic(C),
    /// The network.
    Nnue(Box<Accumulators>),
}

impl<G: Game, C: Evaluator<G>> Evaluator<G> for Hybrid<C> {
    fn new(board: &G) -> Self {
        match in_use(G::VARIANT) {
            Some(net) => Hybrid::Nnue(Box::new(Accumulators::new(net, board))),
            None => Hybrid::Classic(C::new(board)),
        }
    }

    fn reset(&mut self, board: &G) {
        let net = in_use(G::VARIANT);
        match (&mut *self, net) {
            (Hybrid::Nnue(acc), Some(net)) if Arc::ptr_eq(acc.network(), &net) => {
                acc.refresh(board)
            }
            (Hybrid::Classic(c), None) => c.reset(board),
            _ => *self = <Self as Evaluator<G>>::new(board),
        }
    }

    #[inline]
    fn push(&mut self, board: &G, m: Move) {
        match self {
            Hybrid::Nnue(acc) => acc.push(board, m),
            Hybrid::Classic(c) => c.push(board, m),
        }
    }

    #[inline]
    fn push_null(&mut self, board: &G) {
        match self {
            Hybrid::Nnue(acc) => acc.push_null(),
            Hybrid::Classic(c) => c.push_null(board),
        }
    }

    #[inline]
    fn pop(&mut self) {
        match self {
            Hybrid::Nnue(acc) => acc.pop(),
            Hybrid::Classic(c) => c.pop(),
        }
    }

    #[inline]
    fn evaluate(&mut self, board: &G) -> Score {
        match self {
            Hybrid::Nnue(acc) => acc.evaluate(board.side_to_move()),
            Hybrid::Classic(c) => c.evaluate(board),
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod embedded_tests {
    use super::*;

    /// Both games ship a network, and it reads: a damaged file would silently fall back to
    /// the classic evaluation.
    #[test]
    fn every_game_has_an_embedded_network() {
        for v in [Variant::Chess, Variant::Xiangqi] {
            let net = embedded(v).expect("an embedded network");
            assert_eq!(net.variant, v);
        }
    }
}
