"""How strong are the bots? Duplicate games between levels, with Wilson intervals and move times.

Each deal is played in every rotation of the seats (a 3-player deal three times, the tested bot in
each seat), so luck of the deal and of the seat cancels out. Win share counts a shared victory as
1/k (R8). Prints one block per match-up; nothing is asserted: strength is measured, not pinned by CI.

Examples (full size, several hours on 2 cores)::

    python bench/bench_strength.py --match greedy:random --players 3 --deals 400
    python bench/bench_strength.py --match strong:greedy --players 3 --deals 400 --jobs 2
    python bench/bench_strength.py --match strong:greedy --players 5 --deals 200 --jobs 2

Reduced size: ``--deals 60 --budget 600``. ``--budget`` is the strong bot's iterations (or ``0.5s``).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dvtui.bots import BotSpec, bot_seed, choose, parse_bot
from dvtui.engine import COLORS, Game, Seat, new_game


@dataclass
class Outcome:
    """One game's result for the tested bot, and the tested bot's move times."""

    share: float
    rank: float
    score: int
    seat: int
    times: list[float] = field(default_factory=list)


def play(deal: int, rotation: int, players: int, hero: str, villain: str) -> Outcome:
    """Play deal ``deal`` with the hero in seat ``rotation``; the other seats are the villain."""
    specs: list[BotSpec] = [parse_bot(villain)] * players
    specs[rotation] = parse_bot(hero)
    seats = [Seat(name=f"{s.level}{i}", kind="bot", color=COLORS[i], bot=str(s)) for i, s in enumerate(specs)]
    seed = 1_000_003 * deal + 17
    game = Game(new_game(seats, first_player=0, seed=seed))
    times: list[float] = []
    while not game.over:
        p = game.to_move
        t0 = time.perf_counter()
        placement = choose(specs[p], game, bot_seed(seed, p))
        if p == rotation:
            times.append(time.perf_counter() - t0)
        game.place(placement)
    scores = game.scores()
    best = max(scores)
    winners = [q for q, s in enumerate(scores) if s == best]
    share = 1.0 / len(winners) if rotation in winners else 0.0
    mine = scores[rotation]
    rank = 1 + sum(1 for s in scores if s > mine) + 0.5 * (sum(1 for s in scores if s == mine) - 1)
    return Outcome(share, rank, mine, rotation, times)


def _play(args: tuple[int, int, int, str, str]) -> Outcome:
    return play(*args)


def _tune(settings: list[str]) -> None:
    """``NAME=VALUE`` overrides of the strong bot's constants (``value.NAME`` for the value
    function's), for tuning experiments."""
    import importlib

    for item in settings:
        name, _, text = item.partition("=")
        where, _, name = name.rpartition(".")
        module = importlib.import_module(f"dvtui.bots.{where or 'strong'}")
        setattr(module, name, type(getattr(module, name))(text))


def wilson(share: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (shared wins count fractionally)."""
    if games == 0:
        return 0.0, 1.0
    denom = 1 + z * z / games
    centre = (share + z * z / (2 * games)) / denom
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / denom
    return centre - half, centre + half


def run(
    players: int,
    hero: str,
    villain: str,
    deals: int,
    first_deal: int,
    jobs: int,
    rotations: int,
    settings: list[str],
) -> None:
    _tune(settings)
    tasks = [(d, r, players, hero, villain) for d in range(first_deal, first_deal + deals) for r in range(rotations)]
    start = time.perf_counter()
    if jobs > 1:
        with multiprocessing.Pool(jobs, initializer=_tune, initargs=(settings,)) as pool:
            outcomes = pool.map(_play, tasks, chunksize=1)
    else:
        outcomes = [_play(t) for t in tasks]
    wall = time.perf_counter() - start
    games = len(outcomes)
    share = sum(o.share for o in outcomes) / games
    lo, hi = wilson(share, games)
    times = sorted(t for o in outcomes for t in o.times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    print(
        f"{hero} vs {players - 1}x {villain}, {players} players: {deals} deals x {rotations} seatings = {games} games"
    )
    print(f"  win share {share:.1%}  (Wilson 95% {lo:.1%} .. {hi:.1%}; equal share {1 / players:.1%})")
    print(
        f"  mean rank {statistics.mean(o.rank for o in outcomes):.2f}  mean score "
        f"{statistics.mean(o.score for o in outcomes):,.0f}"
    )
    for seat in range(rotations):
        mine = [o for o in outcomes if o.seat == seat]
        print(f"    seat {seat}: win share {sum(o.share for o in mine) / len(mine):.1%}")
    if times:
        print(
            f"  {hero} time per move: median {statistics.median(times) * 1000:.1f} ms, "
            f"p95 {p95 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms over {len(times)} moves"
        )
    print(f"  wall {wall:.0f} s with {jobs} process(es)")
    sys.stdout.flush()


def _calibration_game(task: tuple[int, int, str]) -> list[tuple[int, list[float], list[list[float]], list[float]]]:
    """One game of ``bot`` self-play: at each round's end but the last, (rounds left, every player's
    score in 100k, their potential under each of :data:`DECAYS`), with each player's share of the win."""
    from dvtui.bots import value as V
    from dvtui.engine.compact import CompactGame

    players, i, bot = task
    tables = [V.gain_table(d) for d in DECAYS]
    seats = [Seat(name=f"b{q}", kind="bot", color=COLORS[q], bot=bot) for q in range(players)]
    seed = 7919 * i + 3
    game = Game(new_game(seats, seed=seed))
    spec = parse_bot(bot)
    snaps: list[tuple[int, list[float], list[list[float]]]] = []
    current = game.round
    while not game.over:
        game.place(choose(spec, game, bot_seed(seed, game.to_move)))
        if game.round != current and not game.over:
            current = game.round
            state = CompactGame(game)
            own, rest = state.goods, state.columns
            pots = [[V.potential(own[q], rest, t) for t in tables] for q in range(players)]
            snaps.append((game.rounds - game.round + 1, [w / 100_000 for w in game.worth], pots))
    scores = game.scores()
    won = [s == max(scores) for s in scores]
    share = [1 / sum(won) if w else 0.0 for w in won]
    return [(left, worth, pots, share) for left, worth, pots in snaps]


DECAYS = [0.5, 0.65, 0.75, 0.85, 1.0]
"""The depth decays the calibration tries (see :data:`dvtui.bots.value.DEPTH_DECAY`)."""


def calibrate(players: int, games: int, bot: str = "greedy", jobs: int = 1, save: Path | None = None) -> None:
    """Fit :mod:`dvtui.bots.value`'s weights to games of ``bot`` self-play (needs numpy).

    At each round's end, every player's estimate is "score + weight * potential(decay)"; the fit
    picks, per rounds left, the (decay, weight, temperature) whose softmax best predicts who won
    (maximum likelihood, shared wins counted fractionally). ``save`` keeps the states as JSON lines.
    """
    import json

    import numpy as np

    tasks = [(players, i, bot) for i in range(games)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            games_rows = pool.map(_calibration_game, tasks, chunksize=1)
    else:
        games_rows = [_calibration_game(t) for t in tasks]
    rows = [row for game_rows in games_rows for row in game_rows]
    if save is not None:
        with save.open("a") as out:
            for row in rows:
                out.write(json.dumps([players, *row]) + "\n")
    for left in sorted({r[0] for r in rows}):
        sel = [r for r in rows if r[0] == left]
        worth = np.array([r[1] for r in sel])
        pots = np.array([r[2] for r in sel])
        shares = np.array([r[3] for r in sel])
        best = (-1e9, 0.0, 0.0, 0.0)
        for di, d in enumerate(DECAYS):
            for a in np.arange(0, 1.01, 0.05):
                est = worth + a * pots[:, :, di]
                for temp in np.arange(0.5, 12, 0.25):
                    z = est / temp
                    z = z - z.max(1, keepdims=True)
                    logp = z - np.log(np.exp(z).sum(1, keepdims=True))
                    ll = float((shares * logp).sum()) / len(sel)
                    if ll > best[0]:
                        best = (ll, d, float(a), float(temp))
        print(
            f"{players} players, {left} rounds left ({len(sel)} states): log-likelihood {best[0]:.4f} "
            f"decay {best[1]:.2f} weight {best[2]:.2f} temperature {best[3]:.2f}"
        )
        sys.stdout.flush()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--match", action="append", help="hero:villain, e.g. strong:greedy (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="3, 4 or 5 (repeatable)")
    parser.add_argument("--deals", "--games", type=int, default=60, help="deals per match-up")
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--rotations", type=int, default=None, help="seatings per deal (default: all)")
    parser.add_argument("--budget", default=None, help="strong's budget: iterations (5000) or seconds (0.5s)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], help="NAME=VALUE: a strong constant (tuning)")
    parser.add_argument("--calibrate", action="store_true", help="fit the value function instead (numpy)")
    parser.add_argument("--calibrate-bot", default="greedy", help="whose self-play games --calibrate fits")
    parser.add_argument("--save", type=Path, default=None, help="--calibrate: append the states here (JSON lines)")
    args = parser.parse_args(argv)
    if args.calibrate:
        for players in args.players or [3, 4, 5]:
            calibrate(players, args.deals, args.calibrate_bot, args.jobs, args.save)
        return
    matches = args.match or ["greedy:random", "strong:greedy"]
    for players in args.players or [3]:
        for match in matches:
            hero, villain = match.split(":")
            if args.budget and hero == "strong":
                hero = f"strong@{args.budget}"
            run(players, hero, villain, args.deals, args.first_deal, args.jobs, args.rotations or players, args.set)


if __name__ == "__main__":
    main()
