"""Connections at a live table without a socket (tests/tables/test_live.py, test_verbs.py): a
:class:`Visitor` notes what it is sent, and :func:`live_table` opens a table on a ``FileStore``
whose blocking calls run at once, its log a list."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar, cast

import msgspec

from dvtui.engine import new_game
from dvtui.play.seats import parse_players
from dvtui.server.live import Backing, Conn, LiveTable
from dvtui.server.peers import NoPeers
from dvtui.server.stores.base import TableRecord, normal_record
from dvtui.server.stores.files import FileStore
from dvtui.tables.protocol import FEATURES
from dvtui.tables.wire import Error, ErrorCode, Owner, encode

T = TypeVar("T")


@dataclass(eq=False)
class Visitor:
    """A connection as the table sees it: who it is, what it understands, what it was sent."""

    identity: Owner
    person: str
    bot: str | None = None
    features: frozenset[str] = frozenset(FEATURES)
    table: LiveTable | None = None
    sent: list[bytes] = field(default_factory=list)
    closed: bool = False

    @property
    def user(self) -> str:
        return self.person

    @property
    def seat(self) -> int | None:
        return None if self.table is None else self.table.seat_of(self.conn)

    @property
    def conn(self) -> Conn:
        """The visitor where the server's code takes a connection (it has what the table uses)."""
        return cast(Conn, self)

    def send(self, data: bytes) -> None:
        self.sent.append(data)

    def tell(self, error: Error) -> None:
        self.send(encode(error))

    def error(self, code: ErrorCode, message: str, **_: object) -> None:
        self.tell(Error(code=code, message=message))

    def fail(self, code: ErrorCode, message: str) -> None:
        self.error(code, message)
        self.close()

    def close(self) -> None:
        self.closed = True

    def received(self) -> list[dict[str, object]]:
        return [msgspec.json.decode(line) for data in self.sent for line in data.splitlines()]

    def types(self) -> list[object]:
        return [message["type"] for message in self.received()]


async def now(fn: Callable[[], T]) -> T:
    """A blocking call run at once (the server runs it in its threads)."""
    return fn()


def live_table(
    store: FileStore, logged: list[str], players: str = "ana,bob,bot:random", *, opener: Owner = 1,
    started: bool = True,
) -> LiveTable:  # fmt: skip
    """Table ``t`` of ``players`` (seed 3), opened by ``opener``, on ``store``, logging into ``logged``."""
    created = new_game(parse_players(players), seed=3)
    n = len(players.split(","))
    record = normal_record(TableRecord(owners=[None] * n, stand_ins=[None] * n, opener=opener, started=started), n)
    session, lines = store.create("t", created, record)
    table = LiveTable("t", session, lines, record, Backing(store, NoPeers(), now, logged.append), 0.0)
    table.record_version = 0
    return table


def seat(table: LiveTable, visitor: Visitor, at: int) -> None:
    """``visitor`` sits at seat ``at`` and has been sent the table's ``joined``."""
    table.join(visitor.conn, at)
    visitor.table = table
