#!/usr/bin/env bash
# A self-play SPRT match between two Chariot binaries, the way every strength change is tested.
#
#   scripts/sprt.sh NEW OLD GAME [ELO0 ELO1] [TC] [GAMES]
#
# TC is a clock (5+0.05) or a node count per move, N=25000 as OpenBench writes it: a screen at
# fixed nodes, where results do not depend on the machine's load (issue 85). A screen's default
# run name says so (GAME-n25000-TIME), so that it never resumes a clock run's state.
#
# NEW and OLD are binaries; keep the old one outside the work tree (`git worktree add /tmp/old
# <commit>` and `cargo build --release` there, as README's Strength changes says). GAME is chess or
# xiangqi. The defaults are the project's standard: an SPRT of [0, 10] at 5+0.05 with at most
# 20000 games. The bounds are normalized Elo (chariot-match's pentanomial GSPRT, fishtest's and
# fastchess's), not the logistic Elo of older runs. One thread and 16 MB hash each, concurrency 2
# with each game's engines pinned to a core (the whole of this two-core machine: run nothing
# else). Played by chariot-match (scripts/game-env.sh: CHARIOT_MATCH, and CHARIOT_OPENINGS, which
# must be set). The output, the records (.pgn), the state (.state) and, with CHARIOT_LOGS=1, the
# engines' logs (.logs/) go to $CHARIOT_MATCHES (default target/matches), named by game and time,
# or by CHARIOT_RUN:
# a run started again with the same CHARIOT_RUN resumes from its state file. CHARIOT_NEW_OPTS and
# CHARIOT_OLD_OPTS add engine options (chariot-match's `option.NAME=VALUE` tokens, separated by
# `;` since names may hold spaces), e.g. to play one binary with its network against itself with
# the classic evaluation:
#   CHARIOT_OLD_OPTS="option.Use NNUE=false" scripts/sprt.sh ./chariot ./chariot chess
# CHARIOT_SEED shuffles the openings with another seed, for a second run of the same pair whose
# games are then pooled with the first:
#   target/release/chariot-match --pool RUN1.state RUN2.state --sprt 0 10
# CHARIOT_CORE pins the match (the runner and both engines) to one core with concurrency 1, so
# that two matches, or a match and a build on the other core, can share the machine without
# disturbing each other's clocks:
#   CHARIOT_CORE=0 scripts/sprt.sh new old chess 0 10 2+0.02 &
#   CHARIOT_CORE=1 CHARIOT_SEED=2 scripts/sprt.sh other old chess 0 10 2+0.02 &
set -euo pipefail
new=${1:?usage: sprt.sh NEW OLD GAME [ELO0 ELO1] [TC] [GAMES]}
old=${2:?old binary}
game=${3:?chess or xiangqi}
elo0=${4:-0}
elo1=${5:-10}
tc=${6:-5+0.05}
games=${7:-20000}
source "$(dirname "$0")/game-env.sh"
limit=(--tc "$tc")
kind=$game
if [[ $tc =~ ^N=([0-9]+)$ ]]; then
  limit=(--nodes "${BASH_REMATCH[1]}")
  kind=$game-n${BASH_REMATCH[1]}
elif [[ ! $tc =~ ^([0-9]+/)?[0-9.]+\+[0-9.]+$ ]]; then
  echo "sprt.sh: '$tc' is neither a clock (5+0.05) nor a node count (N=25000)" >&2
  exit 2
fi
stamp="$out/${CHARIOT_RUN:-$kind-$(date +%Y%m%d-%H%M%S)}"
proto=uci
new_opts=()
old_opts=()
[ -n "${CHARIOT_NEW_OPTS:-}" ] && IFS=';' read -ra new_opts <<< "$CHARIOT_NEW_OPTS"
[ -n "${CHARIOT_OLD_OPTS:-}" ] && IFS=';' read -ra old_opts <<< "$CHARIOT_OLD_OPTS"
if [ -n "${CHARIOT_CORE:-}" ] && [ -z "${CHARIOT_RUN:-}" ]; then
  stamp="$stamp-core$CHARIOT_CORE"
fi
# Engine logs only when asked (CHARIOT_LOGS=1): at 5+0.05 they grow by about 200 kB a game.
logs=()
if [ -n "${CHARIOT_LOGS:-}" ]; then
  mkdir -p "$stamp.logs"
  logs=(--log-dir "$stamp.logs")
fi
echo "sprt: $new vs $old, $game, [$elo0, $elo1] normalized Elo, $tc; output in $stamp.out" >&2
"${pin[@]}" "$match" --game "$game" "${limit[@]}" --games "$games" "${concurrency[@]}" \
  --sprt "$elo0" "$elo1" "${openings[@]}" ${CHARIOT_SEED:+--seed "$CHARIOT_SEED"} \
  --pgn "$stamp.pgn" --state "$stamp.state" "${logs[@]}" --verbose \
  "${adjudicate[@]}" \
  -e name=new cmd="$new" proto=$proto "${variant[@]}" "${new_opts[@]}" \
  -e name=old cmd="$old" proto=$proto "${variant[@]}" "${old_opts[@]}" \
  | tee -a "$stamp.out"
