//! The stress driver's findings (issue 16), each pinned down through the real binary.

mod common;

use common::{Next, Session};
use std::time::{Duration, Instant};

/// An answer that must come by itself taking longer than this is a hang. Generous: the
/// machine may be busy compiling.
const HANG: Duration = Duration::from_secs(20);
/// Xiangqi positions with no legal move for black: in check, and not in check (which loses
/// too).
const XIANGQI_NO_MOVE: &[&str] =
    &["3k5/9/9/9/9/9/9/9/3R5/4KR3 b - - 0 1", "4ka3/4a4/9/9/9/9/9/9/9/3KR4 b - - 0 1"];

// ---------------------------------------------------------------------------------------------
// What the driver found, each pinned down through the real binary.

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
