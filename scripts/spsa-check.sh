#!/usr/bin/env bash
# The match runner's SPSA convergence check (the match-runner issue): one parameter started
# far from today's value must come back near it. The reverse-futility margin starts at 180,
# twice chess's 90, and is tuned alone at a fixed node count (so that the run does not depend on
# an idle machine) for 2,000 game pairs, 4,000 games.
#
#   scripts/spsa-check.sh TUNE [ITERATIONS] [NODES]     defaults: 2000 pairs, 25000 nodes a move
#
# TUNE is a `tune` build of Chariot (`cargo build --release --features tune`, or `make
# EXE=chariot-tune FEATURES=tune`), whose search parameters are UCI options. The perturbation
# and the rate are larger than `chariot params --spsa` prints (c_end 30, r_end 0.0222): a lone
# parameter tuned over a few thousand games needs them to cross 90 units, and its noise near
# the optimum stays near ±13 at this schedule. At 5,000 nodes a move the margin hardly matters
# (180 against 90: 109-107-84, 300 games), at 25,000 it does (62-78-60, 200 games). Concurrency 2
# with each game on its own core; the output, the state (which resumes a stopped run) and the
# parameter file go to $CHARIOT_MATCHES (default target/matches), named spsa-rfp.
set -euo pipefail
tune=${1:?usage: spsa-check.sh TUNE [ITERATIONS] [NODES]}
iterations=${2:-2000}
nodes=${3:-25000}
game=chess
source "$(dirname "$0")/game-env.sh"
stamp="$out/${CHARIOT_RUN:-spsa-rfp}"
echo "rfp_margin, int, 180, 20, 300, 30, 0.0222" > "$stamp.params"
echo "spsa: rfp_margin from 180, $iterations pairs at $nodes nodes; output in $stamp.out" >&2
"$match" --game chess --nodes "$nodes" --concurrency 2 --affinity "${openings[@]}" \
  --spsa "$stamp.params" --spsa-iterations "$iterations" --state "$stamp.state" \
  --report-every 50 -e name=tune cmd="$tune" option.Hash=16 | tee -a "$stamp.out"
