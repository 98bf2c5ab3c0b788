#!/usr/bin/env python3
"""Judges every case of tests/data/xiangqi-rules.txt with pyffish (Fairy-Stockfish's rules).

Prints one line per case: `<name> <verdict>`, the verdict for the side to move after the
moves (win, loss, draw or none), as Fairy-Stockfish's xiangqi rules see it. The rule-set
field is ignored: Fairy-Stockfish has only its own (asian-like) rules.

Usage: pyffish_judge.py [corpus]   (default: ../data/xiangqi-rules.txt next to this script)

Fairy-Stockfish reports results from the side to move's view: +-32000 (VALUE_MATE) for a
win or a loss, 0 for a draw. Its repetition verdicts (perpetual check, chase) come from
is_optional_game_end once a position has occurred three times; the 50-move rule (100 plies)
also comes from there. A position without legal moves (mate or stalemate) is judged by
game_result. Insufficient material is a draw when both sides lack mating material.
"""

import os
import re
import sys

import pyffish as sf

VARIANT = "xiangqi"


def to_uci(iccs):
    """ICCS ranks 0-9 to Fairy-Stockfish's ranks 1-10."""
    m = re.fullmatch(r"([a-i])(\d)([a-i])(\d)", iccs)
    if not m:
        raise ValueError(f"bad move {iccs!r}")
    return f"{m.group(1)}{int(m.group(2)) + 1}{m.group(3)}{int(m.group(4)) + 1}"


def full_fen(fen):
    fields = fen.split()
    defaults = ["", "w", "-", "-", "0", "1"]
    return " ".join(fields + defaults[len(fields):])


def sign(value):
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def judge(fen, moves):
    fen = full_fen(fen)
    uci = [to_uci(m) for m in moves]
    for i, m in enumerate(uci):
        if m not in sf.legal_moves(VARIANT, fen, uci[:i]):
            raise ValueError(f"illegal move {moves[i]} (ply {i}) from {fen}")
    end, value = sf.is_immediate_game_end(VARIANT, fen, uci)
    if end:
        return sign(value)
    end, value = sf.is_optional_game_end(VARIANT, fen, uci)
    if end:
        return sign(value)
    if not sf.legal_moves(VARIANT, fen, uci):
        return sign(sf.game_result(VARIANT, fen, uci))
    red_short, black_short = sf.has_insufficient_material(VARIANT, fen, uci)
    if red_short and black_short:
        return "draw"
    return "none"


def cases(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [x.strip() for x in line.split(" ; ")]
            if len(fields) != 7:
                raise ValueError(f"expected 7 fields: {line}")
            name, fen, moves = fields[0], fields[1], fields[2]
            yield name, fen, [] if moves == "-" else moves.split()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "data", "xiangqi-rules.txt")
    for name, fen, moves in cases(path):
        print(name, judge(fen, moves))


if __name__ == "__main__":
    main()
