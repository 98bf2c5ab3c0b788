//! A game analysed, in words: each move and the engine's best move as the record writes
//! them, the evaluations as people read them, and the tags the output adds. The writers
//! (`pgn`, `json`, `svg`) format this and nothing else.

use chariot_engine::game::{Side, Variant, fen_ply};
use chariot_engine::record::{Notation, Raw, Script};
use chariot_engine::tools::analysis::{Analysis, Judgement, Summary, Verdict, chance};

/// One move of a reviewed game.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The move as the output writes it (SAN, ICCS or Chinese).
    pub text: String,
    /// The move in the engine's notation (`e2e4`, `h2e2`).
    pub coords: String,
    /// The evaluation after it, from the first side's view.
    pub verdict: Verdict,
    /// The engine's best move where it differs, written as the moves are.
    pub best: Option<String>,
    /// The best move in the engine's notation.
    pub best_coords: Option<String>,
    /// How bad the move was, if it was.
    pub judgement: Option<Judgement>,
    /// The first side's expected score after the move (0 to 1).
    pub chance: f64,
    /// The mover's drop in expected score.
    pub drop: f64,
    /// The mover's loss, centipawns.
    pub loss_cp: i32,
    /// The depth the position before the move was searched to.
    pub depth: u32,
}

/// A game analysed, ready to write.
#[derive(Clone, Debug)]
pub struct Review {
    /// The file it came from, as named on the command line.
    pub file: String,
    /// Its number in the file.
    pub number: usize,
    /// The game.
    pub variant: Variant,
    /// The tags to write: the record's, then the analysis's.
    pub tags: Vec<(String, String)>,
    /// Plies before the first move (from the FEN's move number and side).
    pub first_ply: u32,
    /// The moves.
    pub moves: Vec<Entry>,
    /// The first side's expected score before the first move.
    pub start_chance: f64,
    /// The result to write.
    pub result: String,
    /// Why the game stops short of its record's end, if it does.
    pub error: Option<String>,
    /// Each side's summary, first side first.
    pub summary: [Summary; 2],
    /// Nodes searched.
    pub nodes: u64,
}

impl Review {
    /// The sides' names in this game, first side first.
    pub fn sides(&self) -> [&'static str; 2] {
        match self.variant {
            Variant::Chess => ["White", "Black"],
            Variant::Xiangqi => ["Red", "Black"],
        }
    }
}

/// The tags the analysis writes for each side (PGN's colour names: `WhiteAccuracy`...).
pub const SIDE_TAGS: [&str; 5] =
    ["Accuracy", "AverageLoss", "Inaccuracies", "Mistakes", "Blunders"];

/// The review of `raw`'s game, played from `start` with `script`, analysed as `analysis` says;
/// `error` is the reader's, when the game stopped short.
pub fn review<G: Notation>(
    file: &str,
    raw: &Raw,
    start: &G,
    script: Script,
    analysis: &Analysis,
    error: Option<String>,
    annotator: &str,
) -> Review {
    let mut board = start.clone();
    let mut moves = Vec::with_capacity(analysis.plies.len());
    for ply in &analysis.plies {
        let first = |c: f64| if ply.side == Side::First { c } else { 1.0 - c };
        let better = ply.better();
        moves.push(Entry {
            text: board.write_move(ply.mv, script),
            coords: board.move_text(ply.mv),
            verdict: ply.verdict(G::UNITS_PER_CP),
            best: better.map(|b| board.write_move(b, script)),
            best_coords: better.map(|b| board.move_text(b)),
            judgement: ply.judgement,
            chance: first(ply.chance),
            drop: ply.drop(),
            loss_cp: ply.loss_cp,
            depth: ply.before.depth,
        });
        board.make(ply.mv);
    }
    let start_chance = match analysis.plies.first() {
        Some(p) => {
            let c = chance(p.before.score, G::UNITS_PER_CP);
            if p.side == Side::First { c } else { 1.0 - c }
        }
        None => 0.5,
    };
    let summary =
        [Summary::of(&analysis.plies, Side::First), Summary::of(&analysis.plies, Side::Second)];
    // A game cut short has no result yet.
    let result = match (&error, &raw.result) {
        (None, Some(r)) => r.clone(),
        (None, None) => raw.tag("Result").unwrap_or("*").to_string(),
        (Some(_), _) => "*".to_string(),
    };
    let ours = |name: &str| {
        name.eq_ignore_ascii_case("Annotator")
            || ["White", "Black", "Red"]
                .iter()
                .any(|side| name.strip_prefix(side).is_some_and(|rest| SIDE_TAGS.contains(&rest)))
    };
    let mut tags: Vec<(String, String)> =
        raw.tags.iter().filter(|(n, _)| !ours(n)).cloned().collect();
    if error.is_some()
        && let Some(t) = tags.iter_mut().find(|(n, _)| n.eq_ignore_ascii_case("Result"))
    {
        t.1 = result.clone();
    }
    tags.push(("Annotator".to_string(), annotator.to_string()));
    // PGN's tags name the sides White and Black in both games, as chariot-match writes them.
    for (side, s) in ["White", "Black"].iter().zip(&summary) {
        let values = [
            format!("{:.1}", s.accuracy),
            format!("{:.0}", s.average_loss),
            s.inaccuracies.to_string(),
            s.mistakes.to_string(),
            s.blunders.to_string(),
        ];
        for (name, value) in SIDE_TAGS.iter().zip(values) {
            tags.push((format!("{side}{name}"), value));
        }
    }
    Review {
        file: file.to_string(),
        number: raw.number,
        variant: G::VARIANT,
        tags,
        first_ply: fen_ply(&start.fen()),
        moves,
        start_chance,
        result,
        error,
        summary,
        nodes: analysis.nodes,
    }
}

/// An evaluation as a `[%eval]` command writes it: pawns with two decimals, or `#n` moves to
/// mate (negative when the first side is mated).
pub fn eval_text(v: Verdict) -> String {
    match v {
        Verdict::Cp(cp) => {
            let sign = if cp < 0 { "-" } else { "" };
            format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
        }
        Verdict::Mate(n) => format!("#{n}"),
        Verdict::Mated => "#-0".to_string(),
    }
}

/// A side's summary in one line for people.
pub fn summary_text(name: &str, s: &Summary) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{name} accuracy {:.1}%, average loss {:.0}, {}, {}, {}",
        s.accuracy,
        s.average_loss,
        plural(s.inaccuracies, "inaccuracy", "inaccuracies"),
        plural(s.mistakes, "mistake", "mistakes"),
        plural(s.blunders, "blunder", "blunders"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evals_are_written_as_lichess_reads_them() {
        assert_eq!(eval_text(Verdict::Cp(23)), "0.23");
        assert_eq!(eval_text(Verdict::Cp(-520)), "-5.20");
        assert_eq!(eval_text(Verdict::Cp(-5)), "-0.05");
        assert_eq!(eval_text(Verdict::Mate(3)), "#3");
        assert_eq!(eval_text(Verdict::Mate(-2)), "#-2");
    }
}
