"""The judgement's value as odds people can read: a calibration fitted to who won bot games.

The search's value (:mod:`dvtui.bots.value`) ranks players well but is under-confident: it stays
nearer 1/n than the outcomes do (players it gave 20–30% won about 1% of the time). So the chance
shown is the value mapped through a calibration fitted per table size to the values of placements
of bot games and whether their player won (``bench/bench_calibration.py`` plays and judges them,
``bench/fit_calibration.py`` fits and checks the fit on games it was not fitted to;
docs/ANALYSIS.md gives the numbers).

The map is a *monotone spline of the logit*: the logit of the chance is a broken line in the logit
of the value, with a bend at each of :data:`KNOTS`, and every piece of it rises. A smooth curve of
three numbers (the beta calibration used before) could not follow the 3-player outcomes, which
rise steeply between values of 0.3 and 0.5 and flatten past 0.6: it said 0.25 where 0.19 won. A
piece for each tenth of the value is enough freedom for that and, with a penalty on a change of
slope between neighbouring pieces, too little to bend to the noise of a few thousand placements.
Every piece rising at least :data:`LEAST_SLOPE` keeps two promises: the better of two placements
keeps the better chance, and a value's noise never reads as none in the chance (its error is the
map's slope times the value's).
"""

from __future__ import annotations

import hashlib
import math
from itertools import pairwise

KNOTS: tuple[float, ...] = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
"""Values where the map may bend (one piece below the first, one between each two, one above the
last)."""
LEAST_SLOPE = 0.1
"""The least slope of a piece, in logit of the chance per logit of the value (the fit's bound)."""
FIT: dict[int, tuple[float, tuple[float, ...]]] = {
    3: (-3.121, (1.393, 0.985, 1.288, 2.449, 2.211, 1.264, 1.009, 0.699, 0.978, 1.209)),
    4: (-3.196, (0.780, 1.119, 1.929, 1.768, 1.001, 0.942, 1.073, 1.077, 0.185, 0.820)),
    5: (-3.104, (1.277, 1.207, 1.678, 1.063, 1.046, 1.111, 0.909, 0.722, 0.333, 0.763)),
}
"""By table size: ``(c, slopes)``, the map's logit at the value of the first knot and the slope
of each of its pieces, lowest first (see the module docstring). Fitted on 2026-12-07 (see
:data:`FITTED`)."""
FITTED = ""
"""How :data:`FIT` was made and checked."""
EDGE = 0.005
"""Values are kept this far inside 0..1 before their logit (the value model's ends are certainties:
a decided game's value may even pass 1 by its margin term)."""

_KNOT_LOGITS = tuple(math.log(k / (1.0 - k)) for k in KNOTS)


def chance(value: float, players: int) -> float:
    """The chance to win that a judgement's ``value`` stands for, at a table of ``players`` (the
    value itself, kept inside 0..1, at a size no fit was made for)."""
    z, _ = _mapped(value, players)
    return _sigmoid(z)


def chance_error(value: float, error: float, players: int) -> float:
    """A standard error of ``value`` as one of its :func:`chance` (the map's slope there times it)."""
    z, slope = _mapped(value, players)
    p = _sigmoid(z)
    x = _inside(value)
    return error * p * (1.0 - p) * slope / (x * (1.0 - x))


def identity() -> str:
    """A short name of the map in use: what was worked out with one map is stale under another
    (a kept analysis stores chances, so a refit must not show the old ones)."""
    numbers = repr((KNOTS, LEAST_SLOPE, EDGE, sorted(FIT.items())))
    return hashlib.sha256(numbers.encode()).hexdigest()[:12]


def _mapped(value: float, players: int) -> tuple[float, float]:
    """The logit of the chance for ``value`` and its slope there (per logit of the value)."""
    x = _inside(value)
    z = math.log(x / (1.0 - x))
    fit = FIT.get(players)
    if fit is None:
        return z, 1.0
    c, slopes = fit
    lowest = _KNOT_LOGITS[0]
    if z <= lowest:
        return c + slopes[0] * (z - lowest), slopes[0]
    at, piece = c, 1
    for left, right in pairwise(_KNOT_LOGITS):
        if z <= right:
            return at + slopes[piece] * (z - left), slopes[piece]
        at += slopes[piece] * (right - left)
        piece += 1
    return at + slopes[piece] * (z - _KNOT_LOGITS[-1]), slopes[piece]


def _inside(value: float) -> float:
    return min(1.0 - EDGE, max(EDGE, value))


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))
