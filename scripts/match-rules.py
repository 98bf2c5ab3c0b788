#!/usr/bin/env python3
"""Turns the games of a xiangqi match into rule cases, to check Chariot's judge against the
referee's verdicts.

Reads the records chariot-match writes for xiangqi (`--pgn FILE`: PGN-like text with the
opening FEN, the moves in ICCS, the result and the reason as a final comment) and prints, for
every game the referee ended by a repetition rule or the move limit (with --all: every game),
one line in the format of tests/data/xiangqi-rules.txt: the game's opening FEN, its moves in
ICCS (ranks 0-9), and how the game ended for the side to move (win, loss, draw, or none when no
rule ended it). Feed them to Chariot's judge with

    target/release/chariot-match --game xiangqi --tc 1+0.01 --games 100 --pgn games.pgn \\
        -e name=chariot cmd=target/release/chariot proto=ucci \\
        -e name=fsf cmd=/usr/games/fairy-stockfish proto=uci notation=fsf
    python3 scripts/match-rules.py --all games.pgn > /tmp/games.txt
    CHARIOT_RULES_CORPUS=/tmp/games.txt CHARIOT_RULES_LIMIT=120 cargo test --release \\
        --test rules_xiangqi -- --ignored --nocapture external_corpus

(CHARIOT_RULES_LIMIT is the match's --move-limit, 120 plies by default.)
"""

import argparse
import re

TAG = re.compile(r'^\[(\w+) "(.*)"\]$')
MOVE = re.compile(r"^[a-i][0-9][a-i][0-9]$")
STARTPOS = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
# The referee's reasons (match/src/referee.rs) for the games a rule of play ended.
BY_RULE = ("repetition", "perpetual check", "perpetual chase", "move limit")


def records(text):
    """Yields (tags, moves, reason) per record."""
    tags, body = {}, []
    for line in text.splitlines() + [""]:
        m = TAG.match(line.strip())
        if m:
            if body:
                yield parse(tags, body)
                tags, body = {}, []
            tags[m.group(1)] = m.group(2).replace('\\"', '"').replace("\\\\", "\\")
        elif line.strip():
            body.append(line)
        elif body:
            yield parse(tags, body)
            tags, body = {}, []


def parse(tags, body):
    text = " ".join(body)
    reason = re.search(r"\{(.*)\}", text)
    text = re.sub(r"\{.*\}", " ", text)
    moves = [t for t in text.split() if MOVE.match(t)]
    return tags, moves, reason.group(1) if reason else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", help="chariot-match's --pgn file of a xiangqi match")
    ap.add_argument("--all", action="store_true", help="every game, not only those ended by rule")
    args = ap.parse_args()
    with open(args.records, encoding="utf-8") as f:
        games = list(records(f.read()))
    if not games:
        raise SystemExit(f"{args.records}: no records")
    for number, (tags, moves, reason) in enumerate(games, 1):
        if tags.get("Variant") != "xiangqi":
            raise SystemExit(f"{args.records}: record {number} is not a xiangqi game")
        fen = tags.get("FEN", STARTPOS)
        result, white = tags.get("Result", "*"), tags.get("White", "?")
        plies = int(tags.get("PlyCount", len(moves)))
        if len(moves) != plies:
            raise SystemExit(f"record {number}: read {len(moves)} moves, PlyCount says {plies}")
        by_rule = reason in BY_RULE
        if not by_rule and not args.all:
            continue
        if result == "1/2-1/2":
            verdict = "draw" if by_rule or reason == "insufficient material" else "none"
        elif reason == "checkmate" or reason.startswith("no legal move"):
            verdict = "loss"
        elif by_rule:
            red_won = result == "1-0"
            red_to_move = (fen.split()[1] in ("w", "r")) == (len(moves) % 2 == 0)
            verdict = "win" if red_won == red_to_move else "loss"
        else:
            verdict = "none"  # resigned, adjudicated, forfeited: no rule ended it
        round_ = tags.get("Round", str(number))
        print(
            f"game{round_} ; {fen} ; {' '.join(moves) or '-'} ; asian ; {verdict} ; agree ; "
            f"{white} had red; {result} ({reason}) after {plies} plies"
        )


if __name__ == "__main__":
    main()
