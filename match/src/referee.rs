//! The referee: Chariot's own boards and rules judge every move and every game end.
//!
//! Legality is the board's (`parse_move` against the legal move list); game ends are what
//! Chariot's search itself treats as ends at the root (`no_move_score`, `rule_score(0)`,
//! as `chariot datagen` judges its games): in chess mate, stalemate, the fifty-move rule,
//! threefold repetition and insufficient material; in xiangqi "no legal move loses", the
//! natural move limit, insufficient material and the computer rule judge's repetition
//! verdicts (perpetual check and chase lose, other repetitions draw). The referee only adds
//! the name of the rule, which the judge's score does not carry.

use chariot_engine::chess::Chess;
use chariot_engine::chess::tb::Wdl;
use chariot_engine::game::{Game, MoveList, Side, Variant};
use chariot_engine::xiangqi::Xiangqi;

/// A finished game's result.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// White (red) won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
}

impl GameResult {
    /// The PGN result token.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The result when `side` loses.
    pub fn loss_for(side: Side) -> GameResult {
        match side {
            Side::First => GameResult::BlackWins,
            Side::Second => GameResult::WhiteWins,
        }
    }

    /// The result when `side` wins.
    pub fn win_for(side: Side) -> GameResult {
        GameResult::loss_for(side.flip())
    }
}

/// Why a move was refused, or why a position could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefereeError {
    /// The opening is not a valid position of the game.
    #[error("bad opening FEN '{fen}': {reason}")]
    Fen {
        /// The FEN.
        fen: String,
        /// Why.
        reason: String,
    },
}

/// Rules the referee needs beyond [`Game`]: which rule a drawn or decided position fell
/// under, and the game's own settings.
pub trait Rules: Game {
    /// Applies the match's settings to a board just read from a FEN.
    fn configure(&mut self, chess960: bool, move_limit: u32);
    /// The name of the rule behind a drawn `rule_score`, given whether the position has
    /// occurred three times.
    fn draw_rule(&self, threefold: bool) -> &'static str;
    /// The name of the game end when the side to move has no legal move.
    fn no_move_rule(&self) -> &'static str;
    /// The endgame tablebases' result of the position, when tables of at most `pieces`
    /// pieces are loaded that hold it (chess; none in xiangqi).
    fn tablebase_end(&self, _pieces: u32) -> Option<End> {
        None
    }
}

impl Rules for Chess {
    fn configure(&mut self, chess960: bool, _move_limit: u32) {
        self.set_chess960(chess960);
    }

    fn draw_rule(&self, threefold: bool) -> &'static str {
        // The same order as `rule_score` checks them.
        if self.board().halfmove >= 100 {
            "fifty-move rule"
        } else if threefold {
            "threefold repetition"
        } else {
            "insufficient material"
        }
    }

    fn no_move_rule(&self) -> &'static str {
        if self.in_check() { "checkmate" } else { "stalemate" }
    }

    fn tablebase_end(&self, pieces: u32) -> Option<End> {
        // Only right after a capture or pawn move: there a table's win is a win under the
        // fifty-move rule the referee keeps, and a cursed win a draw. Later in the same
        // ending the clock would have to be added to the distance, which WDL tables lack;
        // every ending with fewer pieces starts with a capture, so none is missed.
        let board = self.board();
        if board.halfmove != 0 {
            return None;
        }
        let us = self.side_to_move();
        let (result, value) = match board.probe_wdl(pieces)? {
            Wdl::Win => (GameResult::win_for(us), "win"),
            Wdl::Loss => (GameResult::loss_for(us), "loss"),
            Wdl::CursedWin => (GameResult::Draw, "win cursed by the fifty-move rule"),
            Wdl::BlessedLoss => (GameResult::Draw, "loss saved by the fifty-move rule"),
            Wdl::Draw => (GameResult::Draw, "draw"),
        };
        let mover = if us == Side::First { "white" } else { "black" };
        Some(End { result, reason: format!("adjudicated: tablebases ({value} for {mover})") })
    }
}

impl Rules for Xiangqi {
    fn configure(&mut self, _chess960: bool, move_limit: u32) {
        self.set_move_limit(move_limit);
    }

    fn draw_rule(&self, threefold: bool) -> &'static str {
        if threefold {
            "repetition"
        } else if self.position().insufficient_material() {
            "insufficient material"
        } else {
            "move limit"
        }
    }

    fn no_move_rule(&self) -> &'static str {
        if self.in_check() { "checkmate" } else { "no legal move (stalemate loses)" }
    }
}

/// A game in progress as the referee sees it: the board, and what a record needs.
pub struct Referee<G: Rules> {
    board: G,
    start_fen: String,
    /// The moves played, in the runner's notation.
    moves: Vec<String>,
    /// The board's key before each move, and the current key last.
    keys: Vec<u64>,
    /// Whether each move gave check.
    checks: Vec<bool>,
    /// The number of moves played up to the last capture (or pawn move: any move after
    /// which no earlier position can recur), and the FEN there.
    irreversible: (usize, String),
    list: MoveList,
}

/// A game end: the result and the rule (or fault) behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// The result.
    pub result: GameResult,
    /// Why the game ended, for people.
    pub reason: String,
}

impl<G: Rules> Referee<G> {
    /// A referee for a game from `fen`.
    pub fn new(fen: &str, chess960: bool, move_limit: u32) -> Result<Referee<G>, RefereeError> {
        let mut board = G::from_fen(fen)
            .map_err(|e| RefereeError::Fen { fen: fen.to_string(), reason: e.to_string() })?;
        board.configure(chess960, move_limit);
        let start_fen = board.fen();
        let key = board.key();
        Ok(Referee {
            board,
            irreversible: (0, start_fen.clone()),
            start_fen,
            moves: Vec::new(),
            keys: vec![key],
            checks: Vec::new(),
            list: MoveList::new(),
        })
    }

    /// The board.
    pub fn board(&self) -> &G {
        &self.board
    }

    /// The start position as FEN (as the board writes it).
    pub fn start_fen(&self) -> &str {
        &self.start_fen
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.board.side_to_move()
    }

    /// The position after the last irreversible move and the moves since: what a UCCI GUI
    /// sends, since UCCI engines are not required to take long move lists.
    pub fn since_irreversible(&self) -> (&str, &[String]) {
        (&self.irreversible.1, &self.moves[self.irreversible.0..])
    }

    /// Plays `text` if it is a legal move here; returns the move's canonical text, or why
    /// not.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        let m = self.board.parse_move(text).map_err(|e| e.to_string())?;
        let canonical = self.board.move_text(m);
        // A capture (or a chess pawn move, which resets the halfmove clock too) makes every
        // earlier position unreachable; find out through the clock in the FEN.
        self.board.make(m);
        self.moves.push(canonical.clone());
        self.keys.push(self.board.key());
        self.checks.push(self.board.in_check());
        let fen = self.board.fen();
        if fen.split_whitespace().nth(4) == Some("0") {
            self.irreversible = (self.moves.len(), fen);
        }
        Ok(canonical)
    }

    /// Whether the current position has occurred at least three times (keys include the
    /// side to move, so equal keys are the same position with the same side to move).
    fn threefold(&self) -> bool {
        let Some((&now, before)) = self.keys.split_last() else { return false };
        before.iter().filter(|&&k| k == now).count() >= 2
    }

    /// The game's end, if the position is one.
    pub fn verdict(&mut self) -> Option<End> {
        let stm = self.board.side_to_move();
        self.board.legal_moves(&mut self.list);
        if self.list.is_empty() {
            let score = self.board.no_move_score(0);
            let result = match score.signum() {
                0 => GameResult::Draw,
                1 => GameResult::win_for(stm),
                _ => GameResult::loss_for(stm),
            };
            return Some(End { result, reason: self.board.no_move_rule().to_string() });
        }
        let score = self.board.rule_score(0)?;
        if score == 0 {
            let reason = self.board.draw_rule(self.threefold()).to_string();
            return Some(End { result: GameResult::Draw, reason });
        }
        // A decided repetition (xiangqi): the side that broke the rule loses. Name the rule
        // from the cycle since the position's last occurrence.
        let loser = if score > 0 { stm.flip() } else { stm };
        let result = GameResult::loss_for(loser);
        let n = self.keys.len() - 1;
        let now = self.keys[n];
        let start = (0..n).rev().find(|&i| self.keys[i] == now).unwrap_or(n);
        // Move i is made by the side to move at keys[i]; the current side moves at n, so
        // the loser's moves are those at the same parity as n when the loser is to move.
        let loser_parity = if loser == stm { n % 2 } else { (n + 1) % 2 };
        let perpetual_check = (start..n).filter(|i| i % 2 == loser_parity).all(|i| self.checks[i]);
        let rule = if perpetual_check { "perpetual check" } else { "perpetual chase" };
        Some(End { result, reason: rule.to_string() })
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        G::VARIANT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all<G: Rules>(r: &mut Referee<G>, moves: &str) {
        for m in moves.split_whitespace() {
            assert_eq!(r.verdict(), None, "before {m}");
            r.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
    }

    #[test]
    fn chess_mate_and_illegal_moves() {
        let mut r = Referee::<Chess>::new(chariot_engine::chess::START_FEN, false, 0).expect("fen");
        assert!(r.play("e2e5").is_err());
        assert!(r.play("hello").is_err());
        play_all(&mut r, "f2f3 e7e5 g2g4 d8h4");
        assert_eq!(
            r.verdict(),
            Some(End { result: GameResult::BlackWins, reason: "checkmate".into() })
        );
    }

    #[test]
    fn chess_draws_name_their_rule() {
        let mut r = Referee::<Chess>::new(chariot_engine::chess::START_FEN, false, 0).expect("fen");
        play_all(&mut r, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        r.play("f6g8").expect("legal");
        assert_eq!(
            r.verdict(),
            Some(End { result: GameResult::Draw, reason: "threefold repetition".into() })
        );

        let mut r = Referee::<Chess>::new("7k/8/5K2/6Q1/8/8/8/8 w - - 0 1", false, 0).expect("fen");
        r.play("g5g6").expect("legal");
        assert_eq!(r.verdict(), Some(End { result: GameResult::Draw, reason: "stalemate".into() }));

        let r = Referee::<Chess>::new("7k/8/8/8/8/8/8/K6N w - - 0 1", false, 0);
        let mut r = r.expect("fen");
        assert_eq!(
            r.verdict(),
            Some(End { result: GameResult::Draw, reason: "insufficient material".into() })
        );

        let mut r = Referee::<Chess>::new("7k/8/8/8/8/8/R7/K7 w - - 99 80", false, 0).expect("fen");
        r.play("a2b2").expect("legal");
        assert_eq!(
            r.verdict(),
            Some(End { result: GameResult::Draw, reason: "fifty-move rule".into() })
        );
    }

    #[test]
    fn xiangqi_no_legal_move_loses() {
        // Chariot b8 holds rank 8, the red general holds file d: a7a9 mates.
        let fen = "4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 0 1";
        let mut r = Referee::<Xiangqi>::new(fen, false, 120).expect("fen");
        play_all(&mut r, "a7a9");
        assert_eq!(
            r.verdict(),
            Some(End { result: GameResult::WhiteWins, reason: "checkmate".into() })
        );
    }

    /// Plays `moves` until the referee ends the game; the end.
    fn first_end<G: Rules>(r: &mut Referee<G>, moves: &str) -> Option<End> {
        for m in moves.split_whitespace() {
            if let Some(end) = r.verdict() {
                return Some(end);
            }
            r.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        r.verdict()
    }

    /// Cases from tests/data/xiangqi-rules.txt, played until the threefold repetition.
    #[test]
    fn xiangqi_perpetuals_lose() {
        let cycle = "h8h9 e9e8 h9h8 e8e9 ".repeat(3);
        let mut r = Referee::<Xiangqi>::new("4k4/7R1/9/9/9/9/9/9/9/3K5 w - - 0 1", false, 120)
            .expect("fen");
        let end = first_end(&mut r, &cycle).expect("a repetition");
        assert_eq!(
            end,
            End { result: GameResult::BlackWins, reason: "perpetual check".into() },
            "{:?}",
            r.moves()
        );

        let cycle = "i7i8 a8c7 i8i7 c7a8 ".repeat(3);
        let mut r = Referee::<Xiangqi>::new("5k3/n8/8R/9/9/9/9/9/9/3K5 w - - 0 1", false, 120)
            .expect("fen");
        let end = first_end(&mut r, &cycle).expect("a repetition");
        assert_eq!(
            end,
            End { result: GameResult::BlackWins, reason: "perpetual chase".into() },
            "{:?}",
            r.moves()
        );

        // Checks on one move of two: a drawn repetition.
        let cycle = "h7h9 e9e8 h9h7 e8e9 ".repeat(3);
        let mut r = Referee::<Xiangqi>::new("4k4/9/7R1/9/9/9/9/9/9/3K5 w - - 0 1", false, 120)
            .expect("fen");
        let end = first_end(&mut r, &cycle).expect("a repetition");
        assert_eq!(end, End { result: GameResult::Draw, reason: "repetition".into() });
    }

    #[test]
    fn xiangqi_move_limit_and_material() {
        let mut r = Referee::<Xiangqi>::new("4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1", false, 120)
            .expect("fen");
        assert_eq!(
            r.verdict(),
            Some(End { result: GameResult::Draw, reason: "insufficient material".into() })
        );
        // A soldier that has not crossed the river is material: it crosses, and general and
        // soldier can win. One of the seven games of the 1,000-game verdict check (99247c3)
        // that the referee drew here while pyffish played on, as it must.
        let fen = "3a1k3/9/9/9/2p6/9/9/5A3/9/3K5 w - - 0 5";
        let mut r = Referee::<Xiangqi>::new(fen, false, 100).expect("fen");
        assert_eq!(r.verdict(), None);
        let mut r = Referee::<Xiangqi>::new("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80", false, 120)
            .expect("fen");
        play_all(&mut r, "a1a2");
        assert_eq!(
            r.verdict(),
            Some(End { result: GameResult::Draw, reason: "move limit".into() })
        );
    }

    #[test]
    fn ucci_positions_start_after_the_last_capture() {
        let mut r =
            Referee::<Xiangqi>::new(chariot_engine::xiangqi::START_FEN, false, 120).expect("fen");
        play_all(&mut r, "h2e2 h9g7 e2e6");
        let (fen, moves) = r.since_irreversible();
        assert_eq!(moves, &[] as &[String]);
        assert!(fen.starts_with("rnbakab1r/9/1c4nc1/p1p1C1p1p"), "{fen}");
        play_all(&mut r, "i6i5");
        assert_eq!(r.since_irreversible().1, ["i6i5"]);
    }

    #[test]
    fn bad_openings_are_errors() {
        assert!(Referee::<Chess>::new("not a fen", false, 0).is_err());
        assert!(Referee::<Xiangqi>::new(chariot_engine::chess::START_FEN, false, 120).is_err());
    }
}
