//! Generated tables: the Markdown tables of the documents, rendered again from their CSV files
//! and compared.

use crate::data::{parse_csv, records};
use crate::{blessing, documents, fail_with_hint, read, root};

/// The line that opens a generated table; the line that closes it.
const TABLE_OPEN: &str = "<!-- table ";
const TABLE_CLOSE: &str = "<!-- end table -->";

/// What a table directive asks for: the file, the filter and the columns.
struct TableSpec {
    file: String,
    filter: Option<(String, String)>,
    columns: Vec<String>,
}

fn parse_table_spec(line: &str) -> Result<TableSpec, String> {
    let body = line
        .trim()
        .strip_prefix(TABLE_OPEN)
        .and_then(|l| l.strip_suffix("-->"))
        .ok_or_else(|| format!("not a table directive: {line}"))?;
    let (head, columns) =
        body.split_once(" columns ").ok_or_else(|| format!("no ` columns ` in: {line}"))?;
    let (file, filter) = match head.split_once(" where ") {
        Some((file, cond)) => {
            let (k, v) = cond.split_once('=').ok_or_else(|| format!("no `=` in: {line}"))?;
            (file, Some((k.trim().to_string(), v.trim().to_string())))
        }
        None => (head, None),
    };
    let columns = columns.split(',').map(|c| c.trim().to_string()).collect();
    Ok(TableSpec { file: file.trim().to_string(), filter, columns })
}

/// The Markdown table a directive stands for.
fn render_table(spec: &TableSpec) -> Vec<String> {
    let rows = records(&spec.file);
    let cell = |s: &str| s.replace('|', "\\|").replace('\n', " ");
    let mut out = vec![
        format!("| {} |", spec.columns.join(" | ")),
        format!("|{}", "---|".repeat(spec.columns.len())),
    ];
    for row in &rows {
        if let Some((k, v)) = &spec.filter {
            let have = row.get(k).unwrap_or_else(|| panic!("{}: no column {k}", spec.file));
            if have != v {
                continue;
            }
        }
        let cells: Vec<String> = spec
            .columns
            .iter()
            .map(|c| cell(row.get(c).unwrap_or_else(|| panic!("{}: no column {c}", spec.file))))
            .collect();
        out.push(format!("| {} |", cells.join(" | ")));
    }
    out
}

/// Checks (or, blessing, rewrites) the generated tables of one document: the number of tables
/// and the document's text with every table rendered afresh, or the first difference.
fn check_tables(name: &str) -> (usize, String, Option<String>) {
    let doc = read(name);
    let lines: Vec<&str> = doc.lines().collect();
    let (mut out, mut count, mut failure) = (Vec::<String>::new(), 0, None);
    let mut i = 0;
    while i < lines.len() {
        out.push(lines[i].to_string());
        if !lines[i].starts_with(TABLE_OPEN) {
            i += 1;
            continue;
        }
        let spec = parse_table_spec(lines[i]).unwrap_or_else(|e| panic!("{name}: {e}"));
        let close = (i + 1..lines.len())
            .find(|&j| lines[j].trim() == TABLE_CLOSE)
            .unwrap_or_else(|| panic!("{name} line {}: no {TABLE_CLOSE}", i + 1));
        let table = render_table(&spec);
        if failure.is_none() && lines[i + 1..close] != table[..] {
            let first =
                (0..table.len()).find(|&k| lines.get(i + 1 + k) != Some(&table[k].as_str()));
            failure = Some(format!(
                "{name} line {}: the table from {} differs from its data at its line {}:\n{}",
                i + 1,
                spec.file,
                first.map_or(table.len(), |k| k + 1),
                first.map_or(String::new(), |k| table[k].clone()),
            ));
        }
        out.extend(table);
        out.push(lines[close].to_string());
        count += 1;
        i = close + 1;
    }
    (count, out.join("\n") + "\n", failure)
}

#[test]
fn generated_tables_are_their_data() {
    let mut failures = Vec::new();
    let mut count = 0;
    for name in documents() {
        let (n, text, failure) = check_tables(&name);
        count += n;
        if blessing() && failure.is_some() {
            std::fs::write(root().join(&name), text).unwrap_or_else(|e| panic!("{name}: {e}"));
        } else {
            failures.extend(failure);
        }
    }
    // docs/tried.md's kept and not kept, and the levels' tables at least.
    assert!(count >= 4, "only {count} generated tables found");
    if !failures.is_empty() {
        fail_with_hint(failures.join("\n"));
    }
}

#[test]
fn tables_render_csv() {
    let rows = parse_csv("a,b\n1,\"x, \"\"y\"\"\"\n2,\n");
    assert_eq!(rows, [vec!["a", "b"], vec!["1", "x, \"y\""], vec!["2", ""]]);
    let spec = parse_table_spec("<!-- table docs/tried.csv where kept=yes columns order, game -->")
        .expect("a directive");
    assert_eq!(spec.file, "docs/tried.csv");
    assert_eq!(spec.filter, Some(("kept".to_string(), "yes".to_string())));
    assert_eq!(spec.columns, ["order", "game"]);
    let table = render_table(&spec);
    assert_eq!(table[..2], ["| order | game |".to_string(), "|---|---|".to_string()]);
    assert!(
        table.len() > 30
            && table[2..].iter().all(|r| r.ends_with("chess |") || r.ends_with("xiangqi |"))
    );
    assert!(parse_table_spec("<!-- table docs/tried.csv -->").is_err());
}
