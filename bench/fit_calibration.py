"""Fit the analysis's calibration (:mod:`dvtui.bots.calibration`) and check it on held-out games.

Reads the JSON lines of ``bench/bench_calibration.py``. Per table size, the games whose number is
not a multiple of ``--hold-out`` are fitted (the default 2: the odd deals, half of them): a beta
calibration, ``sigmoid(c + a * ln(value) - b * ln(1 - value))``, to the mover's share of the
victory, by maximum likelihood (scikit-learn's unpenalised logistic regression on the two logs, a
tie's share as weights); the others are held out. On the held-out games it prints,
per tenth of the calibrated chance, the mean chance said, the share who won, the placements and the
games they come from, the gap in points and its standard error, and a verdict: within 5 points,
off by how much, or not measured. The placements of one game are far from independent, so the
standard error is counted by game (a cluster-robust one, and at least the binomial one of as many
independent outcomes as games); a tenth whose standard error is above
:data:`MEASURED` points is not measured, whatever its gap. Then the same for the map of the logit
alone (``a == b``, the two-number fit used before) and for the raw value, the Brier scores, and
the ``FIT`` table to paste into ``dvtui/bots/calibration.py``. With ``--cross``,
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

import numpy as np
from sklearn.linear_model import LogisticRegression

from dvtui.bots.calibration import EDGE

Fit = tuple[float, float, float]
"""``(c, a, b)``: see :mod:`dvtui.bots.calibration`."""
Sample = tuple[float, float]
"""(value, share of the victory)."""
Said = tuple[float, float, int]
"""(chance said, share of the victory, the game's number)."""
BOUND = 5.0
"""The gap, in points, a tenth is held to."""
MEASURED = 2.5
"""The largest standard error, in points, of a tenth's gap that counts as a measure of it: half the
bound, so a tenth just within it is told from one just outside it by two standard errors."""


def clipped(x: float) -> float:
    return min(1.0 - EDGE, max(EDGE, x))


def fit(samples: list[Sample], *, logit_only: bool = False) -> Fit:
    """``(c, a, b)`` of the most likely beta calibration (or of the logit's map, ``a == b``, the one
    used before). scikit-learn fits it: a logistic regression on ``ln x`` and ``-ln(1 - x)``, without
    a penalty, each placement counted once as a win and once as a loss, weighted by its share."""
    x = np.array([clipped(v) for v, _ in samples])
    y = np.array([won for _, won in samples])
    features = np.log(x / (1 - x))[:, None] if logit_only else np.column_stack([np.log(x), -np.log(1 - x)])
    model = LogisticRegression(C=np.inf, max_iter=1000)
    model.fit(np.vstack([features, features]), np.r_[np.ones(len(y)), np.zeros(len(y))], sample_weight=np.r_[y, 1 - y])
    c = float(model.intercept_[0])
    if logit_only:
        return c, float(model.coef_[0][0]), float(model.coef_[0][0])
    return c, float(model.coef_[0][0]), float(model.coef_[0][1])


def calibrate(fitted: Fit, x: float) -> float:
    c, a, b = fitted
    z = c + a * math.log(clipped(x)) - b * math.log(1 - clipped(x))
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


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
    fitted: dict[int, Fit] = {}
    for n, rows in sorted(by_size.items()):
        calibrated: list[Said] = []
        logit_only: list[Said] = []
        raw: list[Said] = []
        for part in range(k) if args.cross else [0]:
            train = [(r["played"], r["won"]) for r in rows if r["game"] % k != part]
            test = [(r["played"], r["won"], int(r["game"])) for r in rows if r["game"] % k == part]
            beta, logit = fit(train), fit(train, logit_only=True)
            games = (len({r["game"] for r in rows if r["game"] % k != part}),
                     len({r["game"] for r in rows if r["game"] % k == part}))  # fmt: skip
            print(f"\n{n} players: fitted on {len(train)} placements of {games[0]} games, "
                  f"held out {len(test)} of {games[1]} (game % {k} == {part}): "
                  f"c={beta[0]:.3f} a={beta[1]:.3f} b={beta[2]:.3f}")  # fmt: skip
            calibrated += [(calibrate(beta, x), y, g) for x, y, g in test]
            logit_only += [(calibrate(logit, x), y, g) for x, y, g in test]
            raw += [(min(1.0, max(0.0, x)), y, g) for x, y, g in test]
        fitted[n] = fit([(r["played"], r["won"]) for r in rows]) if args.cross else beta
        always = brier([(1 / n, y, g) for _, y, g in raw])
        print(f"held-out Brier: raw {brier(raw):.4f}, the logit's map {brier(logit_only):.4f}, "
              f"calibrated {brier(calibrated):.4f}, always 1/{n} {always:.4f}")  # fmt: skip
        for name, pairs in (("calibrated", calibrated), ("the logit's map (a == b)", logit_only), ("raw", raw)):
            print(f"\n{name}:\n")
            print("| chance said | mean said | share who won | placements | games | gap (points) | error | verdict |")
            print("|---|---|---|---|---|---|---|---|")
            for tenth, said, won, count, among, error in table(pairs):
                print(f"| {tenth / 10:.1f}–{(tenth + 1) / 10:.1f} | {said:.3f} | {won:.3f} | {count} | {among} "
                      f"| {100 * (won - said):+.1f} | {error:.1f} | {verdict(said, won, error)} |")  # fmt: skip
    print("\nFIT = {" + ", ".join(f"{n}: ({c:.3f}, {a:.3f}, {b:.3f})" for n, (c, a, b) in fitted.items()) + "}")


if __name__ == "__main__":
    main()
