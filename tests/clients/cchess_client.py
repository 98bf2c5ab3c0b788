"""Drives Chariot with the `cchess` package's UcciEngine, the engine layer of a xiangqi GUI.

usage: python3 cchess_client.py <path-to-chariot>
Exits 0 when the engine loads, reaches ready, answers `go_from` with a legal move and says
`bye` on quit; prints what went wrong otherwise.
"""
import sys
import time
from queue import Empty

from cchess import ChessBoard, FULL_INIT_FEN
from cchess.engine import UcciEngine


def main(path):
    engine = UcciEngine()
    assert engine.load(path), "load failed"
    assert engine.wait_for_ready(timeout=10), "engine never reached ready"
    engine.set_option("usemillisec", "true")  # the UCI form, as this client writes it
    assert engine.go_from(FULL_INIT_FEN, {"depth": 5})
    move = None
    deadline = time.time() + 30
    while move is None and time.time() < deadline:
        action = engine.get_action()
        if action is None:
            time.sleep(0.05)
            continue
        assert action["action"] != "dead", f"engine gave up: {action}"
        if action["action"] == "bestmove":
            move = action["move"]
    assert move is not None, "no bestmove within 30 s"
    board = ChessBoard(FULL_INIT_FEN)
    assert board.is_valid_iccs_move(move), f"illegal move {move}"
    engine._send_cmd("quit")
    deadline = time.time() + 5
    while time.time() < deadline:
        try:
            line = engine.engine_out_queque.get(timeout=0.5)
        except Empty:
            continue
        if line == "bye":
            print(f"ok: {move}, bye")
            return 0
    raise AssertionError("no bye after quit")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
