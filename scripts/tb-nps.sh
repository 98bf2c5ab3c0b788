#!/usr/bin/env bash
# What probing the Syzygy tables costs in speed: a session's `bench` (which plays with the
# session's tables) on the same positions with and without `SyzygyPath`, in CHARIOT_ROUNDS rounds
# (default 3: the machine's speed wanders; compare the rounds), the
# nodes and nodes per second of each.
#
#   scripts/tb-nps.sh [POSITIONS.epd] [DEPTH]     defaults: the bench positions, depth 13
#
# CHARIOT is the engine (default target/release/chariot); CHARIOT_SYZYGY the tables;
# CHARIOT_CORE pins it to one core (run nothing else there).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
positions=${1:-default}
depth=${2:-13}
tables=${CHARIOT_SYZYGY:?set CHARIOT_SYZYGY to the folder of the tables}
chariot=${CHARIOT:-$here/target/release/chariot}
pin=()
[ -n "${CHARIOT_CORE:-}" ] && pin=(taskset -c "$CHARIOT_CORE")
bench="bench 16 1 $depth $positions depth"
for round in $(seq "${CHARIOT_ROUNDS:-3}"); do
  printf 'uci\n%s\nsetoption name SyzygyPath value %s\n%s\nquit\n' "$bench" "$tables" "$bench" |
    "${pin[@]}" "$chariot" | grep ' nps$' | paste -d' ' - - |
    awk -v r="$round" '{ printf "round %s: none %s nodes %s nps, tables %s nodes %s nps (%+.1f%% nps)\n",
      r, $1, $3, $5, $7, ($7 / $3 - 1) * 100 }'
done
