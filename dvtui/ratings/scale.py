"""The one scale: a person's rating and the bot ladder's measured strengths, in the same points.

The model is openskill's Plackett–Luce (Weng and Lin's Bayesian approximation): each account is a
belief about its strength, a mean ``mu`` and an uncertainty ``sigma``, moved by each rated game's
finishing order. Its unit is the ladder's: one point is one Elo of the duplicate gauntlet that
measured the bots (``bench/bench_ladder.py``, :data:`dvtui.bots.RATINGS`, Elo against ``strong``),
and ``strong`` stands at :data:`STRONG_AT`, so a level's rating is ``STRONG_AT + its Elo``
(docs/RATINGS.md says why each number is what it is).

The one number people read is :attr:`Rating.shown`, ``mu - Z * sigma`` rounded: a strength the
player is at least, nearly surely, which only playing (and finishing well) raises.
"""

from __future__ import annotations

import math

import msgspec
from openskill.models import PlackettLuce

from ..bots import LADDER, RATINGS, SAME_PLAYER

ELO = 400 / math.log(10)
"""Elo points per unit of log-strength: the logistic scale the ladder's gauntlet reports in."""
STRONG_AT = 1500
"""The shown rating of ``strong`` (the gauntlet's anchor, Elo 0): the scale's fixed point, so a
re-measured ladder moves the other levels, never the meaning of a number."""
BETA = ELO / 2
"""The spread of one game's performance. In Plackett–Luce, two players' odds of finishing one ahead
of the other are ``exp(Δmu / c)``, ``c = sqrt(Σ (sigma² + BETA²))`` over the table: for four
well-known players ``c = 2 * BETA = ELO``, so a gap of one point is one Elo, as the ladder's. At three
players the model reads a gap as a little more (c is smaller), at five a little less, as the ladder's
rungs read by table size (the luck of a larger table hides more of a gap)."""
SIGMA0 = 2 * BETA
"""A newcomer's uncertainty (openskill's own proportion, ``sigma = 2 * beta``): three of it either
side of :data:`MU0` covers the whole ladder, from ``novice`` to ``master`` and beyond."""
TAU = BETA / 50
"""What a rating's uncertainty grows by before each game (openskill's proportion), so that a player
who improves is followed: it slows the fall of ``sigma`` (a game never raises it: :data:`MODEL`)."""
Z = 2
"""How many ``sigma`` the shown rating stands below ``mu``: about 98% sure the player is at least that
strong. Three (TrueSkill's custom) would put a player who has settled (sigma 40 to 50 after a hundred
games) a whole rung (about 130) below the bots they play even with."""
PROVISIONAL = BETA
"""A rating is provisional while its ``sigma`` is above this: until the player is known better than
the spread of one game's luck (20 to 30 games at first, as sigma halves from :data:`SIGMA0`)."""
BOT_SIGMA = 25.0
"""The uncertainty a bot's strength is seated with: about the ladder's 95% intervals (±30 to ±50 Elo
on one set of deals, ±21 to ±43 pooled over two) over two. A bot never moves; this only tells a
person's update how much one game with it says."""


def level_rating(level: str) -> float | None:
    """A bot level's strength on the shown scale, or None when the ladder has not measured it (``random``,
    a level with a budget such as ``strong@5000``): a game with such a bot rates nobody."""
    elo = RATINGS.get(level)
    return None if elo is None else float(STRONG_AT + elo)


MU0 = level_rating("club") or float(STRONG_AT)
"""A newcomer's mean: the ladder's middle rung, ``club``, the level it was named for."""

MARKS: tuple[tuple[str, int], ...] = tuple(
    sorted(
        {
            ("strong" if level.name in SAME_PLAYER else level.name): STRONG_AT + RATINGS[level.name] for level in LADDER
        }.items(),
        key=lambda mark: mark[1],
    )
)
"""The ladder's rungs a rating reads against, weakest first (``expert`` as ``strong``, the same player)."""


class Rating(msgspec.Struct, frozen=True, gc=False):
    """A belief about one player's strength on the shown scale: its mean and its uncertainty."""

    mu: float
    sigma: float

    @property
    def shown(self) -> int:
        """The one number people read: ``mu - Z * sigma``, rounded."""
        return round(self.mu - Z * self.sigma)

    @property
    def provisional(self) -> bool:
        """Too uncertain yet to be read as more than a first guess (sigma above :data:`PROVISIONAL`)."""
        return self.sigma > PROVISIONAL


NEWCOMER = Rating(MU0, SIGMA0)
"""The rating of an account before its first rated game."""


def plays_like(shown: int) -> tuple[str, int]:
    """The ladder's rung nearest ``shown`` and the difference (``("club", 40)``: plays like club +40).
    Equally near two rungs, the lower one is named."""
    level, at = min(MARKS, key=lambda mark: (abs(shown - mark[1]), mark[1]))
    return level, shown - at


MODEL = PlackettLuce(mu=MU0, sigma=SIGMA0, beta=BETA, tau=TAU, limit_sigma=True)
"""The model every rated game goes through (one instance: its parameters are the scale's). With
``limit_sigma`` a game never leaves a rating less sure than it found it: :data:`TAU` only slows the
fall of ``sigma``. Otherwise a game that tells little (a strong player finishing first among far
weaker ones) would add more uncertainty than it takes away, and the winner's shown rating would fall."""
