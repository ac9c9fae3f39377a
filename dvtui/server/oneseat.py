"""One free seat a person: whom a table lets take a seat kept for nobody.

A seat kept for nobody goes to whoever takes it first. Without a bound, one account with a few
connections (or one after the other) takes every such seat of a table it was not asked to, and a
table without a clock then waits at each of them for ever: the opener's remedy, releasing them,
is one seat at a time. So a person who holds a seat of the game already (played, away, resigned)
takes no second free seat kept for nobody. What the opener chose still goes: a seat named like
them, invited or handed to them (``release --to``) is theirs whatever else they hold, and the
opener may take every free seat of their own table (hot seat through one account, a table they
fill with friends who come later: it is theirs to stall or to close).
"""

from __future__ import annotations

from ..tables.wire import Owner
from .stores.base import TableRecord


def second_seat(record: TableRecord, identity: Owner) -> int | None:
    """The seat ``identity`` holds already at the table whose record is ``record``, if a free seat
    kept for nobody would be a second one for them (None: they may take it)."""
    if identity == record.opener:
        return None
    return next((seat for seat, owner in enumerate(record.owners) if owner == identity), None)


__all__ = ["second_seat"]
