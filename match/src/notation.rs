//! Xiangqi move notation as engines write it: ICCS ranks 0-9 (UCCI, Pikafish, Chariot) or
//! ranks 1-10 (Fairy-Stockfish in UCI mode). The runner keeps every move in ICCS and
//! translates at the engine's edge.

/// How an engine writes moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// As the runner writes them: UCI coordinates for chess, ICCS (ranks 0-9) for xiangqi.
    #[default]
    Iccs,
    /// Fairy-Stockfish's xiangqi coordinates: ranks 1-10 (`h3e3` for ICCS `h2e2`).
    Fsf,
}

/// Splits `text` into (file, rank, file, rank, rest) when it is square, square, anything:
/// a letter and digits twice. `None` otherwise.
fn squares(text: &str) -> Option<(char, u32, char, u32, &str)> {
    let mut rest = text;
    let mut square = || -> Option<(char, u32)> {
        let file = rest.chars().next().filter(char::is_ascii_lowercase)?;
        let digits = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
        let rank = rest.get(1..1 + digits)?.parse().ok()?;
        rest = &rest[1 + digits..];
        Some((file, rank))
    };
    let (f1, r1) = square()?;
    let (f2, r2) = square()?;
    Some((f1, r1, f2, r2, rest))
}

impl Notation {
    /// Reads a notation name: `iccs` (also `uci`, `ucci`) or `fsf`.
    pub fn parse(text: &str) -> Option<Notation> {
        match text.to_ascii_lowercase().as_str() {
            "iccs" | "uci" | "ucci" => Some(Notation::Iccs),
            "fsf" => Some(Notation::Fsf),
            _ => None,
        }
    }

    /// A move in the runner's notation as this engine writes it.
    pub fn to_engine(self, m: &str) -> String {
        match (self, squares(m)) {
            (Notation::Fsf, Some((f1, r1, f2, r2, rest))) => {
                format!("{f1}{}{f2}{}{rest}", r1 + 1, r2 + 1)
            }
            _ => m.to_string(),
        }
    }

    /// A move as this engine wrote it, in the runner's notation. Text that is not a move is
    /// passed on unchanged, for the referee to reject.
    pub fn from_engine(self, m: &str) -> String {
        match (self, squares(m)) {
            (Notation::Fsf, Some((f1, r1, f2, r2, rest))) if r1 >= 1 && r2 >= 1 => {
                format!("{f1}{}{f2}{}{rest}", r1 - 1, r2 - 1)
            }
            _ => m.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fsf_ranks_are_one_higher() {
        assert_eq!(Notation::Fsf.to_engine("h2e2"), "h3e3");
        assert_eq!(Notation::Fsf.to_engine("a9a8"), "a10a9");
        assert_eq!(Notation::Fsf.from_engine("a10a9"), "a9a8");
        assert_eq!(Notation::Fsf.from_engine("h3e3"), "h2e2");
        assert_eq!(Notation::Iccs.from_engine("a10a9"), "a10a9");
        // Not a move: left for the referee to reject.
        assert_eq!(Notation::Fsf.from_engine("a0a1"), "a0a1");
        assert_eq!(Notation::Fsf.from_engine("(none)"), "(none)");
        assert_eq!(Notation::Fsf.from_engine("é1"), "é1");
        assert_eq!(Notation::parse("FSF"), Some(Notation::Fsf));
        assert_eq!(Notation::parse("x"), None);
    }
}
