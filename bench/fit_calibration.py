"""Fit the analysis's calibration (:mod:`dvtui.bots.calibration`) and check it on held-out games.

Reads the JSON lines of ``bench/bench_calibration.py``. Per table size, the games whose number is
not a multiple of ``--hold-out`` are fitted (the default 2: the odd deals, half of them): the monotone
spline of the logit that :mod:`dvtui.bots.calibration` ships (a broken line with a bend at each of its
knots, every piece rising at least its least slope), to the mover's share of the victory, by
maximum likelihood with a penalty of ``--smooth`` times the square of each change of slope (SciPy's
L-BFGS-B: a log loss bounded below on each slope; a tie's share as the label); the others are held
out. On the held-out games it prints,
per tenth of the calibrated chance, the mean chance said, the share who won, the placements and the
games they come from, the gap in points and its standard error, and a verdict: within 5 points,
off by how much, or not measured. The placements of one game are far from independent, so the
standard error is counted by game (a cluster-robust one, and at least the binomial one of as many
independent outcomes as games); a tenth whose standard error is above
:data:`MEASURED` points is not measured, whatever its gap. Then the same for the beta
calibration (``sigmoid(c + a * ln(value) - b * ln(1 - value))``, the three-number map used before,
by scikit-learn's unpenalised logistic regression on the two logs) and for the raw value, the Brier scores, and
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
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
from scipy.optimize import minimize
from sklearn.linear_model import LogisticRegression

from dvtui.bots import calibration
from dvtui.bots.calibration import EDGE, KNOTS, LEAST_SLOPE, Fit

Beta = tuple[float, float, float]
"""``(c, a, b)`` of a beta calibration."""
Sample = tuple[float, float]
"""(value, share of the victory)."""
Said = tuple[float, float, int]
"""(chance said, share of the victory, the game's number)."""
BOUND = 5.0
"""The gap, in points, a tenth is held to."""
SMOOTH = 3.0
"""The penalty on each change of slope between neighbouring pieces (in log-loss units per squared
slope): from 0.3 to 10, the held-out Brier score moves by less than 0.0003 at every size."""
MEASURED = 2.5
"""The largest standard error, in points, of a tenth's gap that counts as a measure of it: half the
bound, so a tenth just within it is told from one just outside it by two standard errors."""


def clipped(x: float) -> float:
    return min(1.0 - EDGE, max(EDGE, x))


def pieces(values: np.ndarray) -> np.ndarray:
    """How far each value's logit runs along each piece of the broken line (one column a piece): the
    map's logit is ``c`` plus these times the slopes."""
    z = np.log(values / (1 - values))
    knots = np.log(np.array(KNOTS) / (1 - np.array(KNOTS)))
    columns = [np.minimum(z, knots[0]) - knots[0]]
    columns += [np.clip(z, left, right) - left for left, right in pairwise(knots)]
    columns.append(np.maximum(z, knots[-1]) - knots[-1])
    return np.column_stack(columns)


def fit(samples: list[Sample], smooth: float) -> Fit:
    """The most likely monotone spline: the log loss of each placement's share of the victory, plus
    ``smooth`` times the squares of the changes of slope, each slope at least ``LEAST_SLOPE``."""
    x = pieces(np.array([clipped(v) for v, _ in samples]))
    y = np.array([won for _, won in samples])
    k = x.shape[1]

    def loss(p: np.ndarray) -> tuple[float, np.ndarray]:
        z = p[0] + x @ p[1:]
        bends = np.diff(p[1:])
        value = float(np.sum(np.logaddexp(0, -z) * y + np.logaddexp(0, z) * (1 - y)) + smooth * bends @ bends)
        residual = 1 / (1 + np.exp(-z)) - y
        gradient = np.r_[residual.sum(), x.T @ residual]
        gradient[1:-1] -= 2 * smooth * bends
        gradient[2:] += 2 * smooth * bends
        return value, gradient

    found = minimize(loss, np.r_[0.0, np.ones(k)], jac=True, method="L-BFGS-B",
                     bounds=[(None, None)] + [(LEAST_SLOPE, None)] * k)  # fmt: skip
    return float(found.x[0]), tuple(float(s) for s in found.x[1:])


def fit_beta(samples: list[Sample]) -> Beta:
    """``(c, a, b)`` of the most likely beta calibration (the map used before): scikit-learn's logistic
    regression on ``ln x`` and ``-ln(1 - x)``, without a penalty, each placement counted once as a
    win and once as a loss, weighted by its share."""
    x = np.array([clipped(v) for v, _ in samples])
    y = np.array([won for _, won in samples])
    features = np.column_stack([np.log(x), -np.log(1 - x)])
    model = LogisticRegression(C=np.inf, max_iter=1000)
    model.fit(np.vstack([features, features]), np.r_[np.ones(len(y)), np.zeros(len(y))], sample_weight=np.r_[y, 1 - y])
    return float(model.intercept_[0]), float(model.coef_[0][0]), float(model.coef_[0][1])


def calibrate_beta(fitted: Beta, x: float) -> float:
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
    ap.add_argument(
        "--smooth", type=float, default=SMOOTH, help="the penalty on a change of slope (default %(default)s)"
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
        beta_said: list[Said] = []
        raw: list[Said] = []
        for part in range(k) if args.cross else [0]:
            train = [(r["played"], r["won"]) for r in rows if r["game"] % k != part]
            test = [(r["played"], r["won"], int(r["game"])) for r in rows if r["game"] % k == part]
            spline, beta = fit(train, args.smooth), fit_beta(train)
            games = (len({r["game"] for r in rows if r["game"] % k != part}),
                     len({r["game"] for r in rows if r["game"] % k == part}))  # fmt: skip
            print(f"\n{n} players: fitted on {len(train)} placements of {games[0]} games, "
                  f"held out {len(test)} of {games[1]} (game % {k} == {part}): {written(spline)}")  # fmt: skip
            calibrated += [(calibration.chance_by(spline, x), y, g) for x, y, g in test]
            beta_said += [(calibrate_beta(beta, x), y, g) for x, y, g in test]
            raw += [(min(1.0, max(0.0, x)), y, g) for x, y, g in test]
        fitted[n] = fit([(r["played"], r["won"]) for r in rows], args.smooth) if args.cross else spline
        always = brier([(1 / n, y, g) for _, y, g in raw])
        print(f"held-out Brier: raw {brier(raw):.4f}, the beta calibration {brier(beta_said):.4f}, "
              f"calibrated {brier(calibrated):.4f}, always 1/{n} {always:.4f}")  # fmt: skip
        for name, pairs in (("calibrated", calibrated), ("the beta calibration", beta_said), ("raw", raw)):
            print(f"\n{name}:\n")
            print("| chance said | mean said | share who won | placements | games | gap (points) | error | verdict |")
            print("|---|---|---|---|---|---|---|---|")
            for tenth, said, won, count, among, error in table(pairs):
                print(f"| {tenth / 10:.1f}–{(tenth + 1) / 10:.1f} | {said:.3f} | {won:.3f} | {count} | {among} "
                      f"| {100 * (won - said):+.1f} | {error:.1f} | {verdict(said, won, error)} |")  # fmt: skip
    print("\nFIT = {\n" + "".join(f"    {n}: {written(f)},\n" for n, f in fitted.items()) + "}")


def written(fitted: Fit) -> str:
    """``(c, (slopes...))`` as it is pasted into the module."""
    c, slopes = fitted
    return f"({c:.3f}, ({', '.join(f'{s:.3f}' for s in slopes)}))"


if __name__ == "__main__":
    main()
