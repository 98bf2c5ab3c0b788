#!/usr/bin/env bash
# Makes a network of generation GEN (2 or later) again from nothing, as nets/recipes.toml
# records it (docs/networks.md): self-play data of the engine at commit COMMIT with its own embedded network (that of
# generation GEN - 1), then a training run on that data (and on EARLIER data, if given).
#
#   scripts/nnue-gen.sh GEN GAME COUNTS HIDDEN COMMIT [EARLIER]
#
# COUNTS is a comma-separated list: the first that many records of the streams of seeds 2, 3, ...
# in turn (each the same with any number of threads, and datagen already plays on every core;
# several seeds let the work be split across sessions), e.g. `330000,210000`. The commit is
# built in a worktree under $CHARIOT_NNUE/build, the trainer is this tree's. Output under
# $CHARIOT_NNUE, which must be set (a folder outside the work tree): data/GAME-gGEN-COMMIT-sN.data and nets/GAME-gGEN-hHIDDEN.nnue
# (-bB before .nnue for B output buckets); copy the network to nets/GAME.nnue to embed it.
# EARLIER, if given, is a comma-separated list of data files already under $CHARIOT_NNUE/data
# (names without `.data`, e.g. `chess-g3-31ef624-s2,chess-g3-31ef624-s3`, as earlier runs of
# this script left them) that the network also trains on, read before the new data. COUNTS and
# COMMIT `-` play no new games: the network then trains on the EARLIER data alone. The training
# runs on CHARIOT_TRAIN_THREADS threads (default 2): a network is the same bit for bit only for
# the same thread count, as the threads' gradients are summed in another order.
# CHARIOT_TRAIN_BUCKETS (default 1) sets the network's output buckets (`chariot train --buckets`),
# CHARIOT_TRAIN_INPUTS (default plain) its input map (`chariot train --inputs`, e.g. king-mirrored).
# CHARIOT_TRAIN_INIT, if set, is a network file the training starts from (`chariot train
# --init`) instead of random weights; `played` names the network that played the games (the
# commit's nets/GAME.nnue, generation GEN - 1), so that a generation builds on the last.
# CHARIOT_TRAIN_LR (default 0.001) and CHARIOT_TRAIN_EPOCHS (default 20) set the rate and the
# passes; a fine-tune of the last generation wants far less of both (docs/networks.md).
# CHARIOT_TRAIN_BATCH (default 16384) sets the positions per optimiser step.
# CHARIOT_TRAIN_LAMBDA (default 1) sets the target's share of the search score, the rest being
# the game's result (`chariot train --lambda`).
# CHARIOT_FIRST_SEED (default 2) is the seed of the first count; with CHARIOT_VALIDATE=1 the
# records of that first seed are not trained on but measure the validation loss (`chariot train
# --valid-data`: games the network never saw).
set -euo pipefail
gen=${1:?usage: nnue-gen.sh GEN GAME COUNTS HIDDEN COMMIT [EARLIER]}
game=${2:?the game: chess or xiangqi}
positions=${3:?records of data}
hidden=${4:?hidden neurons}
commit=${5:?the commit whose engine plays the games}
earlier=${6:-}
source "$(dirname "$0")/nnue-common.sh"
mkdir -p "$root/data" "$root/nets" "$root/build"
(cd "$here" && cargo build --release --quiet)

# The earlier data come first, as the training reads the files in this order.
data_args=()
if [ -n "$earlier" ]; then
  IFS=',' read -ra names <<< "$earlier"
  for name in "${names[@]}"; do
    data_args+=(--data "$root/data/$name.data")
  done
fi
if [ "$positions" != - ]; then
  tree="$root/build/$commit"
  if [ ! -x "$tree/target/release/chariot" ]; then
    # A half-built tree from an earlier run goes, and so does git's record of it.
    rm -rf "$tree"
    git -C "$here" worktree prune
    git -C "$here" worktree add --detach "$tree" "$commit"
    (cd "$tree" && cargo build --release --quiet)
  fi
  seed=${CHARIOT_FIRST_SEED:-2}
  first=$seed
  IFS=',' read -ra counts <<< "$positions"
  for n in "${counts[@]}"; do
    data="$root/data/$game-g$gen-$commit-s$seed.data"
    rm -f "$data"
    "$tree/target/release/chariot" datagen --variant "$game" --out "$data" --positions "$n" \
      --seed "$seed" --nodes 5000
    truncate -s $((n * RECORD_BYTES)) "$data"
    if [ "$seed" = "$first" ] && [ "${CHARIOT_VALIDATE:-0}" = 1 ]; then
      data_args+=(--valid-data "$data")
    else
      data_args+=(--data "$data")
    fi
    seed=$((seed + 1))
  done
fi
buckets=${CHARIOT_TRAIN_BUCKETS:-1}
suffix=""
if [ "$buckets" != 1 ]; then suffix="-b$buckets"; fi
inputs=${CHARIOT_TRAIN_INPUTS:-plain}
if [ "$inputs" != plain ]; then suffix="$suffix-$inputs"; fi
init=${CHARIOT_TRAIN_INIT:-}
if [ "$init" = played ]; then
  if [ "$commit" = - ]; then echo "CHARIOT_TRAIN_INIT=played needs a COMMIT" >&2; exit 2; fi
  git -C "$here" show "$commit:nets/$game.nnue" > "$root/build/$game-$commit.nnue"
  init="$root/build/$game-$commit.nnue"
fi
init_args=()
if [ -n "$init" ]; then init_args=(--init "$init"); fi
"$here/target/release/chariot" train --variant "$game" "${data_args[@]}" "${init_args[@]}" \
  --hidden "$hidden" --buckets "$buckets" --inputs "$inputs" --epochs "${CHARIOT_TRAIN_EPOCHS:-20}" \
  --lr "${CHARIOT_TRAIN_LR:-0.001}" --batch "${CHARIOT_TRAIN_BATCH:-16384}" --seed 1 \
  --lambda "${CHARIOT_TRAIN_LAMBDA:-1}" \
  --threads "${CHARIOT_TRAIN_THREADS:-2}" --out "$root/nets/$game-g$gen-h$hidden$suffix.nnue"
