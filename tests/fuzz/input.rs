//! Input generation for the fuzz targets: a small PRNG, vocabularies of awkward tokens (numbers
//! at the edges of every integer type, Unicode whitespace, NUL, huge strings), grammar-aware
//! generators for FENs and protocol lines, and a mutator for valid seeds.
//!
//! Everything is a pure function of the [`Rng`], so an execution's seed reproduces its input.

use chariot_engine::chess::Chess;
use chariot_engine::game::{Game, MoveList, Variant};
use chariot_engine::options::TABLE;
use chariot_engine::rng::SplitMix;
use chariot_engine::xiangqi::Xiangqi;

/// The engine's SplitMix64 (every seed, 0 included, gives a good sequence) with the draws the
/// generators need.
pub struct Rng(SplitMix);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(SplitMix::new(seed))
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n)
    }

    /// True one time in `n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// One of `items` (not empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Mixes a run's seed with an execution's number into that execution's seed.
pub fn case_seed(run: u64, index: u64) -> u64 {
    let mut r = Rng::new(run ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    r.next()
}

/// Numbers where parsers and arithmetic break: each integer type's edges and one past them,
/// floats that are not finite, signs, leading zeros, hex and exponent spellings.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "60",
    "100",
    "120",
    "256",
    "257",
    "1000",
    "1001",
    "5000",
    "5001",
    "65535",
    "65536",
    "65537",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "18446744073709551615",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "99999999999999999999999999999999999999",
    "0x10",
    "1e3",
    "1e308",
    "1e309",
    "-1e309",
    "NaN",
    "inf",
    "-inf",
    "infinity",
    "0.5",
    "-0.5",
    "0.0001",
    "1.5",
    "+7",
    "007",
    "-0",
    "1_000",
    "１２",
];

/// Short texts that are not what a parser expects: whitespace other than the space (Unicode's
/// too), NUL and control characters, multi-byte characters, quoting and format characters.
const WEIRD: &[&str] = &[
    "",
    " ",
    "\t",
    "\0",
    "\r",
    "\x0b",
    "\x0c",
    "\u{7f}",
    "\u{85}",
    "\u{a0}",
    "\u{feff}",
    "\u{2028}",
    "\u{3000}",
    "\u{1b}[31m",
    "é",
    "ß",
    "İ",
    "車",
    "炮二平五",
    "♔",
    "🦀",
    "'",
    "\"",
    "\\",
    "%s%n",
    "#",
    "-",
    "--",
    "/",
    "//",
    "<empty>",
    "name",
    "value",
    "moves",
    "fen",
    "startpos",
];

/// A number, mostly from [`NUMBERS`], else random at any scale.
pub fn number(rng: &mut Rng) -> String {
    match rng.below(6) {
        0 => rng.below(40).to_string(),
        1 => (rng.next() as i64).to_string(),
        2 => (rng.next() >> rng.below(64)).to_string(),
        _ => rng.pick(NUMBERS).to_string(),
    }
}

/// A long text: a repeated character or token, up to 100 000 characters (rarely that long,
/// so that executions stay cheap).
pub fn huge(rng: &mut Rng) -> String {
    let unit = *rng.pick(&["x", "9", "1", "/", "K", "p", "車", " ", "e2e4 ", "\0", "a"]);
    let n = if rng.one_in(20) { 100_000 } else { *rng.pick(&[81, 100, 300, 1000, 5000]) };
    unit.repeat(n / unit.chars().count().max(1))
}

/// Random printable ASCII, or any character at all, `len` characters long.
pub fn random_text(rng: &mut Rng, len: usize) -> String {
    (0..len).map(|_| any_char(rng)).collect()
}

/// A character: mostly printable ASCII, sometimes a control, Unicode whitespace or any scalar.
pub fn any_char(rng: &mut Rng) -> char {
    match rng.below(10) {
        0 => char::from_u32(rng.below(0x11_0000) as u32).unwrap_or('?'),
        1 => *rng.pick(&['\0', '\t', '\r', '\u{a0}', '\u{3000}', '\u{85}', '車', 'é', '🦀']),
        _ => (b' ' + rng.below(95) as u8) as char,
    }
}

/// A token for any place in a line: a number, a weird text, one of `words`, random text, or
/// (rarely) a huge one.
pub fn token(rng: &mut Rng, words: &[&str]) -> String {
    match rng.below(16) {
        0..=3 => number(rng),
        4..=5 => rng.pick(WEIRD).to_string(),
        6..=11 if !words.is_empty() => rng.pick(words).to_string(),
        12 => {
            let len = rng.below(12);
            random_text(rng, len)
        }
        13 if rng.one_in(8) => huge(rng),
        _ => rng.pick(&["a", "e2e4", "h2e2", "e7e8q", "0000", "(none)", "true", "x"]).to_string(),
    }
}

/// Applies one to four random edits to `text`: delete, insert, replace, duplicate or truncate
/// a stretch; swap, drop or insert a word; change a letter's case; splice in `other`.
pub fn mutate(rng: &mut Rng, text: &str, alphabet: &[char], other: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let len = chars.len();
        let at = if len == 0 { 0 } else { rng.below(len + 1) };
        let span = 1 + rng.below(8);
        let end = (at + span).min(len);
        let fresh = |rng: &mut Rng| {
            if alphabet.is_empty() || rng.one_in(4) { any_char(rng) } else { *rng.pick(alphabet) }
        };
        match rng.below(10) {
            0 => {
                chars.drain(at..end);
            }
            1 | 2 => {
                let c = fresh(rng);
                chars.insert(at, c);
            }
            3 | 4 if at < len => chars[at] = fresh(rng),
            5 if at < len => {
                let piece: Vec<char> = chars[at..end].to_vec();
                for (i, c) in piece.into_iter().enumerate() {
                    chars.insert(end + i, c);
                }
            }
            6 => chars.truncate(at),
            7 => {
                let mut words: Vec<String> =
                    chars.iter().collect::<String>().split(' ').map(str::to_string).collect();
                let n = words.len();
                match rng.below(3) {
                    0 => words.swap(rng.below(n), rng.below(n)),
                    1 if n > 1 => {
                        words.remove(rng.below(n));
                    }
                    _ => words.insert(rng.below(n + 1), token(rng, &[])),
                }
                chars = words.join(" ").chars().collect();
            }
            8 if at < len => {
                let c = chars[at];
                chars[at] = if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                };
            }
            _ => {
                let o: Vec<char> = other.chars().collect();
                let from = rng.below(o.len() + 1);
                let to = (from + rng.below(16)).min(o.len());
                chars.splice(at..at, o[from..to].iter().copied());
            }
        }
    }
    chars.into_iter().collect()
}

/// Chess positions of every kind: the start, castling on both wings, en passant, promotions,
/// Chess960 (X-FEN and Shredder-FEN), endings, checks.
pub const CHESS_SEEDS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1k5r/8/8/8/8/8/8/RK5R w HAh - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39",
    "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",
    "8/8/8/8/8/8/1k6/K7 b - - 99 120",
    "4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
];

/// Xiangqi positions: the start, an opening, endings, a general out of its home square.
pub const XIANGQI_SEEDS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
    "4k4/4a4/9/9/9/9/9/9/4R4/3K5 b - - 10 40",
    "2bak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK1B2 w",
    "3ak4/4a4/9/4N4/9/9/9/9/9/4K4 b - - 0 1",
];

/// The game of a position text: `chess` or `xiangqi`.
pub fn variant_name(v: Variant) -> &'static str {
    match v {
        Variant::Chess => "chess",
        Variant::Xiangqi => "xiangqi",
    }
}

/// Plays up to `plies` random legal moves from `seed`; returns the FEN reached.
pub fn play_from<G: Game>(rng: &mut Rng, seed: &str, plies: usize) -> Option<G> {
    let mut g = G::from_fen(seed).ok()?;
    let mut list = MoveList::new();
    for _ in 0..plies {
        g.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let m = list.as_slice()[rng.below(list.len())];
        g.make(m);
    }
    Some(g)
}

/// A legal position of `variant` reached by random play from one of the seeds.
pub fn random_position(rng: &mut Rng, variant: Variant) -> String {
    let plies = rng.below(80);
    match variant {
        Variant::Chess => {
            let seed = rng_pick(rng, CHESS_SEEDS);
            play_from::<Chess>(rng, seed, plies).map_or_else(|| seed.to_string(), |g| g.fen())
        }
        Variant::Xiangqi => {
            let seed = rng_pick(rng, XIANGQI_SEEDS);
            play_from::<Xiangqi>(rng, seed, plies).map_or_else(|| seed.to_string(), |g| g.fen())
        }
    }
}

fn rng_pick(rng: &mut Rng, items: &[&'static str]) -> &'static str {
    items[rng.below(items.len())]
}

/// A board written rank by rank, with empty squares counted; `cells` is rank-major from the
/// top, `'.'` for empty. Sometimes the counting is broken on purpose (a zero, a split count).
fn placement(rng: &mut Rng, cells: &[char], files: usize) -> String {
    let mut out = String::new();
    for (i, rank) in cells.chunks(files).enumerate() {
        if i > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for &c in rank {
            if c == '.' {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            out.push(c);
        }
        if empty > 0 {
            if rng.one_in(40) && empty > 1 {
                // Two counts in a row ("44"): some parsers add them, some refuse.
                out.push_str(&format!("{}{}", empty - 1, 1));
            } else {
                out.push_str(&empty.to_string());
            }
        }
        if rng.one_in(60) {
            out.push(*rng.pick(&['0', '9', '1', 'x']));
        }
    }
    out
}

/// The FEN fields after the board, valid or not.
fn tail(rng: &mut Rng, castling: &[&str], ep: &[&str]) -> String {
    let mut fields = Vec::new();
    let n = if rng.one_in(6) { rng.below(8) } else { 5 };
    for i in 0..n {
        fields.push(match i {
            0 => rng.pick(&["w", "b", "w", "b", "r", "W", "B", "x", "-", "white"]).to_string(),
            1 if !rng.one_in(8) => rng.pick(castling).to_string(),
            2 if !rng.one_in(8) => rng.pick(ep).to_string(),
            // The clocks' edges: the counters must neither overflow nor be refused wrongly.
            3 | 4 if rng.one_in(3) => rng
                .pick(&["65535", "65536", "4294967295", "2147483647", "0", "99", "100"])
                .to_string(),
            3 | 4 if rng.one_in(3) => number(rng),
            3 => rng.below(120).to_string(),
            4 => (1 + rng.below(200)).to_string(),
            _ => token(rng, &[]),
        });
    }
    fields.join(" ")
}

/// A chess FEN built field by field: random pieces with usually one king each, then random
/// castling rights, en-passant square and clocks. Many are valid; the rest fail one check.
pub fn chess_fen(rng: &mut Rng) -> String {
    let mut cells = vec!['.'; 64];
    let density = 1 + rng.below(5);
    for c in cells.iter_mut() {
        if rng.below(10) < density {
            *c = *rng.pick(&['P', 'N', 'B', 'R', 'Q', 'p', 'n', 'b', 'r', 'q']);
        }
    }
    for king in ['K', 'k'] {
        if !rng.one_in(30) {
            let sq = rng.below(64);
            cells[sq] = king;
        }
    }
    if rng.one_in(2) {
        // Kings and rooks on their squares, so that castling rights can be real.
        for (sq, c) in [(0, 'r'), (4, 'k'), (7, 'r'), (56, 'R'), (60, 'K'), (63, 'R')] {
            if !rng.one_in(5) {
                cells[sq] = c;
            }
        }
    }
    let castling = ["-", "KQkq", "KQ", "kq", "Kk", "Q", "HAha", "GBgb", "KQkqA", "KK", "Xq"];
    let ep = ["-", "e3", "e6", "d6", "c3", "a6", "h3", "e4", "i9", "e", "-e3"];
    format!("{} {}", placement(rng, &cells, 8), tail(rng, &castling, &ep))
}

/// A square as (rank, file), in red's frame.
type Square = (usize, usize);

/// A xiangqi FEN built piece by piece on squares each kind can usually stand on (the general
/// in its palace, elephants on their seven points), sometimes anywhere.
pub fn xiangqi_fen(rng: &mut Rng) -> String {
    let mut cells = vec!['.'; 90];
    // (letter, most, squares in red's frame as (rank, file)).
    let palace: Vec<(usize, usize)> = (0..3).flat_map(|r| (3..6).map(move |f| (r, f))).collect();
    let advisor = vec![(0, 3), (0, 5), (1, 4), (2, 3), (2, 5)];
    let elephant = vec![(0, 2), (0, 6), (2, 0), (2, 4), (2, 8), (4, 2), (4, 6)];
    let soldier: Vec<(usize, usize)> = (3..10).flat_map(|r| (0..9).map(move |f| (r, f))).collect();
    let anywhere: Vec<(usize, usize)> = (0..10).flat_map(|r| (0..9).map(move |f| (r, f))).collect();
    let kinds: [(char, usize, &[Square]); 7] = [
        ('K', 1, &palace),
        ('A', 2, &advisor),
        ('B', 2, &elephant),
        ('N', 2, &anywhere),
        ('R', 2, &anywhere),
        ('C', 2, &anywhere),
        ('P', 5, &soldier),
    ];
    for black in [false, true] {
        for &(letter, most, squares) in &kinds {
            let count =
                if letter == 'K' { usize::from(!rng.one_in(30)) } else { rng.below(most + 1) };
            for _ in 0..count + usize::from(rng.one_in(50)) {
                let (r, f) = if rng.one_in(15) { *rng.pick(&anywhere) } else { *rng.pick(squares) };
                // Black's frame is red's turned around.
                let (rank, file, c) =
                    if black { (9 - r, f, letter.to_ascii_lowercase()) } else { (r, f, letter) };
                let c = if rng.one_in(40) { *rng.pick(&['G', 'E', 'H', 'g', 'e', 'h']) } else { c };
                cells[(9 - rank) * 9 + file] = c;
            }
        }
    }
    let castling = ["-", "-", "-", "KQkq", "x"];
    let ep = ["-", "-", "-", "e3", "a"];
    format!("{} {}", placement(rng, &cells, 9), tail(rng, &castling, &ep))
}

/// The characters FENs are made of, for the mutator.
pub const FEN_CHARS: &[char] = &[
    'p', 'n', 'b', 'r', 'q', 'k', 'P', 'N', 'B', 'R', 'Q', 'K', 'a', 'c', 'A', 'C', '1', '2', '3',
    '4', '5', '6', '7', '8', '9', '0', '/', ' ', '-', 'w',
];

/// A FEN of `variant`: a valid one, one built field by field, or a mutated valid one.
pub fn fen(rng: &mut Rng, variant: Variant) -> String {
    let valid = |rng: &mut Rng| random_position(rng, variant);
    match rng.below(4) {
        0 => valid(rng),
        1 => match variant {
            Variant::Chess => chess_fen(rng),
            Variant::Xiangqi => xiangqi_fen(rng),
        },
        _ => {
            let base = valid(rng);
            let other = match variant {
                Variant::Chess => rng_pick(rng, CHESS_SEEDS),
                Variant::Xiangqi => rng_pick(rng, XIANGQI_SEEDS),
            };
            mutate(rng, &base, FEN_CHARS, other)
        }
    }
}

/// Move texts to try in a position: its legal moves as written, then changed (case, a
/// promotion letter, the other castling spelling), random coordinates, and garbage.
pub fn move_texts<G: Game>(rng: &mut Rng, g: &G, n: usize) -> Vec<String> {
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let legal: Vec<String> = list.iter().map(|&m| g.move_text(m)).collect();
    let files = match G::VARIANT {
        Variant::Chess => "abcdefgh",
        Variant::Xiangqi => "abcdefghi",
    };
    let square = |rng: &mut Rng| {
        let f = files.as_bytes()[rng.below(files.len())] as char;
        let r = match G::VARIANT {
            Variant::Chess => (b'1' + rng.below(8) as u8) as char,
            Variant::Xiangqi => (b'0' + rng.below(10) as u8) as char,
        };
        format!("{f}{r}")
    };
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let text = match rng.below(8) {
            0 | 1 if !legal.is_empty() => rng.pick(&legal).clone(),
            2 if !legal.is_empty() => rng.pick(&legal).to_ascii_uppercase(),
            3 if !legal.is_empty() => {
                let base = rng.pick(&legal).clone();
                format!(
                    "{}{}",
                    &base[..4.min(base.len())],
                    rng.pick(&["q", "n", "Q", "k", "p", "", "qq"])
                )
            }
            4 => format!("{}{}", square(rng), square(rng)),
            5 => {
                let promo = *rng.pick(&["q", "r", "b", "n", "Q", "x"]);
                format!("{}{}{promo}", square(rng), square(rng))
            }
            6 if !legal.is_empty() => {
                let base = rng.pick(&legal).clone();
                let alphabet: Vec<char> = format!("{files}0123456789qrbnQ").chars().collect();
                mutate(rng, &base, &alphabet, "")
            }
            _ => token(rng, &["e1g1", "e1h1", "e1c1", "e1a1", "e8g8", "0000", "h2e2", "b0c2"]),
        };
        out.push(text);
    }
    out
}

/// Option names: every name of the table, in odd cases and with stray spaces, and garbage.
pub fn option_name(rng: &mut Rng) -> String {
    let names: Vec<&str> = TABLE.iter().flat_map(|s| [s.uci, s.ucci]).flatten().collect();
    let name = *rng.pick(&names);
    match rng.below(8) {
        0 => name.to_ascii_uppercase(),
        1 => name.to_ascii_lowercase(),
        2 => format!(" {name}\t"),
        3 => token(rng, &["Hash", "Threads", "name", "value"]),
        4 => mutate(rng, name, &[' ', 'a', 'e', '_'], ""),
        _ => name.to_string(),
    }
}

/// Option values: the accepted words, numbers at every edge, and garbage.
pub fn option_value(rng: &mut Rng) -> String {
    let words = [
        "true",
        "false",
        "on",
        "off",
        "TRUE",
        "yes",
        "1",
        "maybe",
        "chess",
        "xiangqi",
        "Xiangqi",
        "asianrule",
        "checkban",
        "alwaysdraw",
        "chineserule",
        "none",
        "small",
        "medium",
        "large",
        "<empty>",
        "GM 2800 human Garry Kasparov",
        "none none computer x",
        "- 99999999999 human",
    ];
    match rng.below(5) {
        0 | 1 => number(rng),
        2 => rng.pick(&words).to_string(),
        3 => format!("  {}  ", rng.pick(&words)),
        _ => token(rng, &words),
    }
}

/// `go` arguments: keywords of either protocol with numbers of every kind, and strays.
pub fn go_args(rng: &mut Rng, keywords: &[&str]) -> String {
    let mut words = Vec::new();
    for _ in 0..rng.below(8) {
        let k = *rng.pick(keywords);
        words.push(k.to_string());
        if !matches!(k, "ponder" | "infinite" | "draw") && !rng.one_in(10) {
            words.push(number(rng));
        }
        if k == "searchmoves" {
            for _ in 0..rng.below(4) {
                words.push(rng.pick(&["e2e4", "d2d4", "h2e2", "b0c2", "zz", "e7e8q"]).to_string());
            }
        }
        if rng.one_in(10) {
            words.push(token(rng, keywords));
        }
    }
    words.join(" ")
}

/// The `go` keywords of UCI, as the front-end knows them.
pub use chariot_engine::protocol::uci::GO_KEYWORDS as UCI_GO;

/// The `go` keywords of UCCI.
pub const UCCI_GO: &[&str] = &[
    "ponder",
    "draw",
    "infinite",
    "depth",
    "nodes",
    "time",
    "increment",
    "movestogo",
    "wtime",
    "btime",
    "opptime",
    "oppincrement",
    "oppmovestogo",
    "perft",
];

/// `position ...`: start or FEN (of either game), moves legal, nearly legal or garbage.
pub fn position_line(rng: &mut Rng, variant: Variant) -> String {
    let variant =
        if rng.one_in(5) { *rng.pick(&[Variant::Chess, Variant::Xiangqi]) } else { variant };
    let mut line = String::from("position");
    let fen_text = fen(rng, variant);
    match rng.below(6) {
        0 | 1 => line.push_str(" startpos"),
        2 => {}
        _ => {
            line.push_str(" fen ");
            line.push_str(&fen_text);
        }
    }
    if !rng.one_in(3) {
        line.push_str(" moves");
        let start = match variant {
            Variant::Chess => chariot_engine::chess::START_FEN,
            Variant::Xiangqi => XIANGQI_SEEDS[0],
        };
        let start = if line.contains(" fen ") { fen_text.as_str() } else { start };
        let moves = match variant {
            Variant::Chess => legal_line::<Chess>(rng, start),
            Variant::Xiangqi => legal_line::<Xiangqi>(rng, start),
        };
        for m in moves {
            line.push(' ');
            line.push_str(&if rng.one_in(30) { token(rng, &["e2e4", "h2e2"]) } else { m });
        }
    }
    line
}

/// The texts of a random line of legal moves from `fen` (none when it is not valid).
fn legal_line<G: Game>(rng: &mut Rng, fen: &str) -> Vec<String> {
    let Ok(mut g) = G::from_fen(fen) else { return Vec::new() };
    let mut out = Vec::new();
    let mut list = MoveList::new();
    for _ in 0..rng.below(12) {
        g.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let m = list.as_slice()[rng.below(list.len())];
        out.push(g.move_text(m));
        g.make(m);
    }
    out
}

/// `setoption ...` in the form of UCI (or, for UCCI, sometimes its own form).
pub fn setoption_line(rng: &mut Rng, ucci: bool) -> String {
    let name = option_name(rng);
    let value = option_value(rng);
    if ucci && rng.one_in(2) {
        return match rng.below(3) {
            0 => format!("setoption {name}"),
            _ => format!("setoption {name} {value}"),
        };
    }
    match rng.below(8) {
        0 => format!("setoption name {name}"),
        1 => format!("setoption {name} value {value}"),
        2 => format!("setoption name value {value}"),
        3 => "setoption".to_string(),
        _ => format!("setoption name {name} value {value}"),
    }
}

/// A UCI line: any command with plausible or broken arguments, a stray word in front, or
/// garbage; a third are then mutated.
pub fn uci_line(rng: &mut Rng) -> String {
    let variant = if rng.one_in(4) { Variant::Xiangqi } else { Variant::Chess };
    let mut line = match rng.below(14) {
        0..=2 => format!("go {}", go_args(rng, UCI_GO)),
        3 | 4 => setoption_line(rng, false),
        5 | 6 => position_line(rng, variant),
        7 => format!("debug {}", rng.pick(&["on", "off", "", "maybe"])),
        8 => format!("d {}", token(rng, &["letters", "unicode", "chinese", "ascii", "symbols"])),
        9 => rng
            .pick(&[
                "uci",
                "isready",
                "ucinewgame",
                "stop",
                "ponderhit",
                "quit",
                "register",
                "eval",
                "flip",
                "help",
                "register later",
                "uci uci",
            ])
            .to_string(),
        10 => format!("{} {}", token(rng, &["joho", "#", "go"]), uci_line(rng)),
        11 => format!("# {}", random_text(rng, 10)),
        _ => (0..rng.below(6)).map(|_| token(rng, UCI_GO)).collect::<Vec<_>>().join(" "),
    };
    if rng.one_in(3) {
        line = mutate(rng, &line, &[' ', '0', '1', '-', 'e'], "go depth 1 nodes 9");
    }
    line
}

/// `genfens` as OpenBench sends it, its arguments often replaced or reordered. For the
/// parser's target only, not in [`uci_line`]: sessions would run it, and a random count may
/// ask for hours of work.
pub fn genfens_line(rng: &mut Rng) -> String {
    const WORDS: &[&str] = &["seed", "book", "None", "none", "dfrc", "Books/x.epd", "-1"];
    let mut words = vec![
        "genfens".to_string(),
        token(rng, WORDS),
        "seed".to_string(),
        token(rng, WORDS),
        "book".to_string(),
        token(rng, WORDS),
    ];
    for _ in 0..rng.below(3) {
        words.push(token(rng, WORDS));
    }
    if rng.one_in(3) {
        let (a, b) = (1 + rng.below(words.len() - 1), 1 + rng.below(words.len() - 1));
        words.swap(a, b);
    }
    words.join(" ")
}

/// A UCCI line, as [`uci_line`] for UCCI's commands.
pub fn ucci_line(rng: &mut Rng) -> String {
    let variant = if rng.one_in(4) { Variant::Chess } else { Variant::Xiangqi };
    let mut line = match rng.below(14) {
        0..=2 => format!("go {}", go_args(rng, UCCI_GO)),
        3 | 4 => setoption_line(rng, true),
        5 | 6 => position_line(rng, variant),
        7 => format!(
            "banmoves {}",
            (0..rng.below(5))
                .map(|_| token(rng, &["h2e2", "b0c2", "a0a1"]))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        8 => format!("d {}", token(rng, &["letters", "chinese", "unicode"])),
        9 => rng
            .pick(&[
                "ucci",
                "isready",
                "stop",
                "ponderhit",
                "ponderhit draw",
                "quit",
                "eval",
                "flip",
                "help",
                "probe",
                "setoption usemillisec true",
                "setoption batch on",
                "setoption usemillisec false",
            ])
            .to_string(),
        10 => format!("{} {}", token(rng, &["go", "#"]), ucci_line(rng)),
        11 => format!("# {}", random_text(rng, 10)),
        _ => (0..rng.below(6)).map(|_| token(rng, UCCI_GO)).collect::<Vec<_>>().join(" "),
    };
    if rng.one_in(3) {
        line = mutate(rng, &line, &[' ', '0', '1', '.', 'e'], "go time 5 increment 1");
    }
    line
}
