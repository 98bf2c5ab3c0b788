#!/usr/bin/env bash
# An SPSA run of the search parameters at a fixed node count (issue 85, item 3), resumable on
# another machine: its parameter file and state live in docs/runs/ under the run's name, are
# copied from there when the run starts and back when it stops (also on Ctrl-C or
# `pkill -INT -x chariot-match`).
#
#   scripts/spsa.sh TUNE GAME NAME [ITERATIONS] [NODES] [PATTERN]
#
# TUNE is a `tune` build of Chariot (`cargo build --release --features tune`), whose search
# parameters are UCI options. ITERATIONS (game pairs, default 10000: 20,000 games) fixes the
# schedule, so a resumed run must keep it; NODES defaults to 25000. PATTERN, an extended
# regular expression, keeps only the parameters whose names it matches (default: every line of
# `TUNE params --spsa`, which leaves out contempt and the time manager's). The parameter file
# is written once, on the first start; a resumed run reads the committed one. CHARIOT_CORE pins
# the run to one core with concurrency 1 (default: both cores, concurrency 2); the output goes
# to $CHARIOT_MATCHES (scripts/game-env.sh), CHARIOT_OPENINGS must be set.
set -euo pipefail
tune=${1:?usage: spsa.sh TUNE GAME NAME [ITERATIONS] [NODES] [PATTERN]}
game=${2:?the game: chess or xiangqi}
name=${3:?the run name}
iterations=${4:-10000}
nodes=${5:-25000}
pattern=${6:-.}
source "$(dirname "$0")/game-env.sh"
runs=$here/docs/runs
stamp=$out/$name
mkdir -p "$runs"
for kind in params state; do
  if [ -e "$runs/$name.$kind" ] && [ ! -e "$stamp.$kind" ]; then
    cp "$runs/$name.$kind" "$stamp.$kind"
  fi
done
if [ ! -e "$stamp.params" ]; then
  "$tune" params --spsa --variant "$game" | grep -E "^($pattern)" > "$stamp.params" || true
  [ -s "$stamp.params" ] || { echo "spsa.sh: no parameter matches '$pattern'" >&2; exit 2; }
  cp "$stamp.params" "$runs/$name.params"
fi
save() { [ -e "$stamp.state" ] && cp "$stamp.state" "$runs/$name.state"; }
trap save EXIT
echo "spsa: $name, $game, $(wc -l < "$stamp.params") parameters, $iterations pairs at $nodes nodes;" \
  "output in $stamp.out" >&2
"${pin[@]}" "$match" --game "$game" --nodes "$nodes" "${concurrency[@]}" "${openings[@]}" \
  --spsa "$stamp.params" --spsa-iterations "$iterations" --state "$stamp.state" \
  --report-every 50 "${adjudicate[@]}" \
  -e name=tune cmd="$tune" "${variant[@]}" option.Hash=16 | tee -a "$stamp.out" || true
