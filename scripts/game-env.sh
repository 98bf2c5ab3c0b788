# Sourced by the match scripts (accept.sh, levels.sh, sprt.sh, spsa.sh, runner-compare.sh): the
# match runner, and what differs between the two games when Chariot plays a match, set from
# $game (chess or xiangqi).
#   match      the runner: $CHARIOT_MATCH, default target/release/chariot-match (build it with
#              `cargo build --release -p chariot -p chariot-match`)
#   openings   --openings FILE: $CHARIOT_OPENINGS, an EPD/FEN file, or a directory holding
#              chess.epd and xiangqi.epd (required: a match from one start position says little)
#   variant    engine options that select the game (none for chess)
#   peer       the reference engine: Stockfish 15.1 ($STOCKFISH, default /usr/games/stockfish)
#              or Fairy-Stockfish 11.1 ($FAIRY, default /usr/games/fairy-stockfish)
#   notation   how the peer writes moves (Fairy-Stockfish counts xiangqi ranks from 1)
#   resign     adjudication threshold in reported cp, both engines agreeing over 4 moves: 6
#              pawns in chess, 300 in xiangqi (about 1.25 chariots); chess games also end by
#              the Syzygy tables of $CHARIOT_SYZYGY when it is set
# It also sets here (the repository), out (where outputs go: $CHARIOT_MATCHES, default
# target/matches in the repository, made if need be), and how a match takes the cores:
#   concurrency  --concurrency 2 --affinity (each game's engines pinned to a core of this
#                two-core machine), or --concurrency 1 when $CHARIOT_CORE names one core
#   pin          the command prefix that keeps the runner and its engines on $CHARIOT_CORE
#                (taskset -c CORE), empty without it
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
match=${CHARIOT_MATCH:-$here/target/release/chariot-match}
if [ ! -x "$match" ]; then
  echo "no match runner at $match: build it with \`cargo build --release -p chariot -p chariot-match\`" \
    "or name it with CHARIOT_MATCH" >&2
  exit 2
fi
out=${CHARIOT_MATCHES:-$here/target/matches}
mkdir -p "$out"
case ${game:?game not set} in
  chess)
    variant=()
    peer=${STOCKFISH:-/usr/games/stockfish}
    notation=()
    resign=600
    ;;
  xiangqi)
    variant=(option.UCI_Variant=xiangqi)
    peer=${FAIRY:-/usr/games/fairy-stockfish}
    notation=(notation=fsf)
    resign=300
    ;;
  *)
    echo "unknown game '$game' (chess or xiangqi)" >&2
    exit 2
    ;;
esac
if [ -z "${CHARIOT_OPENINGS:-}" ]; then
  echo "set CHARIOT_OPENINGS to the openings: an EPD file, or a directory with chess.epd and" \
    "xiangqi.epd" >&2
  exit 2
fi
openings_file=$CHARIOT_OPENINGS
[ -d "$openings_file" ] && openings_file=$openings_file/$game.epd
if [ ! -r "$openings_file" ]; then
  echo "cannot read the openings $openings_file (from CHARIOT_OPENINGS)" >&2
  exit 2
fi
openings=(--openings "$openings_file")
# The adjudication every match script uses: a loss at $resign, a draw at |score| <= 8 cp for 10
# moves after move 40. This halves the time a match takes and changes few results.
adjudicate=(--resign "$resign" --resign-moves 4 --draw 8 --draw-moves 10 --draw-after 80)
# Chess games that reach the Syzygy tables of $CHARIOT_SYZYGY (if set) end with their value.
if [ "$game" = chess ] && [ -n "${CHARIOT_SYZYGY:-}" ]; then
  adjudicate+=(--syzygy "$CHARIOT_SYZYGY")
fi
concurrency=(--concurrency 2 --affinity)
pin=()
if [ -n "${CHARIOT_CORE:-}" ]; then
  concurrency=(--concurrency 1)
  pin=(taskset -c "$CHARIOT_CORE")
fi
# The peer is needed only by the modes that play it.
need_peer() {
  if [ ! -x "$peer" ]; then
    echo "no peer engine at $peer (set STOCKFISH or FAIRY, or install it)" >&2
    exit 2
  fi
}
