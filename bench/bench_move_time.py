"""A bot level's time a move at 3, 4 and 5 players: median, p95 and max, in the build it imports.

The positions are those a game of greedy bots passes through (every ``--every``-th placement of
``--deals`` deals per size, from fixed seeds), so every level is timed on the same positions and
the early moves of a round, the dearest for a search, are in the sample as often as in a game.
Which build ran is printed first: the compiled one (``HATCH_BUILD_HOOK_ENABLE_MYPYC=1 pip install .``,
which also leaves the compiled modules in place in the tree it built) or pure Python.

    python bench/bench_move_time.py --level master
    python bench/bench_move_time.py --level strong --level master --every 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent.parent))  # last: an installed dvtui (the compiled build
# of HATCH_BUILD_HOOK_ENABLE_MYPYC=1 pip install .) is the one timed, not this checkout's source beside it

from dvtui.bots import bot_fn, bot_seed, choose, parse_bot
from dvtui.bots import strong as _strong
from dvtui.engine import COLORS, Game, Seat, new_game


def positions(players: int, deals: int, every: int) -> list[Game]:
    """Every ``every``-th position of ``deals`` games of greedy bots at ``players``."""
    out = []
    for deal in range(deals):
        seats = [Seat(name=f"b{q}", kind="bot", color=COLORS[q], bot="greedy") for q in range(players)]
        game = Game(new_game(seats, seed=100 + deal))
        made = 0
        while not game.over:
            if made % every == 0:
                out.append(game.copy())
            game.place(choose("greedy", game, bot_seed(7, game.to_move)))
            made += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--level", action="append", default=[], help="a bot level (repeatable; default master)")
    ap.add_argument("--deals", type=int, default=2, help="deals per table size")
    ap.add_argument("--every", type=int, default=3, help="time every N-th placement of each deal")
    args = ap.parse_args()
    compiled = not _strong.__file__.endswith(".py")
    print(f"build: {'compiled (mypyc)' if compiled else 'pure Python'} ({_strong.__file__})")
    for level in args.level or ["master"]:
        move = bot_fn(parse_bot(level))
        spent: list[float] = []
        for players in (3, 4, 5):
            times = []
            for game in positions(players, args.deals, args.every):
                start = time.perf_counter()
                move(game, 5)
                times.append(time.perf_counter() - start)
            times.sort()
            spent += times
            print(
                f"{level:>8} {players} players, {len(times):3} moves: median {statistics.median(times):.2f} s, "
                f"p95 {times[int(0.95 * (len(times) - 1))]:.2f} s, max {times[-1]:.2f} s"
            )
        spent.sort()
        print(f"{level:>8} all sizes, {len(spent):3} moves: p95 {spent[int(0.95 * (len(spent) - 1))]:.2f} s")


if __name__ == "__main__":
    main()
