#!/usr/bin/env python3
"""Turns the games of a xiangqi match into rule cases, to check Chariot's judge against the
referee's verdicts.

Reads a match log (`match.py --log`) and the match's own output (the `game N: ...` lines), and
prints, for every game the referee ended by a repetition rule or the move limit (with --all:
every game), one line in the format of tests/data/xiangqi-rules.txt: the game's opening FEN,
its moves in ICCS (ranks 0-9), and how the game ended for the side to move (win, loss, draw, or
none when no rule ended it). Feed them to Chariot's judge with

    python3 scripts/match-rules.py --all match.log match.out > /tmp/games.txt
    CHARIOT_RULES_CORPUS=/tmp/games.txt CHARIOT_RULES_LIMIT=100 cargo test --release \\
        --test rules_xiangqi -- --ignored --nocapture external_corpus

The game is read from the position commands sent to --engine (default: fsf, a UCI engine
speaking Fairy-Stockfish's ranks 1-10, --notation fsf) and the bestmoves after the last one.
"""

import argparse
import re

POSITION = re.compile(r"^\S+ (\S+) < position (?:fen (.+?)|(startpos))(?: moves (.*))?$")
BOUNDARY = re.compile(r"^\S+ (\S+) < (isready|ucinewgame|setoption newgame)")
BESTMOVE = re.compile(r"^\S+ (\S+) > bestmove (\S+)")
GAME = re.compile(r"^game (\d+): (\S+) vs (\S+) (1-0|0-1|1/2-1/2) \((.*)\) after (\d+) plies")
FSF = re.compile(r"^([a-i])(10|[1-9])([a-i])(10|[1-9])$")
STARTPOS = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def to_iccs(move, notation):
    """A move in ICCS, from ICCS or from Fairy-Stockfish's ranks 1-10."""
    if notation == "iccs":
        return move
    m = FSF.match(move)
    if m is None:
        return None
    return f"{m.group(1)}{int(m.group(2)) - 1}{m.group(3)}{int(m.group(4)) - 1}"


def games(log, engine, notation):
    """Yields (fen, moves) per game in the order played (run the match with concurrency 1).

    The game is read from `engine`'s position commands, which must carry every move from the
    opening (UCI does; a UCCI engine is sent the position after the last capture instead). The
    `bestmove`s after its last position complete the game; `isready` or a new-game command sent
    to `engine` separates games."""
    fen, moves, after = None, [], []

    def finished():
        played = [to_iccs(m, notation) for m in moves]
        played += [m if by != engine else to_iccs(m, notation) for m, by in after]
        return fen, played

    for line in log:
        line = line.rstrip("\n")
        b = BOUNDARY.match(line)
        if b and b.group(1) == engine:
            if fen is not None:
                yield finished()
            fen, moves, after = None, [], []
            continue
        p = POSITION.match(line)
        if p and p.group(1) == engine:
            fen = p.group(2) or STARTPOS
            moves, after = (p.group(4) or "").split(), []
            continue
        m = BESTMOVE.match(line)
        # A move given with `resign` is not played.
        if m and fen is not None and not line.endswith(" resign"):
            after.append((m.group(2), m.group(1)))
    if fen is not None:
        yield finished()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log")
    ap.add_argument("output")
    ap.add_argument("--engine", default="fsf", help="the engine whose positions carry the game")
    ap.add_argument("--notation", choices=["iccs", "fsf"], default="fsf", help="its notation")
    ap.add_argument("--all", action="store_true", help="every game, not only those ended by rule")
    args = ap.parse_args()
    with open(args.output, encoding="utf-8") as f:
        results = [GAME.match(l) for l in f]
    results = [r for r in results if r]
    with open(args.log, encoding="utf-8", errors="replace") as f:
        played = list(games(f, args.engine, args.notation))
    if len(results) != len(played):
        raise SystemExit(f"{len(results)} results but {len(played)} games in the log")
    for r, (fen, moves) in zip(results, played):
        number, white, _, result, reason, plies = r.groups()
        if None in moves or len(moves) != int(plies):
            raise SystemExit(f"game {number}: read {len(moves)} moves, the match says {plies}")
        by_rule = "repetition" in reason or "move rule" in reason
        if not by_rule and not args.all:
            continue
        if result == "1/2-1/2":
            verdict = "draw" if by_rule or reason == "insufficient material" else "none"
        elif reason == "no legal moves":
            verdict = "loss"
        elif by_rule:
            red_won = result == "1-0"
            red_to_move = (fen.split()[1] in ("w", "r")) == (len(moves) % 2 == 0)
            verdict = "win" if red_won == red_to_move else "loss"
        else:
            verdict = "none"  # resigned, adjudicated, forfeited: no rule ended it
        print(
            f"game{number} ; {fen} ; {' '.join(moves) or '-'} ; asian ; {verdict} ; agree ; "
            f"{white} had red; {result} ({reason}) after {plies} plies"
        )


if __name__ == "__main__":
    main()
