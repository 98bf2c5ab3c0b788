# Sourced by the match scripts (accept.sh, levels.sh, sprt.sh): what differs between the two
# games when Chariot plays a match, set from $game (chess or xiangqi).
#   variant    engine options that select the game (none for chess)
#   peer       the reference engine: Stockfish 15.1 or Fairy-Stockfish 11.1
#   notation   how the peer writes moves (Fairy-Stockfish counts xiangqi ranks from 1)
#   resign     adjudication threshold in reported cp, both engines agreeing over 4 moves: 6
#              pawns in chess, 300 in xiangqi (about 1.25 chariots)
# It also sets here (the repository), match (match.py) and out (where outputs go, made if need be).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
match=${CHARIOT_MATCH_PY:-$here/../shared/tools/match.py}
out=${CHARIOT_MATCHES:-$HOME/matches}
mkdir -p "$out"
case ${game:?game not set} in
  chess)
    variant=()
    peer=/usr/games/stockfish
    notation=()
    resign=600
    ;;
  xiangqi)
    variant=(option.UCI_Variant=xiangqi)
    peer=/usr/games/fairy-stockfish
    notation=(notation=fsf)
    resign=300
    ;;
  *)
    echo "unknown game '$game' (chess or xiangqi)" >&2
    exit 2
    ;;
esac
# The adjudication every match script uses: a loss at $resign, a draw at |score| <= 8 cp for 10
# moves after move 40. This halves the time a match takes and changes few results.
adjudicate=(--resign "$resign" --resign-moves 4 --draw 8 --draw-moves 10 --draw-after 80)
