//! The learning command (`scripts/learn.sh`, issue 84) end to end on a copy of `nets/`: a few
//! thousand positions of self-play at a small node count, the line's
//! fine-tune and a training from random weights run on them, and the manifests gain their
//! rows. The training from random weights must lower its loss; the fine-tune must write the
//! line's newest network. Skipped, with a note, when python3 (3.11, for `tomllib`) is absent.

use std::path::{Path, PathBuf};
use std::process::Command;

fn copy_nets(to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("nets");
    std::fs::create_dir_all(to.join("line")).expect("make the nets copy");
    for name in ["data.toml", "recipes.toml", "chess.nnue", "line/line.toml"] {
        std::fs::copy(from.join(name), to.join(name)).expect("copy nets/");
    }
}

/// The epochs' training losses of the `[[network]]` row named `name` in `recipes`.
fn losses(recipes: &str, name: &str) -> Vec<f64> {
    let row = recipes
        .split("[[network]]")
        .find(|row| row.contains(&format!("name = \"{name}\"")))
        .unwrap_or_else(|| panic!("no row named {name}"));
    let line = row.lines().find(|l| l.starts_with("losses = ")).expect("a losses field");
    line.split("train = ")
        .skip(1)
        .map(|part| {
            let value = part.split(',').next().expect("a loss");
            value.trim().parse().expect("a number")
        })
        .collect()
}

#[test]
fn a_learning_run_plays_trains_and_writes_its_rows() {
    let python = Command::new("python3").args(["-c", "import tomllib"]).output();
    if !python.is_ok_and(|o| o.status.success()) {
        eprintln!("skipped: python3 with tomllib (3.11) is needed by scripts/learn-manifest.py");
        return;
    }
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("learn");
    let _ = std::fs::remove_dir_all(&root);
    let nets = root.join("nets");
    let data = root.join("data");
    copy_nets(&nets);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/learn.sh");
    let out = Command::new("bash")
        .arg(&script)
        .args(["chess", "1"])
        .env("CHARIOT_BIN", env!("CARGO_BIN_EXE_chariot"))
        .env("CHARIOT_NETS", &nets)
        .env("CHARIOT_DATA", &data)
        .env("CHARIOT_CORES", "0")
        // A count, not a time, so that a loaded machine makes the same data, only later.
        .env("CHARIOT_PLAY_SECONDS", "900")
        .env("CHARIOT_PLAY_POSITIONS", "3000")
        .env("CHARIOT_NICE", "0")
        .env("CHARIOT_NODES", "300")
        .env("CHARIOT_TRAIN_EPOCHS", "3")
        .env("CHARIOT_SCRATCH_AT", "1")
        .output()
        .expect("run scripts/learn.sh");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "learn.sh failed:\n{log}");

    // The data: one file of whole games, listed with its training positions and the command
    // that remakes it.
    let files: Vec<_> = std::fs::read_dir(&data)
        .expect("the data folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".games"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let manifest = std::fs::read_to_string(nets.join("data.toml")).expect("data.toml");
    let row = manifest.split("[[file]]").last().expect("a [[file]] row");
    assert!(row.contains(&format!("name = \"{}\"", files[0])), "{manifest}");
    let positions: u64 = row
        .lines()
        .find_map(|l| l.strip_prefix("positions = "))
        .and_then(|n| n.parse().ok())
        .expect("a position count");
    assert!(positions >= 3000, "{row}");
    assert!(row.contains(&format!("--positions {positions} ")), "{row}");

    // Both candidates: the line's newest network, and the one from random weights, whose
    // loss falls.
    assert!(nets.join("line/chess.nnue").is_file());
    assert!(nets.join("line/chess-scratch.nnue").is_file());
    let recipes = std::fs::read_to_string(nets.join("recipes.toml")).expect("recipes.toml");
    // The run's fine-tune is the last row but its from-scratch sibling (the copy of nets/
    // may hold the line's earlier candidates).
    let name = recipes
        .lines()
        .rev()
        .find(|l| l.starts_with("name = \"chess-g") && !l.ends_with("-scratch\""))
        .and_then(|l| l.split('"').nth(1))
        .expect("the fine-tune's row")
        .to_string();
    assert_eq!(losses(&recipes, &name).len(), 3);
    let scratch = losses(&recipes, &format!("{name}-scratch"));
    assert_eq!(scratch.len(), 20);
    assert!(scratch[19] < scratch[0], "the loss does not fall: {scratch:?}");
    let status = Command::new("python3")
        .args(["-c", "import sys, tomllib; tomllib.load(open(sys.argv[1], 'rb'))"])
        .arg(nets.join("recipes.toml"))
        .status()
        .expect("python3");
    assert!(status.success(), "recipes.toml does not parse");
}
