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

/// `bench` typed in a session (either protocol) prints what `chariot bench` prints, and takes
/// Stockfish's arguments: a depth, the session's own position, a bad argument refused.
#[test]
fn bench_typed_in_a_session_is_the_signature() {
    let expected = include_str!("data/bench.txt").trim();
    for protocol in ["uci", "ucci"] {
        let script = format!(
            "{protocol}\nbench\nbench 16 1 5\nbench 16 1 5\nposition startpos\nbench 16 1 6 current\nbench 16 1 deep\nquit\n"
        );
        let (lines, status) = common::run_script(&[], &script);
        assert!(status.success(), "{lines:?}");
        let benches: Vec<&String> = lines.iter().filter(|l| l.ends_with(" nps")).collect();
        assert_eq!(benches.len(), 4, "{lines:?}");
        let nodes = |l: &str| l.split_whitespace().next().unwrap_or_default().to_string();
        assert_eq!(nodes(benches[0]), expected, "{protocol}: {lines:?}");
        assert_eq!(nodes(benches[1]), nodes(benches[2]), "a depth bench is deterministic");
        assert_ne!(nodes(benches[1]), expected, "the depth argument counts");
        assert_ne!(nodes(benches[3]), nodes(benches[1]), "one position searched, not all");
        assert!(
            lines.iter().any(|l| l.contains("error") && l.contains("'deep' is no limit")),
            "{lines:?}"
        );
    }
}

/// A session's `bench` plays as the session does, with the tablebases of its `SyzygyPath`
/// (what probing costs is measured so): below a five-piece root whose captures reach the
/// four-piece tables, the tables' values change the tree. Skipped when `CHARIOT_SYZYGY` is
/// unset.
#[test]
fn a_session_bench_probes_the_session_tablebases() {
    let Some(path) = std::env::var("CHARIOT_SYZYGY").ok().filter(|p| !p.is_empty()) else {
        eprintln!("skipped: CHARIOT_SYZYGY is not set (the folder of the 3-4 piece tables)");
        return;
    };
    let script = format!(
        "uci\nposition fen 4k3/8/8/8/8/8/3r4/3QK2R w - - 0 1\nbench 16 1 8 current\n\
         setoption name SyzygyPath value {path}\nbench 16 1 8 current\nquit\n"
    );
    let (lines, status) = common::run_script(&[], &script);
    assert!(status.success(), "{lines:?}");
    let nodes: Vec<u64> = lines
        .iter()
        .filter(|l| l.ends_with(" nps"))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect();
    assert_eq!(nodes.len(), 2, "{lines:?}");
    assert_ne!(nodes[0], nodes[1], "the tables change the tree");
}

/// `speedtest` typed in a session: a line per position, then the totals of `chariot
/// speedtest`.
#[test]
fn speedtest_typed_in_a_session_prints_the_totals() {
    let (lines, status) = common::run_script(&[], "uci\nspeedtest 1 1 2\nquit\n");
    assert!(status.success(), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("info string speedtest chess 1/")), "{lines:?}");
    for prefix in ["chess: ", "xiangqi: ", "total: 1 threads, 1 MB, "] {
        assert!(lines.iter().any(|l| l.starts_with(prefix)), "{prefix}: {lines:?}");
    }
}
