//! Memory (issue 16): the engine's resident size stays within Hash + 16 MB with one search
//! thread and Hash + 32 MB with eight, read from `/proc/<pid>/status` (Linux only) while a
//! search fills the table and after it; and a table resized down gives its memory back.
//!
//! The figures are printed: `cargo test --release --test memory -- --nocapture`.

mod common;

#[cfg(target_os = "linux")]
mod linux {
    use super::common::Session;
    use std::time::{Duration, Instant};

    /// What the engine may hold beyond the table with one thread, and with eight (MB).
    const SLACK_1: u64 = 16;
    const SLACK_8: u64 = 32;
    /// How long each game is searched: long enough to write all over the table.
    const SEARCH_MS: u64 = 800;
    /// Readings of the resident size during a search are this far apart.
    const SAMPLE: Duration = Duration::from_millis(20);

    /// The resident size now and at its peak (`VmRSS`, `VmHWM`), in KiB.
    fn resident(pid: u32) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .expect("read /proc/<pid>/status");
        let field = |name: &str| -> u64 {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|kb| kb.parse().ok())
                .unwrap_or_else(|| panic!("no {name} in /proc/{pid}/status"))
        };
        (field("VmRSS:"), field("VmHWM:"))
    }

    fn mb(kib: u64) -> f64 {
        kib as f64 / 1024.0
    }

    /// Sends `isready` and waits for `readyok`: every command before it has run.
    fn sync(s: &mut Session) {
        s.send("isready");
        s.expect("readyok");
    }

    /// Searches for [`SEARCH_MS`], reading the resident size as it goes; returns the largest
    /// reading.
    fn search(s: &mut Session) -> u64 {
        let mut largest = 0;
        s.send(&format!("go movetime {SEARCH_MS}"));
        let start = Instant::now();
        loop {
            largest = largest.max(resident(s.pid()).0);
            let left = Duration::from_secs(60).saturating_sub(start.elapsed());
            assert!(!left.is_zero(), "no bestmove within a minute");
            if let super::common::Next::Line(line) = s.next_line(SAMPLE)
                && line.starts_with("bestmove")
            {
                return largest.max(resident(s.pid()).0);
            }
        }
    }

    /// One setting: both games searched with `hash` MB and `threads` threads; the resident
    /// size, at every reading and at its peak, stays within the bound.
    fn check(hash: u64, threads: u64) {
        let slack = if threads > 1 { SLACK_8 } else { SLACK_1 };
        let bound = (hash + slack) * 1024;
        let mut s = Session::start(&[]);
        s.send("uci");
        s.expect("uciok");
        s.send(&format!("setoption name Hash value {hash}"));
        s.send(&format!("setoption name Threads value {threads}"));
        sync(&mut s);
        let (set, _) = resident(s.pid());
        s.send("position startpos");
        let chess = search(&mut s);
        s.send("setoption name UCI_Variant value xiangqi");
        s.send("position startpos");
        let xiangqi = search(&mut s);
        let (after, peak) = resident(s.pid());
        println!(
            "memory: Hash {hash} MB, Threads {threads}: resident {:.1} MB once set, {:.1} MB \
             searching chess, {:.1} MB xiangqi, {:.1} MB after; peak {:.1} MB (bound {} MB)",
            mb(set),
            mb(chess),
            mb(xiangqi),
            mb(after),
            mb(peak),
            hash + slack
        );
        for (what, kib) in
            [("searching chess", chess), ("searching xiangqi", xiangqi), ("at its peak", peak)]
        {
            assert!(
                kib <= bound,
                "Hash {hash} MB, Threads {threads}: resident {:.1} MB {what}, over {} MB",
                mb(kib),
                hash + slack
            );
        }
    }

    #[test]
    fn resident_size_stays_within_hash_plus_slack() {
        for hash in [64, 256] {
            for threads in [1, 8] {
                check(hash, threads);
            }
        }
    }

    /// Hash resized up and down between searches: the old table is freed before the new one
    /// is made, and a smaller table gives the memory back.
    #[test]
    fn a_smaller_table_gives_memory_back() {
        let mut s = Session::start(&[]);
        s.send("uci");
        s.expect("uciok");
        s.send("setoption name Threads value 8");
        s.send("position startpos");
        for hash in [256, 64, 256, 64] {
            s.send(&format!("setoption name Hash value {hash}"));
            sync(&mut s);
            let during = search(&mut s);
            let (now, _) = resident(s.pid());
            println!(
                "memory: resized to Hash {hash} MB: resident {:.1} MB searching, {:.1} MB after",
                mb(during),
                mb(now)
            );
            assert!(now <= (hash + SLACK_8) * 1024, "{:.1} MB with Hash {hash} MB", mb(now));
        }
        let (_, peak) = resident(s.pid());
        assert!(peak <= (256 + SLACK_8) * 1024, "peak {:.1} MB: two tables at once?", mb(peak));
    }
}
