#!/usr/bin/env bash
# Makes an embedded network again from nothing: the self-play data, then the training run,
# exactly as nets/recipes.toml records them (docs/networks.md).
#
#   scripts/nnue.sh GAME POSITIONS HIDDEN
#
# GAME is chess or xiangqi. The data is generation 1: games of this build with the classic
# evaluation (`datagen --classic`), seed 1, 5000 nodes a move, cut to exactly POSITIONS records
# (the data of the embedded networks was the first POSITIONS records of that seed's stream,
# which is the same with any number of threads). Output under $CHARIOT_NNUE, which must be set
# (a folder outside the work tree; made if need be): data/GAME-g1-s1.data and
# nets/GAME-g1-hHIDDEN.nnue; copy the network to nets/GAME.nnue to embed it.
set -euo pipefail
game=${1:?usage: nnue.sh GAME POSITIONS HIDDEN}
positions=${2:?records of data}
hidden=${3:?hidden neurons}
source "$(dirname "$0")/nnue-common.sh"
mkdir -p "$root/data" "$root/nets"
(cd "$here" && cargo build --release --quiet)
bin="$here/target/release/chariot"
data="$root/data/$game-g1-s1.data"
rm -f "$data"
"$bin" datagen --variant "$game" --classic --out "$data" --positions "$positions" --seed 1 --nodes 5000
truncate -s $((positions * RECORD_BYTES)) "$data"
"$bin" train --variant "$game" --data "$data" --hidden "$hidden" --epochs 20 --seed 1 \
  --out "$root/nets/$game-g1-h$hidden.nnue"
