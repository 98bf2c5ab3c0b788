//! Text helpers for messages: a leaf module, so that every layer may quote its input in an
//! error without depending on the reports.

/// Input quoted in an error or message is cut to this many characters: a megabyte of garbage
/// is not echoed back, and every error stays one short line.
pub const EXCERPT_CHARS: usize = 80;

/// `text`, or its first [`EXCERPT_CHARS`] characters and an ellipsis: how every error quotes
/// input. Control characters (NUL, a line break inside a value) become U+FFFD, so that the
/// error stays one printable line.
pub fn excerpt(text: &str) -> String {
    let clean = |t: &str| -> String {
        t.chars().map(|c| if c.is_control() { char::REPLACEMENT_CHARACTER } else { c }).collect()
    };
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}...", clean(&text[..cut])),
        None => clean(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by fuzzing: an option name with a line break gave a two-line error.
    #[test]
    fn excerpts_are_short_single_lines() {
        assert_eq!(excerpt("a\nb\0c"), "a\u{fffd}b\u{fffd}c");
        let long = "x".repeat(1000);
        assert_eq!(excerpt(&long), format!("{}...", "x".repeat(EXCERPT_CHARS)));
        assert_eq!(excerpt("車"), "車");
    }
}
