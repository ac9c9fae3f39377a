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

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

from ..ratings import MARKS
from ..tables.clubwire import SEEK_SIZES as SIZES

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

    def soonest_over(self, now: float) -> float | None:
        """Seconds until the first wait still running is over, when bots may fill its seeker's
        seats (None: no wait is running; a wait over already is matched by the next round or, its
        table not opened, the one after)."""
        return min((left for s in self.seekers.values() if (left := s.left(now)) > 0), default=None)

    def sizes(self) -> Counter[tuple[bool, int]]:
        """How many seek each kind of game, as each seeker is told (counted once for everyone)."""
        return Counter(s.pool() for s in self.seekers.values())

    def match(self, now: float, level: Callable[[list[Seeker]], str] | None = None) -> list[Match]:
        """The tables to seat now, their seekers taken out of the pool. The one who has waited
        longest is seated first: with the people nearest them in rating whom they and everyone
        already chosen accept (:func:`window`), as many as a size all of them asked for allows; or,
        once their wait is over, with whoever was chosen and bots (``level``: the bots' level for
        those people, :func:`bot_level` of their ratings by default) in the seats left.

        Each kind of game is matched apart, and a seeker's candidates are looked up by rating within
        their window (a bisection), so a round costs about what the people who could sit together
        cost, not the square of everyone waiting: it runs on the server's loop."""
        level = level or (lambda people: bot_level(p.rating for p in people))
        kinds: dict[tuple[bool, int], list[Seeker]] = {}
        for seeker in self.seekers.values():
            kinds.setdefault(seeker.pool(), []).append(seeker)
        matches: list[Match] = []
        for members in kinds.values():
            if len(members) < min(SIZES) and all(s.left(now) > 0 for s in members):
                continue  # too few for a table, and nobody's wait is over
            matches += self._match_kind(members, now, level)
        for match in matches:
            for seeker in match.people:
                del self.seekers[seeker.key]
        return sorted(matches, key=lambda m: m.people[0].since)

    @staticmethod
    def _match_kind(members: list[Seeker], now: float, level: Callable[[list[Seeker]], str]) -> list[Match]:
        """:meth:`match` among the seekers of one kind of game."""
        ranked = sorted(members, key=lambda s: s.rating)
        ratings = [s.rating for s in ranked]
        seated: set[int] = set()
        matches: list[Match] = []
        for first in sorted(members, key=lambda s: s.since):
            if id(first) in seated:
                continue
            reach = window(now - first.since)  # nobody further than this is ever accepted by ``first``
            lo, hi = bisect_left(ratings, first.rating - reach), bisect_right(ratings, first.rating + reach)
            near = [s for s in ranked[lo:hi] if s is not first and id(s) not in seated]
            group, sizes = Pool._group(first, near, now)
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
            seated.update(id(seeker) for seeker in people)
        return matches

    @staticmethod
    def _group(first: Seeker, near: list[Seeker], now: float) -> tuple[list[Seeker], frozenset[int]]:
        """``first`` and the seekers ``near`` them (free, of the same kind) nearest them in rating
        that fit with everyone chosen before (within each other's window, a size in common still to
        reach); the sizes all of them accept."""
        group, sizes = [first], first.sizes
        for other in sorted(near, key=lambda s: abs(s.rating - first.rating)):
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
