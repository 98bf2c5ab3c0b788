#!/usr/bin/env bash
# Games per hour of chariot-match against the Python runner it replaced (the match-runner issue):
# the same engines, openings, time control and concurrency, one runner after the other, on an
# otherwise idle machine. Chariot plays itself, as in an SPRT.
#
#   scripts/runner-rate.sh GAME [GAMES] [TC] [CONCURRENCY]     defaults: 40 games, 2+0.02, 2
#
# OLD_RUNNER is the Python runner (default ../shared/tools/match.py beside the repository);
# CHARIOT the engine (default target/release/chariot). Prints one line per runner:
# `<runner> <game> <games> games in <s> s: <games/hour> games/hour`.
set -euo pipefail
game=${1:?chess or xiangqi}
games=${2:-40}
tc=${3:-2+0.02}
concurrency=${4:-2}
source "$(dirname "$0")/game-env.sh"
chariot=${CHARIOT:-$here/target/release/chariot}
old_runner=${OLD_RUNNER:-$here/../shared/tools/match.py}
[ -r "$old_runner" ] || { echo "no Python runner at $old_runner (set OLD_RUNNER)" >&2; exit 2; }
engines=(-e name=a cmd="$chariot" "${variant[@]}" -e name=b cmd="$chariot" "${variant[@]}")
common=(--game "$game" --tc "$tc" --games "$games" --concurrency "$concurrency" "${openings[@]}")
rate() { # runner name, command...
  local name=$1 start end
  shift
  start=$(date +%s.%N)
  "$@" >"$out/rate-$name-$game.out" 2>&1
  end=$(date +%s.%N)
  awk -v n="$name" -v g="$game" -v k="$games" -v s="$start" -v e="$end" \
    'BEGIN { t = e - s; printf "%s %s %d games in %.0f s: %.0f games/hour\n", n, g, k, t, k * 3600 / t }'
  tail -3 "$out/rate-$name-$game.out" | sed 's/^/  /'
}
rate chariot-match "$match" "${common[@]}" "${engines[@]}"
rate match.py python3 "$old_runner" "${common[@]}" --quiet "${engines[@]}"
