#!/usr/bin/env bash
# The screen of a learning-line candidate (issue 84, item 6): the candidate network against the
# shipped one, same binary, 25,000 nodes a move, pentanomial SPRT [0, 10] normalized. Its state
# goes to docs/runs/ so that a screen resumes on another machine (same NAME).
#
#   scripts/screen-net.sh GAME [NET] [NAME]
#
# NET defaults to nets/line/GAME.nnue; NAME (the run's name) to net-GAME-gGEN-n25000, GEN the
# line's newest generation. The binary is target/release/chariot (CHARIOT_BIN), the openings
# CHARIOT_OPENINGS (default ../shared/openings). A screen that passes is confirmed at 5+0.05
# (scripts/sprt.sh with the clock) before the network ships; then nets/line/line.toml's
# player becomes "line".
set -euo pipefail
game=${1:?usage: screen-net.sh GAME [NET] [NAME]}
here=$(cd "$(dirname "$0")/.." && pwd)
net=${2:-$here/nets/line/$game.nnue}
gen=$(python3 "$here/scripts/learn-manifest.py" newest "$game")
name=${3:-net-$game-g$gen-n25000}
bin=${CHARIOT_BIN:-$here/target/release/chariot}
export CHARIOT_OPENINGS=${CHARIOT_OPENINGS:-$here/../shared/openings}
export CHARIOT_RUN=$name
out=${CHARIOT_MATCHES:-$here/target/matches}
# A resumed screen starts from the committed state.
mkdir -p "$out"
if [ -e "$here/docs/runs/$name.state" ] && [ ! -e "$out/$name.state" ]; then
  cp "$here/docs/runs/$name.state" "$out/$name.state"
fi
# Both engines load a file: the shipped network is the binary's own, named for symmetry of
# loading costs.
CHARIOT_NEW_OPTS="option.EvalFile=$net" CHARIOT_OLD_OPTS="option.EvalFile=$here/nets/$game.nnue" \
  "$here/scripts/sprt.sh" "$bin" "$bin" "$game" 0 10 N=25000 "${CHARIOT_GAMES:-20000}" || true
cp "$out/$name.state" "$here/docs/runs/$name.state"
