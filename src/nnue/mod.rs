//! NNUE: an efficiently updatable neural network evaluation, and the data it learns from.
//!
//! - [`data`]: the training record format of `chariot datagen` and `chariot train`;
//! - [`network`]: the inputs, the quantised weights and their file format.

pub mod data;
pub mod network;
