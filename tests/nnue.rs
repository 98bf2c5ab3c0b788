//! Networks through the real binary: `EvalFile` loads a network of either game (written here
//! with random weights), `Use NNUE` switches it off, and a bad file is reported while play
//! goes on with the network in use.

mod common;

use chariot_engine::game::Variant;
use chariot_engine::nnue::network::{Activation, Network};
use common::{bestmove, run_script};
use std::path::PathBuf;

/// A network of deterministic pseudo-random weights for `variant`.
fn random_net(variant: Variant, hidden: usize) -> Network {
    Network::random(variant, Activation::SCRelu, hidden, 0x1234_5678)
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nets");
    std::fs::create_dir_all(&dir).expect("create net dir");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write net");
    path
}

fn count(lines: &[String], text: &str) -> usize {
    lines.iter().filter(|l| l.contains(text)).count()
}

#[test]
fn evalfile_loads_a_network_that_the_search_and_eval_use() {
    let chess = write("chess-64.nnue", &random_net(Variant::Chess, 64).to_bytes());
    let script = format!(
        "uci\nsetoption name EvalFile value {}\nisready\neval\ngo depth 5\n\
         setoption name Use NNUE value false\neval\ngo depth 5\n",
        chess.display()
    );
    let (lines, status) = run_script(&[], &script);
    assert!(status.success());
    assert_eq!(count(&lines, "info string loaded chess network"), 1, "{lines:?}");
    // The first eval names the network; after `Use NNUE false` only the classic one is left.
    assert_eq!(count(&lines, "Network (64 hidden, used by the search)"), 1, "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 2, "{lines:?}");
    assert!(bestmove(&lines).is_some());
}

#[test]
fn a_xiangqi_network_loads_under_ucci() {
    let xq = write("xiangqi-32.nnue", &random_net(Variant::Xiangqi, 32).to_bytes());
    let script = format!("ucci\nsetoption evalfile {}\neval\ngo depth 4\n", xq.display());
    let (lines, status) = run_script(&[], &script);
    assert!(status.success());
    assert_eq!(count(&lines, "info message loaded xiangqi network"), 1, "{lines:?}");
    assert_eq!(count(&lines, "Network (32 hidden, used by the search)"), 1, "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{lines:?}");
}

#[test]
fn a_bad_network_file_is_reported_and_the_network_in_use_stays() {
    let good = write("good-32.nnue", &random_net(Variant::Chess, 32).to_bytes());
    let mut damaged = random_net(Variant::Chess, 32).to_bytes();
    damaged[200] ^= 0x40;
    let damaged = write("damaged.nnue", &damaged);
    let truncated = write("truncated.nnue", &random_net(Variant::Chess, 32).to_bytes()[..1000]);
    let script = format!(
        "uci\nsetoption name EvalFile value {}\nsetoption name EvalFile value {}\n\
         setoption name EvalFile value {}\nsetoption name EvalFile value /no/such/file.nnue\n\
         eval\ngo depth 3\n",
        good.display(),
        damaged.display(),
        truncated.display()
    );
    let (lines, status) = run_script(&[], &script);
    assert!(status.success());
    let errors: Vec<&String> =
        lines.iter().filter(|l| l.starts_with("info string error")).collect();
    assert_eq!(errors.len(), 3, "{lines:?}");
    assert!(errors[0].contains("checksum"), "{errors:?}");
    assert!(errors[1].contains("bytes"), "{errors:?}");
    assert!(errors[2].contains("/no/such/file.nnue"), "{errors:?}");
    // The good network is still the one in use.
    assert_eq!(count(&lines, "Network (32 hidden, used by the search)"), 1, "{lines:?}");
    assert!(bestmove(&lines).is_some());
}

#[test]
fn export_net_writes_the_network_in_use_and_compiler_names_the_inference_path() {
    let bytes = random_net(Variant::Xiangqi, 16).to_bytes();
    let net = write("export-source.nnue", &bytes);
    let copy = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("nets").join("exported.nnue");
    let _ = std::fs::remove_file(&copy);
    let script = format!(
        "ucci\nsetoption usennue false\nexport_net {copy}\nsetoption usennue true\n\
         setoption evalfile {}\nexport_net {copy}\ncompiler\n",
        net.display(),
        copy = copy.display()
    );
    let (lines, status) = run_script(&[], &script);
    assert!(status.success());
    assert_eq!(count(&lines, "info message error: no xiangqi network is in use"), 1, "{lines:?}");
    assert_eq!(count(&lines, "info message wrote the xiangqi network to"), 1, "{lines:?}");
    assert_eq!(std::fs::read(&copy).ok(), Some(bytes));
    // `inference: <path> (available: <paths>)`, the path in use among those available.
    let line = lines.iter().find(|l| l.starts_with("inference: ")).expect("the inference line");
    let (used, available) = line["inference: ".len()..].split_once(" (available: ").expect(line);
    let available: Vec<&str> = available.trim_end_matches(')').split(", ").collect();
    assert!(available.contains(&used) && available.last() == Some(&"portable"), "{line}");
    assert!(["avx512", "avx2", "portable"].contains(&used), "{line}");
    assert!(lines.iter().any(|l| l.starts_with("xiangqi: network with 16 hidden")), "{lines:?}");
}

#[test]
fn a_device_or_a_directory_is_no_network_and_errors_quote_little() {
    let long = "x".repeat(500);
    let script = format!(
        "uci\nsetoption name EvalFile value /dev/zero\nsetoption name EvalFile value /tmp\nsetoption name EvalFile value {long}\nisready\n"
    );
    let (lines, status) = run_script(&[], &script);
    assert!(status.success());
    let errors: Vec<&String> =
        lines.iter().filter(|l| l.starts_with("info string error")).collect();
    assert_eq!(errors.len(), 3, "{lines:?}");
    assert!(errors[0].contains("not a regular file") && errors[1].contains("not a regular file"));
    assert!(errors.iter().all(|e| e.len() < 200), "{errors:?}");
    assert!(lines.iter().any(|l| l == "readyok"));
}
