#!/usr/bin/env python3
"""The learning line's bookkeeping for scripts/learn.sh: reads nets/line/line.toml,
nets/recipes.toml and nets/data.toml, and prints their new rows.

    learn-manifest.py player GAME            the network that plays: shipped or line
    learn-manifest.py newest GAME            the generation the next candidate starts from
    learn-manifest.py next GAME              the next candidate's generation
    learn-manifest.py window GAME DIR        positions in the line's files still in DIR
    learn-manifest.py files GAME DIR         those files, oldest seed first
    learn-manifest.py seed GAME DIR          the first seed no file of the line has used
    learn-manifest.py file GAME PATH COMMIT PLAYER PARENT NODES        a [[file]] row
    learn-manifest.py network GAME GEN NAME LOG SECONDS COMMIT PLAYER PARENT FILE...  a [[network]] row
"""

import os
import re
import sys
import tomllib

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The manifests and the line's networks: nets/ of the repository, or CHARIOT_NETS (tests).
NETS = os.environ.get("CHARIOT_NETS") or os.path.join(HERE, "nets")
RECORD_BYTES = 40
# The line's seeds start here, clear of the pool's (1001...) and the generations' (2...).
FIRST_SEED = {"chess": 10001, "xiangqi": 20001}
NAME = re.compile(r"^(chess|xiangqi)-([0-9a-f]{7})-s(\d+)\.(data|games)$")
# A game of a .games file (engine/src/nnue/games.rs): magic, version, game, result, FEN length.
GAME_MAGIC = 0xC7
# Bit 15 of a move's code: a position datagen does not train on.
SKIPPED = 0x8000


def load(name):
    with open(os.path.join(NETS, name), "rb") as f:
        return tomllib.load(f)


def networks(game):
    return [n for n in load("recipes.toml").get("network", []) if n["game"] == game]


def player(game):
    path = os.path.join(NETS, "line", "line.toml")
    if not os.path.exists(path):
        return "shipped"
    with open(path, "rb") as f:
        return tomllib.load(f).get(game, {}).get("player", "shipped")


def newest(game):
    """The line's newest generation, or the shipped one's before the line has any. A
    candidate marked `dropped = true` (its screen showed it weaker than its parent) is not
    carried on from: nets/line/GAME.nnue then holds its parent again."""
    nets = networks(game)
    line = [n["generation"] for n in nets
            if n.get("line") and not n.get("scratch") and not n.get("dropped")]
    if line:
        return max(line)
    return max(n["generation"] for n in nets if n.get("shipped"))


def line_files(game, folder):
    found = []
    for entry in os.listdir(folder) if os.path.isdir(folder) else []:
        m = NAME.match(entry)
        if m and m.group(1) == game:
            found.append((int(m.group(3)), os.path.join(folder, entry)))
    return [path for _, path in sorted(found)]


def positions(path):
    """Training positions in a file: whole 40-byte records, or a .games file's kept moves of
    its complete games (counted once, then cached beside it by the file's size)."""
    if path.endswith(".data"):
        return os.path.getsize(path) // RECORD_BYTES
    size = os.path.getsize(path)
    cache = path + ".count"
    if os.path.exists(cache):
        cached_size, count = open(cache).read().split()
        if int(cached_size) == size:
            return int(count)
    count = count_games(open(path, "rb").read())
    with open(cache, "w") as f:
        f.write("%d %d\n" % (size, count))
    return count


def count_games(data):
    """The kept positions of the complete games in a .games file's bytes."""
    total, at = 0, 0
    while at + 5 <= len(data):
        if data[at] != GAME_MAGIC:
            sys.exit("learn-manifest: a .games file is damaged at byte %d" % at)
        at += 5 + data[at + 4]
        kept = 0
        while at + 4 <= len(data):
            code = data[at] | data[at + 1] << 8
            if code == 0 and data[at + 2] == 0 and data[at + 3] == 0:
                break
            kept += not code & SKIPPED
            at += 4
        else:
            return total  # the last game was cut off as it was written
        total += kept
        at += 4
    return total


def next_seed(game, folder):
    seeds = [FIRST_SEED[game] - 1]
    for f in load("data.toml").get("file", []):
        if f["game"] == game and f.get("line"):
            seeds.append(f["seed"])
    for path in line_files(game, folder):
        seeds.append(int(NAME.match(os.path.basename(path)).group(3)))
    return max(seeds) + 1


def played_by(game, who, parent):
    """The network that played a run's games, as the rows name it: the shipped one's
    generation is its own, not that of the line's newest network (the run's parent)."""
    if who == "shipped":
        shipped = max(n["generation"] for n in networks(game) if n.get("shipped"))
        return "the shipped network (generation %s)" % shipped
    return "the line's network (generation %s)" % parent


def file_row(game, path, commit, who, parent, nodes):
    name = os.path.basename(path)
    seed = int(NAME.match(name).group(3))
    count = positions(path)
    net = "" if who == "shipped" else " --net nets/line/%s.nnue" % game
    return "\n".join([
        "",
        "[[file]]",
        'name = "%s"' % name,
        'game = "%s"' % game,
        'commit = "%s"' % commit,
        'network = "%s"' % played_by(game, who, parent),
        "seed = %d" % seed,
        "positions = %d" % count,
        "line = true",
        "complete = true",
        'command = "chariot datagen --variant %s --out %s --positions %d --threads 1 --seed %d '
        '--nodes %s%s, then cut to %d records"' % (game, name, count, seed, nodes, net, count),
        "",
    ])


EPOCH = re.compile(
    r"epoch\s+(\d+)/\d+\s+lr ([\d.]+)\s+train loss ([\d.]+)\s+valid loss ([\d.-]+)\s+(\d+) pos/s")
SETTINGS = re.compile(
    r"training on (\d+) positions, validating on (\d+): hidden (\d+), batch (\d+), "
    r"lambda ([\d.]+), K [\d.]+, (\d+) threads")


def network_row(game, generation, name, log, seconds, commit, who, parent, files):
    text = open(log, encoding="utf-8").read()
    command = text.splitlines()[0].removeprefix("command: ")
    settings = SETTINGS.search(text)
    epochs = EPOCH.findall(text)
    init = re.search(r"starting from the weights of (\S+)", text)
    buckets = re.search(r"--buckets (\d+)", command)
    lr = re.search(r"--lr ([\d.]+)", command)
    scratch = name.endswith("-scratch")
    losses = ", ".join(
        '{ epoch = %s, lr = %s, train = %s, valid = %s }' % (e, r, t, v if v != "-" else "nan")
        for e, r, t, v, _ in epochs)
    rate = sum(int(e[4]) for e in epochs) // max(len(epochs), 1)
    data = ", ".join('{ name = "%s", records = %d }' % (os.path.basename(f), positions(f))
                     for f in files)
    valid = epochs[-1][3] if epochs else "nan"
    return "\n".join([
        "",
        "[[network]]",
        'game = "%s"' % game,
        "generation = %s" % generation,
        "shipped = false",
        "line = true",
        "scratch = %s" % ("true" if scratch else "false"),
        'name = "%s"' % name,
        'played_by = "%s"' % played_by(game, who, parent),
        'commit = "%s"' % commit,
        'init = "%s"' % ("random" if scratch or not init else
                         "generation %s (%s)" % (parent, os.path.relpath(init.group(1), HERE))),
        "hidden = %s" % (settings.group(3) if settings else "0"),
        "buckets = %s" % (buckets.group(1) if buckets else "1"),
        "lambda = %s" % (settings.group(5) if settings else "nan"),
        "epochs = %d" % len(epochs),
        "lr = %s" % (lr.group(1) if lr else "nan"),
        "batch = %s" % (settings.group(4) if settings else "0"),
        "train_threads = %s" % (settings.group(6) if settings else "0"),
        "positions = %s" % (settings.group(1) if settings else "0"),
        "validation_positions = %s" % (settings.group(2) if settings else "0"),
        "validation_loss = %s" % valid,
        "seconds = %s" % seconds,
        "positions_per_second = %d" % rate,
        "losses = [%s]" % losses,
        "data = [%s]" % data,
        'command = "%s"' % command.replace('"', '\\"'),
        'measured = "not yet screened (scripts/screen-net.sh %s)"' % game,
        "",
    ])


def main(argv):
    verb, game = argv[1], argv[2]
    if game not in FIRST_SEED:
        sys.exit("learn-manifest: unknown game '%s'" % game)
    if verb == "player":
        print(player(game))
    elif verb == "newest":
        print(newest(game))
    elif verb == "next":
        print(max(n["generation"] for n in networks(game) if not n.get("scratch")) + 1)
    elif verb == "window":
        print(sum(positions(p) for p in line_files(game, argv[3])))
    elif verb == "files":
        print("\n".join(line_files(game, argv[3])))
    elif verb == "seed":
        print(next_seed(game, argv[3]))
    elif verb == "file":
        sys.stdout.write(file_row(game, *argv[3:8]))
    elif verb == "network":
        sys.stdout.write(network_row(game, *argv[3:10], argv[10:]))
    else:
        sys.exit("learn-manifest: unknown verb '%s'" % verb)


if __name__ == "__main__":
    main(sys.argv)
