//! The command files of `examples/`, fed to `chariot` and compared with their `.out` files.

use crate::common;
use crate::{Running, blessed, blessing, examples, fail_with_hint, matches, normalise, root};
use std::path::Path;
use std::process::{Command, ExitStatus};

/// `chariot < file`: every output line, and the exit status.
fn run_example(file: &Path) -> (Vec<String>, ExitStatus) {
    let mut command = Command::new(common::binary());
    command.current_dir(root()).stdin(std::fs::File::open(file).expect("the example"));
    Running::start(command).finish()
}

#[test]
fn examples_print_what_their_out_files_show() {
    let mut failures = Vec::new();
    for file in examples() {
        let out = file.with_extension("out");
        let expected: Vec<String> = std::fs::read_to_string(&out)
            .map(|t| t.lines().map(str::to_string).collect())
            .unwrap_or_default();
        let (actual, status) = run_example(&file);
        if blessing() {
            let text = blessed(&expected, &actual).join("\n") + "\n";
            std::fs::write(&out, text).expect("write the .out file");
            continue;
        }
        if !out.exists() {
            failures.push(format!("{} has no {}", file.display(), out.display()));
        } else if !status.success() || !matches(&expected, &actual) {
            let first = (0..expected.len().max(actual.len()))
                .find(|&i| {
                    expected.get(i).map(|l| normalise(l)) != actual.get(i).map(|l| normalise(l))
                })
                .unwrap_or(0);
            failures.push(format!(
                "{} ({status}) differs from {} from line {}:\n--- expected\n{}\n--- printed\n{}\n",
                file.display(),
                out.display(),
                first + 1,
                expected[first.min(expected.len())..].join("\n"),
                actual[first.min(actual.len())..].join("\n"),
            ));
        }
    }
    if blessing() {
        // Written: now they must hold as a check would read them.
        let mut again = Vec::new();
        for file in examples() {
            let out = std::fs::read_to_string(file.with_extension("out")).expect(".out written");
            let expected: Vec<String> = out.lines().map(str::to_string).collect();
            if !matches(&expected, &run_example(&file).0) {
                again.push(format!("{}: output differs between two runs", file.display()));
            }
        }
        failures.extend(again);
    }
    if !failures.is_empty() {
        fail_with_hint(failures.join("\n"));
    }
}
