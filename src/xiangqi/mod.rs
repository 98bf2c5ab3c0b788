//! Placeholder: the xiangqi rules are being written on their own branch.

use crate::game::*;

/// A xiangqi position.
#[derive(Clone)]
pub struct Xiangqi;

#[allow(unused_variables)]
impl Game for Xiangqi {
    const VARIANT: Variant = Variant::Xiangqi;
    const UNITS_PER_CP: Score = 1;
    fn startpos() -> Self {
        Xiangqi
    }
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Err(FenError::Empty)
    }
    fn fen(&self) -> String {
        String::new()
    }
    fn side_to_move(&self) -> Side {
        Side::First
    }
    fn key(&self) -> u64 {
        0
    }
    fn in_check(&self) -> bool {
        false
    }
    fn legal_moves(&self, list: &mut MoveList) {}
    fn legal_captures(&self, list: &mut MoveList) {}
    fn is_tactical(&self, m: Move) -> bool {
        false
    }
    fn mvv_lva(&self, m: Move) -> i32 {
        0
    }
    fn is_legal(&self, m: Move) -> bool {
        false
    }
    fn make(&mut self, m: Move) {}
    fn unmake(&mut self) {}
    fn make_null(&mut self) {}
    fn unmake_null(&mut self) {}
    fn has_null_material(&self) -> bool {
        false
    }
    fn evaluate(&self) -> Score {
        0
    }
    fn rule_score(&self, ply: usize) -> Option<Score> {
        None
    }
    fn no_move_score(&self, ply: usize) -> Score {
        0
    }
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Err(MoveError::Illegal(text.to_string()))
    }
    fn move_text(&self, m: Move) -> String {
        String::new()
    }
    fn perft(&mut self, depth: u32) -> u64 {
        0
    }
}
