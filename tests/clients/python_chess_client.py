"""Drives Chariot with python-chess's UCI client (`chess.engine`), as chess GUIs and tools do.

usage: python3 python_chess_client.py <path-to-chariot>
Checks the announced options, `analyse` with MultiPV 3 (and WDL, and `go mate`), `play` with
clocks, with an opponent, with pondering (a ponder hit and a ponder miss) and in Chess960.
Every record the `chess.engine` logger emits at WARNING or above is a failure. Exits 0 when
all is well; prints what went wrong (with the tail of the protocol log) otherwise.
"""
import collections
import logging
import sys

import chess
import chess.engine


class Collect(logging.Handler):
    """Keeps log records: warnings and errors to fail on, and the recent traffic to show."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.problems = []
        self.traffic = collections.deque(maxlen=400)

    def emit(self, record):
        text = record.getMessage()
        self.traffic.append(text)
        if record.levelno >= logging.WARNING:
            self.problems.append(f"{record.levelname}: {text}")


def check_options(engine):
    o = engine.options
    spins = {
        "Hash": (16, 1, 65536),
        "Threads": (1, 1, 256),
        "Move Overhead": (30, 0, 5000),
        "MultiPV": (1, 1, 256),
    }
    for name, (default, lo, hi) in spins.items():
        opt = o[name]
        assert (opt.type, opt.default, opt.min, opt.max) == ("spin", default, lo, hi), opt
    for name in ["Ponder", "UCI_ShowWDL", "UCI_ShowCurrLine", "UCI_ShowRefutations",
                 "UCI_AnalyseMode", "UCI_Chess960"]:
        assert (o[name].type, o[name].default) == ("check", False), o[name]
    assert o["Clear Hash"].type == "button", o["Clear Hash"]
    for name in ["UCI_Opponent", "UCI_EngineAbout", "Debug Log File"]:
        assert o[name].type == "string", o[name]
    assert o["UCI_EngineAbout"].default.startswith("Chariot"), o["UCI_EngineAbout"]
    v = o["UCI_Variant"]
    assert (v.type, v.default, list(v.var)) == ("combo", "chess", ["chess", "xiangqi"]), v
    assert engine.id["name"].startswith("Chariot"), engine.id


def check_analyse(engine):
    board = chess.Board()
    board.push_uci("e2e4")
    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    assert len(infos) == 3, infos
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3 and all(m in board.legal_moves for m in firsts), firsts
    assert [info["multipv"] for info in infos] == [1, 2, 3], infos
    scores = [info["score"].relative for info in infos]
    assert scores[0] >= scores[1] >= scores[2], scores
    for info in infos:
        assert info["depth"] == 6 and info["seldepth"] >= 6, info
        assert info["nodes"] > 0 and "nps" in info and "time" in info and "hashfull" in info, info

    engine.configure({"UCI_ShowWDL": True})
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert sum(info["wdl"].relative) == 1000, info
    engine.configure({"UCI_ShowWDL": False})

    # Morphy's mate in two: 1. Ra6 bxa6 2. b7#.
    mate2 = chess.Board("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1")
    info = engine.analyse(mate2, chess.engine.Limit(mate=2))
    assert info["score"].relative == chess.engine.Mate(2), info
    assert info["pv"][0] in mate2.legal_moves, info


def check_play_with_clocks(engine):
    board = chess.Board()
    game = object()
    opponent = chess.engine.Opponent(name="Tester", title="GM", rating=2700, is_engine=False)
    clocks = dict(white_clock=4.0, black_clock=4.0, white_inc=0.05, black_inc=0.05)
    for ply in range(6):
        limit = chess.engine.Limit(**clocks, remaining_moves=(20 if ply % 2 else None))
        result = engine.play(board, limit, game=game, opponent=opponent if ply == 0 else None)
        assert result.move in board.legal_moves, (board.fen(), result)
        board.push(result.move)


def check_play_with_ponder(engine, log):
    board = chess.Board()
    game = object()
    limit = chess.engine.Limit(white_clock=3.0, black_clock=3.0, white_inc=0.05, black_inc=0.05)
    hits = misses = 0
    for turn in range(8):
        result = engine.play(board, limit, game=game, ponder=True)
        assert result.move in board.legal_moves, (board.fen(), result)
        board.push(result.move)
        if board.is_game_over():
            break
        if result.ponder is not None:
            assert result.ponder in board.legal_moves, (board.fen(), result)
        others = [m for m in board.legal_moves if m != result.ponder]
        if result.ponder is not None and (turn % 2 == 0 or not others):
            # The predicted reply (also when it is the only legal move).
            board.push(result.ponder)
            hits += 1
        else:
            board.push(others[0])
            misses += 1
        if board.is_game_over():
            break
    # One more move so that the last ponder search is settled (hit or stopped); a finished
    # game has none, and the engine says so.
    result = engine.play(board, limit, game=game, ponder=False)
    if board.is_game_over():
        assert result.move is None, (board.fen(), result)
    else:
        assert result.move in board.legal_moves, (board.fen(), result)
    sent = [t for t in log.traffic if "<< " in t]
    assert hits >= 1 and misses >= 1, (hits, misses)
    assert any(t.endswith("<< ponderhit") for t in sent), "no ponderhit was sent"
    assert any(t.split("<< ")[-1].startswith("go ponder ") for t in sent), "no go ponder"


def check_chess960(engine):
    board = chess.Board("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", chess960=True)
    castle = chess.Move.from_uci("e1h1")
    assert board.is_castling(castle)
    result = engine.play(board, chess.engine.Limit(depth=3), root_moves=[castle])
    assert result.move == castle, result
    board = chess.Board.from_chess960_pos(0)
    result = engine.play(board, chess.engine.Limit(depth=3))
    assert result.move in board.legal_moves, result


def main(path):
    log = Collect()
    logger = logging.getLogger("chess.engine")
    logger.setLevel(logging.DEBUG)
    logger.addHandler(log)
    engine = chess.engine.SimpleEngine.popen_uci([path], timeout=20)
    try:
        check_options(engine)
        check_analyse(engine)
        check_play_with_clocks(engine)
        check_play_with_ponder(engine, log)
        check_chess960(engine)
        engine.ping()
    except BaseException:
        print("\n".join(log.traffic), file=sys.stderr)
        raise
    finally:
        engine.quit()
    if log.problems:
        print("\n".join(log.traffic), file=sys.stderr)
        print("chess.engine logged:\n" + "\n".join(log.problems), file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
