#!/usr/bin/env bash
# Calibration and monotonicity matches for Chariot's strength levels (README, Levels and books).
#
#   scripts/levels.sh elo GAME ELO [GAMES] [TC]      Chariot at UCI_Elo ELO against the peer at
#                                                   the same UCI_Elo (Stockfish for chess,
#                                                   Fairy-Stockfish for xiangqi)
#   scripts/levels.sh skill GAME LEVEL [GAMES] [TC]  Skill Level LEVEL against LEVEL + 1
#   scripts/levels.sh grade GAME OPTION LOW HIGH [GAMES] [TC]
#                                                   UCCI grades: OPTION=LOW against OPTION=HIGH
#
# Defaults: 100 games (50 for skill and grade steps) at 5+0.05, one thread each, concurrency 2
# (run nothing else meanwhile), played by chariot-match with the openings of $CHARIOT_OPENINGS
# (scripts/game-env.sh says what it needs). The output, the records (.pgn) and the engines' logs
# (.logs/) go to $CHARIOT_MATCHES (default target/matches). CHARIOT is the binary (default
# target/release/chariot).
set -euo pipefail
mode=${1:?usage: levels.sh elo|skill|grade GAME ...}
game=${2:?chess or xiangqi}
source "$(dirname "$0")/game-env.sh"
chariot=${CHARIOT:-$here/target/release/chariot}
run() { # name, games, tc, engine specs...
  local name=$1 games=$2 tc=$3
  shift 3
  echo "levels: $name, $games games at $tc; output in $out/$name.out" >&2
  mkdir -p "$out/$name.logs"
  "$match" --game "$game" --tc "$tc" --games "$games" --concurrency 2 "${openings[@]}" \
    --pgn "$out/$name.pgn" --log-dir "$out/$name.logs" --verbose "$@" | tee "$out/$name.out"
}
case $mode in
  elo)
    elo=${3:?ELO}
    need_peer
    run "$game-elo$elo-$(date +%Y%m%d-%H%M%S)" "${4:-100}" "${5:-5+0.05}" \
      -e name=chariot cmd="$chariot" proto=uci "${variant[@]}" \
      option.UCI_LimitStrength=true option.UCI_Elo="$elo" \
      -e name=peer cmd="$peer" proto=uci "${variant[@]}" "${notation[@]}" \
      option.UCI_LimitStrength=true option.UCI_Elo="$elo"
    ;;
  skill)
    level=${3:?LEVEL}
    run "$game-skill$level-$(date +%Y%m%d-%H%M%S)" "${4:-50}" "${5:-5+0.05}" \
      -e name=skill$level cmd="$chariot" proto=uci "${variant[@]}" option."Skill Level"="$level" \
      -e name=skill$((level + 1)) cmd="$chariot" proto=uci "${variant[@]}" \
      option."Skill Level"=$((level + 1))
    ;;
  grade)
    option=${3:?OPTION} low=${4:?LOW} high=${5:?HIGH}
    run "$game-$option-$low-$high-$(date +%Y%m%d-%H%M%S)" "${6:-50}" "${7:-5+0.05}" \
      -e name="$option-$low" cmd="$chariot" proto=ucci option."$option"="$low" \
      -e name="$option-$high" cmd="$chariot" proto=ucci option."$option"="$high"
    ;;
  *)
    echo "levels.sh: unknown mode '$mode' (elo, skill or grade)" >&2
    exit 2
    ;;
esac
