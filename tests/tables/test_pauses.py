"""A server's garbage collections stay short: what a full collection kept is frozen (never looked
at again), and thawed once the frozen have grown past a mark, so that the cycles among them are freed."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from dvtui.server.pauses import FrozenAfterFull


class Node:
    """An object in a cycle (a table's callbacks refer to the table)."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def pauses() -> Iterator[FrozenAfterFull]:
    """The hook, thawing once the frozen grew by a twentieth (the test process may hold millions of
    objects: doubling them would take seconds), with no collection but the test's own: one started
    by the test's allocations would freeze or thaw between the steps it checks."""
    hook = FrozenAfterFull(growth=1.05, floor=0)
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


def past_the_mark(hook: FrozenAfterFull, frozen: int) -> list[Node]:
    """Enough new objects for the ``frozen`` to pass the mark that thaws them."""
    return [Node() for _ in range(int(hook.growth * hook.kept) - frozen + 1)]


def test_what_a_full_collection_kept_is_not_looked_at_again_until_the_frozen_have_grown(
    pauses: FrozenAfterFull,
) -> None:
    kept = [Node() for _ in range(1000)]
    gc.collect()
    frozen = gc.get_freeze_count()
    assert frozen >= 1000 and pauses.kept >= 1000  # the next full collection looks only at what came since
    gone = Node()
    watch = weakref.ref(gone)
    gc.collect()  # (it is frozen now)
    del gone
    gc.collect()
    assert watch() is not None  # a cycle among the frozen: not looked at
    grown = past_the_mark(pauses, gc.get_freeze_count())
    gc.collect()  # the frozen have grown past the mark: thawed
    assert pauses.thawed == 1
    gc.collect()  # everything looked at: the cycle freed, what lives frozen again
    assert watch() is None and gc.get_freeze_count() >= len(kept) + len(grown)


def test_a_full_collection_below_the_thawing_mark_does_not_walk_the_frozen(
    pauses: FrozenAfterFull, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asking the collector how many are frozen walks every frozen object (a million for a thousand
    tables): the callback counts them as it freezes them, and asks only once its count passes the
    mark that thaws them (what died since is not in its count)."""
    kept = [Node() for _ in range(1000)]
    gc.collect()  # everything looked at: the kept frozen
    walked: list[int] = []
    real = gc.get_freeze_count
    monkeypatch.setattr(gc, "get_freeze_count", lambda: walked.append(1) or real())
    for _ in range(3):
        kept += [Node() for _ in range(100)]
        gc.collect()
    assert walked == [] and pauses.thawed == 0 and pauses.frozen >= real()
    kept += past_the_mark(pauses, real())
    gc.collect()  # past the mark: asked, and thawed
    assert walked == [1] and pauses.thawed == 1


def test_the_youngest_generation_is_collected_every_7000_objects_while_installed() -> None:
    """A move's few dozen objects die before a collection rather than being carried into the older
    generations, collected more often and at more cost; the collector is as it was once taken out."""
    before = gc.get_threshold()
    hook = FrozenAfterFull(floor=0)
    hook.install()
    try:
        assert gc.get_threshold() == (7000, *before[1:])
    finally:
        hook.uninstall()
    assert gc.get_threshold() == before
