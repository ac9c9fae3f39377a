"""Scenarios of a server's garbage collector (:class:`~dvtui.server.pauses.FrozenAfterFull`), each run
by a test in a fresh interpreter (:func:`~tests.support.processes.in_a_fresh_interpreter`).

Each does several full collections, and one of them makes as many objects as the heap holds: in a
test process that ran other tests first (three to six million objects) that was seconds of CPU a
scenario, in a fresh interpreter (a few thousand) milliseconds, the same for every run whatever
ran before. Imports nothing of pytest: the interpreter that runs one starts light.
"""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from dvtui.server.pauses import FrozenAfterFull

SHORT = 100
"""How far short of the mark that thaws the step that must not thaw stays: far more than the few
objects the step makes besides its nodes (a list grown), so a right hook stays below; a hook whose
mark is a hundred objects too low or more thaws there."""


class Node:
    """An object in a cycle (a table's callbacks refer to the table)."""

    def __init__(self) -> None:
        self.me = self


@contextmanager
def installed() -> Iterator[FrozenAfterFull]:
    """The hook as a server installs it, after a collection of everything, and no collection but the
    scenario's own: one started by its allocations would freeze or thaw between the steps it checks.
    Floor 0 (a fresh interpreter's heap is under the server's floor) and thawing at half as many
    again, not the default: a hook that did not heed its ``growth`` would thaw too late or too soon."""
    hook = FrozenAfterFull(growth=1.5, floor=0)
    gc.collect()
    hook.install()
    automatic = gc.isenabled()
    gc.disable()
    try:
        yield hook
    finally:
        if automatic:
            gc.enable()
        hook.uninstall()


def past_the_mark(hook: FrozenAfterFull, frozen: int, by: int = 1) -> list[Node]:
    """Enough new objects for the ``frozen`` to pass the mark that thaws them by ``by`` (negative:
    short of it)."""
    return [Node() for _ in range(int(hook.growth * hook.kept) - frozen + by)]


def frozen_until_grown() -> None:
    """What a full collection kept is not looked at again (a cycle among it that dies stays), until
    the frozen have grown past the mark: then thawed, and the next full collection frees the cycle
    and freezes what lives."""
    with installed() as pauses:
        kept = [Node() for _ in range(1000)]
        gc.collect()
        frozen = gc.get_freeze_count()
        # the next full collection looks only at what came since:
        assert frozen >= 1000 and pauses.kept >= 1000, (frozen, pauses.kept)
        gone = Node()
        watch = weakref.ref(gone)
        gc.collect()  # (it is frozen now)
        del gone
        gc.collect()
        assert watch() is not None, "a cycle among the frozen was looked at"
        grown = past_the_mark(pauses, gc.get_freeze_count())
        gc.collect()  # the frozen have grown past the mark: thawed
        assert pauses.thawed == 1, pauses.thawed
        gc.collect()  # everything looked at: the cycle freed, what lives frozen again
        assert watch() is None, "the cycle among the thawed was not freed"
        assert gc.get_freeze_count() >= len(kept) + len(grown), (gc.get_freeze_count(), len(kept) + len(grown))


def not_walked_below_the_mark() -> None:
    """The callback counts the frozen as it freezes them and asks :func:`gc.get_freeze_count` (which
    walks every frozen object) only once its count passes the mark that thaws them."""
    with installed() as pauses:
        kept = [Node() for _ in range(1000)]
        gc.collect()  # everything looked at: the kept frozen
        walked: list[int] = []
        real: Callable[[], int] = gc.get_freeze_count

        def counted() -> int:
            walked.append(1)
            return real()

        gc.get_freeze_count = counted
        try:
            for _ in range(3):
                kept += [Node() for _ in range(100)]
                gc.collect()
            assert walked == [] and pauses.thawed == 0, (walked, pauses.thawed)
            assert pauses.frozen >= real(), (pauses.frozen, real())
            kept += past_the_mark(pauses, real(), by=-SHORT)
            gc.collect()  # just short of the mark: neither asked nor thawed
            assert walked == [] and pauses.thawed == 0, (walked, pauses.thawed)
            kept += past_the_mark(pauses, real())
            gc.collect()  # past the mark: asked, and thawed
            assert walked == [1] and pauses.thawed == 1, (walked, pauses.thawed)
        finally:
            gc.get_freeze_count = real


__all__ = ["frozen_until_grown", "not_walked_below_the_mark"]
