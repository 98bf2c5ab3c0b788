#!/usr/bin/env bash
# Fills the data pool of the networks issue: `chariot datagen` files of 1,000,000 positions, seed
# after seed, on one core at the lowest priority, so that matches and builds keep the machine.
#
#   CHARIOT_DATA=DIR [CHARIOT_BIN=BIN] scripts/datagen-pool.sh CORE GAME FIRST_SEED
#
# Each file is DIR/GAME-COMMIT-sSEED.data (COMMIT: the engine's, from `BIN --version`'s build or
# CHARIOT_COMMIT) with its progress log beside it, and SEED.done once complete. A stopped run
# resumes where it stopped: datagen cuts a partial record off the end and appends; one seed gives
# the same records with any thread count, so a file is always a prefix of what its command makes.
# nets/data.toml lists the files (scripts/data-manifest.sh prints their entries).
set -euo pipefail
core=${1:?usage: datagen-pool.sh CORE GAME FIRST_SEED}
game=${2:?the game: chess or xiangqi}
seed=${3:?the first seed}
dir=${CHARIOT_DATA:?set CHARIOT_DATA to the folder of the data pool}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${CHARIOT_BIN:-$here/target/release/chariot}
commit=${CHARIOT_COMMIT:-$(git -C "$here" rev-parse --short=7 HEAD)}
[ -x "$bin" ] || { echo "datagen-pool: no engine at $bin (cargo build --release, or set CHARIOT_BIN)" >&2; exit 2; }
mkdir -p "$dir"
while true; do
  out="$dir/$game-$commit-s$seed.data"
  if [ ! -e "$out.done" ]; then
    taskset -c "$core" nice -n 19 "$bin" datagen --variant "$game" --out "$out" \
      --positions 1000000 --threads 1 --seed "$seed" --nodes 5000 >"$out.log" 2>&1
    touch "$out.done"
  fi
  seed=$((seed + 1))
done
