//! What the driver found, each pinned down through the real binary.

use crate::common::{Next, Session};
use crate::{HANG, XIANGQI_NO_MOVE};
use std::time::{Duration, Instant};

/// Reads lines for `ms` milliseconds and fails if one is an answer.
fn no_answer_within(s: &mut Session, ms: u64, what: &str) {
    let until = Instant::now() + Duration::from_millis(ms);
    while let Next::Line(line) = s.next_line(until.saturating_duration_since(Instant::now())) {
        assert!(!line.contains("bestmove"), "{what}: answered before stop: {line}");
    }
}

/// A bare `go` has no natural end, so it answers only on `stop`, like `go infinite`, even
/// when its search ends by itself: at once with no legal move, or within milliseconds at the
/// deepest depth with two bare kings. (It used to answer there without a `stop`.) The same
/// holds for `go ponder` after `ponderhit`, which leaves a bare `go`.
#[test]
fn a_bare_go_answers_only_on_stop() {
    let cases = [
        ("uci", "position fen 8/8/8/4k3/8/8/8/4K3 w - - 0 1", "bestmove e1"),
        ("uci", "position startpos moves f2f3 e7e5 g2g4 d8h4", "bestmove (none)"),
        ("ucci", &format!("position fen {}", XIANGQI_NO_MOVE[0]), "nobestmove"),
        ("ucci", "position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "bestmove d0"),
    ];
    for (hello, position, answer) in cases {
        let mut s = Session::start(&[]);
        s.send(hello);
        s.expect(&format!("{hello}ok"));
        s.send(position);
        for (go, release) in [("go", None), ("go ponder", Some("ponderhit"))] {
            s.send(go);
            if let Some(release) = release {
                s.send(release);
            }
            no_answer_within(&mut s, 300, &format!("{position}, {go}"));
            s.send("stop");
            let line = s.expect_within(HANG, |l| l.contains("bestmove")).0;
            assert!(line.starts_with(answer), "{position}, {go}: {line}");
        }
    }
}

/// UCCI `go ponder depth 0` (the static score) waits for `ponderhit` or `stop` before its
/// `nobestmove`, as every pondering search does. (It used to answer at once.)
#[test]
fn a_pondering_depth_0_waits_for_its_release() {
    let mut s = Session::start(&[]);
    s.send("ucci");
    s.expect("ucciok");
    s.send("position startpos");
    for release in ["ponderhit", "stop"] {
        s.send("go ponder depth 0");
        s.expect("info depth 0 score");
        no_answer_within(&mut s, 300, "go ponder depth 0");
        s.send(release);
        let line = s.expect_within(HANG, |l| l.contains("bestmove")).0;
        assert_eq!(line, "nobestmove", "after {release}");
    }
}
