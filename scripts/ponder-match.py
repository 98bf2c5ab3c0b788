#!/usr/bin/env python3
"""Games with pondering on for both sides, played as a GUI plays them.

../shared/tools/match.py plays without pondering; this driver reuses its engines, referees
(python-chess, pyffish) and clocks and adds what a GUI does when `Ponder` is on: after
`bestmove X ponder Y` it sends the position after X and Y with `go ponder` and the clocks; when
the opponent plays Y it sends `ponderhit` and the engine's clock runs from that moment, and
when the opponent plays something else it sends `stop`, reads the stale `bestmove` and starts
a normal search. It checks what can go wrong on that path and counts it as a failure:

  - a time forfeit (the clock as match.py keeps it, `--margin` ms of tolerance, 0 by default),
  - a crash, an illegal move, or no move;
  - a ponder move that is not legal after the engine's own move;
  - no `bestmove` within 5 s of a `stop` sent to a pondering engine.

    scripts/ponder-match.py --game chess --tc 1+0.01 --games 100 \\
        -e name=a cmd=./target/release/chariot proto=uci \\
        -e name=b cmd=./target/release/chariot proto=uci

Engine tokens are match.py's (name=, cmd=, proto=uci|ucci, option.NAME=VALUE, notation=).
`Ponder` (UCCI `ponder`) is switched on for both engines. Each game has both engines thinking
at once (one searches, the other ponders), so run one game per two cores (the default
concurrency 1). Exits with status 1 when any failure occurred.
"""

import argparse
import os
import queue
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.environ.get("CHARIOT_TOOLS", os.path.join(HERE, "..", "..", "shared", "tools"))
sys.path.insert(0, TOOLS)
import match as m  # noqa: E402  (../shared/tools/match.py)

# How long a pondering engine may take to answer `stop`.
STOP_TIMEOUT = 5.0


class Counts:
    """What the games found, under a lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.hits = self.misses = 0
        self.failures = []  # (game, text)

    def add(self, field):
        with self.lock:
            setattr(self, field, getattr(self, field) + 1)

    def fail(self, game, text):
        with self.lock:
            self.failures.append((game, text))


class Ponderer(m.Engine):
    """A match.py engine that also ponders."""

    def __init__(self, spec, game, log=None):
        super().__init__(spec, game, log)
        self.ponder_move = None  # the reply it ponders on, ICCS/UCI notation, or None

    def send_position(self, position):
        if self.fsf and " moves " in position:
            head, moves = position.split(" moves ")
            position = head + " moves " + " ".join(self._out(mv) for mv in moves.split())
        self._send(position)

    def answer(self, deadline, kind="time"):
        """Reads until `bestmove`/`nobestmove`: (move, ponder, time read, last score)."""
        score = None
        while True:
            try:
                at, line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.001))
            except queue.Empty:
                raise m.EngineError(f"{self.name}: no bestmove in time", kind)
            if line is None:
                raise m.EngineError(f"{self.name}: exited during search", "crash")
            if self.log:
                self.log.write(f"{at:.3f} {self.name} > {line}\n")
            words = line.split()
            if not words:
                continue
            if words[0] == "info" and "score" in words and ("pv" in words or self.proto == "ucci"):
                score = m.parse_score(words, self.proto)
            elif words[0] == "bestmove":
                if "resign" in words[2:]:
                    return "resign", None, at, score
                move = self._in(words[1]) if len(words) > 1 else None
                ponder = self._in(words[3]) if len(words) > 3 and words[2] == "ponder" else None
                return move, ponder, at, score
            elif words[0] == "nobestmove":
                return None, None, at, score

    def stop_pondering(self):
        """Ends a ponder search that will not be used; its answer is read and dropped."""
        self.ponder_move = None
        self._send("stop")
        self.answer(time.monotonic() + STOP_TIMEOUT, kind="stop")


def legal_reply(ref, move):
    """Whether `move` is legal in the referee's current position."""
    if isinstance(ref, m.ChessReferee):
        try:
            return ref.chess.Move.from_uci(move) in ref.board.legal_moves
        except ValueError:
            return False
    import re
    return bool(re.fullmatch(r"[a-i][0-9][a-i][0-9]", move)) and m.iccs_to_fsf(move) in ref.legal()


def play_game(number, engines, opening, args, limits, counts):
    """engines = (white, black). Returns (result, reason, plies)."""
    ref = m.ChessReferee(opening) if args.game == "chess" else m.XiangqiReferee(opening)
    for engine in engines:
        engine.new_game()
        engine.ponder_move = None
    clocks = [args.base, args.base]
    last = None
    try:
        while True:
            over = ref.result()
            if over:
                return over[0], over[1], len(ref.moves())
            white = ref.white_to_move()
            side = 0 if white else 1
            engine = engines[side]
            lose = "0-1" if white else "1-0"
            try:
                if engine.ponder_move is not None and engine.ponder_move == last:
                    engine.ponder_move = None
                    engine._send("ponderhit")
                    sent = time.monotonic()
                    counts.add("hits")
                else:
                    if engine.ponder_move is not None:
                        counts.add("misses")
                        engine.stop_pondering()
                    engine.send_position(ref.position_command(engine.proto))
                    engine._send(engine._go_command(limits, clocks, white))
                    sent = time.monotonic()
                budget = clocks[side] + limits["margin"] / 1000
                move, ponder, at, _ = engine.answer(sent + budget)
            except m.EngineError as exc:
                kind = exc.args[1] if len(exc.args) > 1 else "crash"
                counts.fail(number, str(exc))
                engine.kill()  # a crashed, hung or late engine is started afresh next game
                return lose, f"{engine.name} {kind} failure", len(ref.moves())
            clocks[side] -= at - sent
            if clocks[side] < -limits["margin"] / 1000:
                counts.fail(number, f"{engine.name}: time forfeit ({clocks[side]:.3f} s)")
                return lose, f"{engine.name} time forfeit", len(ref.moves())
            clocks[side] = max(clocks[side], 0) + limits["inc"]
            if move == "resign":
                return lose, f"{engine.name} resigned", len(ref.moves())
            if move is None or move in ("(none)", "0000", "null"):
                counts.fail(number, f"{engine.name}: no move")
                return lose, f"{engine.name} gave no move", len(ref.moves())
            if not ref.play(move):
                counts.fail(number, f"{engine.name}: illegal move {move}")
                return lose, f"{engine.name} illegal move {move}", len(ref.moves())
            last = move
            if ponder is None or ref.result():
                continue
            if not legal_reply(ref, ponder):
                counts.fail(number, f"{engine.name}: illegal ponder move {ponder} after {move}")
                continue
            position = ref.position_command(engine.proto)
            position += (" " if " moves " in position else " moves ") + ponder
            engine.send_position(position)
            # After the reply it ponders on, the engine is to move again: its own side's clock.
            go = engine._go_command(limits, clocks, white)
            engine._send("go ponder " + go[len("go "):])
            engine.ponder_move = ponder
    finally:
        for engine in engines:
            if engine.ponder_move is not None and engine.proc is not None:
                try:
                    engine.stop_pondering()
                except m.EngineError as exc:
                    counts.fail(number, str(exc))
                    engine.kill()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-e", "--engine", nargs="+", action="append", required=True, metavar="KEY=VALUE")
    p.add_argument("--game", choices=("chess", "xiangqi"), required=True)
    p.add_argument("--tc", required=True, help="base+increment in seconds, e.g. 1+0.01")
    p.add_argument("--games", type=int, default=100, help="games to play (rounded up to pairs)")
    p.add_argument("--openings", help="file of FENs (default: match.py's openings for the game)")
    p.add_argument("--seed", type=int, default=1, help="opening shuffle seed")
    p.add_argument("--concurrency", type=int, default=1, help="games at once (each needs two cores)")
    p.add_argument("--margin", type=int, default=0, help="clock tolerance in ms before a time forfeit")
    p.add_argument("--log", help="write every line sent and received here")
    args = p.parse_args()
    if len(args.engine) != 2:
        p.error("give exactly two engines")
    specs = [m.parse_engine(tokens) for tokens in args.engine]
    if specs[0]["name"] == specs[1]["name"]:
        specs[1]["name"] += "-2"
    for spec in specs:
        spec["options"]["Ponder" if spec.get("proto", "uci") == "uci" else "ponder"] = "true"
    base, _, inc = args.tc.partition("+")
    args.base = float(base)
    limits = {"margin": args.margin, "inc": float(inc or 0)}

    path = args.openings or os.path.join(m.OPENINGS, f"{args.game}.epd")
    openings = m.load_openings(path, args.game)
    random.Random(args.seed).shuffle(openings)
    pairs = (args.games + 1) // 2
    schedule = [(i, openings[i % len(openings)], flip) for i in range(pairs) for flip in (False, True)]

    log = open(args.log, "w", encoding="utf-8") if args.log else None
    tally, lock, counts = m.Tally(), threading.Lock(), Counts()
    local = threading.local()
    names = (specs[0]["name"], specs[1]["name"])
    every_engine = []

    def run(job):
        pair, fen, flip = job
        if not hasattr(local, "engines"):
            local.engines = [Ponderer(specs[0], args.game, log), Ponderer(specs[1], args.game, log)]
            with lock:
                every_engine.extend(local.engines)
        a, b = local.engines
        white, black = (b, a) if flip else (a, b)
        with lock:
            number = tally.games() + 1
        try:
            result, reason, plies = play_game(number, (white, black), fen, args, limits, counts)
        except m.EngineError as exc:  # failed before a move (start-up)
            counts.fail(number, str(exc))
            loser = str(exc).split(":")[0]
            result, reason, plies = ("0-1" if loser == white.name else "1-0"), str(exc), 0
        score_white = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
        with lock:
            tally.add(pair, 1 - score_white if flip else score_white)
            print(f"game {tally.games()}: {white.name} vs {black.name} {result} ({reason}) "
                  f"after {plies} plies, opening {pair}", flush=True)

    started = time.monotonic()
    try:
        with ThreadPoolExecutor(max_workers=args.concurrency) as pool:
            list(pool.map(run, schedule))
    finally:
        for engine in every_engine:
            engine.quit()
    print(tally.line(names, None))
    print(f"ponder hits {counts.hits}, misses {counts.misses}; failures {len(counts.failures)}")
    for number, text in counts.failures:
        print(f"  game {number}: {text}")
    print(f"{tally.games()} games in {time.monotonic() - started:.0f}s")
    if log:
        log.close()
    sys.exit(1 if counts.failures else 0)


if __name__ == "__main__":
    main()
