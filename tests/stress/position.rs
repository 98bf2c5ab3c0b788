//! Positions: the start positions the driver draws from, a position reached by random play,
//! and the same position on the library's board to judge the engine's moves with.

use crate::common;
use crate::{CHESS_NO_MOVE, Kind, MATE_IN_2, Rng, XIANGQI_NO_MOVE};
use chariot_engine::chess::Chess;
use chariot_engine::game::{Game, Move, MoveList};
use chariot_engine::xiangqi::Xiangqi;

/// Start positions besides the standard one: each game's perft positions and the extras.
pub(crate) struct Fens {
    chess: Vec<String>,
    xiangqi: Vec<String>,
}

impl Fens {
    pub(crate) fn load() -> Fens {
        fn read<G: Game>(text: &str, no_move: &[&str]) -> Vec<String> {
            // The no-move answers are only exercised if these really have no move.
            for fen in no_move {
                let board = G::from_fen(fen).expect("a FEN with no move");
                assert!(legal(&board).is_empty(), "{fen} has moves");
            }
            let perft = common::perft_cases(text).into_iter().map(|(fen, _)| fen);
            perft.chain(no_move.iter().map(|s| s.to_string())).collect()
        }
        let mut chess = read::<Chess>(include_str!("../data/perft-chess.epd"), CHESS_NO_MOVE);
        chess.push(MATE_IN_2.to_string());
        Fens {
            chess,
            xiangqi: read::<Xiangqi>(include_str!("../data/perft-xiangqi.epd"), XIANGQI_NO_MOVE),
        }
    }

    pub(crate) fn of(&self, kind: Kind) -> &[String] {
        match kind {
            Kind::Chess => &self.chess,
            Kind::Xiangqi => &self.xiangqi,
        }
    }
}

/// A position as the driver sent it.
#[derive(Clone, Debug)]
pub(crate) struct Position {
    kind: Kind,
    /// `None`: the standard start position (`position startpos`).
    pub(crate) fen: Option<String>,
    moves: Vec<String>,
}

impl Position {
    pub(crate) fn startpos(kind: Kind) -> Position {
        Position { kind, fen: None, moves: Vec::new() }
    }

    pub(crate) fn command(&self) -> String {
        let mut line = match &self.fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !self.moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&self.moves.join(" "));
        }
        line
    }

    /// The position on the library's board, to judge the engine's moves with.
    pub(crate) fn root(&self) -> Root {
        match self.kind {
            Kind::Chess => Root::Chess(Box::new(play(self))),
            Kind::Xiangqi => Root::Xiangqi(Box::new(play(self))),
        }
    }
}

/// Sets up `p` on a board of game `G`.
fn play<G: Game>(p: &Position) -> G {
    let mut board = match &p.fen {
        Some(fen) => G::from_fen(fen).unwrap_or_else(|e| panic!("driver's FEN {fen}: {e}")),
        None => G::startpos(),
    };
    for text in &p.moves {
        let m = board.parse_move(text).unwrap_or_else(|e| panic!("driver's move {text}: {e}"));
        board.make(m);
    }
    board
}

fn legal<G: Game>(board: &G) -> Vec<Move> {
    let mut list = MoveList::new();
    board.legal_moves(&mut list);
    list.as_slice().to_vec()
}

/// A position reached by random play from the start or from one of `fens`, sent as a FEN of a
/// position on the way, the moves after it, or both.
pub(crate) fn random_position<G: Game>(rng: &mut Rng, kind: Kind, fens: &[String]) -> Position {
    let start = rng.percent(30).then(|| rng.pick(fens).clone());
    let mut board = match &start {
        Some(fen) => G::from_fen(fen).expect("a listed FEN"),
        None => G::startpos(),
    };
    let plies = rng.below(if kind == Kind::Chess { 80 } else { 100 });
    let mut on_the_way = vec![board.fen()];
    let mut moves = Vec::new();
    for _ in 0..plies {
        let list = legal(&board);
        if list.is_empty() {
            break;
        }
        // Captures half the time, so that games thin out and now and then end in a mate.
        let captures: Vec<Move> = list.iter().copied().filter(|&m| board.is_tactical(m)).collect();
        let m = if !captures.is_empty() && rng.percent(50) {
            *rng.pick(&captures)
        } else {
            *rng.pick(&list)
        };
        moves.push(board.move_text(m));
        board.make(m);
        on_the_way.push(board.fen());
    }
    let split = match rng.below(10) {
        0..=3 => 0,
        4..=7 => rng.below(moves.len() as u64 + 1) as usize,
        _ => moves.len(),
    };
    let fen = if split == 0 { start } else { Some(on_the_way[split].clone()) };
    Position { kind, fen, moves: moves.split_off(split) }
}

/// A position on the library's board.
pub(crate) enum Root {
    Chess(Box<Chess>),
    Xiangqi(Box<Xiangqi>),
}

/// Runs `$body` with `$b` bound to whichever board `$root` holds.
macro_rules! with_root {
    ($root:expr, $b:ident => $body:expr) => {
        match $root {
            Root::Chess($b) => $body,
            Root::Xiangqi($b) => $body,
        }
    };
}

impl Root {
    pub(crate) fn legal(&self) -> Vec<Move> {
        with_root!(self, b => legal(&**b))
    }

    pub(crate) fn texts(&self, moves: &[Move]) -> Vec<String> {
        with_root!(self, b => moves.iter().map(|&m| b.move_text(m)).collect())
    }

    pub(crate) fn parse(&self, texts: &[String]) -> Vec<Move> {
        with_root!(self, b => texts.iter().map(|t| b.parse_move(t).expect("driver's move")).collect())
    }

    /// Checks that `line` is legal move after move from here, its first move among `allowed`.
    pub(crate) fn check_line(&self, allowed: &[Move], line: &[&str]) -> Result<(), String> {
        with_root!(self, b => check_line(&**b, allowed, line))
    }
}

fn check_line<G: Game>(root: &G, allowed: &[Move], line: &[&str]) -> Result<(), String> {
    let mut board = root.clone();
    for (i, text) in line.iter().enumerate() {
        let m = board
            .parse_move(text)
            .map_err(|e| format!("move {} of {line:?} in {}: {e}", i + 1, board.fen()))?;
        if i == 0 && !allowed.contains(&m) {
            return Err(format!("{text} is not among the moves the go allows"));
        }
        board.make(m);
    }
    Ok(())
}
