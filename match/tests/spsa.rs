//! SPSA end to end with the fake engine: iterations are played, the state file records them,
//! and a second run resumes from it instead of starting again.

use chariot_engine::game::Variant;
use chariot_match::engine::EngineSpec;
use chariot_match::play::{Adjudication, DEFAULT_FIXED_TIMEOUT_MS, GameConfig, TimeControl};
use chariot_match::spsa::{SpsaConfig, parse_params, read_state, run};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

const FAKE: &str = env!("CARGO_BIN_EXE_chariot-fake-engine");

#[test]
fn spsa_runs_and_resumes() {
    let dir = std::env::temp_dir().join(format!("chariot-match-spsa-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let state = dir.join("spsa.state");
    let params =
        parse_params("rfp_margin, int, 180, 20, 300, 8, 0.002\nx, float, 1.5, 0, 3, 0.2, 0.002")
            .expect("valid");
    let mut cfg = SpsaConfig {
        variant: Variant::Chess,
        engine: Arc::new(EngineSpec::new("fake", vec![FAKE.into(), "--seed".into(), "5".into()])),
        game: GameConfig {
            tc: TimeControl::Nodes(1),
            margin_ms: 100,
            // The runner's own: the fakes answer at once, and a loaded machine must not make
            // a hang.
            fixed_timeout_ms: DEFAULT_FIXED_TIMEOUT_MS,
            adjudication: Adjudication { max_plies: Some(60), ..Default::default() },
            chess960: false,
            move_limit: 120,
        },
        openings: vec![chariot_engine::chess::START_FEN.to_string()],
        seed: 9,
        iterations: 3,
        concurrency: 1,
        affinity: false,
        state: Some(state.clone()),
        report_every: 100,
    };
    let out = run(&cfg, params.clone(), &Arc::new(AtomicBool::new(false))).expect("spsa runs");
    assert!(
        out.iter()
            .zip(&params)
            .all(|(o, p)| o.min <= o.value && o.value <= o.max && o.start == p.start)
    );
    let mut check = params.clone();
    assert_eq!(read_state(&state, &mut check), Ok(3));
    assert_eq!(check[0].value, out[0].value);

    // Planned for 5: resumes at 3 and plays 2 more.
    cfg.iterations = 5;
    run(&cfg, params.clone(), &Arc::new(AtomicBool::new(false))).expect("spsa resumes");
    let mut check = params;
    assert_eq!(read_state(&state, &mut check), Ok(5));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The command line as README shows it: one engine (`-e` once) for SPSA, which plays it
/// against itself; it once indexed a second engine that was not there and panicked.
#[test]
fn the_command_line_tunes_with_one_engine() {
    let dir = std::env::temp_dir().join(format!("chariot-match-spsa-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let params = dir.join("params.txt");
    let line = "rfp_margin, int, 180, 20, 300, 8, 0.002";
    std::fs::write(&params, format!("{line}\n")).expect("params");
    let state = dir.join("spsa.state");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot-match"))
        .args(["--game", "chess", "--nodes", "1", "--maxplies", "40", "--spsa-iterations", "2"])
        .arg("--spsa")
        .arg(&params)
        .arg("--state")
        .arg(&state)
        .args(["-e", "name=fake", &format!("cmd={FAKE}")])
        .env_remove("CHARIOT_OPENINGS")
        .output()
        .expect("chariot-match runs");
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{text}");
    assert!(text.contains("rfp_margin"), "the values are printed: {text}");
    let mut check = parse_params(line).expect("valid");
    assert_eq!(read_state(&state, &mut check), Ok(2));
    let _ = std::fs::remove_dir_all(&dir);
}
