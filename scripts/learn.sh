#!/usr/bin/env bash
# One run of the learning line (issue 84, docs/networks.md "The learning line"): self-play by the
# strongest network at hand on the free cores until the deadline leaves time to train, then one
# training on every file of the line still on this machine (the window), starting from the
# line's newest network. It leaves, ready to commit:
#   nets/line/GAME.nnue   the line's newest network (what the next run starts from and, once a
#                         candidate has beaten the shipped network, what plays)
#   nets/data.toml        a [[file]] row for each data file this run made
#   nets/recipes.toml     a [[network]] row for each candidate (data, settings, seconds, losses)
# and, once the window holds CHARIOT_SCRATCH_AT positions (12 million), a second candidate
# trained from random weights on the whole window, nets/line/GAME-scratch.nnue.
#
#   scripts/learn.sh GAME MINUTES
#
# The run stops cleanly at its deadline: the games under way when play ends are lost, every
# finished one is kept. Settings (environment):
#   CHARIOT_DATA       the line's data on this machine (default $HOME/nnue/line): GAME-COMMIT-sSEED.games,
#                      whole games at about 6 bytes a training position (engine/src/nnue/games.rs;
#                      the 40-byte .data files of earlier runs are read too)
#   CHARIOT_CORES      the cores that play, e.g. "1" (default: every core)
#   CHARIOT_BIN        the engine (default target/release/chariot, built from HEAD)
#   CHARIOT_NODES      nodes a move in self-play (default 5000)
#   CHARIOT_TRAIN_MINUTES  minutes kept for training at the end (default: estimated from the
#                      window at 400,000 positions a second a thread, at least 3)
#   CHARIOT_TRAIN_LR, CHARIOT_TRAIN_EPOCHS, CHARIOT_TRAIN_LAMBDA, CHARIOT_TRAIN_THREADS
#                      the line's fine-tune (defaults 0.0005, 8, 1.0, the cores that played;
#                      docs/networks.md says why λ is 1)
#   CHARIOT_PLAY_SECONDS  seconds of play (overrides what the deadline leaves; 0: train only)
#   CHARIOT_PLAY_POSITIONS  stop each core's play after this many positions (default: none)
#   CHARIOT_NICE       the players' niceness (default 5: matches and builds come first)
#   CHARIOT_NETS       the folder of the manifests and the line (default nets/ of this repository;
#                      the tests point it at a copy)
set -euo pipefail
game=${1:?usage: learn.sh GAME MINUTES}
minutes=${2:?the minutes of the run}
case $game in chess | xiangqi) ;; *) echo "learn.sh: unknown game '$game'" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
data=${CHARIOT_DATA:-$HOME/nnue/line}
bin=${CHARIOT_BIN:-$here/target/release/chariot}
nodes=${CHARIOT_NODES:-5000}
read -ra cores <<< "${CHARIOT_CORES:-$(seq -s ' ' 0 $(($(nproc) - 1)))}"
[ -x "$bin" ] || { echo "learn.sh: no engine at $bin (cargo build --release, or set CHARIOT_BIN)" >&2; exit 2; }
commit=$(git -C "$here" rev-parse --short=7 HEAD)
start=$(date +%s)
deadline=$((start + minutes * 60))
nets=${CHARIOT_NETS:-$here/nets}
export CHARIOT_NETS=$nets
mkdir -p "$data/nets" "$nets/line"
line_net=$nets/line/$game.nnue
# The line's settings: its newest network's shape, and which network plays.
lr=${CHARIOT_TRAIN_LR:-0.0005}
epochs=${CHARIOT_TRAIN_EPOCHS:-8}
lambda=${CHARIOT_TRAIN_LAMBDA:-1.0}
threads=${CHARIOT_TRAIN_THREADS:-${#cores[@]}}
hidden=256
buckets=8
scratch_at=${CHARIOT_SCRATCH_AT:-12000000}
manifest="python3 $here/scripts/learn-manifest.py"
player=$($manifest player "$game")
parent=$($manifest newest "$game")
generation=$($manifest next "$game")
net_args=()
if [ "$player" = line ]; then net_args=(--net "$line_net"); fi
init=$line_net
[ -e "$init" ] || init=$nets/$game.nnue
window_before=$($manifest window "$game" "$data")
echo "learn: $game, generation $generation from generation $parent ($init), played by the $player network;" \
  "window on this machine: $window_before positions" >&2

# Play: one datagen a core, each its own seed, until the training's reserve.
reserve=${CHARIOT_TRAIN_MINUTES:-}
if [ -z "$reserve" ]; then
  # Positions a run adds: about 700,000 an hour a core at 5,000 nodes.
  expected=$((window_before + ${#cores[@]} * 700000 * minutes / 60))
  reserve=$(((expected * epochs / (400000 * threads) + 59) / 60))
  [ "$reserve" -lt 3 ] && reserve=3
  [ "$reserve" -gt $((minutes / 2)) ] && reserve=$((minutes / 2))
fi
play=$((deadline - reserve * 60 - $(date +%s)))
[ -n "${CHARIOT_PLAY_SECONDS:-}" ] && play=$CHARIOT_PLAY_SECONDS
files=()
if [ "$play" -gt 0 ]; then
  seed=$($manifest seed "$game" "$data")
  pids=()
  for core in "${cores[@]}"; do
    out=$data/$game-$commit-s$seed.games
    files+=("$out")
    echo "learn: core $core plays seed $seed for $play s into $out" >&2
    # SIGINT stops datagen mid-game: the finished games are on disk; a game cut off as it was
    # written is skipped by every reader (and cut by datagen before it appends again).
    timeout --signal=INT "$play" taskset -c "$core" nice -n "${CHARIOT_NICE:-5}" "$bin" datagen --variant "$game" \
      --out "$out" --positions "${CHARIOT_PLAY_POSITIONS:-1000000000}" --threads 1 --seed "$seed" --nodes "$nodes" \
      "${net_args[@]}" > "$out.log" 2>&1 &
    pids+=($!)
    seed=$((seed + 1))
  done
  for pid in "${pids[@]}"; do wait "$pid" || true; done
  for out in "${files[@]}"; do
    [ -e "$out" ] || continue
    $manifest file "$game" "$out" "$commit" "$player" "$parent" "$nodes" >> "$nets/data.toml"
  done
fi

# Train on the whole window, starting from the line's newest network.
mapfile -t window < <($manifest files "$game" "$data")
if [ "${#window[@]}" -eq 0 ]; then echo "learn: no data in $data" >&2; exit 1; fi
data_args=()
for f in "${window[@]}"; do data_args+=(--data "$f"); done
train() { # NAME INIT-ARGS... : trains, logs, appends the recipe row
  local name=$1
  shift
  local out=$data/nets/$name.nnue log=$data/nets/$name.log
  local t0
  t0=$(date +%s)
  local cmd=("$bin" train --variant "$game" "${data_args[@]}" "$@" --hidden "$hidden"
    --buckets "$buckets" --batch 16384 --seed 1 --threads "$threads" --out "$out")
  # The log's first line is the command, with the data by file name: the recipe's command.
  local args="$*"
  echo "command: chariot train --variant $game ${window[*]##*/} ${args//$here\//} --hidden $hidden --buckets $buckets --batch 16384 --seed 1 --threads $threads" |
    sed -E "s# ($game-[0-9a-f]{7}-s[0-9]+\.(data|games))# --data \1#g" > "$log"
  "${cmd[@]}" | tee -a "$log" >&2
  $manifest network "$game" "$generation" "$name" "$log" $(($(date +%s) - t0)) "$commit" "$player" "$parent" \
    "${window[@]}" >> "$nets/recipes.toml"
}
name=$game-g$generation-$commit
train "$name" --init "$init" --epochs "$epochs" --lr "$lr" --lambda "$lambda"
cp "$data/nets/$name.nnue" "$line_net"
positions=$($manifest window "$game" "$data")
if [ "$positions" -ge "$scratch_at" ]; then
  train "$name-scratch" --epochs 20 --lr 0.001 --lambda "$lambda"
  cp "$data/nets/$name-scratch.nnue" "$nets/line/$game-scratch.nnue"
fi
echo "learn: done in $(($(date +%s) - start)) s; commit nets/line, nets/data.toml and nets/recipes.toml;" \
  "screen the candidate with scripts/screen-net.sh $game" >&2
