//! A reviewed game as PGN: the record's tags and the analysis's, then each move with its NAG
//! and a comment holding its evaluation in the form lichess and python-chess read
//! (`5. Nxf7 $4 { [%eval -5.20] best: Bxf7+ }`), wrapped at 80 columns.

use super::review::{Review, eval_text};

/// The longest line PGN export format allows, less one.
const COLUMNS: usize = 79;

/// Escapes a tag value.
fn tag(name: &str, value: &str) -> String {
    let value = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("[{name} \"{value}\"]\n")
}

/// A comment's text: braces closed early would end it, so they become parentheses.
fn comment(text: &str) -> String {
    format!("{{ {} }}", text.replace('{', "(").replace('}', ")"))
}

/// Wraps movetext tokens at [`COLUMNS`] (a long comment may stay longer).
fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut col = 0;
    for t in tokens {
        let len = t.chars().count();
        if col > 0 && col + 1 + len > COLUMNS {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(t);
        col += len;
    }
    out.push('\n');
    out
}

/// The game as PGN, ending in a blank line.
pub fn write(review: &Review) -> String {
    let mut out = String::new();
    for (name, value) in &review.tags {
        out.push_str(&tag(name, value));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    for (i, entry) in review.moves.iter().enumerate() {
        let ply = review.first_ply as usize + i;
        let number = ply / 2 + 1;
        // Every move follows a comment, so a second side's move is numbered too.
        // The number, the move and its NAG stay on one line.
        let dots = if ply.is_multiple_of(2) { "." } else { "..." };
        let nag = entry.judgement.map(|j| format!(" ${}", j.nag())).unwrap_or_default();
        tokens.push(format!("{number}{dots} {}{nag}", entry.text));
        let mut text = format!("[%eval {}]", eval_text(entry.verdict));
        if let Some(best) = &entry.best {
            text.push_str(&format!(" best: {best}"));
        }
        tokens.push(comment(&text));
    }
    if let Some(error) = &review.error {
        tokens.push(comment(&format!("analysis stopped: {error}")));
    }
    tokens.push(review.result.clone());
    out.push_str(&wrap(&tokens));
    out.push('\n');
    out
}
