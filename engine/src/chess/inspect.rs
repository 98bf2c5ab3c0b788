//! Chess for people: the board as text, the evaluation's terms, the colour mirror.

use super::Chess;
use super::bitboard::*;
use super::eval;
use crate::game::{Game, Inspect, Score, Style, Term, mirror_fen};

/// Unicode pieces in [`PIECE_CHARS`] order: white's, then black's.
const SYMBOLS: [char; 12] = ['♙', '♘', '♗', '♖', '♕', '♔', '♟', '♞', '♝', '♜', '♛', '♚'];

impl Inspect for Chess {
    fn board_text(&self, style: Style) -> String {
        let b = self.board();
        let rule = " +---+---+---+---+---+---+---+---+\n";
        let mut out = String::from(rule);
        for rank in (0..8).rev() {
            for file in 0..8 {
                let p = b.squares[rank * 8 + file];
                let c = match (p, style) {
                    (NO_PIECE, _) => ' ',
                    (p, Style::Letters) => PIECE_CHARS[p as usize] as char,
                    (p, Style::Symbols) => SYMBOLS[p as usize],
                };
                out.push_str(&format!(" | {c}"));
            }
            out.push_str(&format!(" | {}\n{rule}", rank + 1));
        }
        out.push_str("   a   b   c   d   e   f   g   h\n");
        out
    }

    fn checkers(&self) -> Vec<String> {
        let mut bb = self.board().checkers();
        let mut out = Vec::new();
        while bb != 0 {
            out.push(square_name(bb.trailing_zeros() as usize));
            bb &= bb - 1;
        }
        out
    }

    fn eval_terms(&self) -> Vec<Term> {
        eval::trace(self.board())
            .iter()
            .map(|&(name, [w, b])| Term { name, first: w, second: b })
            .collect()
    }

    fn classic_evaluate(&self) -> Score {
        eval::evaluate(self.board())
    }

    fn flipped(&self) -> Self {
        let mut fields = mirror_fen(&self.fen());
        if let Some(rights) = fields.get_mut(2).filter(|r| *r != "-") {
            // Swap the rights' case; white's come first in FEN.
            let (upper, lower): (String, String) =
                rights.chars().partition(char::is_ascii_uppercase);
            *rights = lower.to_ascii_uppercase() + &upper.to_ascii_lowercase();
        }
        if let Some(ep) = fields.get_mut(3).filter(|f| f.len() == 2) {
            let rank = if ep.ends_with('3') { '6' } else { '3' };
            ep.replace_range(1..2, &rank.to_string());
        }
        let mut flipped = Chess::from_fen(&fields.join(" ")).unwrap_or_else(|_| self.clone());
        flipped.set_chess960(self.chess960());
        flipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: &[&str] = &[
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];

    #[test]
    fn terms_add_up_to_the_evaluation() {
        for fen in FENS {
            let c = Chess::from_fen(fen).expect("fen");
            let terms = c.eval_terms();
            let white: i32 = terms.iter().map(|t| t.first - t.second).sum();
            let stm = if c.side_to_move() == crate::game::Side::First { white } else { -white };
            assert!(
                (stm - c.classic_evaluate()).abs() <= 3,
                "{fen}: {stm} vs {}",
                c.classic_evaluate()
            );
        }
    }

    #[test]
    fn flip_mirrors_and_keeps_the_score() {
        for fen in FENS {
            let mut c = Chess::from_fen(fen).expect("fen");
            let f = c.flipped();
            assert_eq!(c.classic_evaluate(), f.classic_evaluate(), "{fen} vs {}", f.fen());
            assert_eq!(f.flipped().fen(), c.fen());
            assert_eq!(c.perft(3), f.clone().perft(3));
        }
    }

    #[test]
    fn board_text_has_coordinates_and_pieces() {
        let c = Chess::startpos();
        let t = c.board_text(Style::Letters);
        assert!(t.contains("| r | n | b | q | k | b | n | r | 8"));
        assert!(t.contains("a   b   c   d   e   f   g   h"));
        assert!(c.board_text(Style::Symbols).contains('♔'));
        let check = Chess::from_fen("4k3/8/8/8/8/8/4q3/4K3 w - - 0 1").expect("fen");
        assert_eq!(check.checkers(), vec!["e2".to_string()]);
    }
}
