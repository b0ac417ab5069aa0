#!/usr/bin/env python3
"""The second reader (tools/read_table.py) agrees with `solved probe`.

For each board below, `solved` solves it into a data directory of its own
(a flat table or unit files, never both, so that the reader cannot pick the
wrong one; for Dots and Boxes, the full sweep's table, which the reader
reads, beside the quiet table, which probes read), then serves it; random walks from the start, through the moves
each probe lists, give positions that are probed through the web API (the
same answer as `solved probe --json`) and read by the Python reader. Any
disagreement fails. A few positions also go through both command lines, to
check the interfaces themselves.

Usage: agree.py SOLVED WORK [--ttc DIR] [--walks N]
  SOLVED  the solved binary
  WORK    a directory for the data directories (reused: a board solved
          there before is loaded, not solved again)
  --ttc   a data directory holding the Tic-Tac-Chec travel table (the
          browser tests' one); its positions are then checked too
"""

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import read_table  # noqa: E402

# (name, game, the board's parameters, the solve's extra flags, how many
# positions to check)
BOARDS = [
    ("dodgem 4x4", "dodgem", {"size": "4"}, [], 3000),
    ("dodgem 4x4 misere", "dodgem", {"size": "4", "misere": "true"}, [], 1000),
    ("dodgem 4x4 units", "dodgem", {"size": "4"}, ["--units"], 2000),
    ("dodgem 5x5", "dodgem", {"size": "5"}, [], 3000),
    ("dodgem 5x5 units", "dodgem", {"size": "5"}, ["--units"], 3000),
    ("dots-and-boxes 3x3", "dots-and-boxes", {"rows": "3", "cols": "3"}, ["--sweep"], 3000),
    ("dots-and-boxes 2x3 icelandic", "dots-and-boxes", {"rows": "2", "cols": "3", "variant": "icelandic"}, ["--sweep"], 1000),
]


def flags(params):
    """The command-line flags for a board's parameters."""
    out = []
    for name, value in params.items():
        out += [f"--{name}"] if value == "true" else [f"--{name}", value]
    return out


def reader_for(game, data_dir, params):
    if game == "dodgem":
        return read_table.dodgem(data_dir, int(params["size"]), misere=params.get("misere") == "true")
    if game == "tic-tac-chec":
        return read_table.tic_tac_chec(data_dir, params.get("pawn", "travel"))
    if game == "dots-and-boxes":
        return read_table.dots_and_boxes(
            data_dir, int(params["rows"]), int(params["cols"]), params.get("variant", "american")
        )
    raise ValueError(game)


def expected(game, probe):
    """What the reader must say of a probed position."""
    if game == "dots-and-boxes":
        return {"value": probe["value"]}
    return {"value": probe["value"], "distance": probe["distance"]}


def child(game, position, move):
    """What names a move's child to the reader and to the next probe. A
    Dots and Boxes position is the moves played in order (the order decides
    the score so far and who is to move), never the probe's `drawn`, which
    is sorted and holds the variant's lines drawn before play."""
    if game == "dots-and-boxes":
        return f"{position},{move['move']}" if position else move["move"]
    return move["position"]


class Server:
    """`solved serve` on a free loopback port, for as long as the block runs."""

    def __init__(self, solved, data_dir):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.process = subprocess.Popen(
            [solved, "--data-dir", data_dir, "serve", "--addr", f"127.0.0.1:{self.port}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def __enter__(self):
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/games", timeout=5).read()
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("solved serve did not answer")

    def __exit__(self, *_):
        self.process.terminate()
        self.process.wait()

    def probe(self, game, params, position):
        query = dict(params)
        if position:
            query["moves" if game == "dots-and-boxes" else "position"] = position
        url = f"http://127.0.0.1:{self.port}/api/{game}/probe?{urllib.parse.urlencode(query)}"
        with urllib.request.urlopen(url, timeout=120) as response:
            return json.load(response)


def walk_and_compare(server, reader, game, params, wanted, rng):
    """Probes `wanted` distinct positions met on random walks from the
    start; returns them, in the order met, and the disagreements."""
    seen, met, disagreements = set(), [], []
    position, steps = "", 0
    while len(seen) < wanted and steps < 20 * wanted:
        steps += 1
        probe = server.probe(game, params, position)
        name = position if game == "dots-and-boxes" else probe["position"]
        if name not in seen:
            seen.add(name)
            met.append(name)
            ours = reader.lookup(name)
            if ours != expected(game, probe):
                disagreements.append((name, expected(game, probe), ours))
        moves = probe["moves"]
        # Restart now and then, so that walks cover the early game too.
        if not moves or probe.get("over") or rng.random() < 0.03:
            position = ""
        else:
            position = child(game, position, rng.choice(moves))
    if len(seen) < wanted:
        disagreements.append(("(walks)", f"{wanted} positions", f"only {len(seen)} met"))
    return met, disagreements


def command_lines_agree(solved, data_dir, game, params, positions):
    """Both command lines, on a few positions: the interfaces themselves."""
    bad = []
    for position in positions:
        args = [position] if position else []
        probe = json.loads(
            subprocess.run(
                [solved, "--data-dir", data_dir, "probe", game, *flags(params), *args, "--json"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        read = json.loads(
            subprocess.run(
                [sys.executable, str(ROOT / "tools" / "read_table.py"), "--data-dir", data_dir, game]
                + flags(params)
                + args,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
        )
        if read != expected(game, probe):
            bad.append((position, expected(game, probe), read))
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("solved")
    parser.add_argument("work")
    parser.add_argument("--ttc", help="a data directory with the Tic-Tac-Chec travel table")
    parser.add_argument("--walks", type=float, default=1.0, help="scale the positions checked")
    args = parser.parse_args()
    rng = random.Random(20261206)
    boards = [(name, game, params, extra, int(n * args.walks), None) for name, game, params, extra, n in BOARDS]
    if args.ttc:
        boards.append(("tic-tac-chec travel", "tic-tac-chec", {"pawn": "travel"}, [], int(3000 * args.walks), args.ttc))
    failed = False
    for name, game, params, extra, wanted, given_dir in boards:
        data_dir = given_dir or os.path.join(args.work, name.replace(" ", "-"))
        if not given_dir:
            subprocess.run(
                [args.solved, "--data-dir", data_dir, "solve", game, *flags(params), *extra],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        began = time.monotonic()
        reader = reader_for(game, data_dir, params)
        with Server(args.solved, data_dir) as server:
            met, bad = walk_and_compare(server, reader, game, params, wanted, rng)
        bad += command_lines_agree(args.solved, data_dir, game, params, rng.sample(met, min(5, len(met))))
        seconds = time.monotonic() - began
        print(f"{name}: {len(met)} positions, {len(bad)} disagreements ({seconds:.1f} s)")
        for position, theirs, ours in bad[:10]:
            print(f"  {position!r}: solved probe says {theirs}, the reader {ours}")
        failed |= bool(bad)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
