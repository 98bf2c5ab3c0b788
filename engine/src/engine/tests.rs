//! The controller driven directly, with a recorder in place of the protocol writer.

use super::*;
use crate::command::{Limits, Start, Task};
use crate::game::Game;
use crate::report::Eval;
use std::time::Duration;

/// The answer without a move (UCI `bestmove (none)`, UCCI `nobestmove`).
fn no_move() -> Report {
    Report::BestMove { best: None, ponder: None, draw: false, resign: false }
}

/// How long a test waits for a report that should come soon; generous, for a busy machine.
const PATIENCE: Duration = Duration::from_secs(20);

/// A sink that keeps every report for the test to read.
#[derive(Default)]
struct Recorder {
    reports: parking_lot::Mutex<Vec<Report>>,
    arrived: parking_lot::Condvar,
}

impl Sink for Recorder {
    fn send(&self, report: &Report) {
        self.reports.lock().push(report.clone());
        self.arrived.notify_all();
    }
}

impl Recorder {
    /// Waits until a report matching `want` has arrived; returns everything so far.
    fn wait_for(&self, want: impl Fn(&Report) -> bool) -> Vec<Report> {
        let deadline = std::time::Instant::now() + PATIENCE;
        let mut reports = self.reports.lock();
        while !reports.iter().any(&want) {
            if self.arrived.wait_until(&mut reports, deadline).timed_out() {
                panic!("timed out; reports so far: {:?}", *reports);
            }
        }
        reports.clone()
    }
}

/// The conventions the controller is tested under: UCI's and UCCI's, as their front-ends
/// state them.
#[derive(Copy, Clone)]
enum Protocol {
    Uci,
    Ucci,
}

impl Protocol {
    fn dialect(self) -> Dialect {
        let ucci = matches!(self, Protocol::Ucci);
        Dialect {
            game: ucci.then_some(Variant::Xiangqi),
            farewell: ucci,
            answer_idle_stop: ucci,
            ignore_unknown_options: ucci,
            auto_zero: ucci,
        }
    }
}

/// A controller on its own thread, fed events as a reader would.
struct Session {
    recorder: Arc<Recorder>,
    inbox: Sender<Event>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Session {
    fn new(protocol: Protocol) -> Session {
        let recorder = Arc::new(Recorder::default());
        let engine = Engine::new(recorder.clone(), None).expect("threads start");
        let (inbox, rx) = crossbeam_channel::unbounded();
        let _ = inbox.send(Event::Dialect(protocol.dialect()));
        let thread = std::thread::spawn(move || engine.run(rx));
        Session { recorder, inbox, thread: Some(thread) }
    }

    fn send(&self, c: Command) {
        let _ = self.inbox.send(Event::Command(c));
    }

    /// Ends input and waits for the controller to finish; returns every report.
    fn finish(mut self) -> Vec<Report> {
        let _ = self.inbox.send(Event::Eof);
        if let Some(t) = self.thread.take() {
            t.join().expect("the controller ends cleanly");
        }
        self.recorder.reports.lock().clone()
    }
}

/// A `go` within `limits`, as a front-end reads it: depth 0 asks for the static score.
fn go(limits: Limits) -> Command {
    let task = if limits.depth == Some(0) { Task::Static } else { Task::Search };
    Command::Go(Go { task, limits, ..Default::default() })
}

fn depth(d: u32) -> Limits {
    Limits { depth: Some(d), ..Default::default() }
}

fn best_moves(reports: &[Report]) -> Vec<&Report> {
    reports.iter().filter(|r| matches!(r, Report::BestMove { .. })).collect()
}

#[test]
fn every_go_gets_exactly_one_answer_even_at_end_of_input() {
    let s = Session::new(Protocol::Uci);
    s.send(go(depth(3)));
    s.send(Command::Position { start: Start::Startpos, moves: vec!["e2e4".into()] });
    s.send(go(depth(2)));
    s.send(go(Limits { infinite: true, ..Default::default() }));
    let reports = s.finish();
    let answers = best_moves(&reports);
    assert_eq!(answers.len(), 3, "{reports:?}");
    assert!(answers.iter().all(|r| matches!(r, Report::BestMove { best: Some(_), .. })));
}

/// A command file read ahead of the search: the `ponderhit` behind a queued `go ponder`
/// belongs to it, not to the search running when it was read.
#[test]
fn a_ponderhit_read_behind_a_queued_go_ponder_acts_on_it() {
    for eof_at_once in [true, false] {
        let s = Session::new(Protocol::Uci);
        s.send(go(depth(6)));
        s.send(go(Limits { ponder: true, ..depth(4) }));
        s.send(Command::PonderHit { draw_offer: false });
        s.send(Command::Help);
        if !eof_at_once {
            // Input still open: only the queued `ponderhit` can end the ponder search, and
            // `help` runs once both searches have answered.
            s.recorder.wait_for(|r| matches!(r, Report::Help));
        }
        let reports = s.finish();
        assert_eq!(best_moves(&reports).len(), 2, "{reports:?}");
        // The ponder search went on to its depth after the ponderhit, not stopped at once.
        let depths: Vec<u32> = reports
            .iter()
            .filter_map(|r| match r {
                Report::Iteration { depth, .. } => Some(*depth),
                _ => None,
            })
            .collect();
        let second = &depths[depths.iter().position(|&d| d == 6).expect("depth 6") + 1..];
        assert!(second.starts_with(&[1, 2, 3, 4]), "{depths:?}");
    }
}

#[test]
fn isready_and_stop_act_during_an_infinite_search() {
    let s = Session::new(Protocol::Uci);
    s.send(go(Limits { infinite: true, ..Default::default() }));
    s.recorder.wait_for(|r| matches!(r, Report::Iteration { depth: 2, .. }));
    s.send(Command::IsReady);
    let reports = s.recorder.wait_for(|r| matches!(r, Report::Ready));
    assert!(best_moves(&reports).is_empty(), "no answer before stop: {reports:?}");
    s.send(Command::Stop);
    s.recorder.wait_for(|r| matches!(r, Report::BestMove { .. }));
    assert_eq!(best_moves(&s.finish()).len(), 1);
}

#[test]
fn the_dialect_decides_stop_while_idle_farewell_and_unknown_options() {
    let uci = Session::new(Protocol::Uci);
    uci.send(Command::Stop);
    uci.send(Command::SetOption { name: "Frobnicate".into(), value: None });
    uci.send(Command::Quit);
    let reports = uci.finish();
    assert!(best_moves(&reports).is_empty(), "UCI: nothing to stop, nothing to say");
    assert!(!reports.contains(&Report::Bye));
    assert!(reports.iter().any(|r| matches!(r, Report::Error(e) if e.contains("Frobnicate"))));

    let ucci = Session::new(Protocol::Ucci);
    ucci.send(Command::Stop);
    ucci.send(Command::SetOption { name: "Frobnicate".into(), value: None });
    ucci.send(Command::Quit);
    let reports = ucci.finish();
    assert_eq!(best_moves(&reports), vec![&no_move()], "UCCI answers a stop while idle");
    assert_eq!(reports.last(), Some(&Report::Bye));
    assert!(!reports.iter().any(|r| matches!(r, Report::Error(_))), "{reports:?}");
}

#[test]
fn depth_zero_is_the_static_score_and_no_move() {
    let s = Session::new(Protocol::Ucci);
    s.send(go(depth(0)));
    let reports = s.finish();
    assert!(reports.iter().any(|r| matches!(r, Report::Static { score: Eval::Cp(_) })));
    assert_eq!(best_moves(&reports), vec![&no_move()]);
}

#[test]
fn ucci_plays_xiangqi_and_a_bad_position_is_not_searched() {
    let s = Session::new(Protocol::Ucci);
    s.send(Command::Hello);
    s.send(go(depth(2)));
    s.send(Command::Position { start: Start::Startpos, moves: vec!["e2e4".into()] });
    s.send(go(depth(2)));
    let reports = s.finish();
    assert!(reports.contains(&Report::Hello { variant: Variant::Xiangqi }));
    let answers = best_moves(&reports);
    assert_eq!(answers.len(), 2);
    // The first search was of xiangqi's start: an ICCS move.
    assert!(matches!(answers[0], Report::BestMove { best: Some(m), .. } if m.len() == 4));
    // `e2e4` is no xiangqi move: the position is refused, and so is the search.
    assert_eq!(answers[1], &no_move());
    assert!(reports.iter().any(|r| matches!(r, Report::Error(e) if e.contains("e2e4"))));
}

#[test]
fn options_act_on_the_session() {
    let s = Session::new(Protocol::Uci);
    for (name, value) in
        [("Threads", "2"), ("Hash", "2"), ("MultiPV", "2"), ("UCI_Variant", "xiangqi")]
    {
        s.send(Command::SetOption { name: name.into(), value: Some(value.into()) });
    }
    s.send(go(depth(3)));
    s.send(Command::SetOption { name: "Threads".into(), value: Some("1".into()) });
    s.send(Command::SetOption { name: "Clear Hash".into(), value: None });
    s.send(Command::NewGame);
    s.send(go(depth(2)));
    let reports = s.finish();
    assert!(!reports.iter().any(|r| matches!(r, Report::Error(_))), "{reports:?}");
    // MultiPV 2: two lines per iteration.
    assert!(reports.iter().any(|r| matches!(r, Report::Iteration { multipv: 2, .. })));
    let answers = best_moves(&reports);
    assert_eq!(answers.len(), 2);
    // UCI_Variant xiangqi: moves of xiangqi's start position.
    let start = crate::xiangqi::Xiangqi::startpos();
    assert!(answers.iter().all(|r| matches!(r, Report::BestMove { best: Some(m), .. }
        if start.parse_move(m).is_ok())));
}

#[test]
fn the_game_ply_of_any_fen_is_counted_without_overflow() {
    use crate::game::fen_ply as game_ply;
    assert_eq!(game_ply("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 0);
    assert_eq!(game_ply("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), 1);
    assert_eq!(game_ply("8/8/8/8/8/8/8/K1k5 b - - 0 4294967295"), u32::MAX);
    assert_eq!(game_ply("garbage"), 0);
}
