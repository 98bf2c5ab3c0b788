#!/usr/bin/env bash
# The tablebase issue's endgame match: Chariot with the Syzygy tables of $CHARIOT_SYZYGY against
# the same build without them, from 5- and 6-piece starts (scripts/endgame-starts.py), each start
# played twice with colours swapped, one game at a time; the usual score adjudication, none by
# the tables (that would end the games just where the tables start to matter). With
# CHARIOT_ADJUDICATE=none no game is adjudicated: each is played to mate, stalemate, repetition,
# too little material or the fifty-move rule, since a resign score can end a game the tables
# would have saved.
#
#   scripts/tb-endgames.sh STARTS.epd [GAMES] [TC]         defaults: 200 games, 5+0.05
#
# CHARIOT is the engine (default target/release/chariot); CHARIOT_CORE pins the match to that
# core. The output, the records and the state go to $CHARIOT_MATCHES as tb-endgames-<stamp>.*, or
# as CHARIOT_RUN.*: a run started again with the same CHARIOT_RUN resumes from its state.
set -euo pipefail
starts=${1:?usage: tb-endgames.sh STARTS.epd [GAMES] [TC]}
games=${2:-200}
tc=${3:-5+0.05}
tables=${CHARIOT_SYZYGY:?set CHARIOT_SYZYGY to the folder of the tables}
game=chess
export CHARIOT_OPENINGS=$starts
unset CHARIOT_SYZYGY
source "$(dirname "$0")/game-env.sh"
chariot=${CHARIOT:-$here/target/release/chariot}
pin=()
[ -n "${CHARIOT_CORE:-}" ] && pin=(taskset -c "$CHARIOT_CORE")
[ "${CHARIOT_ADJUDICATE:-}" = none ] && adjudicate=()
name=${CHARIOT_RUN:-tb-endgames-$(date +%Y%m%d-%H%M%S)}
echo "tb-endgames: $games games at $tc; output in $out/$name.out" >&2
"${pin[@]}" "$match" --game chess --tc "$tc" --games "$games" --concurrency 1 "${openings[@]}" \
  "${adjudicate[@]}" --pgn "$out/$name.pgn" --state "$out/$name.state" \
  -e name=tables cmd="$chariot" "option.SyzygyPath=$tables" \
  -e name=none cmd="$chariot" | tee "$out/$name.out"
