#!/usr/bin/env python3
"""The tablebase issue's conversion runs: Chariot with the Syzygy tables against Stockfish 15.1
at full strength with the same tables, from random 4-piece positions.

- Won: N positions that python-chess's prober says the side to move wins under the fifty-move
  rule (cursed wins excluded). Each is played twice, colours swapped; in the game where
  Chariot has the winning side it must win.
- Drawn: N drawn positions, played twice: Chariot must lose none.

    scripts/tb-conversion.py [N] [TC] [SEED]          defaults: 200 positions, 1+0.01, seed 1

Needs python-chess, Stockfish ($STOCKFISH, default /usr/games/stockfish), the tables
($CHARIOT_SYZYGY) and the match runner ($CHARIOT_MATCH, default target/release/chariot-match;
the engine: $CHARIOT, default target/release/chariot). No adjudication: games end by the rules.
Outputs (openings, records, the runner's output) go to $CHARIOT_MATCHES (default
target/matches). Prints one line per set and exits non-zero when a game broke the rule.
"""

import os
import random
import subprocess
import sys

import chess
import chess.pgn
import chess.syzygy

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def positions(rng, tb, n, want_win):
    out = set()
    while len(out) < n:
        board = chess.Board(None)
        squares = rng.sample(chess.SQUARES, 4)
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2:]:
            kind = rng.choice(chess.PIECE_TYPES[:5])
            if kind == chess.PAWN and chess.square_rank(square) in (0, 7):
                kind = chess.KNIGHT
            board.set_piece_at(square, chess.Piece(kind, rng.random() < 0.5))
        board.turn = rng.random() < 0.5
        if not board.is_valid() or board.is_game_over():
            continue
        wdl = tb.probe_wdl(board)
        # Won with something left to do (not a mate or a capture that wins at once), or drawn.
        if want_win and wdl == 2 and abs(tb.probe_dtz(board)) > 2:
            out.add(board.epd())
        elif not want_win and wdl == 0 and board.has_insufficient_material(chess.WHITE) is False \
                and board.has_insufficient_material(chess.BLACK) is False:
            out.add(board.epd())
    return sorted(out)


def play(name, openings, tc, syzygy, out):
    epd = os.path.join(out, f"{name}.epd")
    pgn = os.path.join(out, f"{name}.pgn")
    with open(epd, "w") as f:
        f.write("\n".join(openings) + "\n")
    if os.path.exists(pgn):
        os.remove(pgn)
    runner = os.environ.get("CHARIOT_MATCH", os.path.join(HERE, "target/release/chariot-match"))
    chariot = os.environ.get("CHARIOT", os.path.join(HERE, "target/release/chariot"))
    stockfish = os.environ.get("STOCKFISH", "/usr/games/stockfish")
    command = [
        runner, "--game", "chess", "--tc", tc, "--games", str(2 * len(openings)),
        "--openings", epd, "--pgn", pgn, "--maxplies", "0",
        "-e", "name=chariot", f"cmd={chariot}", f"option.SyzygyPath={syzygy}",
        "-e", "name=stockfish", f"cmd={stockfish}", f"option.SyzygyPath={syzygy}",
    ]
    with open(os.path.join(out, f"{name}.out"), "w") as log:
        subprocess.run(command, stdout=log, check=True)
    games = []
    with open(pgn) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games.append(game)
    return games


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    tc = sys.argv[2] if len(sys.argv) > 2 else "1+0.01"
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    syzygy = os.environ.get("CHARIOT_SYZYGY")
    if not syzygy:
        sys.exit("set CHARIOT_SYZYGY to the folder of the tables")
    out = os.environ.get("CHARIOT_MATCHES", os.path.join(HERE, "target/matches"))
    os.makedirs(out, exist_ok=True)
    rng = random.Random(seed)
    tb = chess.syzygy.open_tablebase(syzygy)
    failed = False
    for name, want_win in (("tb-won", True), ("tb-drawn", False)):
        games = play(name, positions(rng, tb, n, want_win), tc, syzygy, out)
        checked = broken = 0
        reasons = {}
        for game in games:
            board = game.board()
            winner = "White" if board.turn == chess.WHITE else "Black"
            chariot_white = game.headers["White"] == "chariot"
            result = game.headers["Result"]
            chariot_score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            if not chariot_white:
                chariot_score = 1.0 - chariot_score
            if want_win:
                if (game.headers[winner] == "chariot"):
                    checked += 1
                    if chariot_score != 1.0:
                        broken += 1
                        print(f"  not converted: {board.fen()} ({result}, {game.end().comment})")
            else:
                checked += 1
                if chariot_score == 0.0:
                    broken += 1
                    print(f"  lost a draw: {board.fen()} ({result}, {game.end().comment})")
            reason = game.end().comment.strip()
            reasons[reason] = reasons.get(reason, 0) + 1
        what = "converted" if want_win else "held"
        print(f"{name}: {checked - broken} of {checked} {what} at {tc}; ends {reasons}")
        failed |= broken > 0
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
