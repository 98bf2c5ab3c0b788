//! NNUE: an efficiently updatable neural network evaluation, and the data it learns from.
//!
//! - [`data`]: the training record format of `chariot datagen` and `chariot train`;
//! - [`games`]: the compact training format, whole games with a score a move;
//! - [`network`]: the inputs, the quantised weights and their file format;
//! - [`accumulator`]: the first layer's sums, updated lazily move by move;
//! - [`simd`]: the inner loops and the run-time choice of the CPU's vector path.
//!
//! Each game has one network in use at a time, shared by every search thread: the one
//! embedded in the binary, one loaded by the `EvalFile` option, or none (the classic
//! evaluation). The session owns them ([`Networks`]) and hands each search its game's.

pub mod accumulator;
pub mod data;
pub mod games;
pub mod network;
pub mod simd;

use crate::game::{Evaluator, Game, Move, Score, Variant};
use accumulator::Accumulators;
use network::{NetError, Network};
use std::sync::Arc;

/// The network each game evaluates with (chess, xiangqi); `None`: the classic evaluation.
#[derive(Clone, Default)]
pub struct Networks([Option<Arc<Network>>; 2]);

impl std::fmt::Debug for Networks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hidden = |v| self.get(v).map(|n| n.hidden);
        f.debug_struct("Networks")
            .field("chess", &hidden(Variant::Chess))
            .field("xiangqi", &hidden(Variant::Xiangqi))
            .finish()
    }
}

impl Networks {
    /// The networks built into the binary, where there are any: what the engine and its tools
    /// start with.
    pub fn embedded() -> Networks {
        Networks([embedded(Variant::Chess), embedded(Variant::Xiangqi)])
    }

    /// No network: the classic evaluation in both games.
    pub fn classic() -> Networks {
        Networks::default()
    }

    /// The network `variant` evaluates with, if any.
    pub fn get(&self, variant: Variant) -> Option<&Arc<Network>> {
        self.0[variant.index()].as_ref()
    }

    /// Makes `net` the network of `variant` (`None`: the classic evaluation).
    pub fn set(&mut self, variant: Variant, net: Option<Arc<Network>>) {
        self.0[variant.index()] = net;
    }
}

/// A game whose evaluation state reads this module's networks, as both games' do: the way from
/// the session's [`Networks`] to what a search of that game evaluates with.
pub trait Networked: Game {
    /// What a search of this game evaluates with, out of `nets`.
    fn net_of(nets: &Networks) -> <Self::Eval as Evaluator<Self>>::Net;
}

impl<G: Game> Networked for G
where
    G::Eval: Evaluator<G, Net = Option<Arc<Network>>>,
{
    fn net_of(nets: &Networks) -> Option<Arc<Network>> {
        nets.get(G::VARIANT).cloned()
    }
}

/// The networks built into the binary, by game, from `nets/` (`nets/recipes.toml` says how
/// each was made).
const EMBEDDED: &[(Variant, &[u8])] = &[
    (Variant::Chess, include_bytes!("../../../nets/chess.nnue")),
    (Variant::Xiangqi, include_bytes!("../../../nets/xiangqi.nnue")),
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

/// The file name of `variant`'s embedded network, as `export_net` writes it by default.
pub fn default_name(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess => "chess.nnue",
        Variant::Xiangqi => "xiangqi.nnue",
    }
}

/// What `compiler` prints: version, compiler, target, profile, the inference path in use and
/// those the CPU offers, and the networks in use.
pub fn compiler_text(nets: &Networks) -> String {
    let mut out = format!(
        "Chariot {} built by {} for {} ({} profile)\ninference: {} (available: {})",
        env!("CARGO_PKG_VERSION"),
        env!("CHARIOT_RUSTC"),
        env!("CHARIOT_TARGET"),
        env!("CHARIOT_PROFILE"),
        simd::selected().name(),
        simd::available_names(),
    );
    for v in [Variant::Chess, Variant::Xiangqi] {
        let net = match nets.get(v) {
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

/// Why a network file was not loaded; the message quotes at most an excerpt of the path (it
/// comes from input).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file cannot be read.
    #[error("cannot read '{}': {error}", crate::text::excerpt(.path))]
    Read {
        /// The path as given.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// A directory, a device or a pipe.
    #[error("'{}' is not a regular file", crate::text::excerpt(.0))]
    NotAFile(String),
    /// Larger than any network of the format.
    #[error("'{}' has {bytes} bytes, more than any network", crate::text::excerpt(.path))]
    TooLarge {
        /// The path as given.
        path: String,
        /// Its size.
        bytes: u64,
    },
    /// Read, but not a network.
    #[error("'{}': {error}", crate::text::excerpt(.path))]
    Format {
        /// The path as given.
        path: String,
        /// What is wrong with it.
        error: NetError,
    },
}

/// Reads a network file.
pub fn load(path: &str) -> Result<Network, LoadError> {
    let read = |error| LoadError::Read { path: path.to_string(), error };
    // Only a regular file of a network's size is read: a device or a pipe named by mistake
    // must not block the session or fill the memory.
    let meta = std::fs::metadata(path).map_err(read)?;
    if !meta.is_file() {
        return Err(LoadError::NotAFile(path.to_string()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(LoadError::TooLarge { path: path.to_string(), bytes: meta.len() });
    }
    let bytes = std::fs::read(path).map_err(read)?;
    Network::from_bytes(&bytes).map_err(|error| LoadError::Format { path: path.to_string(), error })
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

impl<G: Game, C: Evaluator<G, Net = ()>> Evaluator<G> for Hybrid<C> {
    /// The network, or none for the classic evaluation.
    type Net = Option<Arc<Network>>;

    fn new(board: &G, net: &Option<Arc<Network>>) -> Self {
        match net {
            Some(net) => Hybrid::Nnue(Box::new(Accumulators::new(net.clone(), board))),
            None => Hybrid::Classic(C::new(board, &())),
        }
    }

    fn reset(&mut self, board: &G) {
        match self {
            Hybrid::Nnue(acc) => acc.refresh(board),
            Hybrid::Classic(c) => c.reset(board),
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
