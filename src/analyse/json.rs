//! A reviewed game as one line of JSON, for scripts: the file and game, the tags, each move
//! with its evaluation, best move, drop and judgement, and each side's summary.

use super::review::{Review, eval_text};
use chariot_engine::tools::analysis::{Summary, Verdict};

/// `text` as a JSON string.
fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An optional string, or `null`.
fn optional(text: Option<&str>) -> String {
    text.map_or("null".to_string(), string)
}

/// An evaluation as an object: `{"cp":23}` or `{"mate":-3}` (first side's view).
fn eval(v: Verdict) -> String {
    match v {
        Verdict::Cp(cp) => format!("{{\"cp\":{cp}}}"),
        Verdict::Mate(n) => format!("{{\"mate\":{n}}}"),
        Verdict::Mated => "{\"mate\":0,\"mated\":true}".to_string(),
    }
}

/// A side's summary as an object.
fn summary(s: &Summary) -> String {
    format!(
        "{{\"moves\":{},\"accuracy\":{:.1},\"average_loss\":{:.1},\"inaccuracies\":{},\"mistakes\":{},\"blunders\":{}}}",
        s.moves, s.accuracy, s.average_loss, s.inaccuracies, s.mistakes, s.blunders
    )
}

/// The game as one JSON object on one line, with its line end.
pub fn write(review: &Review) -> String {
    let tags: Vec<String> =
        review.tags.iter().map(|(n, v)| format!("{}:{}", string(n), string(v))).collect();
    let moves: Vec<String> = review
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                "{{\"ply\":{},\"move\":{},\"uci\":{},\"eval\":{},\"eval_text\":{},\"best\":{},\"best_uci\":{},\"chance\":{:.3},\"drop\":{:.3},\"loss\":{},\"depth\":{},\"judgement\":{},\"nag\":{}}}",
                review.first_ply as usize + i + 1,
                string(&m.text),
                string(&m.coords),
                eval(m.verdict),
                string(&eval_text(m.verdict)),
                optional(m.best.as_deref()),
                optional(m.best_coords.as_deref()),
                m.chance,
                m.drop,
                m.loss_cp,
                m.depth,
                optional(m.judgement.map(|j| j.name())),
                m.judgement.map_or("null".to_string(), |j| j.nag().to_string()),
            )
        })
        .collect();
    let [first, second] = review.sides();
    format!(
        "{{\"file\":{},\"game\":{},\"variant\":{},\"tags\":{{{}}},\"result\":{},\"moves\":[{}],\"summary\":{{{}:{},{}:{}}},\"nodes\":{},\"error\":{}}}\n",
        string(&review.file),
        review.number,
        string(review.variant.name()),
        tags.join(","),
        string(&review.result),
        moves.join(","),
        string(&first.to_ascii_lowercase()),
        summary(&review.summary[0]),
        string(&second.to_ascii_lowercase()),
        summary(&review.summary[1]),
        review.nodes,
        optional(review.error.as_deref()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\nd\u{1}炮"), "\"a\\\"b\\\\c\\nd\\u0001炮\"");
        assert_eq!(optional(None), "null");
    }
}
