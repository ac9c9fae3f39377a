"""The ladder: named levels from a beginner up, each a search of a fixed size and a temperature.

A weaker level is not a player who blunders on purpose: it searches less, then draws its move among
the placements the search tried most, with a chance that grows with the visit count raised to
``1 / temperature``. Placements the search barely tried (fewer than :data:`KEEP` of the best one's
visits) are never drawn, so even the beginner plays a move a search thought about. At temperature
0 the level plays the search's own choice, as ``strong`` does. The top is that search run longer:
``expert`` is ``strong`` itself, and ``master`` searches four times as many iterations and gives
half its judgement to the places below first (:data:`MASTER`), which the gauntlet of
``bench/bench_ladder.py`` measures above it (docs/PLAYING.md, "The ladder").

Each level is a pure function of (game, seed): its search has a fixed iteration budget and its draw
comes from :func:`~dvtui.bots.base.mix` of the seed and the move, never from the clock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Protocol

from ..engine import Game, Placement
from ..i18n import N_
from .base import mix, move_key
from .strong import STRONG, Evaluation, think
from .value import added

KEEP = 0.1
"""Share of the most visited placement's visits below which a placement is never drawn."""
_DRAW = 0x1ADD
"""The key that separates a level's draw from the search's own use of the seed."""


@dataclass(frozen=True, slots=True)
class Level:
    """One rung: its name (``bot:NAME``), a sentence for people, and how it plays."""

    name: str
    sentence: str
    """What people read of it, in English (marked for the catalogue; :func:`.strengths.about` translates it)."""
    iterations: int
    temperature: float
    evaluation: Evaluation = STRONG
    """How its search judges the round's end (``strong``'s unless the rung names another)."""


MASTER = Evaluation(rank_weight=0.5)
"""``master``'s judgement of the round's end: ``strong``'s, with half of it (not a quarter) the
share of opponents it expects to finish ahead of. A player among strong ones is measured by the
places it takes, and this is the change that moved that most at five players, where the edge of
search alone is smallest (docs/PLAYING.md, "The top"), and it won no less often there."""

LADDER: tuple[Level, ...] = (
    Level("novice", N_("Looks a little ahead and often takes a second-best card."), 200, 0.55),
    Level("casual", N_("Sees the obvious plays of the round; still loose with its choices."), 300, 0.4),
    Level("club", N_("Plans the round and rarely strays from a good placement."), 600, 0.25),
    Level("expert", N_("Plays as strong does: the best placement after a full look at the round."), 5000, 0.0),
    Level(
        "master",
        N_("Searches four times as long as strong and fights for every place, not only first."),
        20000,
        0.0,
        evaluation=MASTER,
    ),
)
"""The named levels, weakest first (their names are in :data:`dvtui.engine.BOT_LEVELS`)."""


def draw(visits: tuple[tuple[Placement, int], ...], temperature: float, key: int) -> Placement:
    """A placement from the search's ``visits`` (most first), drawn with weight ``n ** (1 / temperature)``
    among those with at least :data:`KEEP` of the best one's visits; the most visited at temperature 0.

    ``key`` is a 64-bit number (from :func:`mix`): the same key gives the same placement."""
    best = visits[0][1]
    kept = [(p, n) for p, n in visits if n >= KEEP * best and n > 0]
    if temperature <= 0 or len(kept) == 1:
        return kept[0][0]
    weights = [(n / best) ** (1.0 / temperature) for _, n in kept]
    point = key / 2**64 * added(weights)
    for (placement, _), weight in zip(kept, weights, strict=True):
        point -= weight
        if point < 0:
            return placement
    return kept[-1][0]


class StoppableMover(Protocol):
    """A level that searches: a move function whose ``stop``, once set, ends its search with
    :class:`~dvtui.bots.base.Stopped` (as it does ``strong``'s); unset, it changes nothing. ``seconds``
    ends its search at that time if its iterations have not ended it first."""

    def __call__(
        self, game: Game, seed: int, *, stop: threading.Event | None = None, seconds: float | None = None
    ) -> Placement: ...


def mover(level: Level) -> StoppableMover:
    """The level's move function: its search, then its draw (see the module docstring)."""

    def choose(
        game: Game, seed: int, *, stop: threading.Event | None = None, seconds: float | None = None
    ) -> Placement:
        visits = think(  # (``seconds``: a bound in time as well, which only a shared server sets)
            game, seed, iterations=level.iterations, seconds=seconds, stop=stop, evaluation=level.evaluation,
            settle=level.temperature <= 0,  # only the most visited placement is played: stop once it is settled
        ).visits  # fmt: skip
        return draw(visits, level.temperature, mix(seed, _DRAW, move_key(game)))

    choose.__name__ = choose.__qualname__ = f"choose_{level.name}"
    return choose


MOVERS: dict[str, StoppableMover] = {level.name: mover(level) for level in LADDER}
"""The ladder's move functions by level name (merged into :data:`dvtui.bots.LEVELS`)."""
