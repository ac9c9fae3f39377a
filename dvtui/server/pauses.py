"""Short pauses for the garbage collector of a server holding many tables (:class:`FrozenAfterFull`).

A server with a thousand tables and four thousand connections holds about a million objects the
cyclic garbage collector tracks, nearly all of them living as long as their tables; a full
collection looks at each of them, and stops every table for 90 to 320 ms (measured at 1,000 moves a
second): a move's p99 was that pause. So after each full collection what survived it is frozen
(:func:`gc.freeze`: never looked at again by a collection), and a full collection looks only at what
came since. What the frozen hold in cycles when they die (a closed table refers to itself through
its callbacks) is freed only when they are looked at again: so once the frozen have grown to twice
what the last collection of everything kept, they are thawed, and the next full collection looks at
everything once more (one long pause where there would have been one per full collection).
"""

from __future__ import annotations

import gc
from typing import Any

FLOOR = 200_000
"""Frozen objects below which nothing is thawed (a small server's whole heap: cheap to look at)."""
YOUNG = 7_000
"""Objects made (less those freed) between two collections of the youngest generation (Python's
default: 700). A move makes a few dozen that live until its lines are sent: collected every 700,
many were alive and carried into the older generations, collected more often and at more cost
(measured at 2,000 moves a second on 1,000 tables: collections took 74 ms a second at 700, a full
one 38 ms; 15 ms a second at 7,000, a young one 11 ms)."""


class FrozenAfterFull:
    """The collector's callback (see the module's docstring): :meth:`install` it in a server's process."""

    def __init__(self, growth: float = 2.0, floor: int = FLOOR, young: int = YOUNG) -> None:
        self.growth = growth
        self.floor = floor
        self.young = young
        self.thresholds = gc.get_threshold()
        """The collector's thresholds before :meth:`install` (put back by :meth:`uninstall`)."""
        self.kept = 0
        """The objects the last collection of everything kept (and froze)."""
        self.thawed = 0
        """How many times the frozen were thawed for a collection of everything."""
        self.frozen = 0
        """At least as many objects as are frozen: counted as they are frozen (what the generations
        hold then), the frozen that died since not taken off. :func:`gc.get_freeze_count` walks every
        frozen object (a million for a thousand tables: 9 ms, twice in each full collection when it
        was asked each time), so it is asked only when this count passes the mark that thaws them."""

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info["generation"] != 2:
            return
        if self.frozen == 0:  # this one looked at everything
            gc.freeze()
            self.kept = self.frozen = gc.get_freeze_count()
            return
        self.frozen += sum(len(gc.get_objects(generation)) for generation in range(3))  # what freeze() moves
        gc.freeze()
        mark = max(self.floor, self.growth * self.kept)
        if self.frozen > mark:
            self.frozen = gc.get_freeze_count()  # (the count without the dead)
            if self.frozen > mark:
                gc.unfreeze()  # the next full collection looks at everything, freeing the cycles among the frozen
                self.frozen = 0
                self.thawed += 1

    def install(self) -> None:
        self.frozen = gc.get_freeze_count()  # (once: frozen before, by whoever)
        gc.callbacks.append(self)
        self.thresholds = gc.get_threshold()
        gc.set_threshold(self.young, *self.thresholds[1:])

    def uninstall(self) -> None:
        """Taken out, and whatever it froze thawed (for a test)."""
        if self in gc.callbacks:
            gc.callbacks.remove(self)
            gc.set_threshold(*self.thresholds)
        gc.unfreeze()


__all__ = ["FrozenAfterFull"]
