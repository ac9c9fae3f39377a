"""Play now, the client's side: a seek held open on a connection of its own until the pool seats
this person (:func:`seek`), each ``seeking`` it hears passed on (the countdown before bots), and
leaving the pool when asked to. The table it is seated at is then joined as any table: the seat
is kept for this person there."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from ..i18n import _, ngettext, pgettext
from .clock import move_time_words
from .clubwire import SEEK_MOVE_TIME, SEEK_SIZES, SEEK_WAIT, LeavePool, Matched, PoolLeft, Seek, Seeking
from .connection import Connection, Dropped, Refused, lost
from .where import ServerPlace
from .wire import Error

LEAVE_WAIT = 5.0
"""Seconds a seek that is given up waits for the server's ``pool_left`` before it just hangs up
(which leaves the pool all the same)."""


class NoSeeking(Exception):
    """The server does not speak ``seek`` (an older one)."""


def status_line(status: Seeking) -> str:
    """Where a seeker stands, in one line: what they seek, how many seek alike, the countdown to the bots."""
    first, last = status.players[0], status.players[-1]
    size = str(first) if first == last else f"{first}-{last}"
    kind = pgettext("game", "rated") if status.rated else pgettext("game", "casual")
    seeking = ngettext("{count} person seeks", "{count} people seek", status.pool).format(count=status.pool)
    said = _("seeking a table of {size} players ({kind}, {move_time} a move): {seeking}; bots fill the free seats "
             "in {left} s")  # fmt: skip
    return said.format(size=size, kind=kind, move_time=move_time_words(status.move_time), seeking=seeking,
                       left=int(status.wait_left + 0.999))  # fmt: skip


async def seek(
    place: ServerPlace,
    *,
    sizes: list[int] | None = None,
    rated: bool = False,
    move_time: int = SEEK_MOVE_TIME,
    wait: int = SEEK_WAIT,
    user: str | None = None,
    bot: str | None = None,
    told: Callable[[Seeking], None] = lambda status: None,
    leave: asyncio.Event | None = None,
) -> Matched | None:
    """Seek a table and wait in the pool until it seats this person: where (``matched``); None once
    ``leave`` is set first (the pool is left). ``told`` hears each ``seeking``. Refused when the
    server refuses the seek; :class:`NoSeeking` for a server that does not seek."""
    try:
        conn = await Connection.open(place, user=user, bot=bot)
    except Dropped as e:
        raise lost(place, e) from None
    try:
        if "seek" not in conn.welcome.features:
            older = _("the table server at {directory} does not seat strangers together (an older one): open a "
                      "table with 'dvtui new --table NAME'")  # fmt: skip
            raise NoSeeking(older.format(directory=place.directory))
        message = Seek(players=sizes or [*SEEK_SIZES], rated=rated, move_time=move_time, wait=wait)
        await conn.send(message)
        return await _wait(conn, told, leave or asyncio.Event())
    except Dropped as e:
        raise lost(place, e) from None
    finally:
        conn.close()


async def _wait(conn: Connection, told: Callable[[Seeking], None], leave: asyncio.Event) -> Matched | None:
    """The pool's messages until ``matched``, or until ``leave`` is set (the pool then left)."""
    leaving = asyncio.ensure_future(leave.wait())
    try:
        while True:
            receiving = asyncio.ensure_future(conn.receive())
            await asyncio.wait([receiving, leaving], return_when=asyncio.FIRST_COMPLETED)
            if not receiving.done():
                receiving.cancel()
                with contextlib.suppress(asyncio.CancelledError, Dropped):
                    await receiving
                return await _leave(conn)
            message = receiving.result()
            if isinstance(message, Error):
                raise Refused(message)
            if isinstance(message, Matched):
                return message
            if isinstance(message, Seeking):
                told(message)
    finally:
        leaving.cancel()


async def _leave(conn: Connection) -> Matched | None:
    """Leave the pool; a table the pool seated one at meanwhile is still one's own (returned)."""
    with contextlib.suppress(Dropped, TimeoutError, OSError):
        async with asyncio.timeout(LEAVE_WAIT):
            await conn.send(LeavePool())
            while True:
                message = await conn.receive()
                if isinstance(message, Matched):
                    return message
                if isinstance(message, PoolLeft | Error):
                    return None
    return None


__all__ = ["LEAVE_WAIT", "NoSeeking", "seek", "status_line"]
