"""The seeking pool's matching, without I/O: who waits (:class:`Seeker`), the rating window that
widens as they wait (:func:`window`), and :meth:`Pool.match`, which seats people together, or,
once the first of them has waited as long as they said, with bots of their level.

Like lichess's pools, a seeker is matched by the pool's rule rather than by picking a game: the
same table size, the same kind of game (rated or casual, the same move time) and ratings close
enough, "close enough" growing with the wait, so a player far from everyone is seated a little
later rather than never, and a bot fills what nobody came for once the wait is over.
docs/SHARED_TABLES.md ("Play now") says the rule in words.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from ..ratings import MARKS
from ..tables.protocol import SEEK_SIZES as SIZES

WINDOW_START = 100
"""A seeker's rating window when they arrive: others within this many points of them."""
WINDOW_GROWTH = 10
"""What the window grows by per second waited: 100 points after 10 s, 600 after 50 s."""
MOST_SEEKERS = 10_000
"""People seeking at once on a server, over all its pools."""


def window(waited: float) -> int:
    """A seeker's rating window after ``waited`` seconds: :data:`WINDOW_START` points either side,
    and :data:`WINDOW_GROWTH` more for each second waited."""
    return WINDOW_START + int(WINDOW_GROWTH * max(0.0, waited))


@dataclass(eq=False)
class Seeker:
    """One person in the pool: who (``key``, one seek each), their rating, what they asked for
    (``sizes``, ``rated``, ``move_time``), how long they wait for people (``wait``), and since when."""

    key: Hashable
    rating: int
    sizes: frozenset[int]
    rated: bool
    move_time: int
    wait: float
    since: float
    ticket: object = None
    """What the server knows the seeker by (their connection): the pool never looks at it."""

    def pool(self) -> tuple[bool, int]:
        """Which pool the seeker is in: only seekers of the same one are ever seated together."""
        return self.rated, self.move_time

    def left(self, now: float) -> float:
        """Seconds before bots fill the free seats for this seeker."""
        return max(0.0, self.since + self.wait - now)


@dataclass(frozen=True)
class Match:
    """A table the pool seats: its people (the one who waited longest first) and bots' levels."""

    people: list[Seeker]
    bots: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.people) + len(self.bots)


def bot_level(ratings: Iterable[int], allowed: Callable[[str], bool] = lambda level: True) -> str:
    """The ladder's rung nearest the mean of ``ratings`` among the levels ``allowed`` (a server
    may bound how long its bots think); ``greedy``, which thinks nothing, when none is."""
    people = list(ratings)
    mean = sum(people) / len(people)
    rungs = [(level, at) for level, at in MARKS if allowed(level)]
    if not rungs:
        return "greedy"
    return min(rungs, key=lambda rung: (abs(mean - rung[1]), rung[1]))[0]


class Pool:
    """Every seeker of a server, in the order they came (see the module's docstring)."""

    def __init__(self) -> None:
        self.seekers: dict[Hashable, Seeker] = {}

    def __len__(self) -> int:
        return len(self.seekers)

    def add(self, seeker: Seeker) -> None:
        self.seekers[seeker.key] = seeker

    def remove(self, key: Hashable) -> Seeker | None:
        return self.seekers.pop(key, None)

    def size_of(self, pool: tuple[bool, int]) -> int:
        """How many seek in ``pool``, as each seeker is told."""
        return sum(1 for s in self.seekers.values() if s.pool() == pool)

    def match(self, now: float, level: Callable[[list[Seeker]], str] | None = None) -> list[Match]:
        """The tables to seat now, their seekers taken out of the pool. The one who has waited
        longest is seated first: with the people nearest them in rating whom they and everyone
        already chosen accept (:func:`window`), as many as a size all of them asked for allows; or,
        once their wait is over, with whoever was chosen and bots (``level``: the bots' level for
        those people, :func:`bot_level` of their ratings by default) in the seats left."""
        level = level or (lambda people: bot_level(p.rating for p in people))
        matches: list[Match] = []
        queue = sorted(self.seekers.values(), key=lambda s: s.since)
        seated: set[int] = set()
        for first in queue:
            if id(first) in seated:
                continue
            group, sizes = self._group(first, [s for s in queue if id(s) not in seated], now)
            fits = [n for n in sizes if n <= len(group)]
            if fits:
                people = group[: max(fits)]
                matches.append(Match(people))
            elif first.left(now) <= 0:
                people = group
                n = min(n for n in sizes if n >= len(group))
                matches.append(Match(people, [level(people)] * (n - len(people))))
            else:
                continue
            for seeker in people:
                seated.add(id(seeker))
                del self.seekers[seeker.key]
        return matches

    @staticmethod
    def _group(first: Seeker, free: list[Seeker], now: float) -> tuple[list[Seeker], frozenset[int]]:
        """``first`` and the free seekers nearest them in rating that fit with everyone chosen
        before (the same pool, within each other's window, a size in common still to reach); the
        sizes all of them accept."""
        group, sizes = [first], first.sizes
        near = sorted(
            (s for s in free if s is not first and s.pool() == first.pool()), key=lambda s: abs(s.rating - first.rating)
        )
        for other in near:
            reach = sizes & other.sizes
            if not any(n > len(group) for n in reach):
                continue
            if all(
                abs(other.rating - s.rating) <= min(window(now - other.since), window(now - s.since)) for s in group
            ):
                group.append(other)
                sizes = reach
                if len(group) == max(SIZES):
                    break
        return group, sizes


__all__ = [
    "MOST_SEEKERS",
    "SIZES",
    "WINDOW_GROWTH",
    "WINDOW_START",
    "Match",
    "Pool",
    "Seeker",
    "bot_level",
    "window",
]
