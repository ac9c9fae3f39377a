"""A server's garbage collections stay short: what a full collection kept is frozen (never looked
at again), and thawed once the frozen have grown past a mark, so that the cycles among them are freed.

The scenarios that collect everything run in a fresh interpreter (tests/support/collector.py): in
this process each full collection would walk every object the tests before left (millions), and
the mark that thaws would be millions of objects further."""

from __future__ import annotations

import gc

from dvtui.server.pauses import FrozenAfterFull

from ..support import collector
from ..support.processes import in_a_fresh_interpreter


def test_what_a_full_collection_kept_is_not_looked_at_again_until_the_frozen_have_grown() -> None:
    """A cycle among the frozen that dies stays until the frozen have grown past the mark; then they
    are thawed, the next full collection frees it and freezes what lives again."""
    in_a_fresh_interpreter(collector.frozen_until_grown)


def test_a_full_collection_below_the_thawing_mark_does_not_walk_the_frozen() -> None:
    """Asking the collector how many are frozen walks every frozen object (a million for a thousand
    tables): the callback counts them as it freezes them, and asks only once its count passes the
    mark that thaws them (what died since is not in its count); a hundred objects short of it, it
    neither asks nor thaws."""
    in_a_fresh_interpreter(collector.not_walked_below_the_mark)


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
