"""Is the analysis's win chance calibrated, and how noisy is its loss? Prints numbers; asserts nothing.

Calibration: bot games are played (``--players``, deals SEED..SEED+GAMES-1), every placement is
analysed at ``--budget``, and each placement's win chance (the mover's, with the best placement) is
compared with whether that player won the game (a shared victory counts 1/k): the Brier score, the
Brier score of always saying 1/n (the baseline), and a reliability table (chance predicted, share won,
count) in tenths.

Noise: for the first ``--noise`` placements of those games, the played move's loss is measured again
with other seeds (``--repeats``); the spread of those losses is the search's own noise, printed
beside the standard error the analysis uses to withhold marks.

    python bench/bench_analysis.py --games 20 --budget 1000 --noise 60 --repeats 4
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dvtui.play.autoplay import play_game
from dvtui.play.seats import parse_players
from dvtui.replay.analysis import SEED, analyse, positions, review


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", default="bot:strong@500,bot:greedy,bot:strong@2000")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--noise", type=int, default=60, help="placements whose loss is measured again")
    ap.add_argument("--repeats", type=int, default=4)
    args = ap.parse_args()
    seats = parse_players(args.players)
    n = len(seats)
    pairs: list[tuple[float, float]] = []
    games = []
    start = time.perf_counter()
    for g in range(args.games):
        game, events = play_game(seats, args.seed + g)
        outcome = game.outcome()
        assert outcome is not None
        share = [1 / len(outcome.winners) if p in outcome.winners else 0.0 for p in range(n)]
        for r in analyse(events, args.budget, args.jobs):
            pairs.append((r.before, share[r.player]))
        games.append(events)
    brier = statistics.fmean((p - y) ** 2 for p, y in pairs)
    base = statistics.fmean((1 / n - y) ** 2 for _, y in pairs)
    print(f"{args.games} games of {args.players}, analysis at {args.budget} iterations: {len(pairs)} placements "
          f"in {time.perf_counter() - start:.0f} s")  # fmt: skip
    print(f"Brier score {brier:.4f} (always 1/{n}: {base:.4f}; skill {1 - brier / base:+.3f})")
    print("predicted   won    count")
    for tenth in range(10):
        bucket = [y for p, y in pairs if min(9, int(p * 10)) == tenth]
        if bucket:
            print(f"{tenth / 10:.1f}-{(tenth + 1) / 10:.1f}   {statistics.fmean(bucket):.3f}  {len(bucket):6d}")
    spreads, bounds = [], []
    for events in games:
        for _, game, placement in positions(events):
            if len(spreads) >= args.noise:
                break
            reviews = [review(game, placement, args.budget, seed=SEED + k) for k in range(args.repeats)]
            losses = [r.loss for r in reviews if r.loss is not None]
            noises = [r.noise for r in reviews if r.noise is not None]
            if len(losses) >= 2 and max(losses) > 0:
                spreads.append(statistics.stdev(losses))
                bounds.append(statistics.fmean(noises))
    if spreads:
        print(f"loss noise over {len(spreads)} placements, {args.repeats} seeds each: measured spread (sd) "
              f"median {statistics.median(spreads):.3f}, 90th pct {sorted(spreads)[int(0.9 * len(spreads))]:.3f}; "
              f"the analysis's standard error median {statistics.median(bounds):.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
