#!/usr/bin/env python3
"""Pools the games of several runs of one match (scripts/sprt.sh outputs) into one result.

    scripts/pool.py ELO0 ELO1 RUN.out [RUN.out ...]

An SPRT that ended undecided at its game cap may be continued by a second run of the same two
binaries (with CHARIOT_SEED set, so that the openings come in another order); this script
counts the games of all runs together, from the first engine's side ("new"), with the Elo, its
95% error bar and the LLR computed as ../shared/tools/match.py computes them: on the pair
scores, each pair being the two games of one opening within one run.
"""
import importlib.util
import re
import sys
from pathlib import Path

GAME = re.compile(r"^game \d+: (\w+) vs (\w+) (1-0|0-1|1/2-1/2) .*opening (\d+)")


def load_match_py():
    """The Tally class and SPRT bounds of the match tool beside this repository."""
    path = Path(__file__).resolve().parent.parent.parent / "shared" / "tools" / "match.py"
    spec = importlib.util.spec_from_file_location("match", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    elo0, elo1 = float(sys.argv[1]), float(sys.argv[2])
    match = load_match_py()
    stats = match.Tally()
    for run, name in enumerate(sys.argv[3:]):
        for line in Path(name).read_text().splitlines():
            m = GAME.match(line)
            if not m:
                continue
            first, _, result, opening = m.groups()
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
            if first != "new":
                score = 1.0 - score
            stats.add((run, int(opening)), score)
    print(stats.line(("new", "old"), (elo0, elo1, 0.05, 0.05)))


if __name__ == "__main__":
    main()
