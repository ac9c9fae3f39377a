"""`dvtui sim` games/s of two source trees, run in turns in the same minutes (an A/B on a noisy machine).

    python bench/bench_sim_ab.py OLD_TREE NEW_TREE [--rounds 4] [--games 10000]

On a shared machine the rate moves by 10-30% from one minute to the next, so comparing a run now
with a figure from an hour ago says little. This alternates fresh processes of each tree (each its
own `dvtui` on PYTHONPATH, e.g. an older commit checked out with `git worktree add /tmp/old REV`),
takes the best of three in-process runs of `simulate()` per process, and prints each tree's median
and the ratio, which stays steady when the machine does not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

CODE = """
import sys
try:
    from dvtui.cli.sim import simulate
    from dvtui.play.seats import parse_players
except ImportError:  # a tree with the older layout: commands/ and top-level seats
    from dvtui.commands.sim import simulate
    from dvtui.seats import parse_players
seats = parse_players("bot:random,bot:random,bot:random", bots_only=True)
games = int(sys.argv[1])
simulate(seats, 500)
print(max(r["games"] / r["seconds"] for r in (simulate(seats, games, seed=k * games) for k in range(3))))
"""


def rate(tree: str, games: int) -> float:
    env = {**os.environ, "PYTHONPATH": tree}
    out = subprocess.run(
        [sys.executable, "-c", CODE, str(games)], cwd=tree, env=env, capture_output=True, text=True, check=True
    ).stdout
    return float(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--games", type=int, default=10_000)
    args = ap.parse_args()
    trees = [os.path.abspath(args.old), os.path.abspath(args.new)]
    rates: dict[str, list[float]] = {t: [] for t in trees}
    for _ in range(args.rounds):
        for tree in trees:
            rates[tree].append(rate(tree, args.games))
    for tree in trees:
        print(
            f"{tree:30} median {statistics.median(rates[tree]):8,.0f} games/s  "
            f"runs {', '.join(f'{r:,.0f}' for r in rates[tree])}"
        )
    old, new = (statistics.median(rates[t]) for t in trees)
    print(f"new / old = {new / old:.3f}")


if __name__ == "__main__":
    main()
