"""How often a server on a shared database asks whether it still holds the tables it plays.

A server holds each table it plays by an advisory lock on a session of its own. That session can
end while the server lives (an administrator's ``pg_terminate_backend``, a pooler, an
``idle_session_timeout``): every write asks first, so nothing is ever written unheld, but a table
nobody moves at would look held for as long as nobody moved. So the server also asks, for all its
tables in one question, every :attr:`~.limits.Limits.hold_check` seconds (2 s; ``--limit
hold-check=SECONDS``): a hold lost is let go at once, the table's people are told, and the table
is held again (with what another server wrote meanwhile) before anything more is written there.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from .live import Backing, LiveTable


async def watch_holds(
    table: Callable[[str], LiveTable | None], backing: Backing, wake: Callable[[LiveTable], None],
    limited: Callable[[str, str], None], every: float,
) -> None:  # fmt: skip
    """Every ``every`` seconds (one query on the holder's connection, and only while it holds a
    table), the tables whose hold the peers say this server lost are let go and held again
    (:meth:`~.live.LiveTable.hold_again`), their bot woken once they are.
    ``table``: a table by name (None: not played here); ``limited``: the log, a line per kind at most
    so often (the database away for good: each decision says so too)."""
    while True:
        await asyncio.sleep(every)
        try:
            lost = await backing.run_io(backing.peers.lost_holds)
        except OSError as e:
            limited("holds", f"could not ask the database which tables this server holds: {e}")
            continue
        for name in sorted(lost):
            found = table(name)
            if found is not None and found.playing and await found.hold_again():
                wake(found)


__all__ = ["watch_holds"]
