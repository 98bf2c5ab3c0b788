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
    let circle = find_circle(&graph);
    assert!(circle.is_none(), "an import circle: {}", circle.unwrap_or_default().join(" -> "));
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
    use chariot_engine::game::{Shape, Variant};
    assert_eq!(Variant::Chess.shape(), Shape::of::<chariot_engine::chess::Chess>());
    assert_eq!(Variant::Xiangqi.shape(), Shape::of::<chariot_engine::xiangqi::Xiangqi>());
}

/// A crate's source files by module path (`["chess", "board"]` for `chess/board.rs`, `[]` for
/// the crate root), test files and a binary beside a library left out.
fn module_files(src: &Path) -> std::collections::BTreeMap<Vec<String>, PathBuf> {
    let has_lib = src.join("lib.rs").exists();
    let mut files = std::collections::BTreeMap::new();
    for path in sources(src) {
        let rel = path.strip_prefix(src).expect("under src").with_extension("");
        let mut parts: Vec<String> =
            rel.iter().filter_map(|c| c.to_str()).map(str::to_string).collect();
        if parts.iter().any(|p| p == "tests" || p == "bin") || (has_lib && parts == ["main"]) {
            continue;
        }
        if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
            parts.pop();
        }
        files.insert(parts, path);
    }
    files
}

/// A file's code before its test module, without line comments.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("a source file reads");
    let mut code = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let next = lines.peek().map_or("", |l| l.trim_start());
        if line.trim() == "#[cfg(test)]" && next.starts_with("mod ") {
            break;
        }
        code.push_str(line.split("//").next().unwrap_or(""));
        code.push('\n');
    }
    code
}

/// The `use` declarations of `code`, each path spelled out (`a::{b, c::d}` is `a::b` and
/// `a::c::d`; a renaming `as` is dropped), with whether it is a re-export (`pub use`).
fn use_paths(code: &str) -> Vec<(bool, Vec<String>)> {
    fn expand(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let Some(open) = tree.find('{') else {
            let path = tree.split(" as ").next().unwrap_or(tree);
            let mut full = prefix.to_vec();
            full.extend(path.split("::").filter(|s| !s.is_empty()).map(str::to_string));
            out.push(full);
            return;
        };
        let mut head = prefix.to_vec();
        head.extend(tree[..open].split("::").filter(|s| !s.is_empty()).map(str::to_string));
        let inner = &tree[open + 1..tree.rfind('}').filter(|&c| c > open).unwrap_or(tree.len())];
        let (mut depth, mut from) = (0, 0);
        let mut parts = Vec::new();
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&inner[from..i]);
                    from = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&inner[from..]);
        for part in parts.into_iter().map(str::trim).filter(|p| !p.is_empty()) {
            if part == "self" {
                out.push(head.clone());
            } else {
                expand(&head, part, out);
            }
        }
    }
    // Declarations start their line (after `pub` or `pub(crate)`); a `use` in a string or a
    // comment does not.
    let mut found = Vec::new();
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        let line = line.trim_start();
        let (public, rest) = match line.strip_prefix("pub") {
            Some(rest) => (true, rest.trim_start_matches(|c| c != ' ').trim_start()),
            None => (false, line),
        };
        let Some(tree) = rest.strip_prefix("use ") else { continue };
        let mut tree = tree.to_string();
        while !tree.contains(';') {
            let Some(more) = lines.next() else { break };
            tree.push(' ');
            tree.push_str(more.trim());
        }
        let tree = tree.split(';').next().unwrap_or("");
        let tree = tree.split_whitespace().collect::<Vec<_>>().join(" ");
        let tree = tree.replace(":: ", "::").replace(" ::", "::");
        let mut paths = Vec::new();
        expand(&[], &tree, &mut paths);
        found.extend(paths.into_iter().map(|p| (public, p)));
    }
    found
}

/// The paths written in `code` outside its `use` declarations (`a::b::C`), as segments.
fn written_paths(code: &str) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphabetic() || bytes[i] == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let after_colons = start >= 2 && &bytes[start - 2..start] == b"::";
            if !after_colons && !current.is_empty() {
                paths.push(std::mem::take(&mut current));
            }
            current.push(code[start..i].to_string());
            continue;
        }
        if bytes[i..].starts_with(b"::") {
            i += 2;
            continue;
        }
        if !current.is_empty() {
            paths.push(std::mem::take(&mut current));
        }
        i += 1;
    }
    paths.into_iter().filter(|p| p.len() > 1).collect()
}

/// The files of one crate that each file's code (tests aside) names: a path is followed
/// module by module to the deepest file it reaches, and through one re-export (`pub use`) of
/// the module it stops in, so that naming `chess::Board` is naming `chess/board.rs`.
fn file_graph(
    src: &Path,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    type Module = Vec<String>;
    let files = module_files(src);
    let codes: std::collections::BTreeMap<&Module, String> =
        files.iter().map(|(m, p)| (m, code_of(p))).collect();
    let name = |m: &Module| files[m].strip_prefix(src).expect("under src").display().to_string();
    let is_child = |m: &Module, word: &str| {
        let mut child = m.clone();
        child.push(word.to_string());
        files.contains_key(&child)
    };
    fn resolve(
        from: &Module,
        path: &[String],
        files: &std::collections::BTreeMap<Module, PathBuf>,
        codes: &std::collections::BTreeMap<&Module, String>,
        hops: usize,
    ) -> Option<Module> {
        let first = path.first()?;
        let (mut module, mut rest): (Module, &[String]) = match first.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "super" | "self" => {
                let mut m = from.clone();
                let mut rest = path;
                while let Some(word) = rest.first().filter(|w| *w == "super" || *w == "self") {
                    if word == "super" {
                        m.pop();
                    }
                    rest = &rest[1..];
                }
                (m, rest)
            }
            _ => (from.clone(), path),
        };
        if module == *from && first != "self" && first != "super" {
            let mut child = module.clone();
            child.push(first.clone());
            if !files.contains_key(&child) {
                return None;
            }
        }
        while let Some(word) = rest.first() {
            let mut next = module.clone();
            next.push(word.clone());
            if !files.contains_key(&next) {
                break;
            }
            module = next;
            rest = &rest[1..];
        }
        if let (Some(item), true) = (rest.first(), hops < 3) {
            let exported = codes.get(&module).map(|code| use_paths(code)).unwrap_or_default();
            if let Some((_, target)) =
                exported.iter().find(|(public, p)| *public && p.last() == Some(item))
                && let Some(found) = resolve(&module, target, files, codes, hops + 1)
            {
                return Some(found);
            }
        }
        Some(module)
    }
    let mut graph = std::collections::BTreeMap::new();
    for (module, code) in &codes {
        let mut paths: Vec<Vec<String>> = use_paths(code).into_iter().map(|(_, p)| p).collect();
        paths.extend(written_paths(code).into_iter().filter(|p| {
            ["crate", "super", "self"].contains(&p[0].as_str()) || is_child(module, &p[0])
        }));
        let deps: &mut std::collections::BTreeSet<String> = graph.entry(name(module)).or_default();
        for path in paths {
            if let Some(target) = resolve(module, &path, &files, &codes, 0)
                && target != **module
                && files.contains_key(&target)
            {
                deps.insert(name(&target));
            }
        }
    }
    graph
}

/// A circle in `graph` (a path that comes back to where it started), if there is one.
fn find_circle(
    graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Option<Vec<String>> {
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
    graph.keys().find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

/// The one circle between files left, and why: `search/mod.rs` keeps the late-move-reduction
/// table that `search/node.rs` makes, and the search packages under test (docs/patches/) change
/// both files; it is broken when they are merged or dropped (issue 86's order).
const FILE_CIRCLE_LEFT: (&str, &str) = ("search/mod.rs", "search/node.rs");

/// Files form layers too, not only the top-level modules: no file names one that names it back,
/// directly or through others, in the engine library, the match runner and the trainer. (A
/// module's `mod.rs` that dispatches to its files keeps what they share in a file below them.)
#[test]
fn no_import_circle_between_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for krate in ["engine/src", "match/src", "train/src"] {
        let mut graph = file_graph(&root.join(krate));
        if krate == "engine/src" {
            let chess = graph.get("chess/eval.rs").expect("the engine's files are read");
            assert!(chess.contains("chess/board.rs"), "paths are followed: {chess:?}");
            let book = graph.get("book/mod.rs").expect("book/mod.rs is read");
            assert!(book.contains("book/eleeye.rs"), "child paths are followed: {book:?}");
            let (from, to) = FILE_CIRCLE_LEFT;
            let left = graph.get_mut(from).is_some_and(|deps| deps.remove(to));
            let back = graph.get(to).is_some_and(|deps| deps.contains(from));
            assert!(left && back, "the circle {from} <-> {to} is gone: drop FILE_CIRCLE_LEFT");
        }
        let circle = find_circle(&graph);
        assert!(
            circle.is_none(),
            "{krate}: an import circle: {}",
            circle.unwrap_or_default().join(" -> ")
        );
    }
}
