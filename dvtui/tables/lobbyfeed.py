"""The lobby's list of tables over one connection that follows it (``follow_tables``): the list
once, page after page, then each change as the server pushes it, instead of the whole list asked
for again every few seconds. A server that does not speak ``follow`` (an older one) is said so by
:class:`NotFollowed`, and the lobby reads its list again now and then as it always did."""

from __future__ import annotations

from collections.abc import AsyncIterator

from .connection import Connection, Dropped, Refused, Unreachable
from .listing import lobby_order, server_account
from .protocol import FollowTables, ListTables, Tables, TablesChanged
from .requests import MAX_LISTED, next_page
from .tableinfo import TableInfo
from .where import ServerPlace
from .wire import Error


class NotFollowed(Exception):
    """The server does not push the list's changes (its welcome names no ``follow``)."""


async def follow_lobby(place: ServerPlace, *, user: str | None = None) -> AsyncIterator[tuple[str, list[TableInfo]]]:
    """Who the server knows this side as and its tables in the lobby's order
    (:func:`~.listing.lobby_order`): once the whole list has come, then again after each change the
    server pushes, for as long as the connection lasts. A personal server that is not running is not
    started for it (:class:`~.connection.Unreachable`); :class:`NotFollowed` for a server that does not
    push changes; :class:`~.connection.Diverged` for one that sends what no sound server sends."""
    try:
        conn = await Connection.open(place, user=user, start=False)
    except Dropped as e:
        raise Unreachable(str(e)) from None
    try:
        if "follow" not in conn.welcome.features:
            raise NotFollowed(place.directory)
        me, trusted = conn.welcome.user, server_account(place)
        known: dict[str, TableInfo] = {}
        listed = False
        await conn.send(FollowTables())
        after: str | None = None
        while True:
            message = await conn.receive()
            if isinstance(message, Error):
                raise Refused(message)
            if isinstance(message, Tables) and not listed:
                known.update((info.table, info) for info in message.tables)
                after = next_page(conn, message, after, len(known))
                if after is not None:
                    await conn.send(ListTables(after=after))
                    continue
                listed = True
            elif isinstance(message, TablesChanged):
                for name in message.removed:
                    known.pop(name, None)
                known.update((info.table, info) for info in message.tables)
                if len(known) > MAX_LISTED:
                    raise conn.refused(f"more than {MAX_LISTED:,} tables")
                if not listed:
                    continue
            else:
                continue
            yield me, lobby_order(list(known.values()), me, trusted)
    except Dropped as e:
        raise Unreachable(f"the table server at {place.directory} closed the connection ({e})") from None
    finally:
        conn.close()


__all__ = ["NotFollowed", "follow_lobby"]
