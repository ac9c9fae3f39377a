"""What people say at a table, kept in the database several servers share (``dvtui_chat``).

A line is a row ``(game_id, n, line)``: numbered from 0 per game, so the talk goes with its game
when the game is put aside (the row of ``dvtui_games`` is renamed) and goes with it when a kept
game is removed. Each server tells its tables' lines in ``n`` order, its own included: a line said
through it is kept first, then told with whatever the others kept before it, so everybody at a
table hears the same talk in the same order, whichever server they came through; a reconnecting
client gets the same latest lines from any server. A line kept notifies ``chat NAME`` on the
store's channel (a wake-up: the others read from the ``n`` they have).

The cap is the file store's: a table's talk stops being kept at :data:`~dvtui.server.chat.MAX_CHAT_BYTES` (a
line past it is told through its own server only, unkept).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..chat import MAX_CHAT_BYTES, RECENT, Heard
from .pgerrors import DatabaseError

if TYPE_CHECKING:
    import psycopg

_T = TypeVar("_T")


class Connections(Protocol):
    """Where the store's connections come from (its pool)."""

    def conn(self) -> AbstractContextManager[psycopg.Connection[Any]]: ...


class Database(Protocol):
    """What the talk needs of its store (a :class:`~.pg.PgStore`, which makes it): its
    connections, and its patience while the database is away."""

    @property
    def pool(self) -> Connections: ...

    def patiently(self, what: Callable[[], _T]) -> _T: ...


SCHEMA = """
CREATE TABLE IF NOT EXISTS dvtui_chat (
    game_id bigint NOT NULL REFERENCES dvtui_games (id) ON DELETE CASCADE,
    n integer NOT NULL,
    line bytea NOT NULL,
    PRIMARY KEY (game_id, n)
);
"""
"""Made with the store's schema (:data:`~.pg.SCHEMA` runs it)."""

_GAME = "g.name = %s AND (%s::bigint IS NULL OR g.id = %s)"
"""The game whose talk is read or kept: the one named (the table's name), and the table's own game
when the caller names it (a name given to another game meanwhile never reads or keeps its talk)."""

TRIES = 20
"""Two servers keeping a line of the same table at once both pick the next ``n``: the one refused
by the primary key picks again (as many times at most)."""


class PgChat:
    """The talk of the tables of ``store`` (see the module's docstring)."""

    def __init__(self, store: Database, channel: str) -> None:
        self.store = store
        self.channel = channel

    def recent(self, name: str, game: int | None = None) -> Heard:
        def read() -> Heard:
            with self.store.pool.conn() as conn:
                rows = conn.execute(
                    "SELECT c.n, c.line FROM dvtui_chat c JOIN dvtui_games g ON g.id = c.game_id "
                    f"WHERE {_GAME} ORDER BY c.n DESC LIMIT %s",
                    (name, game, game, RECENT),
                ).fetchall()
            return Heard(deque(bytes(row[1]) for row in reversed(rows)), rows[0][0] + 1 if rows else 0)

        return self.store.patiently(read)

    def say(self, name: str, line: bytes, seen: int, game: int | None = None) -> tuple[Heard, bool]:
        kept = self.store.patiently(lambda: self._keep(name, line, game))
        heard = self.since(name, seen, game)
        if not kept:
            heard.lines.append(line)
        return heard, kept

    def _keep(self, name: str, line: bytes, game: int | None) -> bool:
        import psycopg

        for _ in range(TRIES):
            try:
                with self.store.pool.conn() as conn, conn.transaction():
                    return self._insert(conn, name, line, game)
            except DatabaseError as e:
                if not isinstance(e.__context__, psycopg.errors.UniqueViolation) and "dvtui_chat_pkey" not in str(e):
                    raise
        raise DatabaseError(f"table {name}: its chat line could not be numbered")

    def _insert(self, conn: psycopg.Connection[Any], name: str, line: bytes, game: int | None) -> bool:
        row = conn.execute(
            "SELECT g.id, coalesce(max(c.n) + 1, 0), coalesce(sum(length(c.line)), 0) FROM dvtui_games g "
            f"LEFT JOIN dvtui_chat c ON c.game_id = g.id WHERE {_GAME} GROUP BY g.id",
            (name, game, game),
        ).fetchone()
        if row is None or row[2] + len(line) > MAX_CHAT_BYTES:
            return False
        conn.execute("INSERT INTO dvtui_chat (game_id, n, line) VALUES (%s, %s, %s)", (row[0], row[1], line))
        conn.execute("SELECT pg_notify(%s, %s)", (self.channel, f"chat {name} {row[0]}"))
        return True

    def since(self, name: str, seen: int, game: int | None = None) -> Heard:
        def read() -> Heard:
            with self.store.pool.conn() as conn:
                rows = conn.execute(
                    "SELECT c.n, c.line FROM dvtui_chat c JOIN dvtui_games g ON g.id = c.game_id "
                    f"WHERE {_GAME} AND c.n >= %s ORDER BY c.n",
                    (name, game, game, seen),
                ).fetchall()
            return Heard(deque(bytes(row[1]) for row in rows), rows[-1][0] + 1 if rows else seen)

        return self.store.patiently(read)


__all__ = ["SCHEMA", "PgChat"]
