//! Where the documents point: every relative link leads to a file, and nothing needs a path
//! outside the repository.

use crate::{documents, read, root};
use std::path::Path;

/// No document and no script of those the documents tell a newcomer to run needs a path
/// outside a clone: what they need comes from an argument or an environment variable.
#[test]
fn nothing_needs_a_path_outside_the_repository() {
    let mut files = documents();
    files.extend(
        [
            "nnue.sh",
            "nnue-gen.sh",
            "nnue-common.sh",
            "fuzz.sh",
            "setup-test-deps.sh",
            "game-env.sh",
            "sprt.sh",
            "accept.sh",
            "levels.sh",
            "compare-perft.sh",
            "match-rules.py",
        ]
        .map(|s| format!("scripts/{s}")),
    );
    files.extend(
        ["nets/recipes.toml", "docs/tried.csv", "docs/levels.csv", "docs/acceptance.csv"]
            .map(String::from),
    );
    for name in files {
        let text = read(&name);
        for (i, line) in text.lines().enumerate() {
            for bad in ["../shared", "~/", "$HOME", "/home/", "/root/"] {
                assert!(!line.contains(bad), "{name} line {}: `{bad}` in {line}", i + 1);
            }
        }
    }
}

/// README.md stays a front door, and every relative link of the documents leads to a file.
#[test]
fn readme_is_short_and_links_resolve() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 300, "README.md has {lines} lines; at most 300 (the rest belongs in docs/)");
    let mut links = 0;
    for name in documents() {
        let doc = read(&name);
        let dir = Path::new(&name).parent().expect("a folder").to_path_buf();
        for part in doc.split("](").skip(1) {
            let target = part.split(')').next().expect("a target");
            let file = target.split('#').next().expect("a path");
            if file.is_empty() || file.contains("://") {
                continue;
            }
            links += 1;
            assert!(root().join(&dir).join(file).exists(), "{name}: a link to {target}, not found");
        }
    }
    for name in documents().iter().skip(1) {
        let file = name.strip_prefix("docs/").expect("in docs/");
        assert!(readme.contains(&format!("(docs/{file})")), "README.md does not link {name}");
    }
    assert!(links >= 20, "only {links} links found");
}
