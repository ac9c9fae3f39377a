"""Fit the analysis's calibration (:mod:`dvtui.bots.calibration`) and check it on held-out games.

Reads the JSON lines of ``bench/bench_calibration.py``. Per table size, the games whose number is
not a multiple of ``--hold-out`` are fitted: ``sigmoid(a + b * logit(value))`` to the mover's share
of the victory, by maximum likelihood (Newton's method on the two numbers); the others are held out.
On the held-out games it prints, per tenth of the calibrated chance, the placements, the mean chance
said and the share who won, and the same for the raw value, with the Brier scores; then the
``FIT`` table to paste into ``dvtui/bots/calibration.py``. Asserts nothing.

    python bench/fit_calibration.py calibration.jsonl
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


def table(pairs: list[Sample]) -> list[tuple[int, float, float, int]]:
    """Per tenth of the chance said: (tenth, mean said, share won, count)."""
    rows = []
    for tenth in range(10):
        inside = [(p, y) for p, y in pairs if min(9, int(p * 10)) == tenth]
        if inside:
            said = sum(p for p, _ in inside) / len(inside)
            won = sum(y for _, y in inside) / len(inside)
            rows.append((tenth, said, won, len(inside)))
    return rows


def brier(pairs: list[Sample]) -> float:
    return sum((p - y) ** 2 for p, y in pairs) / max(1, len(pairs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("samples", type=Path)
    ap.add_argument("--hold-out", type=int, default=3, help="games numbered a multiple of this are held out")
    args = ap.parse_args()
    by_size: dict[int, list[dict[str, float]]] = {}
    for line in args.samples.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        by_size.setdefault(row["players"], []).append(row)
    fitted = {}
    for n, rows in sorted(by_size.items()):
        train = [(r["played"], r["won"]) for r in rows if r["game"] % args.hold_out]
        test = [(r["played"], r["won"]) for r in rows if not r["game"] % args.hold_out]
        games = (len({r["game"] for r in rows if r["game"] % args.hold_out}),
                 len({r["game"] for r in rows if not r["game"] % args.hold_out}))  # fmt: skip
        a, b = fitted[n] = fit(train)
        calibrated = [(sigmoid(a + b * logit(x)), y) for x, y in test]
        raw = [(min(1.0, max(0.0, x)), y) for x, y in test]
        print(f"\n{n} players: fitted on {len(train)} placements of {games[0]} games, "
              f"held out {len(test)} of {games[1]}: a={a:.3f} b={b:.3f}")  # fmt: skip
        print(f"held-out Brier: raw {brier(raw):.4f}, calibrated {brier(calibrated):.4f}, "
              f"always 1/{n} {brier([(1 / n, y) for _, y in test]):.4f}")  # fmt: skip
        print("| chance said | calibrated: mean said | share who won | placements | raw: mean said | share who won "
              "| placements |")  # fmt: skip
        print("|---|---|---|---|---|---|---|")
        cal_rows = {t: row for t, *row in table(calibrated)}
        raw_rows = {t: row for t, *row in table(raw)}
        for tenth in range(10):
            cells = [f"{tenth / 10:.1f}–{(tenth + 1) / 10:.1f}"]
            for found in (cal_rows.get(tenth), raw_rows.get(tenth)):
                cells += [f"{found[0]:.3f}", f"{found[1]:.3f}", str(found[2])] if found else ["", "", "0"]
            print("| " + " | ".join(cells) + " |")
    print("\nFIT = {" + ", ".join(f"{n}: ({a:.3f}, {b:.3f})" for n, (a, b) in fitted.items()) + "}")


if __name__ == "__main__":
    main()
