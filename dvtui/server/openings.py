"""How fast one account may open tables, and which closed games are worth keeping.

The quota of tables listed at once (:data:`~.registry.TABLES_PER_OPENER`) counts only the tables
listed, and closing one turns it into a kept game: an open-and-close loop went round the quota and
filled the disk with kept games. So opening is paced per opener (a burst, then a steady rate), and
a game closed before anybody made a decision in it is removed, not kept: it holds nothing worth
replaying.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable

from ..engine import CardPlaced, Event, GameCreated

OPENS_AT_ONCE = 20
"""Tables one account (or vouched person) may open in a row ..."""
OPENS_PER_HOUR = 60.0
"""... and then on average an hour (one a minute): a person opens a few a day."""


class Openings:
    """A token bucket per opener: :meth:`spend` says when the next table may be opened. A refusal
    costs nothing, so refusals do not push the next opening further away."""

    def __init__(
        self, at_once: float = OPENS_AT_ONCE, per_hour: float = OPENS_PER_HOUR,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:  # fmt: skip
        self.at_once = at_once
        self.rate = per_hour / 3600.0
        self._clock = clock
        self._buckets: dict[Hashable, tuple[float, float]] = {}

    def spend(self, opener: Hashable) -> float:
        """One opening by ``opener``: 0.0 when it may open now (counted), else the seconds it must
        wait (nothing counted)."""
        now = self._clock()
        tokens, at = self._buckets.get(opener, (self.at_once, now))
        tokens = min(self.at_once, tokens + (now - at) * self.rate)
        if tokens < 1.0:
            self._buckets[opener] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[opener] = (tokens - 1.0, now)
        if len(self._buckets) > 4096:  # a full bucket is a missing one: forget those
            for key, (t, a) in list(self._buckets.items()):
                if t + (now - a) * self.rate >= self.at_once:
                    del self._buckets[key]
        return 0.0


def worth_keeping(events: list[Event]) -> bool:
    """A game closed unfinished is kept only if a person made a decision in it: a placement of a
    human seat not made by a stand-in (bots' moves alone replay from the seed)."""
    created = next((e for e in events if isinstance(e, GameCreated)), None)
    if created is None:
        return False
    people = {i for i, seat in enumerate(created.players) if seat.kind == "human"}
    return any(isinstance(e, CardPlaced) and e.player in people and e.stand_in is None for e in events)


__all__ = ["OPENS_AT_ONCE", "OPENS_PER_HOUR", "Openings", "worth_keeping"]
