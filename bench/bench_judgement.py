"""How stable are the analysis's marks? Prints numbers; asserts nothing.

For ``--sample`` placements of a game file (drawn with ``--seed``), the placement is judged as the
analysis judges it (with the hint's seed), then again with ``--seeds`` - 1 other seeds; it prints
each placement's losses and marks, how many placements kept the same mark under every seed, and
the spread of the loss across seeds beside the standard error the analysis computes (the noise
it shows, and which a loss must pass twice over to earn a mark). With ``--budgets``, the whole
game's marks are counted at each budget instead.

    python bench/bench_judgement.py GAME.dvr --sample 30 --seeds 4
    python bench/bench_judgement.py GAME.dvr --budgets 5000 20000
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dvtui.replay.analysis import BUDGET, SEED, analyse, positions, review
from dvtui.store import read_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", type=Path)
    ap.add_argument("--sample", type=int, default=30)
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--seed", type=int, default=5, help="draws the placements sampled")
    ap.add_argument("--budget", type=int, default=BUDGET)
    ap.add_argument("--budgets", type=int, nargs="*", help="count the whole game's marks at each of these budgets")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    events = read_game(args.file).events
    if args.budgets:
        for budget in args.budgets:
            reviews = analyse(events, budget, args.jobs)
            counts = Counter(r.mark for r in reviews if r.mark)
            marked = sorted((r.moment, r.mark) for r in reviews if r.mark)
            print(f"budget {budget}: {dict(counts)}; marked {marked}")
        return
    found = positions(events)
    picked = random.Random(args.seed).sample(found, min(args.sample, len(found)))
    spreads, errors = [], []
    same = 0
    for moment, game, placement in picked:
        seeds = [None, *(SEED + k for k in range(1, args.seeds))]
        reviews = [review(game, placement, args.budget, moment, seed=s) for s in seeds]
        losses = [r.loss or 0.0 for r in reviews]
        marks = {r.mark for r in reviews}
        same += len(marks) == 1
        if any((r.best_card, r.best_column) != (r.card, r.column) for r in reviews):
            spreads.append(statistics.stdev(losses))
            errors.append(statistics.fmean(r.noise or 0.0 for r in reviews))
        print(f"round {game.round} seat {game.to_move + 1}: losses {[round(x, 3) for x in losses]}, "
              f"noise {[round(r.noise or 0.0, 3) for r in reviews]}, marks {sorted(map(str, marks))}")  # fmt: skip
    print(f"{same} of {len(picked)} placements kept one mark under {args.seeds} seeds")
    if spreads:
        spreads.sort()
        print(f"{len(spreads)} not the best under some seed: the loss's spread across seeds, median "
              f"{statistics.median(spreads):.4f} (90th percentile {spreads[int(0.9 * len(spreads))]:.4f}); "
              f"the noise shown, median {statistics.median(errors):.4f}")  # fmt: skip


if __name__ == "__main__":
    main()
