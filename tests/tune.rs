//! The `tune` build (`cargo test --release --features tune --test tune`): every search
//! parameter is a UCI `spin` option, and setting one changes the search.

#![cfg(feature = "tune")]

mod common;

/// The node counts of the `bench` answers in `lines`, in order.
fn benches(lines: &[String]) -> Vec<u64> {
    lines
        .iter()
        .filter(|l| l.ends_with(" nps"))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .collect()
}

#[test]
fn every_parameter_is_a_spin_option() {
    let (lines, _) = common::run_script(&[], "uci\nquit\n");
    for spec in chariot_engine::search::params::SPECS {
        let line = format!(
            "option name {} type spin default {} min {} max {}",
            spec.name, spec.chess, spec.min, spec.max
        );
        assert!(lines.contains(&line), "{line}: {lines:?}");
    }
    let (lines, _) = common::run_script(&[], "ucci\nquit\n");
    let rfp = chariot_engine::search::params::spec("see_capture_margin").expect("a parameter");
    let line = format!(
        "option see_capture_margin type spin min {} max {} default {}",
        rfp.min, rfp.max, rfp.xiangqi
    );
    assert!(lines.contains(&line), "xiangqi's own value: {lines:?}");
}

#[test]
fn setting_a_parameter_changes_the_search_and_setting_it_back_restores_it() {
    let script = "uci\nbench 16 1 7\nsetoption name rfp_margin value 200\nbench 16 1 7\n\
                  setoption name rfp_margin value 90\nbench 16 1 7\n\
                  setoption name rfp_margin value 9000\nquit\n";
    let (lines, status) = common::run_script(&[], script);
    assert!(status.success(), "{lines:?}");
    let nodes = benches(&lines);
    assert_eq!(nodes.len(), 3, "{lines:?}");
    assert_ne!(nodes[0], nodes[1], "a wider reverse futility margin searches another tree");
    assert_eq!(nodes[0], nodes[2], "set back, the search is the same again");
    assert!(lines.iter().any(|l| l.contains("rfp_margin takes 20 to 300, not 9000")), "{lines:?}");
}

/// The compiled-in bench signature is the tune build's too: its parameters start as the
/// constants.
#[test]
fn the_tune_build_plays_the_signature() {
    let expected: u64 = include_str!("data/bench.txt").trim().parse().expect("a number");
    let (lines, _) = common::run_script(&[], "uci\nbench\nquit\n");
    assert_eq!(benches(&lines), vec![expected], "{lines:?}");
}
