#!/usr/bin/env python3
"""Measures how long Chariot takes to answer `go` with almost nothing on the clock.

A GUI must never wait or lose on time: with 46 ms left and a 20 ms increment (a real case
from a 2+0.02 game), the answer must come well within the clock. This prints the minimum,
median and maximum over many searches, for the closing notes of time-management changes.

    python3 scripts/latency.py [path/to/chariot] [searches]
"""
import subprocess
import sys
import time

BINARY = sys.argv[1] if len(sys.argv) > 1 else "target/release/chariot"
SEARCHES = int(sys.argv[2]) if len(sys.argv) > 2 else 30
GO = "go wtime 46 btime 82 winc 20 binc 20"


def main():
    engine = subprocess.Popen([BINARY], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def wait_for(prefix):
        while not engine.stdout.readline().startswith(prefix):
            pass

    send("uci")
    wait_for("uciok")
    send("position fen 8/8/4k3/8/2R5/8/3K4/8 w - - 0 1")
    send("isready")
    wait_for("readyok")
    times = []
    for _ in range(SEARCHES):
        start = time.perf_counter()
        send(GO)
        wait_for("bestmove")
        times.append((time.perf_counter() - start) * 1000)
    send("quit")
    engine.wait()
    times.sort()
    print(f"{GO}: min {times[0]:.1f} ms, median {times[len(times) // 2]:.1f} ms, "
          f"max {times[-1]:.1f} ms over {SEARCHES} searches")


if __name__ == "__main__":
    main()
