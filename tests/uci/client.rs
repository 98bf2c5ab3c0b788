//! A real client: python-chess.

use crate::common;

/// python-chess's `chess.engine` (a UCI client used by many tools) drives Chariot: options,
/// analysis with MultiPV 3, play with clocks and with pondering, Chess960; its log must stay
/// free of warnings and errors.
#[test]
fn python_chess_client_plays() {
    common::python_client("chess.engine", "python_chess_client.py");
}
