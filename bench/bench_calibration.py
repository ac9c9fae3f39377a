"""Samples for the analysis's calibration: bot games played and some of their placements judged.

For each table size (``--players``) and game (deals ``--seed``.. on), the seats are a rotation of
``--levels``; the game is played, then ``--sample`` of its placements (drawn from the deal, so a run is
reproducible) are judged as the analysis judges them (:func:`dvtui.replay.analysis.review`'s
judgement, uncalibrated), and one line per placement is appended to ``--out`` (JSON lines): the table
size, the game, the round, the raw value of the placement played and of the best one, and the
mover's share of the victory (1, 1/k for k tied winners, 0). A few placements a game rather than
all of them: the placements of one game are far from independent, so more games say more.

Appending, a run can be stopped at any time and carried on with ``--seed`` past the last game;
``bench/fit_calibration.py`` fits the calibration from the file and checks it on held-out games.

    python bench/bench_calibration.py --players 3 4 5 --games 20 --sample 10 --out calibration.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dvtui.bots import DEFAULT_ITERATIONS, bot_seed, judge, searched_as
from dvtui.play.autoplay import play_game
from dvtui.play.seats import parse_players
from dvtui.replay.analysis import positions

LEVELS = "greedy,novice,casual,club,expert"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--games", type=int, default=20, help="games per table size")
    ap.add_argument("--seed", type=int, default=1, help="the first deal")
    ap.add_argument("--sample", type=int, default=10, help="placements judged per game")
    ap.add_argument("--budget", type=int, default=DEFAULT_ITERATIONS)
    ap.add_argument("--levels", default=LEVELS, help="bot levels the seats rotate through")
    ap.add_argument("--jobs", type=int, default=1, help="accepted for the bench's habit; one process is used")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    levels = args.levels.split(",")
    start = time.perf_counter()
    with args.out.open("a", encoding="utf-8") as out:
        for g in range(args.seed, args.seed + args.games):
            for n in args.players:
                seats = parse_players(",".join(f"bot:{levels[(g + s) % len(levels)]}" for s in range(n)))
                game, events = play_game(seats, g)
                outcome = game.outcome()
                assert outcome is not None
                share = [1 / len(outcome.winners) if p in outcome.winners else 0.0 for p in range(n)]
                found = positions(events)
                for _, state, placement in random.Random(g * 10 + n).sample(found, min(args.sample, len(found))):
                    standing = searched_as(state, placement)
                    judged = judge(state, bot_seed(g, state.to_move), args.budget, also=standing)
                    mine = judged.of(standing)
                    assert mine is not None
                    line = {"players": n, "game": g, "round": state.round, "played": mine.value,
                            "best": judged.best.value, "won": share[state.to_move]}  # fmt: skip
                    out.write(json.dumps(line) + "\n")
                out.flush()
                print(f"game {g} at {n}: {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
