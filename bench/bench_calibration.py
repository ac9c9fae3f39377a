"""Samples for the analysis's calibration: bot games played and some of their placements judged.

For each table size (``--players``) and game (deals ``--seed``.. on), the seats are a rotation of
``--levels``; the game is played, then ``--sample`` of its placements (drawn from the deal, so a run is
reproducible) are judged as the analysis judges them (:func:`dvtui.replay.analysis.review`'s
judgement, uncalibrated), and one line per placement is appended to ``--out`` (JSON lines): the table
size, the game, the round, the raw value of the placement played and of the best one, and the
mover's share of the victory (1, 1/k for k tied winners, 0). A few placements a game rather than
all of them: the placements of one game are far from independent, so more games say more.

With ``--aim``, the placements judged are chosen so the middle of the scale gets games too: drawn
uniformly, most placements a game holds lie near 0 or near 1/n, and a tenth such as 0.6–0.7 sees
one game in six, so measuring it to a few points takes thousands of games. Aimed, every placement
of the game is first looked at with a small budget (``--look``), and one placement is drawn among
those the look puts in each tenth of ``--tenths`` (of the calibrated chance), then judged at the
full budget as above. The choice depends on the position alone (never on who won), so the share
who won among the placements the full judgement puts in a tenth still measures that tenth; the
look is a noisier reading of the same search, and a tenth both designs fill (0.2–0.3, 0.9–1.0)
shows whether the aim bends it (``bench/fit_calibration.py --only aimed`` against ``--only uniform``). Lines carry
``"aimed": true``.

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
from dvtui.bots.calibration import chance
from dvtui.engine import Game, Placement
from dvtui.play.autoplay import play_game
from dvtui.play.seats import parse_players
from dvtui.replay.analysis import positions

LEVELS = "greedy,novice,casual,club,expert"


def aimed(
    found: list[tuple[Game, Placement]], g: int, n: int, look: int, tenths: range, draw: random.Random
) -> list[tuple[Game, Placement]]:
    """One placement per tenth of ``tenths`` of the chance a first look at ``look`` iterations gives
    it (drawn among the game's placements there), in the game's order."""
    by_tenth: dict[int, list[int]] = {}
    for k, (state, standing) in enumerate(found):
        seen = judge(state, bot_seed(g, state.to_move), look, also=standing).of(standing)
        assert seen is not None
        tenth = min(9, int(10 * chance(seen.value, n)))
        if tenth in tenths:
            by_tenth.setdefault(tenth, []).append(k)
    return [found[k] for k in sorted(draw.choice(ks) for _, ks in sorted(by_tenth.items()))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--games", type=int, default=20, help="games per table size")
    ap.add_argument("--seed", type=int, default=1, help="the first deal")
    ap.add_argument("--sample", type=int, default=10, help="placements judged per game")
    ap.add_argument("--budget", type=int, default=DEFAULT_ITERATIONS)
    ap.add_argument("--levels", default=LEVELS, help="bot levels the seats rotate through")
    ap.add_argument("--aim", action="store_true", help="choose one placement per tenth of --tenths (see above)")
    ap.add_argument("--look", type=int, default=250, help="the budget of the aim's first look")
    ap.add_argument("--tenths", default="2-9", help="the tenths aimed at, FIRST-LAST (0-9)")
    ap.add_argument("--jobs", type=int, default=1, help="accepted for the bench's habit; one process is used")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    levels = args.levels.split(",")
    first, _, last = args.tenths.partition("-")
    tenths = range(int(first), int(last or first) + 1)
    start = time.perf_counter()
    with args.out.open("a", encoding="utf-8") as out:
        for g in range(args.seed, args.seed + args.games):
            for n in args.players:
                seats = parse_players(",".join(f"bot:{levels[(g + s) % len(levels)]}" for s in range(n)))
                game, events = play_game(seats, g)
                outcome = game.outcome()
                assert outcome is not None
                share = [1 / len(outcome.winners) if p in outcome.winners else 0.0 for p in range(n)]
                found = [(state, searched_as(state, placement)) for _, state, placement in positions(events)]
                draw = random.Random(g * 10 + n)
                if args.aim:
                    chosen = aimed(found, g, n, args.look, tenths, draw)
                else:
                    chosen = draw.sample(found, min(args.sample, len(found)))
                for state, standing in chosen:
                    judged = judge(state, bot_seed(g, state.to_move), args.budget, also=standing)
                    mine = judged.of(standing)
                    assert mine is not None
                    line = {"players": n, "game": g, "round": state.round, "played": mine.value,
                            "best": judged.best.value, "won": share[state.to_move]}  # fmt: skip
                    if args.aim:
                        line["aimed"] = True
                    out.write(json.dumps(line) + "\n")
                out.flush()
                print(f"game {g} at {n}: {time.perf_counter() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
