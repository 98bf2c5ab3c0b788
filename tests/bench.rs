//! The search's signature: `chariot bench` must print the node count recorded in
//! `tests/data/bench.txt`. A change of play can land only by updating that number on purpose,
//! with `Bench: <nodes>` as the last line of its commit message.

mod common;

use std::process::Command;

#[test]
fn bench_prints_the_recorded_node_count() {
    let expected = include_str!("data/bench.txt").trim();
    let out = Command::new(common::binary()).arg("bench").output().expect("chariot bench runs");
    assert!(out.status.success(), "chariot bench failed: {out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    let nodes = last.split_whitespace().next().unwrap_or_default();
    assert_eq!(
        nodes, expected,
        "bench signature changed ({last}); update tests/data/bench.txt on purpose, with a match"
    );
}

#[test]
fn bench_is_the_same_on_every_run() {
    let run = || {
        let out = Command::new(common::binary())
            .args(["bench", "--depth", "6"])
            .output()
            .expect("chariot bench runs");
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        stdout.lines().last().and_then(|l| l.split_whitespace().next()).map(str::to_string)
    };
    let first = run();
    assert!(first.is_some());
    assert_eq!(first, run());
}

/// `--classic` searches with the classic evaluation: another tree, as deterministic.
#[test]
fn bench_classic_uses_the_classic_evaluation() {
    let nodes = |args: &[&str]| {
        let out = Command::new(common::binary()).args(args).output().expect("chariot bench runs");
        assert!(out.status.success(), "chariot bench failed: {out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        stdout.lines().last().and_then(|l| l.split_whitespace().next()).map(str::to_string)
    };
    let classic = nodes(&["bench", "--depth", "5", "--classic"]);
    assert!(classic.is_some());
    assert_eq!(classic, nodes(&["bench", "--depth", "5", "--classic"]));
    assert_ne!(classic, nodes(&["bench", "--depth", "5"]));
}
