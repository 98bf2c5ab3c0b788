#!/usr/bin/env python3
"""Endgame starts for the tablebase issue's match: random legal chess positions of 5 or 6
pieces, kings included, from material balances that are played out (a rook, minor or queen
ending with pawns, or a piece up against pawns), kept when Stockfish at a fixed depth finds
them neither won nor lost for either side (|score| at most --max-cp), so that tablebases can
matter, and, with --min-cp, not level either: one side presses and the trades down to the tables
decide whether the pressure tells. One EPD line each, without castling rights or en passant.

    scripts/endgame-starts.py [N] [SEED] > endgames.epd      defaults: 200 positions, seed 1

Needs python-chess and Stockfish ($STOCKFISH, default /usr/games/stockfish).
"""

import argparse
import os
import random

import chess
import chess.engine

# The pieces beside the two kings, white's first: 3 or 4 of them.
BALANCES = [
    "RPr", "RPPr", "RPrp", "QPq", "QPqp", "BPb", "BPn", "NPn", "NPb", "BPPb", "NPPn",
    "RPb", "RPn", "RBr", "RNr", "QPr", "QNr", "BPp", "NPp", "PPp", "PPpp", "RBrp", "BPPn",
]


def random_position(rng, balance):
    assert len(balance) in (3, 4), "5 or 6 men with the kings"
    board = chess.Board(None)
    pieces = [chess.Piece(chess.KING, chess.WHITE), chess.Piece(chess.KING, chess.BLACK)]
    for letter in balance:
        pieces.append(chess.Piece.from_symbol(letter))
    # Colours at random: the side ahead is not always white.
    flip = rng.random() < 0.5
    for piece in pieces:
        colour = piece.color != flip
        while True:
            square = rng.choice(chess.SQUARES)
            rank = chess.square_rank(square)
            if board.piece_at(square) is None and not (
                piece.piece_type == chess.PAWN and rank in (0, 7)
            ):
                break
        board.set_piece_at(square, chess.Piece(piece.piece_type, colour))
    board.turn = rng.random() < 0.5
    return board


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("n", nargs="?", type=int, default=200)
    p.add_argument("seed", nargs="?", type=int, default=1)
    p.add_argument("--depth", type=int, default=12, help="Stockfish's depth for the balance check")
    p.add_argument("--max-cp", type=int, default=150, help="largest |score| kept, centipawns")
    p.add_argument("--min-cp", type=int, default=0, help="smallest |score| kept, centipawns")
    args = p.parse_args()
    rng = random.Random(args.seed)
    engine = chess.engine.SimpleEngine.popen_uci(os.environ.get("STOCKFISH", "/usr/games/stockfish"))
    kept = set()
    try:
        while len(kept) < args.n:
            board = random_position(rng, rng.choice(BALANCES))
            if not board.is_valid() or board.is_check() or board.is_game_over():
                continue
            # No capture at once: the start is the ending, not a trade into a smaller one.
            if any(board.is_capture(m) for m in board.legal_moves):
                continue
            info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
            score = info["score"].relative
            if score.is_mate() or not args.min_cp <= abs(score.score()) <= args.max_cp:
                continue
            kept.add(board.epd())
    finally:
        engine.quit()
    print("\n".join(sorted(kept)))


if __name__ == "__main__":
    main()
