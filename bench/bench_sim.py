"""Games per second of ``dvtui sim`` with three random bots, no ``--out`` (target: >= 10,000 on one core).

    python bench/bench_sim.py [--games N] [--repeat R]

Prints the in-process rate (the loop `dvtui sim` runs) for each repetition, the best and median,
and the whole command's wall time for the same number of games (start-up included).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from dvtui.cli.sim import simulate
from dvtui.play.seats import parse_players


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    seats = parse_players("bot:random,bot:random,bot:random", bots_only=True)
    simulate(seats, 500)  # warm the ranking memo and the interpreter's caches
    rates = []
    for r in range(args.repeat):
        result = simulate(seats, args.games, seed=r * args.games)
        rates.append(result["games"] / result["seconds"])  # type: ignore[operator]
        print(f"run {r + 1}: {rates[-1]:,.0f} games/s ({result['seconds']:.3f} s for {args.games} games)")
    print(f"best {max(rates):,.0f} games/s, median {statistics.median(rates):,.0f} games/s")
    t = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "dvtui",
            "sim",
            "--players",
            "bot:random,bot:random,bot:random",
            "--games",
            str(args.games),
        ],
        check=True,
        capture_output=True,
    )
    wall = time.perf_counter() - t
    print(f"`dvtui sim --games {args.games}` wall time {wall:.3f} s = {args.games / wall:,.0f} games/s incl. start-up")


if __name__ == "__main__":
    main()
