"""The ladder's ratings: a duplicate gauntlet at 3, 4 and 5 players fitted by a Plackett-Luce model.

Each deal seats a set of levels (drawn from the deal's number) and is played once in every cyclic
rotation of the seats, so the luck of the cards and of the seat falls on every level alike. Each
game's finishing order (by score; a tie broken by the deal's own draw) is one ranking; ``choix``
fits Plackett-Luce strengths to all rankings, shown as Elo (400 / ln 10 per unit of log-strength)
relative to ``--anchor``. The 95% intervals come from resampling whole deals (all of a deal's
rotations together), never single games, since the games of one deal are not independent.

Needs the ``bench`` extra (``pip install -e '.[bench]'``). Examples::

    python bench/bench_ladder.py --deals 4 --resamples 50        # a smoke run, minutes
    python bench/bench_ladder.py --deals 60 --jobs 2             # the published table (hours)
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import subprocess
import sys
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import choix
import numpy as np

from dvtui.bots import LADDER, bot_seed, choose, parse_bot
from dvtui.engine import COLORS, Game, Seat, new_game

ELO = 400 / math.log(10)
"""Elo points per unit of Plackett-Luce log-strength (the logistic scale of Elo)."""
POOL = ("greedy", *(level.name for level in LADDER), "strong")
"""The gauntlet's levels by default: the ladder, with greedy below it and today's strong beside it."""

Task = tuple[int, int, int, tuple[str, ...]]
"""(players, deal, rotation, the deal's levels in seat order before rotation)."""
Result = tuple[int, int, list[str], dict[str, list[float]]]
"""(players, deal, levels from first to last place, each level's move times)."""


def seating(players: int, deal: int, pool: tuple[str, ...]) -> tuple[str, ...]:
    """The levels at a deal: ``players`` of the pool, distinct while the pool allows, drawn from the deal."""
    rng = random.Random(players * 1_000_003 + deal)
    if len(pool) >= players:
        return tuple(rng.sample(pool, players))
    return tuple(rng.choice(pool) for _ in range(players))


def play(task: Task) -> Result:
    """One game of the deal with the levels rotated ``rotation`` seats on; their finishing order."""
    players, deal, rotation, levels = task
    seated = [levels[(i + rotation) % players] for i in range(players)]
    specs = [parse_bot(level) for level in seated]
    seats = [Seat(name=f"{s.level}{i}", kind="bot", color=COLORS[i], bot=str(s)) for i, s in enumerate(specs)]
    seed = 7_000_003 * deal + players
    game = Game(new_game(seats, first_player=0, seed=seed))
    times: dict[str, list[float]] = defaultdict(list)
    while not game.over:
        p = game.to_move
        start = time.perf_counter()
        placement = choose(specs[p], game, bot_seed(seed, p))
        times[seated[p]].append(time.perf_counter() - start)
        game.place(placement)
    scores = game.scores()
    ties = random.Random(seed).random
    order = sorted(range(players), key=lambda q: (-scores[q], ties()))
    return players, deal, [seated[q] for q in order], dict(times)


def fit(rankings: list[list[int]], items: int) -> np.ndarray:
    """Plackett-Luce log-strengths (a little regularised, so a level that never won stays finite)."""
    return np.asarray(choix.ilsr_rankings(items, [tuple(r) for r in rankings], alpha=0.01), dtype=float)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--levels", default=",".join(POOL), help="comma-separated levels (default: %(default)s)")
    ap.add_argument("--anchor", default="strong", help="the level shown at 0 Elo")
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--deals", type=int, default=4, help="deals per table size")
    ap.add_argument("--resamples", type=int, default=200, help="bootstrap resamples of whole deals")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    pool = tuple(args.levels.split(","))
    for level in pool:
        parse_bot(level)
    sizes = [int(p) for p in args.players.split(",")]
    tasks = [(p, d, r, seating(p, d, pool)) for p in sizes for d in range(args.deals) for r in range(p)]
    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as workers:
            results = workers.map(play, tasks, chunksize=1)
    else:
        results = [play(t) for t in tasks]
    wall = time.perf_counter() - start

    index = {level: i for i, level in enumerate(pool)}
    by_deal: dict[tuple[int, int], list[list[int]]] = defaultdict(list)
    times: dict[str, list[float]] = defaultdict(list)
    for players, deal, order, moved in results:
        by_deal[(players, deal)].append([index[level] for level in order])
        for level, spent in moved.items():
            times[level].extend(spent)
    deals = list(by_deal)
    anchor = index.get(args.anchor, 0)
    point = fit([r for d in deals for r in by_deal[d]], len(pool))
    point = (point - point[anchor]) * ELO
    rng = np.random.default_rng(0)
    draws = []
    for _ in range(args.resamples):
        picked = rng.integers(0, len(deals), len(deals))
        params = fit([r for k in picked for r in by_deal[deals[k]]], len(pool))
        draws.append((params - params[anchor]) * ELO)
    spread = np.asarray(draws)

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).parent
    ).stdout.strip()
    print(
        f"{date.today()} commit {commit}: {len(results)} games ({len(deals)} deals at {args.players} players, "
        f"every rotation), {wall / 60:.1f} min, {args.resamples} resamples of whole deals"
    )
    print(f"{'level':<10} {'Elo':>6} {'95% interval':>16} {'p95 s/move':>11}")
    for level in sorted(pool, key=lambda lv: -point[index[lv]]):
        i = index[level]
        lo, hi = np.percentile(spread[:, i], [2.5, 97.5]) if len(spread) else (math.nan, math.nan)
        spent = sorted(times[level])
        p95 = spent[min(len(spent) - 1, int(0.95 * len(spent)))] if spent else 0.0
        print(f"{level:<10} {point[i]:>6.0f} {f'{lo:.0f} .. {hi:.0f}':>16} {p95:>11.3f}")


if __name__ == "__main__":
    main()
