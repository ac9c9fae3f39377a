"""The strong bot's time per move in two source trees, run in turns (an A/B on a noisy machine).

    python bench/bench_strong_ab.py OLD_TREE NEW_TREE [--rounds 3] [--positions 30] [--iterations 2000]

Each run is a fresh process of one tree (its own ``dvtui`` on PYTHONPATH) that searches the same
fixed positions (3, 4 and 5 players, reached by random placements from fixed deals) with an
iteration budget, so the moves are a pure function of the positions. It reports the first pass
(the search's memos start empty, as in a new game) and the best of two more passes (memos warm, as
later in a game), plus a digest of every move, gain and judgement: the two trees must print the
same digest, since a change to the search's speed must not change a single move.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

CODE = """
import hashlib, json, random, sys, time
from dvtui.engine import COLORS, Game, Seat, new_game
try:
    from dvtui.bots import think
    from dvtui.engine import Placement
except ImportError:  # a tree with the older API: place(column, card), think in its module
    from dvtui.bots.strong import think
    Placement = None

def place(game, card, column):
    if Placement is None:
        game.place(column, card)
    else:
        game.place(Placement(card, column))

def move(hint):
    return tuple(hint.placement) if Placement is not None else (hint.card, hint.column)

count, iterations = int(sys.argv[1]), int(sys.argv[2])

def position(deal):
    players = 3 + deal % 3
    seats = [Seat(name=f"p{i}", kind="bot", color=COLORS[i], bot="random") for i in range(players)]
    game = Game(new_game(seats, first_player=deal % players, seed=deal))
    rng = random.Random(deal)
    for _ in range(deal * 37 % 75):
        card, column = rng.choice(game.legal_placements())
        place(game, card, column)
    return game

games = [position(deal) for deal in range(count)]

def one_pass():
    start = time.perf_counter()
    hints = [think(game, 7, iterations=iterations) for game in games]
    seconds = time.perf_counter() - start
    return seconds, [(*move(h), h.gain, repr(h.win)) for h in hints]

first, moves = one_pass()
warm = min(one_pass()[0] for _ in range(2))
digest = hashlib.sha256(json.dumps(moves).encode()).hexdigest()[:16]
print(json.dumps({"first": first / count, "warm": warm / count, "digest": digest}))
"""


def run(tree: str, positions: int, iterations: int) -> dict[str, float | str]:
    env = {**os.environ, "PYTHONPATH": tree}
    out = subprocess.run(
        [sys.executable, "-c", CODE, str(positions), str(iterations)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--iterations", type=int, default=2000)
    args = ap.parse_args()
    trees = [os.path.abspath(args.old), os.path.abspath(args.new)]
    runs: dict[str, list[dict[str, float | str]]] = {t: [] for t in trees}
    for _ in range(args.rounds):
        for tree in trees:
            runs[tree].append(run(tree, args.positions, args.iterations))
    medians: dict[str, tuple[float, float]] = {}
    for tree in trees:
        first = statistics.median(float(r["first"]) for r in runs[tree])
        warm = statistics.median(float(r["warm"]) for r in runs[tree])
        medians[tree] = first, warm
        digests = sorted({str(r["digest"]) for r in runs[tree]})
        print(
            f"{tree:30} per move: first pass {first * 1000:7.1f} ms, warm {warm * 1000:7.1f} ms  "
            f"(median of {args.rounds}; {args.iterations} iterations)  moves {', '.join(digests)}"
        )
    (old_first, old_warm), (new_first, new_warm) = (medians[t] for t in trees)
    print(f"new / old: first pass {new_first / old_first:.3f}, warm {new_warm / old_warm:.3f}")
    same = {str(r["digest"]) for t in trees for r in runs[t]}
    print("moves: identical" if len(same) == 1 else "moves: DIFFERENT")


if __name__ == "__main__":
    main()
