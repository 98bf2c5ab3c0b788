//! What the session runs and what it answers with: a [`Job`] (one `go`, resolved against the
//! position), the [`Outcome`] every kind of job ends in, and the one place an outcome becomes
//! the answer ([`answer`]).

use crate::command::{Limits, Task};
use crate::game::{Game, Move, MoveList, Score};
use crate::report::{Discard, Report, Sink, View};
use crate::search::config::Config;
use crate::search::skill::Skill;
use crate::search::time::Budget;
use std::sync::Arc;

/// One `go` to run, resolved against the position: what to do, the root moves and limits, and
/// what to report.
pub struct Job<G> {
    /// The root position.
    pub board: G,
    /// The moves the search may play (after `searchmoves` and `banmoves`).
    pub root: Vec<Move>,
    /// The limits of the `go`.
    pub limits: Limits,
    /// The time the search may take.
    pub budget: Budget,
    /// What to report.
    pub view: View,
    /// How strongly to play.
    pub skill: Skill,
    /// The draw's contempt, the idle share and the tablebases; its parameters are the
    /// session's, filled in when the job starts.
    pub config: Config,
    /// Past this many nodes, start no new iteration (datagen's budget).
    pub soft_nodes: Option<u64>,
    /// What to do: search, count, score, or answer from the book.
    pub task: Task,
    /// Where the search's reports go.
    pub sink: Arc<dyn Sink>,
}

impl<G: Game> Job<G> {
    /// A search of `board` over the moves `root` within `limits`, without a clock, at full
    /// strength, reporting nothing: the tools' kind of search.
    pub fn new(board: G, root: Vec<Move>, limits: Limits) -> Job<G> {
        // A tool's depth 0 is the static score, as the protocols' is.
        let task = if limits.depth == Some(0) { Task::Static } else { Task::Search };
        Job {
            board,
            root,
            limits,
            budget: Budget::default(),
            view: View::default(),
            skill: Skill::default(),
            config: Config::default(),
            soft_nodes: None,
            task,
            sink: Arc::new(Discard),
        }
    }

    /// [`Job::new`] over every legal move of `board`.
    pub fn quiet(board: G, limits: Limits) -> Job<G> {
        let mut list = MoveList::new();
        board.legal_moves(&mut list);
        let root = list.as_slice().to_vec();
        Job::new(board, root, limits)
    }
}

/// What a search found, besides the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The best move.
    pub mv: Option<Move>,
    /// Its score for the side to move, internal units.
    pub score: Score,
    /// The game's internal units per centipawn.
    pub units_per_cp: Score,
    /// The depth of the last finished iteration.
    pub depth: u32,
    /// Nodes searched by every thread.
    pub nodes: u64,
}

/// How a job ended: the one thing every `go` is answered with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `go perft`: the total of the counts reported move by move.
    Perft(u64),
    /// The move to play and the reply expected, in the engine's notation; no move for a
    /// position without one, for depth 0 and for a search whose root moves were all excluded.
    /// `found` is what a search found (none for a book move, depth 0 or no move).
    Move {
        /// The move to play.
        best: Option<String>,
        /// The reply expected.
        ponder: Option<String>,
        /// What the search found.
        found: Option<Found>,
    },
}

impl Outcome {
    /// An answer without a move (UCI `bestmove (none)`, UCCI `nobestmove`).
    pub const NONE: Outcome = Outcome::Move { best: None, ponder: None, found: None };

    /// The nodes searched, if a search ran.
    pub fn nodes(&self) -> u64 {
        match self {
            Outcome::Move { found: Some(f), .. } => f.nodes,
            _ => 0,
        }
    }
}

/// The answer to a `go` (or to UCCI's `stop` while idle), from its outcome: the one place a
/// `bestmove`, `nobestmove` or perft total is made. `judge` says, from what the search found,
/// whether to offer a draw and whether to resign.
pub fn answer(outcome: Outcome, judge: impl FnOnce(&Found) -> (bool, bool)) -> Report {
    match outcome {
        Outcome::Perft(nodes) => Report::PerftTotal { nodes },
        Outcome::Move { best, ponder, found } => {
            let (draw, resign) = found.as_ref().map_or((false, false), judge);
            Report::BestMove { best, ponder, draw, resign }
        }
    }
}
