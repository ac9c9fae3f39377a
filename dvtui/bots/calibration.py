"""The judgement's value as odds people can read: a calibration fitted to who won bot games.

The search's value (:mod:`dvtui.bots.value`) ranks players well but is under-confident: it stays
nearer 1/n than the outcomes do (players it gave 20–30% won about 1% of the time). So the chance
shown is a *beta calibration* of the value, ``sigmoid(c + a * ln(value) - b * ln(1 - value))``, with
``(c, a, b)`` fitted per table size, by maximum likelihood (scikit-learn's logistic regression), to
the values of placements of bot games and whether their player won (``bench/bench_calibration.py``
plays and judges them, ``bench/fit_calibration.py`` fits and checks the fit on games it was not
fitted to; docs/ANALYSIS.md gives the numbers). Three numbers a size: the logistic map of the
logit (``a == b``) could not bend both ends at once (at 5 players it said 0.97 where 0.89 won),
the two logs can, and with ``a`` and ``b`` positive the map only ever rises, so the better of two
placements keeps the better chance; few enough numbers not to bend to the noise of a few thousand
placements.
"""

from __future__ import annotations

import math

FIT: dict[int, tuple[float, float, float]] = {
    3: (1.400, 2.487, 0.700),
    4: (0.798, 1.822, 0.544),
    5: (0.411, 1.560, 0.515),
}
"""By table size: ``(c, a, b)`` of the fit (see the module docstring). Fitted on 2026-12-07 to the
placements of 1,180 games at each of 3, 4 and 5 players: 518 games of 6 placements drawn uniformly
and 662 games of one placement aimed at each tenth from 0.2 up (judged at the default budget;
seats rotating through greedy, novice, casual, club and strong@1000)::

    python bench/bench_calibration.py --players 3 4 5 --games 518 --sample 6 \
        --levels greedy,novice,casual,club,strong@1000 --out calibration.jsonl
    python bench/bench_calibration.py --players 3 4 5 --games 662 --seed 1001 --aim \
        --levels greedy,novice,casual,club,strong@1000 --out calibration.jsonl
    python bench/fit_calibration.py calibration.jsonl --cross

Checked on held-out deals (each half of the games by the fit on the other half): within 5 points
of the share who won in 28 of the 30 tenths (3 sizes x 10); one too thin to tell (5 players,
0.8-0.9: -6.4 +- 2.6), and one 1.1 points past the bound (3 players, 0.2-0.3: -6.1 +- 1.6);
docs/ANALYSIS.md has the table."""
EDGE = 0.005
"""Values are kept this far inside 0..1 before their logs (the value model's ends are certainties:
a decided game's value may even pass 1 by its margin term)."""


def chance(value: float, players: int) -> float:
    """The chance to win that a judgement's ``value`` stands for, at a table of ``players``."""
    c, a, b = FIT.get(players, (0.0, 1.0, 1.0))
    x = min(1.0 - EDGE, max(EDGE, value))
    return _sigmoid(c + a * math.log(x) - b * math.log(1.0 - x))


def chance_error(value: float, error: float, players: int) -> float:
    """A standard error of ``value`` as one of its :func:`chance` (the map's slope there times it)."""
    c, a, b = FIT.get(players, (0.0, 1.0, 1.0))
    x = min(1.0 - EDGE, max(EDGE, value))
    p = _sigmoid(c + a * math.log(x) - b * math.log(1.0 - x))
    return error * p * (1.0 - p) * (a / x + b / (1.0 - x))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
