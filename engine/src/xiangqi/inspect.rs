//! Xiangqi for people: the board on its 10x9 grid with river and palaces, in letters or Chinese
//! characters; the evaluation's terms; the colour mirror; and moves in Chinese notation
//! (炮二平五, 马8进7).

use super::Xiangqi;
use super::bitboard::*;
use super::eval::VALUE;
use super::movegen::decode;
use super::position::{EMPTY, colour_of, kind, kind_of};
use crate::game::{Game, Inspect, Move, Score, Style, Term, mirror_fen};

/// FEN letters by kind (general, advisor, elephant, horse, chariot, cannon, soldier).
const LETTERS: [char; 7] = ['k', 'a', 'b', 'n', 'r', 'c', 'p'];
/// Board characters, red then black, in the traditional forms.
const BOARD_CHARS: [[char; 7]; 2] =
    [['帥', '仕', '相', '傌', '俥', '炮', '兵'], ['將', '士', '象', '馬', '車', '砲', '卒']];
/// Piece names in move notation, red then black, as notation is usually printed.
const NOTATION_NAMES: [[&str; 7]; 2] =
    [["帅", "仕", "相", "马", "车", "炮", "兵"], ["将", "士", "象", "马", "车", "炮", "卒"]];
/// Red counts files and steps in Chinese numerals; black in Arabic digits.
const RED_NUMERALS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];

/// The number a side gives `file` (0 = a): each side counts from its own right.
fn file_number(colour: usize, file: usize) -> usize {
    if colour == 0 { 9 - file } else { file + 1 }
}

/// Writes a number 1..=9 the way `colour` writes it.
fn numeral(colour: usize, n: usize) -> String {
    if colour == 0 { RED_NUMERALS[n.clamp(1, 9) - 1].to_string() } else { n.to_string() }
}

impl Xiangqi {
    /// The move `m` in Chinese notation: piece, file (or 前/中/后 when pieces share a file),
    /// then 进 (forward), 退 (back) or 平 (sideways) and the file or number of steps.
    pub fn chinese(&self, m: Move) -> String {
        let pos = self.position();
        let (from, to) = decode(m);
        let p = pos.board.get(from).copied().unwrap_or(EMPTY);
        if p == EMPTY || to >= SQUARES {
            return self.move_text(m);
        }
        let (colour, k) = (colour_of(p), kind_of(p));
        let name = NOTATION_NAMES[colour][k as usize];
        let (fr, ff, tr, tf) = (rank_of(from), file_of(from), rank_of(to), file_of(to));
        // Pieces of the same kind on this file, front (nearest the enemy) first.
        let mut same: Vec<usize> =
            (0..RANKS).map(|r| square(r, ff)).filter(|&s| pos.board[s] == p).collect();
        if colour == 0 {
            same.reverse();
        }
        let head = match same.len() {
            0 | 1 => format!("{name}{}", numeral(colour, file_number(colour, ff))),
            n => {
                let i = same.iter().position(|&s| s == from).unwrap_or(0);
                let place = match (n, i) {
                    (2, 0) | (3, 0) => "前".to_string(),
                    (3, 1) => "中".to_string(),
                    (_, i) if i + 1 == n => "后".to_string(),
                    (_, i) => numeral(colour, i + 1),
                };
                format!("{place}{name}")
            }
        };
        let forward = if colour == 0 { tr > fr } else { tr < fr };
        let straight = matches!(k, kind::GENERAL | kind::CHARIOT | kind::CANNON | kind::SOLDIER);
        let (action, target) = if tr == fr {
            ("平", file_number(colour, tf))
        } else if straight {
            (if forward { "进" } else { "退" }, tr.abs_diff(fr))
        } else {
            (if forward { "进" } else { "退" }, file_number(colour, tf))
        };
        format!("{head}{action}{}", numeral(colour, target))
    }
}

impl Inspect for Xiangqi {
    fn board_text(&self, style: Style) -> String {
        let pos = self.position();
        let chinese = style == Style::Symbols;
        let mut out = String::from("   a  b  c  d  e  f  g  h  i\n");
        for rank in (0..RANKS).rev() {
            out.push_str(&format!("{rank}  "));
            for file in 0..FILES {
                let p = pos.board[square(rank, file)];
                let last = file + 1 == FILES;
                match (p, chinese) {
                    (EMPTY, _) => out.push_str(if last { "+" } else { "+--" }),
                    (p, true) => {
                        out.push(BOARD_CHARS[colour_of(p)][kind_of(p) as usize]);
                        if !last {
                            out.push('-');
                        }
                    }
                    (p, false) => {
                        let c = LETTERS[kind_of(p) as usize];
                        out.push(if colour_of(p) == 0 { c.to_ascii_uppercase() } else { c });
                        if !last {
                            out.push_str("--");
                        }
                    }
                }
            }
            out.push_str(&format!("  {rank}\n"));
            if rank > 0 {
                out.push_str(&connector(rank, chinese));
            }
        }
        out.push_str("   a  b  c  d  e  f  g  h  i\n");
        out
    }

    fn checkers(&self) -> Vec<String> {
        let pos = self.position();
        let us = pos.side;
        let k = pos.general(us);
        let enemy = pos.colours[us ^ 1];
        squares(enemy)
            .filter(|&s| pos.attacked(us, k, pos.occ, pos.files[file_of(k)], enemy & !bit(s)))
            .map(|s| format!("{}{}", (b'a' + file_of(s) as u8) as char, rank_of(s)))
            .collect()
    }

    fn eval_terms(&self) -> Vec<Term> {
        let pos = self.position();
        let mut material = [0; 2];
        let mut squares_bonus = [0; 2];
        for sq in 0..SQUARES {
            let p = pos.board[sq];
            if p != EMPTY {
                let c = colour_of(p);
                let value = VALUE[kind_of(p) as usize];
                // `psq` is signed red-positive; this side's own view of it.
                let signed = super::eval::psq(p, sq);
                let total = if c == 0 { signed } else { -signed };
                material[c] += value;
                squares_bonus[c] += total - value;
            }
        }
        vec![
            Term { name: "material", first: material[0], second: material[1] },
            Term { name: "piece-square", first: squares_bonus[0], second: squares_bonus[1] },
        ]
    }

    fn classic_evaluate(&self) -> Score {
        super::eval::evaluate(self.position())
    }

    fn flipped(&self) -> Self {
        let fields = mirror_fen(&self.fen());
        let mut flipped = Xiangqi::from_fen(&fields.join(" ")).unwrap_or_else(|_| self.clone());
        flipped.set_move_limit(self.move_limit);
        flipped.set_rules(self.rules);
        flipped
    }

    fn move_name(&self, m: Move) -> String {
        self.chinese(m)
    }
}

/// The line between `rank` and the rank below it: files, palace diagonals, the river.
fn connector(rank: usize, chinese: bool) -> String {
    if rank == 5 {
        let river =
            if chinese { "   楚 河         漢 界   " } else { "        r i v e r        " };
        return format!("   |{river}|\n");
    }
    let mut line = String::from("   ");
    for file in 0..FILES {
        line.push('|');
        if file + 1 < FILES {
            // Palace diagonals cross between the d, e and f files.
            let upper_half = rank == 9 || rank == 2;
            let lower_half = rank == 8 || rank == 1;
            let gap = match (file, upper_half, lower_half) {
                (3, true, _) | (4, _, true) => " \\",
                (4, true, _) | (3, _, true) => "/ ",
                _ => "  ",
            };
            line.push_str(gap);
        }
    }
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(fen: &str, moves: &[&str], text: &str) -> String {
        let mut x = Xiangqi::from_fen(fen).expect("fen");
        for m in moves {
            let m = x.parse_move(m).expect("move");
            x.make(m);
        }
        let m = x.parse_move(text).expect("move");
        x.chinese(m)
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn chinese_notation() {
        assert_eq!(name(START, &[], "h2e2"), "炮二平五");
        assert_eq!(name(START, &["h2e2"], "h9g7"), "马8进7");
        assert_eq!(name(START, &[], "b0c2"), "马八进七");
        assert_eq!(name(START, &[], "i0i1"), "车一进一");
        assert_eq!(name(START, &[], "c0e2"), "相七进五");
        assert_eq!(name(START, &[], "f0e1"), "仕四进五");
        assert_eq!(name(START, &["h2e2", "h7e7"], "e2e6"), "炮五进四");
        assert_eq!(name(START, &["h2e2", "h9g7", "e2e1"], "b9c7"), "马2进3");
        assert_eq!(name(START, &["h2e2"], "a9a8"), "车1进1");
        let two = "5k3/9/9/9/9/9/9/4C4/4C4/3K5 w - - 0 1";
        assert_eq!(name(two, &[], "e2e5"), "前炮进三");
        assert_eq!(name(two, &[], "e1d1"), "后炮平六");
        assert_eq!(name(START, &["a3a4", "a9a8"], "a0a1"), "车九进一");
        assert_eq!(name(START, &["a3a4", "a6a5"], "a0a1"), "车九进一");
        assert_eq!(name(START, &["h2e2", "a6a5", "e2e1"], "a5a4"), "卒1进1");
    }

    #[test]
    fn board_text_draws_the_river_and_palaces() {
        let x = Xiangqi::startpos();
        let t = x.board_text(Style::Letters);
        assert!(t.contains("9  r--n--b--a--k--a--b--n--r  9"), "{t}");
        assert!(t.contains("r i v e r"));
        assert!(t.contains("| \\|/ |"), "{t}");
        let c = x.board_text(Style::Symbols);
        assert!(c.contains('俥') && c.contains('將') && c.contains("楚 河"), "{c}");
    }

    #[test]
    fn terms_flip_and_checkers() {
        for fen in [START, "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"]
        {
            let x = Xiangqi::from_fen(fen).expect("fen");
            let red: i32 = x.eval_terms().iter().map(|t| t.first - t.second).sum();
            assert_eq!(red, x.classic_evaluate());
            let f = x.flipped();
            assert_eq!(f.classic_evaluate(), x.classic_evaluate());
            assert_eq!(f.flipped().fen(), x.fen());
        }
        let check = Xiangqi::from_fen("4k4/9/9/9/9/9/9/4r4/9/3K5 w - - 0 1").expect("fen");
        assert!(check.checkers().is_empty());
        let check = Xiangqi::from_fen("3k5/9/9/9/9/9/9/3r5/9/3K5 w - - 0 1").expect("fen");
        assert_eq!(check.checkers(), vec!["d2".to_string()]);
    }
}
