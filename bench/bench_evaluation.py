"""Is another evaluation better than ``strong``'s? Duplicate games of one searching bot against strong.

The hero searches with a given budget and :class:`~dvtui.bots.strong.Evaluation` (its rollout
policy and its value at the round's end) in one seat; every other seat is ``strong`` at its default
budget. Each deal is played in every rotation of the seats, so the cards and the seat fall alike on
both. Prints the hero's win share (a shared win counts 1/k) and how often it finishes ahead of one
of the others (a tie counts half: the share a rung's 150 Elo makes about 70%), each with its 95%
interval from resampling whole deals, the win share a bot exactly as good would get (1/players),
and the hero's p95 time a move.

    python bench/bench_evaluation.py --players 3 --deals 20 --variant it=5000,eps=0 --variant temp=0.8

A variant is comma-separated ``it`` (iterations), ``eps`` (rollout_epsilon), ``pot``
(potential_weight), ``temp`` (temperature_scale), ``fit=strong`` (strong_games: the value fitted to
strong bots' games), ``rank`` (rank_weight), ``c`` (exploration);
unnamed keys keep strong's values.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dvtui.bots import DEFAULT_ITERATIONS, bot_seed, choose, think
from dvtui.bots.strong import STRONG, Evaluation
from dvtui.engine import COLORS, Game, Seat, new_game

KEYS = {
    "eps": "rollout_epsilon",
    "pot": "potential_weight",
    "temp": "temperature_scale",
    "fit": "strong_games",
    "rank": "rank_weight",
    "c": "exploration",
}
FLAGS = {"strong_games": "strong"}
"""Keys that are yes/no: the value that means yes."""


def variant(text: str) -> tuple[int, Evaluation]:
    """``it=5000,eps=0`` -> (iterations, evaluation)."""
    iterations = DEFAULT_ITERATIONS
    evaluation = STRONG
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        if key == "it":
            iterations = int(value)
        else:
            field = KEYS[key]
            setting = value == FLAGS[field] if field in FLAGS else float(value)
            evaluation = replace(evaluation, **{field: setting})
    return iterations, evaluation


def play(task: tuple[str, int, int, int]) -> tuple[str, int, float, float, list[float]]:
    """Deal ``deal`` with the hero in seat ``rotation``: (variant, deal, its win share, the share of
    the others it finished ahead of, its move times)."""
    text, players, deal, rotation = task
    iterations, evaluation = variant(text)
    seats = [Seat(name=f"B{i}", kind="bot", color=COLORS[i], bot="strong") for i in range(players)]
    seed = 5_000_011 * deal + players
    game = Game(new_game(seats, first_player=0, seed=seed))
    times: list[float] = []
    while not game.over:
        p = game.to_move
        if p == rotation:
            start = time.perf_counter()
            placement = think(
                game, bot_seed(seed, p), iterations=iterations, evaluation=evaluation, settle=True
            ).placement
            times.append(time.perf_counter() - start)
        else:
            placement = choose("strong", game, bot_seed(seed, p))
        game.place(placement)
    scores = game.scores()
    best = max(scores)
    winners = scores.count(best)
    mine = scores[rotation]
    ahead = sum(1.0 if mine > s else 0.5 if mine == s else 0.0 for s in scores) - 0.5
    return text, deal, (1.0 / winners if mine == best else 0.0), ahead / (players - 1), times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", action="append", default=[], help="the hero's budget and evaluation")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--first-deal", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--resamples", type=int, default=1000)
    args = ap.parse_args()
    variants = args.variant or [""]
    for text in variants:
        variant(text)  # a bad variant fails before hours of games
    deals = range(args.first_deal, args.first_deal + args.deals)
    tasks = [(v, args.players, d, r) for v in variants for d in deals for r in range(args.players)]
    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as workers:
            results = workers.map(play, tasks, chunksize=1)
    else:
        results = [play(t) for t in tasks]
    print(f"{len(results)} games at {args.players} players, {(time.perf_counter() - start) / 60:.1f} min; "
          f"a hero as good as strong wins {1 / args.players:.3f}")  # fmt: skip
    rng = random.Random(0)
    for text in variants:
        wins: dict[int, list[float]] = {}
        ahead: dict[int, list[float]] = {}
        times: list[float] = []
        for v, deal, share, beaten, spent in results:
            if v == text:
                wins.setdefault(deal, []).append(share)
                ahead.setdefault(deal, []).append(beaten)
                times.extend(spent)
        times.sort()
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"{text or 'strong':<32} win share {interval(list(wins.values()), args.resamples, rng)}  "
              f"ahead {interval(list(ahead.values()), args.resamples, rng)}  p95 {p95:.3f} s/move")  # fmt: skip


def resampled(per_deal: list[list[float]], resamples: int, rng: random.Random) -> tuple[float, float, float]:
    """The mean of the games' shares, with its 95% interval (low, high) from resampling whole deals."""
    mean = sum(map(sum, per_deal)) / sum(map(len, per_deal))
    draws = []
    for _ in range(resamples):
        picked = [per_deal[rng.randrange(len(per_deal))] for _ in per_deal]
        draws.append(sum(map(sum, picked)) / sum(map(len, picked)))
    draws.sort()
    return mean, draws[int(0.025 * len(draws))], draws[int(0.975 * len(draws)) - 1]


def interval(per_deal: list[list[float]], resamples: int, rng: random.Random) -> str:
    """:func:`resampled`, written as "mean (95% low .. high)"."""
    mean, lo, hi = resampled(per_deal, resamples, rng)
    return f"{mean:.3f} (95% {lo:.3f} .. {hi:.3f})"


if __name__ == "__main__":
    main()
