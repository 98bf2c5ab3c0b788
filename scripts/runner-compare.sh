#!/usr/bin/env bash
# chariot-match against the Python runner it replaced (the match-runner issue): Chariot against
# the peer (Stockfish 15.1 or Fairy-Stockfish 11.1, notation=fsf) on the same openings, once
# with each runner, one game at a time, with the adjudication of every match script.
#
#   scripts/runner-compare.sh GAME [GAMES] [TC] [ELO|full] [RUNNERS]
#        defaults: 200 games, 10+0.1, full strength, "new old" (both runners; "new" or "old"
#        plays one)
#
# The openings are the first GAMES/2 of the Python runner's seed-1 shuffle of
# $CHARIOT_OPENINGS/<game>.epd, so each runner plays each of them twice (its own order).
# OLD_RUNNER is the Python runner (default ../shared/tools/match.py beside the repository);
# CHARIOT the engine (default target/release/chariot); CHARIOT_CORE pins both runs to that
# core. Outputs go to $CHARIOT_MATCHES as runner-<new|old>-<game>-<stamp>.out.
set -euo pipefail
game=${1:?chess or xiangqi}
games=${2:-200}
tc=${3:-10+0.1}
elo=${4:-full}
runners=${5:-new old}
# The Python runner has no tablebase adjudication: neither run uses it.
unset CHARIOT_SYZYGY
source "$(dirname "$0")/game-env.sh"
need_peer
chariot=${CHARIOT:-$here/target/release/chariot}
old_runner=${OLD_RUNNER:-$here/../shared/tools/match.py}
[ -r "$old_runner" ] || { echo "no Python runner at $old_runner (set OLD_RUNNER)" >&2; exit 2; }
stamp=$(date +%Y%m%d-%H%M%S)
subset=$out/runner-openings-$game-$games.epd
python3 - "$old_runner" "$openings_file" "$game" "$((games / 2))" >"$subset" <<'PY'
import importlib.util, random, sys
spec = importlib.util.spec_from_file_location("match", sys.argv[1])
match = importlib.util.module_from_spec(spec)
spec.loader.exec_module(match)
openings = match.load_openings(sys.argv[2], sys.argv[3])
random.Random(1).shuffle(openings)
print("\n".join(openings[: int(sys.argv[4])]))
PY
limit=()
[ "$elo" != full ] && limit=(option.UCI_LimitStrength=true option.UCI_Elo="$elo")
proto=uci
[ "$game" = xiangqi ] && proto=ucci
engines=(-e name=chariot cmd="$chariot" proto="$proto"
  -e name=peer cmd="$peer" proto=uci "${variant[@]}" "${notation[@]}" "${limit[@]}")
common=(--game "$game" --tc "$tc" --games "$games" --concurrency 1 --openings "$subset")
for runner in $runners; do
  name=runner-$runner-$game-$stamp
  echo "runner-compare: $runner runner, $games games at $tc; output in $out/$name.out" >&2
  start=$(date +%s)
  case $runner in
    new) "${pin[@]}" "$match" "${common[@]}" "${adjudicate[@]}" --pgn "$out/$name.pgn" \
      "${engines[@]}" >"$out/$name.out" ;;
    old) "${pin[@]}" python3 "$old_runner" "${common[@]}" "${adjudicate[@]}" \
      "${engines[@]}" >"$out/$name.out" ;;
    *) echo "unknown runner '$runner' (new or old)" >&2; exit 2 ;;
  esac
  echo "$runner: $(($(date +%s) - start)) s" >>"$out/$name.out"
  tail -4 "$out/$name.out"
done
