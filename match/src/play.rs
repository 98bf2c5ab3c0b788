//! One game between two engines: clocks, adjudication, and the referee's verdicts.
//!
//! The runner owns the clocks: a move's time is measured from writing `go` to reading
//! `bestmove` (stamped by the reader thread), and an engine whose clock falls below minus the
//! margin loses on time. Everything an engine does wrong ends the game as its loss with the
//! reason named; nothing an engine does ends the match.

use crate::engine::{Engine, EngineError, Go, Protocol, Reply};
use crate::referee::{End, GameResult, Referee, RefereeError, Rules};
use chariot_engine::game::{Side, Variant};
use std::time::Duration;

/// How long an engine may think under a fixed node count or depth before it counts as
/// silent (hung), in milliseconds, unless the match sets another.
pub const DEFAULT_FIXED_TIMEOUT_MS: u64 = 60_000;

/// How long each search may take.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum TimeControl {
    /// Base time and increment (milliseconds), and optionally moves per control.
    Clock {
        /// Time at the start, and added again each control when `moves_to_go` is set.
        base_ms: u64,
        /// Time added after each move.
        inc_ms: u64,
        /// Moves per control (repeating), if any.
        moves_to_go: Option<u32>,
    },
    /// A fixed time per move, milliseconds.
    MoveTime(u64),
    /// A fixed node count per move.
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
}

/// Ending games early by the engines' own scores.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Adjudication {
    /// Resign: (centipawns, moves): a side whose last `moves` scores were all at most
    /// −centipawns while its opponent's were all at least +centipawns loses.
    pub resign: Option<(i32, usize)>,
    /// Draw: (centipawns, moves, after plies): both sides' last `moves` scores within
    /// ±centipawns, once the game is that many plies long.
    pub draw: Option<(i32, usize, usize)>,
    /// A game this many plies long is a draw.
    pub max_plies: Option<usize>,
    /// Chess: a position the loaded Syzygy tablebases hold, with at most this many pieces,
    /// ends with the tables' result (see [`Rules::tablebase_end`](crate::referee::Rules::tablebase_end)).
    pub tablebases: Option<u32>,
}

/// Everything a game needs to know besides its engines and opening.
#[derive(Clone, Debug)]
pub struct GameConfig {
    /// The time control.
    pub tc: TimeControl,
    /// The clock tolerance before a time forfeit, milliseconds.
    pub margin_ms: u64,
    /// The silence allowed under fixed nodes or depth, milliseconds.
    pub fixed_timeout_ms: u64,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Chess960 castling notation (and `UCI_Chess960`).
    pub chess960: bool,
    /// Xiangqi's natural move limit in plies (0: none).
    pub move_limit: u32,
}

/// The record of a finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The variant.
    pub variant: Variant,
    /// White's (red's) engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// The start position as FEN.
    pub start_fen: String,
    /// The moves, in the runner's notation.
    pub moves: Vec<String>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended.
    pub reason: String,
    /// Whether the game ended by an engine's fault (crash, illegal move, time, silence).
    pub fault: bool,
    /// What pondering did in the game (all zero when neither engine ponders).
    pub ponder: PonderCounts,
    /// The game's wall time from `ucinewgame` to its end, seconds.
    pub seconds: f64,
    /// How much of that the engines spent thinking (from each `go` to its `bestmove`), seconds:
    /// the rest is the runner's and the pipes' (what a faster runner can win back).
    pub thinking: f64,
}

/// Pondering's events in a game or a match, both engines together.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PonderCounts {
    /// The expected reply came: `ponderhit`.
    pub hits: u64,
    /// Another reply came: `stop` and a new search.
    pub misses: u64,
    /// A ponder move that is not legal after the engine's own move (not pondered on).
    pub illegal: u64,
    /// A `stop` to a pondering engine not answered within
    /// [`PONDER_STOP_MS`](crate::engine::PONDER_STOP_MS) (the engine's fault).
    pub unanswered: u64,
}

impl PonderCounts {
    /// Adds another count to this one.
    pub fn add(&mut self, o: &PonderCounts) {
        self.hits += o.hits;
        self.misses += o.misses;
        self.illegal += o.illegal;
        self.unanswered += o.unanswered;
    }

    /// Whether anything was counted.
    pub fn any(&self) -> bool {
        *self != PonderCounts::default()
    }
}

/// Why a game could not be played to an end.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The opening is not a position of the game.
    #[error(transparent)]
    Opening(#[from] RefereeError),
    /// The runner is stopping.
    #[error("aborted")]
    Aborted,
}

/// One side's clock and its settings.
struct Clock {
    left_ms: i64,
    inc_ms: i64,
    base_ms: i64,
    /// Moves made in the current control.
    moves_in_control: u32,
}

/// The verdict of the score adjudication after a move by `mover`, if any. `scores[i]` are
/// side i's scores from its own point of view, oldest first.
fn adjudicate(
    adj: &Adjudication,
    scores: &[Vec<Option<i32>>; 2],
    mover: Side,
    plies: usize,
) -> Option<End> {
    if let Some(max) = adj.max_plies
        && plies >= max
    {
        return Some(End {
            result: GameResult::Draw,
            reason: "adjudicated: maximum game length".into(),
        });
    }
    let last = |side: Side, n: usize| -> Option<Vec<i32>> {
        let s = &scores[side.index()];
        if n == 0 || s.len() < n {
            return None;
        }
        s[s.len() - n..].iter().copied().collect()
    };
    let (us, them) = (mover, mover.flip());
    if let Some((cp, n)) = adj.resign
        && let (Some(a), Some(b)) = (last(us, n), last(them, n))
    {
        if a.iter().all(|&s| s <= -cp) && b.iter().all(|&s| s >= cp) {
            return Some(End {
                result: GameResult::loss_for(us),
                reason: "adjudicated: resign".into(),
            });
        }
        if a.iter().all(|&s| s >= cp) && b.iter().all(|&s| s <= -cp) {
            return Some(End {
                result: GameResult::win_for(us),
                reason: "adjudicated: resign".into(),
            });
        }
    }
    if let Some((cp, n, after)) = adj.draw
        && plies >= after
        && let (Some(a), Some(b)) = (last(us, n), last(them, n))
        && a.iter().chain(&b).all(|&s| s.abs() <= cp)
    {
        return Some(End { result: GameResult::Draw, reason: "adjudicated: draw".into() });
    }
    None
}

/// The search limit of the side `us` (the budget before it is silent, and the clock below
/// which it has lost on time), from the clocks as they stand.
fn limit_for(cfg: &GameConfig, clocks: &[Clock; 2], side: Side) -> (Go, u64, Option<i64>) {
    let (us, them) = (side.index(), side.flip().index());
    match cfg.tc {
        TimeControl::Clock { moves_to_go, .. } => {
            let left = |c: &Clock| c.left_ms.max(0) as u64;
            let to_go = moves_to_go.map(|n| n.saturating_sub(clocks[us].moves_in_control).max(1));
            let go = Go::Clock {
                own_ms: left(&clocks[us]),
                own_inc_ms: clocks[us].inc_ms as u64,
                opp_ms: left(&clocks[them]),
                opp_inc_ms: clocks[them].inc_ms as u64,
                white: side == Side::First,
                moves_to_go: to_go,
            };
            (go, left(&clocks[us]) + cfg.margin_ms, Some(-(cfg.margin_ms as i64)))
        }
        TimeControl::MoveTime(ms) => (Go::MoveTime(ms), ms + cfg.margin_ms, None),
        TimeControl::Nodes(n) => (Go::Nodes(n), cfg.fixed_timeout_ms, None),
        TimeControl::Depth(d) => (Go::Depth(d), cfg.fixed_timeout_ms, None),
    }
}

/// The position as an engine speaking `proto` is sent it: the start FEN (`None` for chess's
/// standard start) and the moves since. UCCI engines get the position after the last capture,
/// as UCCI GUIs send it.
fn engine_position<G: Rules>(
    referee: &Referee<G>,
    proto: Protocol,
    start_is_standard: bool,
) -> (Option<String>, Vec<String>) {
    let (fen, moves) = match proto {
        Protocol::Ucci => referee.since_irreversible(),
        Protocol::Uci => (referee.start_fen(), referee.moves()),
    };
    let standard =
        start_is_standard && moves.len() == referee.moves().len() && G::VARIANT == Variant::Chess;
    ((!standard).then(|| fen.to_string()), moves.to_vec())
}

/// Plays one game: `engines[0]` has white (red). Returns the record, or why there is none.
pub fn play_game<G: Rules>(
    engines: [&mut Engine; 2],
    opening: &str,
    cfg: &GameConfig,
) -> Result<GameRecord, PlayError> {
    let mut referee = Referee::<G>::new(opening, cfg.chess960, cfg.move_limit)?;
    let [white, black] = engines;
    let names = [white.name().to_string(), black.name().to_string()];
    let mut record = GameRecord {
        variant: G::VARIANT,
        white: names[0].clone(),
        black: names[1].clone(),
        start_fen: referee.start_fen().to_string(),
        moves: Vec::new(),
        result: GameResult::Draw,
        reason: String::new(),
        fault: false,
        ponder: PonderCounts::default(),
        seconds: 0.0,
        thinking: 0.0,
    };
    let started = std::time::Instant::now();
    let mut engines = [white, black];

    // Each engine is told of the new game; one that cannot start loses.
    for side in [Side::First, Side::Second] {
        match engines[side.index()].new_game() {
            Ok(()) => {}
            Err(EngineError::Aborted) => return Err(PlayError::Aborted),
            Err(e) => {
                engines[side.index()].kill();
                record.result = GameResult::loss_for(side);
                record.reason = format!("{} {e}", names[side.index()]);
                record.fault = true;
                return Ok(record);
            }
        }
    }

    let mut clocks = [Side::First, Side::Second].map(|side| {
        let factor = engines[side.index()].spec().tc_factor;
        let scale = |ms: u64| (ms as f64 * factor).round() as i64;
        match cfg.tc {
            TimeControl::Clock { base_ms, inc_ms, .. } => Clock {
                left_ms: scale(base_ms),
                inc_ms: scale(inc_ms),
                base_ms: scale(base_ms),
                moves_in_control: 0,
            },
            _ => Clock { left_ms: 0, inc_ms: 0, base_ms: 0, moves_in_control: 0 },
        }
    });
    let mut scores: [Vec<Option<i32>>; 2] = [Vec::new(), Vec::new()];
    let start_is_standard = match G::VARIANT {
        Variant::Chess => referee.start_fen() == chariot_engine::chess::START_FEN,
        Variant::Xiangqi => referee.start_fen() == chariot_engine::xiangqi::START_FEN,
    };

    let end = loop {
        if let Some(end) = referee.verdict() {
            break end;
        }
        if let Some(end) =
            cfg.adjudication.tablebases.and_then(|n| referee.board().tablebase_end(n))
        {
            break end;
        }
        let side = referee.side_to_move();
        let us = side.index();
        let (limit, budget_ms, forfeit_below) = limit_for(cfg, &clocks, side);
        let (fen, moves) = engine_position(&referee, engines[us].spec().proto, start_is_standard);
        let timed = matches!(cfg.tc, TimeControl::Clock { .. } | TimeControl::MoveTime(_));
        let budget = Duration::from_millis(budget_ms);
        let engine = &mut engines[us];
        let answer = match engine.pondering() {
            // The reply it pondered on came: its clock runs from the `ponderhit`.
            Some(expected) if referee.moves().last().map(String::as_str) == Some(expected) => {
                record.ponder.hits += 1;
                engine.ponderhit(budget)
            }
            pondering => {
                let stopped = match pondering {
                    Some(_) => {
                        record.ponder.misses += 1;
                        engine.stop_pondering()
                    }
                    None => Ok(()),
                };
                match stopped {
                    Ok(()) => engine.go(fen.as_deref(), &moves, limit, budget),
                    Err(EngineError::Aborted) => return Err(PlayError::Aborted),
                    Err(e) => {
                        record.fault = true;
                        record.ponder.unanswered += 1;
                        break End {
                            result: GameResult::loss_for(side),
                            reason: format!(
                                "{} did not answer stop while pondering ({e})",
                                names[us]
                            ),
                        };
                    }
                }
            }
        };
        let answer = match answer {
            Ok(a) => a,
            Err(EngineError::Aborted) => return Err(PlayError::Aborted),
            Err(e) => {
                record.fault = true;
                let what = match (&e, timed) {
                    (EngineError::Silent { .. }, true) => format!("loses on time ({e})"),
                    (EngineError::Silent { .. }, false) => format!("hung ({e})"),
                    _ => e.to_string(),
                };
                break End {
                    result: GameResult::loss_for(side),
                    reason: format!("{} {what}", names[us]),
                };
            }
        };
        let used = answer.elapsed.as_millis() as i64;
        record.thinking += answer.elapsed.as_secs_f64();
        if let Some(floor) = forfeit_below {
            let clock = &mut clocks[us];
            clock.left_ms -= used;
            if clock.left_ms < floor {
                record.fault = true;
                break End {
                    result: GameResult::loss_for(side),
                    reason: format!("{} loses on time ({} ms over)", names[us], -clock.left_ms),
                };
            }
            clock.left_ms += clock.inc_ms;
            clock.moves_in_control += 1;
            if let TimeControl::Clock { moves_to_go: Some(n), .. } = cfg.tc
                && clock.moves_in_control >= n
            {
                clock.moves_in_control = 0;
                clock.left_ms += clock.base_ms;
            }
        } else if let TimeControl::MoveTime(ms) = cfg.tc
            && used > (ms + cfg.margin_ms) as i64
        {
            record.fault = true;
            break End {
                result: GameResult::loss_for(side),
                reason: format!("{} loses on time ({used} ms for a {ms} ms move)", names[us]),
            };
        }
        let text = match answer.reply {
            Reply::Resign => {
                break End {
                    result: GameResult::loss_for(side),
                    reason: format!("{} resigns", names[us]),
                };
            }
            Reply::NoMove => {
                record.fault = true;
                break End {
                    result: GameResult::loss_for(side),
                    reason: format!("{} gave no move (bestmove (none))", names[us]),
                };
            }
            Reply::Move(text) => text,
        };
        if let Err(why) = referee.play(&text) {
            record.fault = true;
            break End {
                result: GameResult::loss_for(side),
                reason: format!("{} played an illegal move: {why}", names[us]),
            };
        }
        scores[us].push(answer.score);
        if let Some(end) = adjudicate(&cfg.adjudication, &scores, side, referee.moves().len()) {
            break end;
        }
        // Pondering: on the reply it expects, if that is legal, with its clocks as they will
        // be when it is to move again.
        let engine = &mut engines[us];
        if let (true, Some(reply)) = (engine.spec().ponder, answer.ponder.as_deref()) {
            let board = referee.board();
            match board.parse_move(reply) {
                Ok(m) => {
                    let (fen, mut moves) =
                        engine_position(&referee, engine.spec().proto, start_is_standard);
                    moves.push(board.move_text(m));
                    let (limit, _, _) = limit_for(cfg, &clocks, side);
                    match engine.ponder(fen.as_deref(), &moves, limit) {
                        Ok(()) => {}
                        Err(EngineError::Aborted) => return Err(PlayError::Aborted),
                        // Gone: its next `go` finds out and loses the game.
                        Err(_) => engine.kill(),
                    }
                }
                Err(_) => record.ponder.illegal += 1,
            }
        }
    };
    // A ponder search still running is stopped; the game is over, so an engine that does not
    // answer is only counted (and started afresh next game).
    for engine in &mut engines {
        if engine.pondering().is_some() {
            match engine.stop_pondering() {
                Ok(()) => {}
                Err(EngineError::Aborted) => return Err(PlayError::Aborted),
                Err(_) => record.ponder.unanswered += 1,
            }
        }
    }
    record.moves = referee.moves().to_vec();
    record.result = end.result;
    record.reason = end.reason;
    record.seconds = started.elapsed().as_secs_f64();
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[i32]) -> Vec<Option<i32>> {
        v.iter().map(|&x| Some(x)).collect()
    }

    #[test]
    fn resign_needs_both_sides_to_agree() {
        let adj = Adjudication { resign: Some((600, 3)), ..Default::default() };
        let scores = [s(&[-700, -800, -900]), s(&[650, 700, 800])];
        let end = adjudicate(&adj, &scores, Side::First, 6).expect("adjudicated");
        assert_eq!(end.result, GameResult::BlackWins);
        let scores = [s(&[-700, -800, -900]), s(&[650, 100, 800])];
        assert_eq!(adjudicate(&adj, &scores, Side::First, 6), None);
        // The winner may be the side that just moved.
        let scores = [s(&[-700, -800, -900]), s(&[650, 700, 800])];
        let end = adjudicate(&adj, &scores, Side::Second, 6).expect("adjudicated");
        assert_eq!(end.result, GameResult::BlackWins);
        // A missing score breaks the run.
        let scores = [vec![Some(-700), None, Some(-900)], s(&[650, 700, 800])];
        assert_eq!(adjudicate(&adj, &scores, Side::First, 6), None);
    }

    #[test]
    fn draw_and_length_adjudication() {
        let adj =
            Adjudication { draw: Some((10, 2, 20)), max_plies: Some(100), ..Default::default() };
        let scores = [s(&[5, -3]), s(&[0, 10])];
        assert_eq!(adjudicate(&adj, &scores, Side::First, 19), None);
        assert_eq!(
            adjudicate(&adj, &scores, Side::First, 20).map(|e| e.result),
            Some(GameResult::Draw)
        );
        let scores = [s(&[5, -30]), s(&[0, 10])];
        assert_eq!(adjudicate(&adj, &scores, Side::First, 40), None);
        assert!(adjudicate(&adj, &scores, Side::First, 100).is_some());
    }
}
