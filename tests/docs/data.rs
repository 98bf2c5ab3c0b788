//! Data files: the CSV files and the network recipes the documents are made from, checked for
//! form, and the record size the scripts share with the engine.

use crate::{read, root};

/// A CSV file (RFC 4180: fields quoted with `"` when they hold a comma, a quote or a line
/// break, quotes doubled inside): its rows, the header first.
pub(crate) fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let (mut row, mut field) = (Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    assert!(!quoted, "a quoted CSV field never closed");
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// A CSV file of the repository as records keyed by the header's names; every row must have
/// as many fields as the header.
pub(crate) fn records(name: &str) -> Vec<std::collections::HashMap<String, String>> {
    let rows = parse_csv(&read(name));
    let (header, body) = rows.split_first().unwrap_or_else(|| panic!("{name} is empty"));
    body.iter()
        .enumerate()
        .map(|(i, row)| {
            assert_eq!(row.len(), header.len(), "{name} row {}: {} fields", i + 2, row.len());
            header.iter().cloned().zip(row.iter().cloned()).collect()
        })
        .collect()
}

/// Parses an optional number field of a data row.
fn number(row: &std::collections::HashMap<String, String>, col: &str, at: &str) -> Option<f64> {
    let v = row.get(col).unwrap_or_else(|| panic!("{at}: no column {col}"));
    (!v.is_empty()).then(|| v.parse().unwrap_or_else(|_| panic!("{at}: {col} `{v}` is no number")))
}

/// The lab notebook's rows hold what a match result needs, and agree with themselves.
#[test]
fn tried_changes_are_well_formed() {
    let rows = records("docs/tried.csv");
    // Every row of the old README's two tables (31 strength changes, 5 of them measured in both
    // games, and 85 tried ones) and the 8 network trials its network table told of.
    assert!(rows.len() >= 129, "{} rows", rows.len());
    for (i, row) in rows.iter().enumerate() {
        let at = format!("docs/tried.csv row {}", i + 2);
        assert_eq!(number(row, "order", &at), Some((i + 1) as f64), "{at}: rows in order");
        assert!(["chess", "xiangqi"].contains(&row["game"].as_str()), "{at}: game");
        assert!(["yes", "no"].contains(&row["kept"].as_str()), "{at}: kept");
        assert!(!row["description"].is_empty() && !row["result"].is_empty(), "{at}: text");
        let date = &row["date"];
        assert!(date.len() == 10 && date.as_bytes()[4] == b'-', "{at}: date {date}");
        for col in ["commit", "recorded_in"] {
            let c = &row[col];
            assert!(c.is_empty() || c.chars().all(|c| c.is_ascii_hexdigit()), "{at}: {col}");
        }
        let wld: Vec<Option<f64>> =
            ["wins", "losses", "draws"].iter().map(|c| number(row, c, &at)).collect();
        let games = number(row, "games", &at);
        if let [Some(w), Some(l), Some(d)] = wld[..] {
            assert_eq!(games, Some(w + l + d), "{at}: games = wins + losses + draws");
        }
        let penta: Vec<Option<f64>> =
            ["penta_ll", "penta_ld", "penta_dd_wl", "penta_wd", "penta_ww"]
                .iter()
                .map(|c| number(row, c, &at))
                .collect();
        if penta.iter().any(Option::is_some) {
            let pairs: f64 = penta.iter().map(|p| p.expect("all five or none")).sum();
            assert_eq!(games, Some(2.0 * pairs), "{at}: a pentanomial count is of game pairs");
        }
        let (elo, error) = (number(row, "elo", &at), number(row, "elo_error", &at));
        assert_eq!(elo.is_some(), error.is_some(), "{at}: Elo with its error bar");
        assert!(error.is_none_or(|e| e > 0.0), "{at}: error bar");
        if let (Some(e), [Some(w), Some(l), Some(_)]) = (elo, &wld[..]) {
            // The sign of the Elo is the sign of wins minus losses (a pooled figure of a
            // level score may round to a few tenths).
            let agrees = if w == l { e.abs() < 1.0 } else { e == 0.0 || (e > 0.0) == (w > l) };
            assert!(agrees, "{at}: Elo {e} for {w}-{l}");
        }
        number(row, "llr", &at);
        number(row, "bench", &at);
    }
}

/// Each game has one shipped network recipe, the last of its generations, and the file; the
/// learning line's candidates not (yet) shipped stand beside them.
#[test]
fn network_recipes_name_the_shipped_networks() {
    let text = read("nets/recipes.toml");
    let mut entries: Vec<(String, u32, bool)> = Vec::new();
    for block in text.split("\n[[network]]\n").skip(1) {
        let field = |key: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{key} = ")))
                .unwrap_or_else(|| panic!("a recipe without {key}"))
                .trim_matches('"')
                .to_string()
        };
        for key in ["data", "command", "hidden", "lr", "epochs", "batch", "lambda", "measured"] {
            field(key);
        }
        // A candidate of the learning line (scripts/learn.sh) that has not shipped is a
        // recipe like any other, outside the shipped generations' sequence.
        let candidate = block.lines().any(|l| l == "line = true") && field("shipped") != "true";
        if candidate {
            continue;
        }
        entries.push((
            field("game"),
            field("generation").parse().expect("a generation"),
            field("shipped") == "true",
        ));
    }
    for game in ["chess", "xiangqi"] {
        let of: Vec<_> = entries.iter().filter(|e| e.0 == game).collect();
        let last = of.iter().map(|e| e.1).max().expect("a recipe");
        let shipped: Vec<u32> = of.iter().filter(|e| e.2).map(|e| e.1).collect();
        assert_eq!(shipped, [last], "{game}: one shipped network, the last generation");
        assert_eq!(of.len() as u32, last, "{game}: a recipe for every generation");
        assert!(root().join(format!("nets/{game}.nnue")).exists());
    }
}

/// The network scripts cut data files to whole records: the size they use is the engine's.
#[test]
fn scripts_use_the_engines_record_size() {
    let common = read("scripts/nnue-common.sh");
    let bytes: usize = common
        .lines()
        .find_map(|l| l.strip_prefix("RECORD_BYTES="))
        .expect("RECORD_BYTES= in scripts/nnue-common.sh")
        .trim()
        .parse()
        .expect("a number");
    assert_eq!(bytes, chariot_engine::nnue::data::RECORD_BYTES);
    for script in ["scripts/nnue.sh", "scripts/nnue-gen.sh"] {
        let text = read(script);
        assert!(text.contains("nnue-common.sh") && !text.contains("* 40"), "{script}");
    }
}

/// The other result files add up: games are wins, losses and draws, and a score is the first
/// side's share of the points (as rounded when it was recorded).
#[test]
fn match_results_add_up() {
    for name in ["docs/acceptance.csv", "docs/levels.csv"] {
        let rows = records(name);
        assert!(rows.len() >= 10, "{name}: {} rows", rows.len());
        for (i, row) in rows.iter().enumerate() {
            let at = format!("{name} row {}", i + 2);
            let games = number(row, "games", &at).expect("games");
            let score = number(row, "score", &at);
            let wld: Vec<Option<f64>> =
                ["wins", "losses", "draws"].iter().map(|c| number(row, c, &at)).collect();
            if let [Some(w), Some(l), Some(d)] = wld[..] {
                assert_eq!(games, w + l + d, "{at}: games = wins + losses + draws");
                if let Some(s) = score {
                    let points = 100.0 * (w + d / 2.0) / games;
                    assert!((points - s).abs() < 0.051, "{at}: score {s}% for {w}-{l}-{d}");
                }
            }
            assert!(score.is_none_or(|s| (0.0..=100.0).contains(&s)), "{at}: score");
            assert!(!row["game"].is_empty() && !row["tc"].is_empty(), "{at}: game and time");
        }
    }
}
