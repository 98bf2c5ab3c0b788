#!/usr/bin/env bash
# Perft speed, Chariot against the peer engines, measured side by side in one run.
#
# Chess:   `go perft 6` from the start position (119,060,324 nodes) vs Stockfish.
# Xiangqi: `go perft 5` from the start position (133,312,995 nodes) vs Fairy-Stockfish.
# Each figure is the median whole-process wall time of RUNS runs (default 5), single thread.
#
# usage: scripts/compare-perft.sh [RUNS]     (peers: /usr/games/stockfish, /usr/games/fairy-stockfish;
#        install them with `apt-get install stockfish fairy-stockfish`, or name others with
#        STOCKFISH and FAIRY)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
STOCKFISH=${STOCKFISH:-/usr/games/stockfish}
FAIRY=${FAIRY:-/usr/games/fairy-stockfish}

cargo build --release --quiet
CHARIOT=./target/release/chariot

calc() { python3 -c "print($1)"; }

# median_time <input> <command...>: prints "<seconds> <nodes>"
median_time() {
  local input=$1; shift
  local times=() nodes=""
  for _ in $(seq "$RUNS"); do
    local t0 t1 out
    t0=$(date +%s.%N)
    out=$(printf '%b' "$input" | "$@" 2>/dev/null)
    t1=$(date +%s.%N)
    nodes=$(printf '%s\n' "$out" | sed -n 's/^Nodes searched: *//p' | tail -n1)
    times+=("$(calc "$t1 - $t0")")
  done
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -g | sed -n "$(( (RUNS + 1) / 2 ))p")
  echo "$median $nodes"
}

row() { # game engine seconds nodes
  printf '%-8s %-16s %9.3f s %12s nodes %8.1f Mnps\n' "$1" "$2" "$3" "$4" \
    "$(calc "$4 / $3 / 1e6")"
}

echo "runs per figure: $RUNS (median of whole-process wall time)"
read -r c_t c_n < <(median_time 'uci\nposition startpos\ngo perft 6\n' "$CHARIOT")
row chess chariot "$c_t" "$c_n"
if [[ -x $STOCKFISH ]]; then
  read -r s_t s_n < <(median_time 'uci\nposition startpos\ngo perft 6\nquit\n' "$STOCKFISH")
  row chess stockfish "$s_t" "$s_n"
  [[ $c_n == "$s_n" ]] || echo "WARNING: node counts differ ($c_n vs $s_n)"
  printf 'chess ratio: Chariot is %.2fx as fast as Stockfish (target 1.5x)\n' "$(calc "$s_t / $c_t")"
else
  echo "stockfish not installed at $STOCKFISH: chess ratio not measured"
fi

read -r x_t x_n < <(median_time 'ucci\nposition startpos\ngo perft 5\n' "$CHARIOT")
row xiangqi chariot "$x_t" "$x_n"
if [[ -x $FAIRY ]]; then
  read -r f_t f_n < <(median_time 'uci\nsetoption name UCI_Variant value xiangqi\nposition startpos\ngo perft 5\nquit\n' "$FAIRY")
  row xiangqi fairy-stockfish "$f_t" "$f_n"
  [[ $x_n == "$f_n" ]] || echo "WARNING: node counts differ ($x_n vs $f_n)"
  printf 'xiangqi ratio: Chariot is %.2fx as fast as Fairy-Stockfish (target 5x)\n' "$(calc "$f_t / $x_t")"
else
  echo "fairy-stockfish not installed at $FAIRY: xiangqi ratio not measured"
fi
