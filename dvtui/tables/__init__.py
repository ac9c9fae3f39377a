"""Shared tables, the client's side: the wire protocol and a client without a screen (the server,
``dvtui serve``, is :mod:`dvtui.server`).
Textual-free; the screens stand above it (:class:`RemoteSession` wraps :class:`TableClient`).
Its names are loaded on first use (:func:`__getattr__`): a command that only asks a server for a
list or a line (``dvtui tables``, ``say``) loads the requests and the wire, not the session a screen
plays through nor the bots a client seeds, so its short process starts faster."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .client import TableClient, Update
    from .connection import Backoff, Connection, Diverged, Dropped, Refused, Unreachable
    from .listing import has_seat, invited_by, is_my_turn, played_with, server_account
    from .lobbyfeed import NotFollowed, follow_lobby
    from .remote import RemoteSession, TableStopped
    from .requests import (
        close_table,
        earlier_game_lines,
        game_lines,
        kept_game_lines,
        list_tables,
        lobby_tables,
        my_tables,
        open_table,
        release_seat,
        resign,
        say,
        set_clock,
        start_table,
        table_info,
    )
    from .tableinfo import SeatState, TableInfo
    from .where import ENV, ServerPlace, server_place
    from .wire import MAX_LINE_BYTES, PROTOCOL_VERSION, SOCKET_NAME

_HOMES = {
    "TableClient": "client",
    "Update": "client",
    "Backoff": "connection",
    "Connection": "connection",
    "Diverged": "connection",
    "Dropped": "connection",
    "Refused": "connection",
    "Unreachable": "connection",
    "has_seat": "listing",
    "invited_by": "listing",
    "is_my_turn": "listing",
    "played_with": "listing",
    "server_account": "listing",
    "NotFollowed": "lobbyfeed",
    "follow_lobby": "lobbyfeed",
    "RemoteSession": "remote",
    "TableStopped": "remote",
    "close_table": "requests",
    "earlier_game_lines": "requests",
    "game_lines": "requests",
    "kept_game_lines": "requests",
    "list_tables": "requests",
    "lobby_tables": "requests",
    "my_tables": "requests",
    "open_table": "requests",
    "release_seat": "requests",
    "resign": "requests",
    "say": "requests",
    "set_clock": "requests",
    "start_table": "requests",
    "table_info": "requests",
    "SeatState": "tableinfo",
    "TableInfo": "tableinfo",
    "ENV": "where",
    "ServerPlace": "where",
    "server_place": "where",
    "MAX_LINE_BYTES": "wire",
    "PROTOCOL_VERSION": "wire",
    "SOCKET_NAME": "wire",
}
"""Each name of the package and the module of its own that holds it."""


def __getattr__(name: str) -> Any:
    """``from dvtui.tables import NAME``: its module imported now (then kept as the package's)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "ENV",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "SOCKET_NAME",
    "Backoff",
    "Connection",
    "Diverged",
    "Dropped",
    "NotFollowed",
    "Refused",
    "RemoteSession",
    "SeatState",
    "ServerPlace",
    "TableClient",
    "TableInfo",
    "TableStopped",
    "Unreachable",
    "Update",
    "close_table",
    "earlier_game_lines",
    "follow_lobby",
    "game_lines",
    "has_seat",
    "invited_by",
    "is_my_turn",
    "kept_game_lines",
    "list_tables",
    "lobby_tables",
    "my_tables",
    "open_table",
    "played_with",
    "release_seat",
    "resign",
    "say",
    "server_account",
    "server_place",
    "set_clock",
    "start_table",
    "table_info",
]
