//! Rules of the code's shape that the compiler does not enforce, read from the sources.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return out };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The one exception to the rule below: the Syzygy prober (`pyrrhic-rs`) allows one instance
/// per process, so its module holds that instance in one static (`TABLES`, its lock), and
/// says so in its notes. Nothing else in that file may be a mutable static either.
const EXCEPTION: (&str, &str) = ("chess/tb.rs", "static TABLES: RwLock<Option<Loaded>>");

/// The library keeps no state in statics: a session owns every run-time state, so that two
/// sessions (the controller's and a bench's, or two tests') never see each other's settings.
/// Constant tables, lazily computed or not, are fine; a `static mut`, a `thread_local!` or a
/// static holding a lock, an atomic or a cell is not ([`EXCEPTION`] aside).
#[test]
fn the_library_has_no_mutable_static() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = sources(&src);
    assert!(files.len() > 20, "the sources are found: {}", files.len());
    let interior = ["Mutex", "RwLock", "Atomic", "Cell<", "RefCell", "UnsafeCell", "Condvar"];
    let mut found = Vec::new();
    let mut excepted = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a source file reads");
        let is_exception_file = path.strip_prefix(&src).is_ok_and(|p| p == Path::new(EXCEPTION.0));
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("").trim();
            let is_static = code.starts_with("static ")
                || code.starts_with("pub static ")
                || code.starts_with("pub(crate) static ")
                || code.starts_with("pub(super) static ");
            let bad = code.contains("static mut ")
                || code.contains("thread_local!")
                || (is_static && interior.iter().any(|t| code.contains(t)));
            if bad && is_exception_file && code.starts_with(EXCEPTION.1) {
                excepted += 1;
            } else if bad {
                found.push(format!("{}:{}: {code}", path.display(), i + 1));
            }
        }
    }
    assert!(found.is_empty(), "mutable statics:\n{}", found.join("\n"));
    assert_eq!(excepted, 1, "the one excepted static ({}) is found once", EXCEPTION.1);
}

/// The top-level modules of the library that each module's code (tests aside) names.
fn module_graph(
    src: &Path,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let mut graph = std::collections::BTreeMap::<String, std::collections::BTreeSet<String>>::new();
    for path in sources(src) {
        let rel = path.strip_prefix(src).expect("under src");
        let top = rel.iter().next().and_then(|c| c.to_str()).unwrap_or("").trim_end_matches(".rs");
        if ["main", "lib", "build"].contains(&top) || rel.ends_with("tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file reads");
        // The code before the test module, which may name anything.
        let mut code = String::new();
        let mut lines = text.lines().peekable();
        while let Some(line) = lines.next() {
            let next = lines.peek().map_or("", |l| l.trim_start());
            if line.trim() == "#[cfg(test)]" && next.starts_with("mod ") {
                break;
            }
            code.push_str(line);
            code.push('\n');
        }
        let deps = graph.entry(top.to_string()).or_default();
        for (i, _) in code.match_indices("crate::") {
            let name: String =
                code[i + 7..].chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
            if !name.is_empty() && name != top {
                deps.insert(name);
            }
        }
    }
    graph
}

/// The library's modules form layers: no module names one that names it back, directly or
/// through others (the games below the evaluation and the search, the text helpers below all).
#[test]
fn no_import_circle_between_the_librarys_modules() {
    let graph = module_graph(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(graph.get("session").is_some_and(|d| d.contains("search")), "the graph is read");
    // Depth-first search for a path that comes back to where it started.
    fn visit(
        node: &str,
        graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_string());
            return Some(circle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = std::collections::BTreeSet::new();
    for node in graph.keys() {
        let circle = visit(node, &graph, &mut Vec::new(), &mut done);
        assert!(circle.is_none(), "an import circle: {}", circle.unwrap_or_default().join(" -> "));
    }
}

/// The engine library parses no command line: clap belongs to the `chariot` binary and the
/// trainer, so that a program embedding the engine does not build it.
#[test]
fn the_engine_library_has_no_command_line_parser() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
            .expect("engine/Cargo.toml reads");
    let deps = manifest.split("[dependencies]").nth(1).expect("a [dependencies] table");
    let deps = deps.split("\n[").next().unwrap_or(deps);
    assert!(deps.contains("parking_lot"), "the table is read: {deps}");
    assert!(!deps.contains("clap"), "the engine depends on clap:\n{deps}");
}

/// What the networks' files are checked against before any board exists, `Variant::shape`,
/// is each game's own constants.
#[test]
fn each_games_shape_is_its_constants() {
    use chariot::game::{Shape, Variant};
    assert_eq!(Variant::Chess.shape(), Shape::of::<chariot::chess::Chess>());
    assert_eq!(Variant::Xiangqi.shape(), Shape::of::<chariot::xiangqi::Xiangqi>());
}
