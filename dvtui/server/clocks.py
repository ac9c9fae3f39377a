"""The server's background work, each started and stopped as an async context manager (aiohttp's
``cleanup_ctx`` shape): :func:`background` runs one loop for as long as the server listens. Here
too the loop of the move clocks: each tick a turn (or waiting room) whose time ran out is played by
a stand-in (or started), and the server's alive stamp (:class:`AliveStamp`) is touched, so that a
restarted server knows how long none ran."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from pathlib import Path
from typing import Any

from ..i18n import N_
from ..tables.clock import TICK, loop_gap
from .live import LiveTable, seat_said
from .operator import said
from .tableclock import TableClock


@contextlib.asynccontextmanager
async def background(work: Coroutine[Any, Any, None] | None) -> AsyncIterator[None]:
    """``work`` run in a task of its own until the block ends, then cancelled (None: nothing)."""
    task = None if work is None else asyncio.create_task(work)
    try:
        yield
    finally:
        if task is not None:
            task.cancel()


class AliveStamp:
    """A file in the server's directory whose time is when the server last ran (touched each tick)."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / "alive"

    def last(self) -> float | None:
        """When the server that ran here last was last running (its stamp's time; None: none)."""
        try:
            return self.path.stat().st_mtime
        except OSError:
            return None

    def touch(self) -> None:
        path = self.path
        try:
            os.utime(path)
        except FileNotFoundError:
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600))
        except OSError:
            pass


SOONEST = 0.01
"""The shortest pause of the clock loop (seconds): a deadline a hair away is looked at just after it."""


def next_look(tables: Iterable[TableClock]) -> float:
    """Seconds until the clock loop looks again: at the next tick, or sooner when a table's turn
    (or waiting room) runs out before it, so that its stand-in plays on time."""
    due = (left for table in tables if (left := table.due_in()) is not None)
    return max(SOONEST, min([TICK, *due]))


async def run_clocks(
    tables: Callable[[], Iterable[LiveTable]], stamp: AliveStamp, log: Callable[[str], None],
    wake: Callable[[LiveTable], None],
) -> None:  # fmt: skip
    """Each tick: a turn (or waiting room) whose time ran out is played by a stand-in (or
    started), and the server's alive ``stamp`` is touched; a tick that comes late means the server
    was stopped, and that time counts for nobody (:func:`~dvtui.tables.clock.loop_gap`).
    ``tables``: the tables now; ``wake``: a table's bot started if one is to move."""
    last = time.monotonic()
    while True:
        stamp.touch()
        pause = next_look(tables())
        await asyncio.sleep(pause)
        now = time.monotonic()
        gap = loop_gap(last, now, pause)
        last = now
        if gap:
            log(said(N_("the server did not run for {seconds} s: no clock ran meanwhile")).format(seconds=f"{gap:.1f}"))
        for table in list(tables()):
            if table.clock is None:
                continue
            if gap:
                table.lag(gap)
            ran_out = table.tick()
            if ran_out is None:
                continue
            if ran_out == "started":
                log(
                    said(N_("table {table}: its waiting room ran out of time; it has started")).format(table=table.name)
                )
                table.presence_soon()
                await table.save_record()
            else:
                stood_in = said(N_("table {table}: {seat} ran out of time; a stand-in plays the turn"))
                log(stood_in.format(table=table.name, seat=seat_said(table, table.session.game.to_move)))
            wake(table)


__all__ = ["SOONEST", "AliveStamp", "background", "next_look", "run_clocks"]
