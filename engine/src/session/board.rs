//! A position of either game, chosen once per command; and the texts of `d` and `eval`.

use crate::chess::Chess;
use crate::command::Start;
use crate::game::{FenError, Game, Inspect, Move, MoveError, Side, Style, Variant};
use crate::options::Settings;
use crate::xiangqi::Xiangqi;

/// A position of either game.
#[derive(Clone)]
pub enum Board {
    /// A chess position.
    Chess(Box<Chess>),
    /// A xiangqi position.
    Xiangqi(Box<Xiangqi>),
}

/// Runs `$body` with `$b` bound to the board of whichever game `$board` holds: the one place
/// where the controller goes from a runtime choice of game to code compiled for one game.
macro_rules! with_board {
    ($board:expr, $b:ident => $body:expr) => {
        match $board {
            $crate::session::board::Board::Chess($b) => $body,
            $crate::session::board::Board::Xiangqi($b) => $body,
        }
    };
}
pub(crate) use with_board;

impl From<Chess> for Board {
    fn from(b: Chess) -> Board {
        Board::Chess(Box::new(b))
    }
}

impl From<Xiangqi> for Board {
    fn from(b: Xiangqi) -> Board {
        Board::Xiangqi(Box::new(b))
    }
}

/// Why a position was rejected (nothing of it is applied): the FEN field or the first move at
/// fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The FEN is not one of the game's.
    #[error("invalid FEN: {0}")]
    Fen(FenError),
    /// Move `number` (from 1) of the list cannot be played.
    #[error("move {number} {error}")]
    Move {
        /// Its place in the list, from 1.
        number: usize,
        /// Why.
        error: MoveError,
    },
    /// The moves are xiangqi's from its start, but the session plays chess (a xiangqi GUI
    /// that drives Pikafish over UCI sends no `UCI_Variant`).
    #[error(
        "xiangqi moves, but the game is chess: send 'setoption name UCI_Variant value xiangqi' \
         or run 'chariot --variant xiangqi'"
    )]
    XiangqiMoves,
}

impl Board {
    /// The starting position of `variant`.
    pub fn startpos(variant: Variant) -> Board {
        match variant {
            Variant::Chess => Chess::startpos().into(),
            Variant::Xiangqi => Xiangqi::startpos().into(),
        }
    }

    /// Sets up `start` and plays `moves` in `variant` with the rules `settings` choose;
    /// on error nothing is applied and the message names the bad FEN field or the first bad
    /// move. Also returns the last move played, if any.
    pub fn setup(
        variant: Variant,
        start: &Start,
        moves: &[String],
        settings: &Settings,
    ) -> Result<(Board, Option<Move>), SetupError> {
        fn begin<G: Game>(start: &Start) -> Result<G, SetupError> {
            match start {
                Start::Startpos => Ok(G::startpos()),
                Start::Fen(fen) => G::from_fen(fen).map_err(SetupError::Fen),
            }
        }
        fn play<G: Game>(board: &mut G, moves: &[String]) -> Result<Option<Move>, SetupError> {
            let mut last = None;
            for (i, text) in moves.iter().enumerate() {
                let m = board
                    .parse_move(text)
                    .map_err(|error| SetupError::Move { number: i + 1, error })?;
                board.make(m);
                last = Some(m);
            }
            Ok(last)
        }
        let mut board: Board = match variant {
            Variant::Chess => begin::<Chess>(start)?.into(),
            Variant::Xiangqi => begin::<Xiangqi>(start)?.into(),
        };
        // The rules the settings choose hold from the first move on.
        board.apply(settings);
        let last = with_board!(&mut board, b => play(&mut **b, moves)).map_err(|e| {
            // A xiangqi GUI that drives Pikafish over UCI sends `startpos` and ICCS moves
            // without `UCI_Variant`: say what it meant and how to get it.
            let xiangqi = variant == Variant::Chess
                && *start == Start::Startpos
                && play(&mut Xiangqi::startpos(), moves).is_ok();
            // In place of the chess error, so that the message stays one short line.
            if xiangqi { SetupError::XiangqiMoves } else { e }
        })?;
        Ok((board, last))
    }

    /// The game this board plays.
    pub fn variant(&self) -> Variant {
        match self {
            Board::Chess(_) => Variant::Chess,
            Board::Xiangqi(_) => Variant::Xiangqi,
        }
    }

    /// Applies the rule settings that a board carries (Chess960 notation, the xiangqi move
    /// limit and repetition rules).
    pub fn apply(&mut self, settings: &Settings) {
        match self {
            Board::Chess(b) => b.set_chess960(settings.chess960),
            Board::Xiangqi(b) => {
                b.set_move_limit(settings.drawmoves);
                b.set_rules(settings.rules);
            }
        }
    }
}

/// Guesses the game from a FEN's shape: ten ranks mean xiangqi, eight mean chess.
pub fn variant_of_fen(fen: &str) -> Option<Variant> {
    let board = fen.split_whitespace().next()?;
    match board.split('/').count() {
        8 => Some(Variant::Chess),
        10 => Some(Variant::Xiangqi),
        _ => None,
    }
}

/// The text of `d`: the board, side to move, FEN, key, checkers, and the last move with its
/// name in the game's tradition (`last`: the move that led here, if known).
pub fn display_text<G: Inspect>(board: &G, style: Style, last: Option<Move>) -> String {
    let side = match (G::VARIANT, board.side_to_move()) {
        (_, Side::Second) => "black",
        (Variant::Chess, Side::First) => "white",
        (Variant::Xiangqi, Side::First) => "red",
    };
    let checkers = board.checkers();
    // The move is named in the position it was played from.
    let last = last.map(|m| {
        let mut before = board.clone();
        before.unmake();
        let (text, name) = (before.move_text(m), before.move_name(m));
        if name == text { name } else { format!("{text} ({name})") }
    });
    format!(
        "{}\nSide to move: {side}\nFen: {}\nKey: {:016X}\nCheckers: {}\nLast move: {}",
        board.board_text(style),
        board.fen(),
        board.key(),
        if checkers.is_empty() { "-".to_string() } else { checkers.join(" ") },
        last.unwrap_or_else(|| "-".to_string()),
    )
}

/// The text of `eval`: each term for each side in protocol units, then the total.
/// With a `net`, also what it says, which is what the search uses.
pub fn eval_text<G: Inspect>(board: &G, net: Option<&crate::nnue::network::Network>) -> String {
    let unit = G::UNITS_PER_CP;
    let (first, second) = match G::VARIANT {
        Variant::Chess => ("White", "Black"),
        Variant::Xiangqi => ("Red", "Black"),
    };
    let mut out = format!("{:>14} | {first:>8} | {second:>8} | {:>8}\n", "Term", "Total");
    out.push_str(&format!("{:-<14}-+-{:-<8}-+-{:-<8}-+-{:-<8}\n", "", "", "", ""));
    // Each side's share is rounded to protocol units first, so that every row adds up.
    let round = |x: i32| (x + unit / 2 * x.signum()) / unit;
    let mut total = 0;
    for t in board.eval_terms() {
        let (ours, theirs) = (round(t.first), round(t.second));
        total += ours - theirs;
        out.push_str(&format!(
            "{:>14} | {:>8} | {:>8} | {:>8}\n",
            t.name,
            ours,
            theirs,
            ours - theirs
        ));
    }
    let stm = round(board.classic_evaluate());
    let units = match G::VARIANT {
        Variant::Chess => "centipawns",
        Variant::Xiangqi => "UCCI units, a horse = 100",
    };
    out.push_str(&format!(
        "\nEvaluation: {} for {first} ({}, {units}); {} for the side to move",
        total,
        if total >= 0 { "ahead or level" } else { "behind" },
        stm
    ));
    if let Some(net) = net {
        // What the search uses when a network is in use; the table above explains nothing of it.
        let nn_stm = round(crate::nnue::accumulator::evaluate_fresh(net, board));
        let nn_first =
            if board.side_to_move() == crate::game::Side::First { nn_stm } else { -nn_stm };
        out.push_str(&format!(
            "\nNetwork ({} hidden, used by the search): {nn_first} for {first}; {nn_stm} for the side to move",
            net.hidden
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row of `eval` adds up: first side's share minus second's is the row's total, and
    /// the rows add up to the total for the first side.
    #[test]
    fn the_eval_table_adds_up() {
        let mut x = Xiangqi::startpos();
        for text in ["h2e2", "h9g7", "b0c2"] {
            let m = x.parse_move(text).expect("legal");
            x.make(m);
            let table = eval_text(&x, None);
            let mut sum = 0;
            for row in table.lines().skip(2).take_while(|l| !l.is_empty()) {
                let cells: Vec<i32> =
                    row.split('|').skip(1).map(|c| c.trim().parse().expect("a number")).collect();
                assert_eq!(cells[0] - cells[1], cells[2], "{row}");
                sum += cells[2];
            }
            assert!(table.contains(&format!("Evaluation: {sum} for Red")), "{table}");
        }
    }
}
