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

/// The library keeps no state in statics: a session owns every run-time state, so that two
/// sessions (the controller's and a bench's, or two tests') never see each other's settings.
/// Constant tables, lazily computed or not, are fine; a `static mut`, a `thread_local!` or a
/// static holding a lock, an atomic or a cell is not.
#[test]
fn the_library_has_no_mutable_static() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = sources(&src);
    assert!(files.len() > 20, "the sources are found: {}", files.len());
    let interior = ["Mutex", "RwLock", "Atomic", "Cell<", "RefCell", "UnsafeCell", "Condvar"];
    let mut found = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a source file reads");
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("").trim();
            let is_static = code.starts_with("static ")
                || code.starts_with("pub static ")
                || code.starts_with("pub(crate) static ")
                || code.starts_with("pub(super) static ");
            let bad = code.contains("static mut ")
                || code.contains("thread_local!")
                || (is_static && interior.iter().any(|t| code.contains(t)));
            if bad {
                found.push(format!("{}:{}: {code}", path.display(), i + 1));
            }
        }
    }
    assert!(found.is_empty(), "mutable statics:\n{}", found.join("\n"));
}
