"""Shared tables, the client's side: the wire protocol and a client without a screen (the server,
``dvtui serve``, is :mod:`dvtui.server`).
Textual-free; the screens stand above it (:class:`RemoteSession` wraps :class:`TableClient`)."""

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
