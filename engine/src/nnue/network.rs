//! The network: its inputs, its quantised weights, and the file format they are kept in.
//!
//! A perspective network: each side has an accumulator, the sum of the first layer's weight
//! rows of the pieces as that side sees them (its own pieces first, the board mirrored for
//! the second side) plus a bias; the output is one neuron over both accumulators, the side to
//! move's first, each clipped to `[0, QA]` and squared (SCReLU) or only clipped (CReLU).
//!
//! The file (`.nnue`), every number little-endian:
//!
//! | offset | bytes | field |
//! |-------:|------:|-------|
//! | 0 | 8 | magic `CHNNUE01` |
//! | 8 | 1 | game: 0 chess, 1 xiangqi |
//! | 9 | 1 | activation: 0 CReLU, 1 SCReLU |
//! | 10 | 1 | output buckets `B`, 0 read as 1 (files from before the buckets) |
//! | 11 | 1 | input map: 0 plain, 1 king-mirrored, 2 king buckets, 3 king regions ([`InputMap`]) |
//! | 12 | 4 | inputs, a `u32` (chess 768, xiangqi 1260, times the map's king buckets) |
//! | 16 | 4 | hidden size `H`, a `u32`, a multiple of 16 |
//! | 20 | 4 | `QA`, an `i32`: the first layer's quantisation |
//! | 24 | 4 | `QB`, an `i32`: the output layer's quantisation |
//! | 28 | 4 | scale, an `i32`: internal units per unit of the float network's output |
//! | 32 | 2·inputs·H | first-layer weights, `i16`, input-major (the row of input 0 first) |
//! | ... | 2·H | first-layer biases, `i16` |
//! | ... | 4·H·B | output weights, `i16`, bucket by bucket: the side to move's half, then the other side's |
//! | ... | 4·B | output biases, `i32`, one per bucket |
//! | ... | 8 | FNV-1a 64 of every byte before it |
//!
//! The output layer used for a position is that of its bucket, chosen by the number of pieces
//! on the board ([`output_bucket`]): the endgame gets weights of its own.
//!
//! With the king-mirrored input map a side sees the board flipped left to right while its own
//! king stands on the right half (chess files e-h, xiangqi files f-i), so that the network
//! learns one set of patterns for a king on either wing, and a position and its mirror image
//! evaluate alike. With king buckets it is also given [`KING_BUCKETS`] sets of first-layer rows,
//! one for each region of the board its own king may stand in ([`Layout::king_bucket`]).
//! King regions give such sets without the mirror ([`Layout::king_region`]): a plain network
//! copied into each set is the same network, so training can start from one.
//!
//! The output in internal units is `(Σ f(acc)·w / d + bias) · scale / (QA·QB)` with integer
//! arithmetic, `f` the activation and `d` = `QA` for SCReLU (1 for CReLU); the float network
//! it was trained as computes `(Σ g(a)·w + b) · scale` with `g` clipping to `[0, 1]`.

use crate::game::{Game, Side, Variant};
use crate::rng::SplitMix;

/// The file's magic bytes.
const MAGIC: &[u8; 8] = b"CHNNUE01";
/// The header's size in bytes.
const HEADER_BYTES: usize = 32;
/// The largest hidden layer a file may declare (a sanity bound against corrupt headers).
const MAX_HIDDEN: usize = 4096;
/// The most output buckets a file may declare.
pub const MAX_BUCKETS: usize = 16;

/// The output bucket of a position with `pieces` pieces on the board (kings and generals
/// included) among `buckets`: 32 pieces down to 2 split evenly, so with 8 buckets every four
/// pieces taken off the board move one bucket down. The trainer and the engine share it.
#[inline]
pub fn output_bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.saturating_sub(2) as usize * buckets / 32).min(buckets - 1)
}

/// Where output bucket `bucket`'s weights lie among all the output weights: `2·hidden` of
/// them, the side to move's half first (the engine's and the trainer's layout).
pub fn bucket_rows(hidden: usize, bucket: usize) -> std::ops::Range<usize> {
    2 * hidden * bucket..2 * hidden * (bucket + 1)
}

/// The header byte that records `buckets` output buckets (network files and training
/// checkpoints): one is written as 0, so that files from before the buckets stay the same.
pub fn buckets_byte(buckets: usize) -> u8 {
    if buckets == 1 { 0 } else { buckets as u8 }
}

/// The output buckets a header byte records, `None` beyond [`MAX_BUCKETS`].
pub fn buckets_from_byte(byte: u8) -> Option<usize> {
    match usize::from(byte) {
        0 => Some(1),
        n if n <= MAX_BUCKETS => Some(n),
        _ => None,
    }
}

/// The sets of first-layer rows of [`InputMap::KingBuckets`].
pub const KING_BUCKETS: usize = 4;

/// Which first-layer row a piece on a square selects, beyond the side's own view of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InputMap {
    /// Each side sees the board from its own side ([`Layout::feature`]).
    Plain,
    /// As plain, and mirrored left to right while the side's king stands on the right half of
    /// the board ([`Layout::mirrors`]).
    KingMirrored,
    /// As king-mirrored, with a set of rows for each of [`KING_BUCKETS`] regions of the own
    /// king's square ([`Layout::king_bucket`]).
    KingBuckets,
    /// As plain (never mirrored), with a set of rows for each of [`KING_BUCKETS`] regions of
    /// the own king's square ([`Layout::king_region`]).
    KingRegions,
}

impl InputMap {
    /// Every map.
    pub const ALL: [InputMap; 4] =
        [InputMap::Plain, InputMap::KingMirrored, InputMap::KingBuckets, InputMap::KingRegions];

    /// The header byte of the map.
    pub fn byte(self) -> u8 {
        match self {
            InputMap::Plain => 0,
            InputMap::KingMirrored => 1,
            InputMap::KingBuckets => 2,
            InputMap::KingRegions => 3,
        }
    }

    /// The map a header byte records, if any.
    pub fn from_byte(byte: u8) -> Option<InputMap> {
        InputMap::ALL.into_iter().find(|m| m.byte() == byte)
    }

    /// Its name on the command line (`chariot train --inputs`).
    pub fn name(self) -> &'static str {
        match self {
            InputMap::Plain => "plain",
            InputMap::KingMirrored => "king-mirrored",
            InputMap::KingBuckets => "king-buckets",
            InputMap::KingRegions => "king-regions",
        }
    }

    /// The sets of first-layer rows: the inputs are the layout's times this.
    pub fn king_buckets(self) -> usize {
        match self {
            InputMap::KingBuckets | InputMap::KingRegions => KING_BUCKETS,
            _ => 1,
        }
    }

    /// How `side` sees the board with its king on `king` (a square of the board): `2·bucket`,
    /// plus 1 when mirrored. Always 0 for the plain map.
    #[inline(always)]
    pub fn view(self, layout: &Layout, side: Side, king: usize) -> u8 {
        match self {
            InputMap::Plain => 0,
            InputMap::KingMirrored => u8::from(layout.mirrors(king)),
            InputMap::KingBuckets => {
                let mirrored = layout.mirrors(king);
                let own = layout.own(side, king);
                let own = if mirrored { layout.mirror(own) } else { own };
                2 * layout.king_bucket(own) as u8 + u8::from(mirrored)
            }
            InputMap::KingRegions => 2 * layout.king_region(layout.own(side, king)) as u8,
        }
    }
}

/// How the first layer's output is activated.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Activation {
    /// Clipped to `[0, QA]`.
    CRelu,
    /// Clipped to `[0, QA]` and squared.
    SCRelu,
}

/// The input features of a game: one per (piece as a side sees it, square as it sees it).
#[derive(Copy, Clone, Debug)]
pub struct Layout {
    /// The game.
    pub variant: Variant,
    /// Squares of the board.
    pub squares: usize,
    /// Piece kinds per side.
    pub kinds: usize,
    /// Files of the board.
    pub files: usize,
    /// The royal piece's kind.
    pub king_kind: usize,
    /// Each square as the second side sees it.
    flipped: [u8; MAX_SQUARES],
}

/// The most squares of any game's board (xiangqi's 90): the room of [`Layout`]'s flip table.
const MAX_SQUARES: usize = 90;

impl Layout {
    /// The layout of game `G`: its board's size and pieces, and its own way of turning the
    /// board over ([`Game::flip_square`]), kept as a table so that the layout needs no game.
    pub fn of<G: Game>() -> Layout {
        const { assert!(G::SQUARES <= MAX_SQUARES) };
        let mut flipped = [0u8; MAX_SQUARES];
        for (sq, f) in flipped.iter_mut().enumerate().take(G::SQUARES) {
            *f = G::flip_square(sq) as u8;
        }
        Layout {
            variant: G::VARIANT,
            squares: G::SQUARES,
            kinds: G::PIECES / 2,
            files: G::FILES,
            king_kind: G::KING_KIND,
            flipped,
        }
    }

    /// The number of input features of `variant`'s game (before king buckets).
    pub fn inputs_of(variant: Variant) -> usize {
        let shape = variant.shape();
        shape.pieces * shape.squares
    }

    /// The number of input features.
    pub fn inputs(&self) -> usize {
        2 * self.kinds * self.squares
    }

    /// The feature of `piece` (`colour * kinds + kind`) on `square` as `perspective` sees it:
    /// its own pieces come first and the second side sees the board mirrored.
    #[inline(always)]
    pub fn feature(&self, piece: usize, square: usize, perspective: Side) -> usize {
        match perspective {
            Side::First => piece * self.squares + square,
            Side::Second => {
                // The same kind of the other colour: the colours' blocks trade places. (Divisions
                // by the run-time `kinds` and a call through a function pointer here cost 1% of
                // bench's instructions, and more of its cycles.)
                let theirs =
                    if piece < self.kinds { piece + self.kinds } else { piece - self.kinds };
                theirs * self.squares + self.flip(square)
            }
        }
    }

    /// `square` as the second side sees it, the board turned over: the game's own
    /// [`Game::flip_square`], looked up.
    #[inline(always)]
    pub fn flip(&self, square: usize) -> usize {
        usize::from(self.flipped[square])
    }

    /// `square` as `side` sees it: the board turned over for the second side.
    #[inline(always)]
    pub fn own(&self, side: Side, square: usize) -> usize {
        match side {
            Side::First => square,
            Side::Second => self.flip(square),
        }
    }

    /// [`Layout::feature`] seen in `view` ([`InputMap::view`]): the board mirrored left to
    /// right first when the view is odd, in the row set of its king bucket.
    #[inline(always)]
    pub fn feature_in(&self, piece: usize, square: usize, perspective: Side, view: u8) -> usize {
        let square = if view & 1 != 0 { self.mirror(square) } else { square };
        usize::from(view >> 1) * self.inputs() + self.feature(piece, square, perspective)
    }

    /// The king bucket of an own king on `square` of its side's view, mirrored to the left
    /// half: chess a1-b1, c1-d1, the second rank, further up; xiangqi the palace's centre
    /// file on the back rank, its side file there, the second rank, the third.
    #[inline(always)]
    pub fn king_bucket(&self, square: usize) -> usize {
        let (rank, file) = (square / self.files, square % self.files);
        match (self.variant, rank) {
            (Variant::Chess, 0) => usize::from(file >= 2),
            (Variant::Xiangqi, 0) => usize::from(file != self.files / 2),
            (_, 1) => 2,
            _ => 3,
        }
    }

    /// The king region of an own king on `square` of its side's view, the board not mirrored:
    /// on the back rank the queen's wing (chess a-c, xiangqi the palace's file d), the centre
    /// (d-e, file e) and the king's wing (f-h, file f); anywhere else the fourth. Where the
    /// king has castled or stays decides what shelters it.
    #[inline(always)]
    pub fn king_region(&self, square: usize) -> usize {
        let (rank, file) = (square / self.files, square % self.files);
        // The centre: chess's files d and e, xiangqi's file e.
        let centre = match self.variant {
            Variant::Chess => 3..=4,
            Variant::Xiangqi => 4..=4,
        };
        match rank {
            0 if file < *centre.start() => 0,
            0 if centre.contains(&file) => 1,
            0 => 2,
            _ => 3,
        }
    }

    /// `square` mirrored left to right.
    #[inline(always)]
    pub fn mirror(&self, square: usize) -> usize {
        square + self.files - 1 - 2 * (square % self.files)
    }

    /// Whether a king on `square` stands on the right half of the board (chess files e-h,
    /// xiangqi f-i: the centre file of xiangqi's odd count stays unmirrored), where the
    /// king-mirrored map flips its side's view.
    #[inline(always)]
    pub fn mirrors(&self, square: usize) -> bool {
        2 * (square % self.files) + 1 > self.files
    }

    /// The royal piece of `side`, indexed as [`Game::for_each_piece`] gives pieces.
    #[inline(always)]
    pub fn king(&self, side: Side) -> usize {
        side.index() * self.kinds + self.king_kind
    }
}

/// Why a network file was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not a Chariot network.
    #[error("not a Chariot network file (bad magic bytes)")]
    Magic,
    /// The file is shorter or longer than its header says.
    #[error("the file has {0} bytes where its header calls for {1}")]
    Size(usize, usize),
    /// A header field is out of range.
    #[error("header field '{0}' holds {1}, which is out of range")]
    Field(&'static str, i64),
    /// The network is for the other game.
    #[error("the network is for {0}, not {1}")]
    Game(&'static str, &'static str),
    /// The checksum does not match: the file is damaged.
    #[error("the checksum does not match: the file is damaged")]
    Checksum,
}

/// A quantised network, as read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The game it evaluates.
    pub variant: Variant,
    /// The first layer's activation.
    pub activation: Activation,
    /// Input features.
    pub inputs: usize,
    /// Neurons per accumulator.
    pub hidden: usize,
    /// First-layer quantisation.
    pub qa: i32,
    /// Output-layer quantisation.
    pub qb: i32,
    /// Internal units per unit of the float output.
    pub scale: i32,
    /// First-layer weights, `inputs` rows of `hidden`.
    pub ft_weights: Vec<i16>,
    /// First-layer biases.
    pub ft_bias: Vec<i16>,
    /// Output buckets: separate output layers chosen by the number of pieces.
    pub buckets: usize,
    /// Output weights per bucket: `hidden` for the side to move, then `hidden` for the other
    /// side.
    pub out_weights: Vec<i16>,
    /// Output bias per bucket, in units of `QA·QB`.
    pub out_bias: Vec<i32>,
    /// How pieces select first-layer rows.
    pub input_map: InputMap,
}

/// FNV-1a, 64 bits: a checksum that catches truncated and damaged files.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn i16s(b: &[u8], at: usize, n: usize) -> Vec<i16> {
    b[at..at + 2 * n].chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect()
}

impl Network {
    /// Reads a network file, checking every field and the checksum.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        if b.len() < HEADER_BYTES || &b[0..8] != MAGIC {
            return Err(NetError::Magic);
        }
        let variant = match b[8] {
            0 => Variant::Chess,
            1 => Variant::Xiangqi,
            x => return Err(NetError::Field("game", x.into())),
        };
        let activation = match b[9] {
            0 => Activation::CRelu,
            1 => Activation::SCRelu,
            x => return Err(NetError::Field("activation", x.into())),
        };
        let Some(input_map) = InputMap::from_byte(b[11]) else {
            return Err(NetError::Field("input map", b[11].into()));
        };
        let inputs = i32_at(b, 12) as u32 as usize;
        let hidden = i32_at(b, 16) as u32 as usize;
        if inputs != Layout::inputs_of(variant) * input_map.king_buckets() {
            return Err(NetError::Field("inputs", inputs as i64));
        }
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(16) {
            return Err(NetError::Field("hidden", hidden as i64));
        }
        let Some(buckets) = buckets_from_byte(b[10]) else {
            return Err(NetError::Field("buckets", b[10].into()));
        };
        let (qa, qb, scale) = (i32_at(b, 20), i32_at(b, 24), i32_at(b, 28));
        // QA bounds the clipped activation, whose square must stay an i16 product away from
        // overflow; QB and the scale only need to be positive.
        if !(1..=255).contains(&qa) {
            return Err(NetError::Field("qa", qa.into()));
        }
        if !(1..=1024).contains(&qb) {
            return Err(NetError::Field("qb", qb.into()));
        }
        if !(1..=100_000).contains(&scale) {
            return Err(NetError::Field("scale", scale.into()));
        }
        let expected = Network::file_size(inputs, hidden, buckets);
        if b.len() != expected {
            return Err(NetError::Size(b.len(), expected));
        }
        let body = expected - 8;
        let mut sum = [0u8; 8];
        sum.copy_from_slice(&b[body..]);
        if u64::from_le_bytes(sum) != fnv1a(&b[..body]) {
            return Err(NetError::Checksum);
        }
        let mut at = HEADER_BYTES;
        let ft_weights = i16s(b, at, inputs * hidden);
        at += 2 * inputs * hidden;
        let ft_bias = i16s(b, at, hidden);
        at += 2 * hidden;
        let out_weights = i16s(b, at, 2 * hidden * buckets);
        at += 4 * hidden * buckets;
        let out_bias = (0..buckets).map(|i| i32_at(b, at + 4 * i)).collect();
        Ok(Network {
            variant,
            activation,
            inputs,
            hidden,
            qa,
            qb,
            scale,
            ft_weights,
            ft_bias,
            buckets,
            out_weights,
            out_bias,
            input_map,
        })
    }

    /// A network of deterministic pseudo-random weights in the ranges trained networks have,
    /// with one output bucket: for tests of the inference and the file handling, and for
    /// speed measurements.
    pub fn random(variant: Variant, activation: Activation, hidden: usize, seed: u64) -> Network {
        Network::random_bucketed(variant, activation, hidden, 1, seed)
    }

    /// [`Network::random`] with `buckets` output buckets.
    pub fn random_bucketed(
        variant: Variant,
        activation: Activation,
        hidden: usize,
        buckets: usize,
        seed: u64,
    ) -> Network {
        Network::random_mapped(variant, activation, (hidden, buckets), InputMap::Plain, seed)
    }

    /// [`Network::random_bucketed`] under the input map `map` (every king bucket's rows drawn
    /// afresh).
    pub fn random_mapped(
        variant: Variant,
        activation: Activation,
        (hidden, buckets): (usize, usize),
        map: InputMap,
        seed: u64,
    ) -> Network {
        let mut rng = SplitMix::new(seed);
        let mut next = |lo: i32, hi: i32| (lo + rng.below((hi - lo + 1) as usize) as i32) as i16;
        let inputs = Layout::inputs_of(variant) * map.king_buckets();
        Network {
            variant,
            activation,
            inputs,
            hidden,
            qa: 255,
            qb: 64,
            scale: 400,
            ft_weights: (0..inputs * hidden).map(|_| next(-50, 50)).collect(),
            ft_bias: (0..hidden).map(|_| next(-30, 120)).collect(),
            buckets,
            out_weights: (0..2 * hidden * buckets).map(|_| next(-127, 127)).collect(),
            out_bias: (0..buckets).map(|_| i32::from(next(-3000, 3000))).collect(),
            input_map: map,
        }
    }

    /// The size of a file with these dimensions.
    fn file_size(inputs: usize, hidden: usize, buckets: usize) -> usize {
        HEADER_BYTES + 2 * inputs * hidden + 2 * hidden + (4 * hidden + 4) * buckets + 8
    }

    /// The network as a file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(Network::file_size(self.inputs, self.hidden, self.buckets));
        b.extend_from_slice(MAGIC);
        b.push(match self.variant {
            Variant::Chess => 0,
            Variant::Xiangqi => 1,
        });
        b.push(match self.activation {
            Activation::CRelu => 0,
            Activation::SCRelu => 1,
        });
        b.extend_from_slice(&[buckets_byte(self.buckets), self.input_map.byte()]);
        for v in [self.inputs as i32, self.hidden as i32, self.qa, self.qb, self.scale] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for w in self.ft_weights.iter().chain(&self.ft_bias).chain(&self.out_weights) {
            b.extend_from_slice(&w.to_le_bytes());
        }
        for bias in &self.out_bias {
            b.extend_from_slice(&bias.to_le_bytes());
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// Checks that the network evaluates `variant`.
    pub fn check_variant(&self, variant: Variant) -> Result<(), NetError> {
        if self.variant == variant {
            Ok(())
        } else {
            Err(NetError::Game(self.variant.name(), variant.name()))
        }
    }

    /// How `side` sees the board while its king stands on `king` ([`InputMap::view`]).
    #[inline(always)]
    pub fn view(&self, layout: &Layout, side: Side, king: usize) -> u8 {
        self.input_map.view(layout, side, king)
    }

    /// The output bucket of a position with `pieces` pieces.
    #[inline]
    pub fn bucket(&self, pieces: u32) -> usize {
        output_bucket(pieces, self.buckets)
    }

    /// The output weights of `bucket`: the side to move's half, then the other side's.
    #[inline]
    pub fn bucket_weights(&self, bucket: usize) -> (&[i16], &[i16]) {
        self.out_weights[bucket_rows(self.hidden, bucket)].split_at(self.hidden)
    }

    /// The output for the accumulators `us` (side to move) and `them` through output bucket
    /// `bucket`, in internal units: the reference arithmetic every faster path must
    /// reproduce exactly.
    pub fn output_reference(&self, us: &[i16], them: &[i16], bucket: usize) -> i32 {
        let (w_us, w_them) = self.bucket_weights(bucket);
        let mut sum = 0i32;
        for (acc, w) in [(us, w_us), (them, w_them)] {
            for (&a, &w) in acc.iter().zip(w) {
                let c = i32::from(a).clamp(0, self.qa);
                // c·w is taken as an i16 product, and SCReLU multiplies by c once more in 32
                // bits: the form a vector multiply-add computes, with the same wrapping.
                let cw = i32::from((c * i32::from(w)) as i16);
                let term = match self.activation {
                    Activation::CRelu => cw,
                    Activation::SCRelu => cw * c,
                };
                sum = sum.wrapping_add(term);
            }
        }
        if self.activation == Activation::SCRelu {
            sum /= self.qa;
        }
        let out = i64::from(sum) + i64::from(self.out_bias[bucket]);
        (out * i64::from(self.scale) / i64::from(self.qa * self.qb)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Chess;
    use crate::xiangqi::Xiangqi;

    fn tiny(variant: Variant) -> Network {
        Network::random(variant, Activation::SCRelu, 16, 1)
    }

    #[test]
    fn networks_survive_a_round_trip_and_damage_is_caught() {
        for v in [Variant::Chess, Variant::Xiangqi] {
            let net = tiny(v);
            let bytes = net.to_bytes();
            assert_eq!(Network::from_bytes(&bytes), Ok(net));
            let mut bad = bytes.clone();
            bad[100] ^= 1;
            assert_eq!(Network::from_bytes(&bad), Err(NetError::Checksum));
            assert!(matches!(
                Network::from_bytes(&bytes[..bytes.len() - 1]),
                Err(NetError::Size(..))
            ));
            assert_eq!(Network::from_bytes(b"hello"), Err(NetError::Magic));
            for map in InputMap::ALL {
                let bucketed = Network::random_mapped(v, Activation::SCRelu, (16, 8), map, 2);
                assert_eq!(Network::from_bytes(&bucketed.to_bytes()), Ok(bucketed));
            }
            let mut unknown = bytes.clone();
            unknown[11] = 4;
            assert_eq!(Network::from_bytes(&unknown), Err(NetError::Field("input map", 4)));
            // A plain network's size read as king buckets.
            unknown[11] = 2;
            assert!(matches!(Network::from_bytes(&unknown), Err(NetError::Field("inputs", _))));
        }
        assert!(tiny(Variant::Chess).check_variant(Variant::Xiangqi).is_err());
    }

    #[test]
    fn each_side_sees_its_own_pieces_first_on_a_mirrored_board() {
        let chess = Layout::of::<Chess>();
        assert_eq!(chess.inputs(), 768);
        // A white pawn on e2 (12) for white is a black pawn on e7 (52) for black.
        assert_eq!(chess.feature(0, 12, Side::First), 12);
        assert_eq!(chess.feature(0, 12, Side::Second), 6 * 64 + 52);
        assert_eq!(chess.feature(6, 52, Side::Second), 12);
        let xq = Layout::of::<Xiangqi>();
        assert_eq!(xq.inputs(), 1260);
        // Red's general on e0 (4) is black's general on e9 (85) seen from black.
        assert_eq!(xq.feature(0, 4, Side::First), 4);
        assert_eq!(xq.feature(7, 85, Side::Second), 4);
        assert_eq!(xq.feature(0, 4, Side::Second), 7 * 90 + 85);
    }

    #[test]
    fn kings_on_the_right_half_mirror_their_side_s_view() {
        let chess = Layout::of::<Chess>();
        // e1 (4) and h8 (63) are on the right half, d1 (3) and a8 (56) on the left.
        assert!(chess.mirrors(4) && chess.mirrors(63));
        assert!(!chess.mirrors(3) && !chess.mirrors(56));
        assert_eq!((chess.mirror(4), chess.mirror(56)), (3, 63));
        assert_eq!((chess.king(Side::First), chess.king(Side::Second)), (5, 11));
        // A white pawn on e2 seen mirrored by black: d7.
        assert_eq!(chess.feature_in(0, 12, Side::Second, 1), 6 * 64 + 51);
        // The king buckets: white's king on g1 is b1 mirrored, bucket 0; black's on e8 is d1
        // mirrored in its own view, bucket 1; on c7 it is c2, bucket 2; on a3, bucket 3.
        let b = InputMap::KingBuckets;
        assert_eq!(b.view(&chess, Side::First, 6), 1);
        assert_eq!(b.view(&chess, Side::Second, 60), 3);
        assert_eq!(b.view(&chess, Side::Second, 50), 4);
        assert_eq!(b.view(&chess, Side::First, 16), 6);
        assert_eq!(chess.feature_in(0, 12, Side::First, 6), 3 * 768 + 12);
        assert_eq!(InputMap::KingMirrored.view(&chess, Side::Second, 60), 1);
        assert_eq!(InputMap::Plain.view(&chess, Side::Second, 60), 0);
        let xq = Layout::of::<Xiangqi>();
        // The general's centre file e stays, f and beyond mirror.
        assert!(!xq.mirrors(4) && !xq.mirrors(3) && xq.mirrors(5) && xq.mirrors(89));
        assert_eq!((xq.mirror(4), xq.mirror(5), xq.mirror(90 - 9)), (4, 3, 89));
        assert_eq!((xq.king(Side::First), xq.king(Side::Second)), (0, 7));
        // Red's general on e0: bucket 0; black's on f9 is d0 mirrored: bucket 1; on e8, 2.
        assert_eq!(b.view(&xq, Side::First, 4), 0);
        assert_eq!(b.view(&xq, Side::Second, 86), 3);
        assert_eq!(b.view(&xq, Side::Second, 76), 4);
        assert_eq!(b.view(&xq, Side::First, 22), 6);
    }
}

#[cfg(test)]
mod bucket_tests {
    use super::*;

    #[test]
    fn eight_buckets_move_down_every_four_pieces() {
        assert_eq!(output_bucket(32, 8), 7);
        assert_eq!(output_bucket(30, 8), 7);
        assert_eq!(output_bucket(29, 8), 6);
        assert_eq!(output_bucket(6, 8), 1);
        assert_eq!(output_bucket(5, 8), 0);
        assert_eq!(output_bucket(2, 8), 0);
        // Never out of range, whatever the count.
        assert_eq!(output_bucket(0, 8), 0);
        assert_eq!(output_bucket(40, 8), 7);
        assert_eq!(output_bucket(32, 1), 0);
    }
}
