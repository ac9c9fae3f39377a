"""The judgement's value as odds people can read: a calibration fitted to who won bot games.

The search's value (:mod:`dvtui.bots.value`) ranks players well but is under-confident: it stays
nearer 1/n than the outcomes do (players it gave 20–30% won about 1% of the time). So the chance
shown is ``sigmoid(a + b * logit(value))`` with ``(a, b)`` fitted per table size, by maximum
likelihood, to the values of placements of bot games and whether their player won
(``bench/bench_calibration.py`` plays and judges them, ``bench/fit_calibration.py`` fits and checks
the fit on games it was not fitted to; docs/ANALYSIS.md gives the numbers). Two numbers a size: a
fit that cannot bend to the noise of a few hundred placements, and a map that only ever rises, so
the better of two placements keeps the better chance.
"""

from __future__ import annotations

import math

FIT: dict[int, tuple[float, float]] = {3: (-0.020, 1.576), 4: (-0.270, 1.204), 5: (-0.444, 1.088)}
"""By table size: ``(a, b)`` of the fit (see the module docstring). Fitted on 2026-12-07 to 3,108
placements of 518 games at each of 3, 4 and 5 players (6 a game, judged at the default budget;
seats rotating through greedy, novice, casual, club and strong@1000)::

    python bench/bench_calibration.py --players 3 4 5 --games 518 --sample 6 \
        --levels greedy,novice,casual,club,strong@1000 --out calibration.jsonl
    python bench/fit_calibration.py calibration.jsonl --cross

Checked on held-out deals: each half of the games (odd, even) by the fit on the other half, the
chance said within 5 points of the share who won in every tenth that holds enough games to tell
(below 0.3 at each size, and 0.9–1.0 at 3 players), the others too thin to measure; held-out Brier
0.138 -> 0.132 at 3 players, 0.135 -> 0.131 at 4, 0.121 -> 0.116 at 5 (docs/ANALYSIS.md)."""
EDGE = 0.005
"""Values are kept this far inside 0..1 before their logit (the value model's ends are certainties:
a decided game's value may even pass 1 by its margin term)."""


def chance(value: float, players: int) -> float:
    """The chance to win that a judgement's ``value`` stands for, at a table of ``players``."""
    a, b = FIT.get(players, (0.0, 1.0))
    x = min(1.0 - EDGE, max(EDGE, value))
    return _sigmoid(a + b * math.log(x / (1.0 - x)))


def chance_error(value: float, error: float, players: int) -> float:
    """A standard error of ``value`` as one of its :func:`chance` (the map's slope there times it)."""
    a, b = FIT.get(players, (0.0, 1.0))
    x = min(1.0 - EDGE, max(EDGE, value))
    p = _sigmoid(a + b * math.log(x / (1.0 - x)))
    return error * b * p * (1.0 - p) / (x * (1.0 - x))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
