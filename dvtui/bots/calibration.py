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
Fit = tuple[float, tuple[float, ...]]
"""``(c, slopes)``: see :data:`FIT`."""
FIT: dict[int, Fit] = {
    3: (-3.294, (1.282, 1.162, 1.479, 2.266, 2.138, 1.373, 0.989, 0.787, 0.956, 1.131)),
    4: (-3.215, (0.953, 1.251, 1.772, 1.682, 1.111, 0.972, 1.027, 0.924, 0.441, 0.750)),
    5: (-3.126, (1.309, 1.323, 1.492, 1.114, 1.103, 1.101, 0.897, 0.724, 0.342, 0.777)),
}
"""By table size: ``(c, slopes)``, the map's logit at the first knot's value and the slope of each
of its pieces, lowest first (see the module docstring). Fitted on 2026-12-07 to the placements of
1,180 games at 3 and at 4 players and 1,670 at 5 (518 games of 6 placements drawn uniformly, 662 of
one placement aimed at each tenth from 0.2 up, and at 5 players 490 more aimed at the tenths the map
left thin; judged at the default budget; seats rotating through greedy, novice, casual, club and
strong@1000)::

    python bench/bench_calibration.py --players 3 4 5 --games 518 --sample 6 \
        --levels greedy,novice,casual,club,strong@1000 --out calibration.jsonl
    python bench/bench_calibration.py --players 3 4 5 --games 662 --seed 1001 --aim \
        --levels greedy,novice,casual,club,strong@1000 --out calibration.jsonl
    python bench/fit_calibration.py calibration.jsonl --cross

(docs/ANALYSIS.md gives the 5-player runs.) Checked on held-out deals (each half of the games by the
fit on the other half): within 5 points of the share who won in all 30 tenths (3 sizes x 10), each
measured to a standard error of at most 2.4 points; docs/ANALYSIS.md has the table."""
EDGE = 0.005
"""Values are kept this far inside 0..1 before their logit (the value model's ends are certainties:
a decided game's value may even pass 1 by its margin term)."""

_KNOT_LOGITS = tuple(math.log(k / (1.0 - k)) for k in KNOTS)


def chance(value: float, players: int) -> float:
    """The chance to win that a judgement's ``value`` stands for, at a table of ``players`` (the
    value itself, kept inside 0..1, at a size no fit was made for)."""
    return chance_by(FIT.get(players), value)


def chance_by(fit: Fit | None, value: float) -> float:
    """The chance ``fit`` says for ``value`` (the bench checks fits of its own through this)."""
    z, _ = _mapped(value, fit)
    return _sigmoid(z)


def chance_error(value: float, error: float, players: int) -> float:
    """A standard error of ``value`` as one of its :func:`chance` (the map's slope there times it)."""
    z, slope = _mapped(value, FIT.get(players))
    p = _sigmoid(z)
    x = _inside(value)
    return error * p * (1.0 - p) * slope / (x * (1.0 - x))


def identity() -> str:
    """A short name of the map in use: what was worked out with one map is stale under another
    (a kept analysis stores chances, so a refit must not show the old ones)."""
    numbers = repr((KNOTS, LEAST_SLOPE, EDGE, sorted(FIT.items())))
    return hashlib.sha256(numbers.encode()).hexdigest()[:12]


def _mapped(value: float, fit: Fit | None) -> tuple[float, float]:
    """The logit of the chance ``fit`` says for ``value`` and its slope there (per logit of the
    value); without a fit, the value's own."""
    x = _inside(value)
    z = math.log(x / (1.0 - x))
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
