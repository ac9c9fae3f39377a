"""Shared tables: the table server (``dvtui serve``), its wire protocol, and a client without a
screen. Textual-free; the screens stand above it (:class:`RemoteSession` wraps :class:`TableClient`)."""

from .client import (
    Backoff,
    Connection,
    Diverged,
    Dropped,
    Refused,
    TableClient,
    Unreachable,
    Update,
    close_table,
    game_lines,
    is_my_turn,
    list_tables,
    my_tables,
    open_table,
    release_seat,
    resign,
    say,
    start_table,
    table_info,
)
from .protocol import MAX_LINE_BYTES, PROTOCOL_VERSION, SOCKET_NAME, SeatState, TableInfo
from .remote import RemoteSession, TableStopped
from .where import ENV, ServerPlace, server_place

__all__ = [
    "ENV",
    "MAX_LINE_BYTES",
    "PROTOCOL_VERSION",
    "SOCKET_NAME",
    "Backoff",
    "Connection",
    "Diverged",
    "Dropped",
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
    "game_lines",
    "is_my_turn",
    "list_tables",
    "my_tables",
    "open_table",
    "release_seat",
    "resign",
    "say",
    "server_place",
    "start_table",
    "table_info",
]
