"""Fit the analysis's calibration (:mod:`dvtui.bots.calibration`) and check it on held-out games.

Reads the JSON lines of ``bench/bench_calibration.py``. Per table size, the games whose number is
not a multiple of ``--hold-out`` are fitted (the default 2: the odd deals, half of them):
``sigmoid(a + b * logit(value))`` to the mover's share of the victory, by maximum likelihood
(Newton's method on the two numbers); the others are held out. On the held-out games it prints,
per tenth of the calibrated chance, the mean chance said, the share who won, the placements and the
games they come from, the gap in points and its standard error, and a verdict: within 5 points,
off by how much, or not measured. The placements of one game are far from independent, so the
standard error is counted by game (a cluster-robust one, and at least the binomial one of as many
independent outcomes as games); a tenth whose standard error is above
:data:`MEASURED` points is not measured, whatever its gap. Then the same for the raw value, the
Brier scores, and the ``FIT`` table to paste into ``dvtui/bots/calibration.py``. With ``--cross``,
each part of the games is held out in turn and checked by the fit on the others (so every game is
checked, by a fit that never saw it), and ``FIT`` is fitted on all of them. Asserts nothing.

    python bench/fit_calibration.py calibration.jsonl --cross
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dvtui.bots.calibration import EDGE

Sample = tuple[float, float]
"""(value, share of the victory)."""
Said = tuple[float, float, int]
"""(chance said, share of the victory, the game's number)."""
BOUND = 5.0
"""The gap, in points, a tenth is held to."""
MEASURED = 2.5
"""The largest standard error, in points, of a tenth's gap that counts as a measure of it: half the
bound, so a tenth just within it is told from one just outside it by two standard errors."""


def logit(x: float) -> float:
    x = min(1.0 - EDGE, max(EDGE, x))
    return math.log(x / (1.0 - x))


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def fit(samples: list[Sample]) -> tuple[float, float]:
    """(a, b) of the most likely ``sigmoid(a + b * logit(value))`` (a whisker of ridge keeps Newton's
    steps finite on a sample that separates)."""
    a, b = 0.0, 1.0
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in samples:
            f = logit(x)
            p = sigmoid(a + b * f)
            w = p * (1.0 - p)
            ga += p - y
            gb += (p - y) * f
            haa += w
            hab += w * f
            hbb += w * f * f
        ridge = 1e-6 * len(samples)
        haa += ridge
        hbb += ridge
        det = haa * hbb - hab * hab
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a -= da
        b -= db
        if abs(da) + abs(db) < 1e-10:
            break
    return a, b


def table(pairs: list[Said]) -> list[tuple[int, float, float, int, int, float]]:
    """Per tenth of the chance said: (tenth, mean said, share won, placements, games, standard
    error of the gap in points, counted by game)."""
    rows = []
    for tenth in range(10):
        inside = [(p, y, g) for p, y, g in pairs if min(9, int(p * 10)) == tenth]
        if inside:
            said = sum(p for p, _, _ in inside) / len(inside)
            won = sum(y for _, y, _ in inside) / len(inside)
            by_game: dict[int, float] = {}
            for p, y, g in inside:
                by_game[g] = by_game.get(g, 0.0) + (y - p) - (won - said)
            # counted by game; and never below what the games alone would give if the chance
            # said were right (all lost, or all won, a handful of games is no certainty)
            error = max(math.sqrt(sum(r * r for r in by_game.values())) / len(inside),
                        math.sqrt(said * (1 - said) / len(by_game)))  # fmt: skip
            rows.append((tenth, said, won, len(inside), len(by_game), 100 * error))
    return rows


def verdict(said: float, won: float, error: float) -> str:
    """Whether a tenth's gap is within :data:`BOUND` points, by how much it is not, or that its
    standard error is too large to tell (:data:`MEASURED`)."""
    gap = 100 * abs(won - said)
    if error > MEASURED:
        return f"not measured (error {error:.1f})"
    return "within" if gap <= BOUND else f"off by {gap - BOUND:.1f}"


def brier(pairs: list[Said]) -> float:
    return sum((p - y) ** 2 for p, y, _ in pairs) / max(1, len(pairs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("samples", type=Path)
    ap.add_argument("--hold-out", type=int, default=2, help="games numbered a multiple of this are held out")
    ap.add_argument("--cross", action="store_true",
                    help="every part of the games in turn held out (game %% HOLD_OUT), each checked by the fit on "
                         "the others and the checks pooled; FIT is then fitted on all the games")  # fmt: skip
    ap.add_argument(
        "--only", choices=("aimed", "uniform"), help="the placements of bench_calibration's --aim, or the others"
    )
    args = ap.parse_args()
    k = args.hold_out
    by_size: dict[int, list[dict[str, float]]] = {}
    for line in args.samples.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if args.only is not None and row.get("aimed", False) != (args.only == "aimed"):
            continue
        by_size.setdefault(row["players"], []).append(row)
    fitted = {}
    for n, rows in sorted(by_size.items()):
        calibrated: list[Said] = []
        raw: list[Said] = []
        for part in range(k) if args.cross else [0]:
            train = [(r["played"], r["won"]) for r in rows if r["game"] % k != part]
            test = [(r["played"], r["won"], int(r["game"])) for r in rows if r["game"] % k == part]
            a, b = fit(train)
            games = (len({r["game"] for r in rows if r["game"] % k != part}),
                     len({r["game"] for r in rows if r["game"] % k == part}))  # fmt: skip
            print(f"\n{n} players: fitted on {len(train)} placements of {games[0]} games, "
                  f"held out {len(test)} of {games[1]} (game % {k} == {part}): a={a:.3f} b={b:.3f}")  # fmt: skip
            calibrated += [(sigmoid(a + b * logit(x)), y, g) for x, y, g in test]
            raw += [(min(1.0, max(0.0, x)), y, g) for x, y, g in test]
        fitted[n] = fit([(r["played"], r["won"]) for r in rows]) if args.cross else (a, b)
        print(f"held-out Brier: raw {brier(raw):.4f}, calibrated {brier(calibrated):.4f}, "
              f"always 1/{n} {brier([(1 / n, y, g) for _, y, g in raw]):.4f}")  # fmt: skip
        for name, pairs in (("calibrated", calibrated), ("raw", raw)):
            print(f"\n{name}:\n")
            print("| chance said | mean said | share who won | placements | games | gap (points) | error | verdict |")
            print("|---|---|---|---|---|---|---|---|")
            for tenth, said, won, count, among, error in table(pairs):
                print(f"| {tenth / 10:.1f}–{(tenth + 1) / 10:.1f} | {said:.3f} | {won:.3f} | {count} | {among} "
                      f"| {100 * (won - said):+.1f} | {error:.1f} | {verdict(said, won, error)} |")  # fmt: skip
    print("\nFIT = {" + ", ".join(f"{n}: ({a:.3f}, {b:.3f})" for n, (a, b) in fitted.items()) + "}")


if __name__ == "__main__":
    main()
