#!/usr/bin/env bash
# The acceptance matches of the search issue (README, Strength changes): 10+0.1, one thread
# each unless said otherwise, 200 games, played by chariot-match with the openings of
# $CHARIOT_OPENINGS (scripts/game-env.sh says what it needs).
#
#   scripts/accept.sh self GAME OLD [GAMES] [TC]     this build against the binary OLD (v0.1.0:
#                                                   commit 85c50d4, bench 3783688)
#   scripts/accept.sh peer GAME ELO|full [GAMES] [TC]
#                                                   against Stockfish 15.1 (chess) or
#                                                   Fairy-Stockfish 11.1 (xiangqi, notation=fsf)
#                                                   at UCI_Elo ELO, or at full strength
#   scripts/accept.sh classic GAME [GAMES] [TC]      the networks against the same build with
#                                                   `Use NNUE false` (the network issue: 400 games)
#   scripts/accept.sh threads GAME [GAMES] [TC]      Threads 2 against Threads 1, one game at a
#                                                   time (three search threads on two cores
#                                                   would starve one side; the side not to move
#                                                   is idle, as nobody ponders)
#
# Decided games are adjudicated as in scripts/sprt.sh (both engines agreeing). Concurrency 2
# (1 for threads; CHARIOT_CONCURRENCY=1 under `taskset -c 0` plays one game at a time on one
# core and leaves the other free): run nothing else on the match's cores meanwhile. The output,
# the records (.pgn) and the engines' logs (.logs/) go to $CHARIOT_MATCHES (default
# target/matches); CHARIOT is the binary (default target/release/chariot).
set -euo pipefail
mode=${1:?usage: accept.sh self|peer|classic|threads GAME ...}
game=${2:?chess or xiangqi}
source "$(dirname "$0")/game-env.sh"
chariot=${CHARIOT:-$here/target/release/chariot}
run() { # name, concurrency, games, tc, engine specs...
  local name=$1 concurrency=${CHARIOT_CONCURRENCY:-$2} games=$3 tc=$4
  shift 4
  echo "accept: $name, $games games at $tc; output in $out/$name.out" >&2
  mkdir -p "$out/$name.logs"
  "$match" --game "$game" --tc "$tc" --games "$games" --concurrency "$concurrency" \
    "${openings[@]}" "${adjudicate[@]}" --pgn "$out/$name.pgn" --log-dir "$out/$name.logs" \
    --verbose "$@" | tee "$out/$name.out"
}
stamp=$(date +%Y%m%d-%H%M%S)
case $mode in
  self)
    old=${3:?OLD binary}
    run "accept-$game-self-$stamp" 2 "${4:-200}" "${5:-10+0.1}" \
      -e name=chariot cmd="$chariot" proto=uci "${variant[@]}" \
      -e name=old cmd="$old" proto=uci "${variant[@]}"
    ;;
  peer)
    elo=${3:?ELO or full}
    need_peer
    limit=()
    [ "$elo" != full ] && limit=(option.UCI_LimitStrength=true option.UCI_Elo="$elo")
    run "accept-$game-peer$elo-$stamp" 2 "${4:-200}" "${5:-10+0.1}" \
      -e name=chariot cmd="$chariot" proto=uci "${variant[@]}" \
      -e name=peer cmd="$peer" proto=uci "${variant[@]}" "${notation[@]}" "${limit[@]}"
    ;;
  classic)
    run "accept-$game-classic-$stamp" 2 "${3:-400}" "${4:-10+0.1}" \
      -e name=nnue cmd="$chariot" proto=uci "${variant[@]}" \
      -e name=classic cmd="$chariot" proto=uci "${variant[@]}" "option.Use NNUE=false"
    ;;
  threads)
    run "accept-$game-threads-$stamp" 1 "${3:-200}" "${4:-10+0.1}" \
      -e name=threads2 cmd="$chariot" proto=uci "${variant[@]}" option.Threads=2 \
      -e name=threads1 cmd="$chariot" proto=uci "${variant[@]}" option.Threads=1
    ;;
  *)
    echo "accept.sh: unknown mode '$mode' (self, peer, classic or threads)" >&2
    exit 2
    ;;
esac
