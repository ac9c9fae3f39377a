"""Who is at a table through the other servers on one database (a :class:`~.pg.PgStore`).

Each server writes the people connected through it, table by table, as rows of ``dvtui_presence``
(its server id, the table and its game -- the game's id, as a name may be given to another game
while a server still holds the first --, the seat -- none for a spectator --, the level of a bot client, and a
rematch accepted, with how many times the table's record says one was turned down before it),
and notifies ``presence NAME`` on the store's channel; the others read the rows of that table.

A server's rows count only while it lives, and its life is PostgreSQL's to say, not a clock's:
each server holds a session advisory lock on its own id (:data:`ALIVE` and the id), on the
connection it writes its rows through. A server killed (kill -9, its host gone) loses the lock
with its connection; every second each server deletes the rows of the servers whose lock nobody
holds and notifies their tables, so a dead server's people show as away within seconds, and
leave no ghost behind. A server that lost its own connection (PostgreSQL restarted) takes its
lock again and writes its rows again.

Every call that touches the database runs in the module's own thread, in order; the server
calls :meth:`Presence.tell` on its event loop (it only queues).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from .base import Here
from .pgerrors import DatabaseError, DatabaseLost

if TYPE_CHECKING:
    import psycopg

ALIVE = 0x64767475
"""The first key of every server's life lock (``pg_advisory_lock(ALIVE, id)``): a key space of
its own, apart from the games' one-number keys."""
SWEEP = 1.0
"""Seconds between two looks for the rows of servers that died."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS dvtui_servers (
    id serial PRIMARY KEY,
    started timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS dvtui_presence (
    server integer NOT NULL,
    table_name text NOT NULL,
    seat integer,
    bot text,
    accepts boolean NOT NULL DEFAULT false
);
ALTER TABLE dvtui_presence ADD COLUMN IF NOT EXISTS declined integer NOT NULL DEFAULT 0;
ALTER TABLE dvtui_presence ADD COLUMN IF NOT EXISTS game_id bigint;
CREATE INDEX IF NOT EXISTS dvtui_presence_table ON dvtui_presence (table_name);
"""
"""Made with the store's schema (:data:`~.pg.SCHEMA` runs it)."""

_LIVE = (
    "SELECT l.objid::bigint FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
    "AND l.classid = %(alive)s AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)
"""The ids of the servers alive now: those whose life lock is held."""


class Presence:
    """This server's side of ``dvtui_presence`` (see the module's docstring); ``connect``: a new
    connection to the database, ``notify``: the store's channel."""

    def __init__(self, connect: Callable[[], psycopg.Connection[Any]], notify: str) -> None:
        self._connect = connect
        self._channel = notify
        self._conn: psycopg.Connection[Any] | None = None
        self.id: int | None = None
        """This server's id (its row of ``dvtui_servers``), once it has one."""
        self._mine: dict[str, tuple[int | None, list[Here]]] = {}
        """What this server last told of each table (written again after a lost connection)."""
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dvtui-presence")
        self._stopping = threading.Event()
        self._news: Callable[[str], None] = lambda payload: None

    # -- in the presence thread ------------------------------------------------------------------

    def _connection(self) -> psycopg.Connection[Any]:
        """The connection holding this server's life lock; made again (lock and rows) if lost."""
        if self._conn is not None and not self._conn.closed and not self._conn.broken:
            return self._conn
        conn = self._connect()
        try:
            if self.id is None:
                row = conn.execute("INSERT INTO dvtui_servers DEFAULT VALUES RETURNING id").fetchone()
                assert row is not None
                self.id = int(row[0])
            row = conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (ALIVE, self.id)).fetchone()
            if not (row and row[0]):  # (its lost connection is not yet gone: the next sweep tries again)
                raise DatabaseLost("this server's presence lock is still held by its lost connection")
            with conn.transaction():  # (another server may have swept them while the lock was gone)
                conn.execute("DELETE FROM dvtui_presence WHERE server = %s", (self.id,))
                for name, (game, here) in self._mine.items():
                    self._insert(conn, name, game, here)
        except BaseException:
            conn.close()
            raise
        self._conn = conn
        return conn

    def _insert(self, conn: psycopg.Connection[Any], name: str, game: int | None, here: list[Here]) -> None:
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO dvtui_presence (server, table_name, game_id, seat, bot, accepts, declined) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                [(self.id, name, game, h.seat, h.bot, h.accepts, h.declined) for h in here],
            )
        said = f"presence {name}" if game is None else f"presence {name} {game}"
        conn.execute("SELECT pg_notify(%s, %s)", (self._channel, said))

    def _write(self, name: str, game: int | None, here: list[Here]) -> None:
        if here:
            self._mine[name] = (game, here)
        else:
            self._mine.pop(name, None)
        self._try(lambda conn: self._replace(conn, name, game, here))

    def _replace(self, conn: psycopg.Connection[Any], name: str, game: int | None, here: list[Here]) -> None:
        with conn.transaction():
            conn.execute("DELETE FROM dvtui_presence WHERE server = %s AND table_name = %s", (self.id, name))
            self._insert(conn, name, game, here)

    def _try(self, what: Callable[[psycopg.Connection[Any]], object]) -> None:
        """``what`` on the connection; a database away is not waited for here: the rows are
        written again, all of them, once the connection is made again (at the next sweep)."""
        import psycopg

        with contextlib.suppress(psycopg.Error, DatabaseError):
            try:
                what(self._connection())
            except psycopg.Error:
                if self._conn is not None and self._conn.broken:  # (a refusal leaves it, and its lock, alive)
                    self._conn.close()
                raise

    def _sweep(self) -> None:
        """Delete the rows of the servers that died, and tell their tables (the others by a
        notification, this one by its news)."""
        gone: set[str] = set()

        def sweep(conn: psycopg.Connection[Any]) -> None:
            with conn.transaction():
                rows = conn.execute(
                    f"DELETE FROM dvtui_presence WHERE server NOT IN ({_LIVE}) RETURNING table_name", {"alive": ALIVE}
                ).fetchall()
                gone.update(row[0] for row in rows)
                for name in gone:
                    conn.execute("SELECT pg_notify(%s, %s)", (self._channel, f"presence {name}"))

        self._try(sweep)
        for name in sorted(gone):
            self._news(f"presence {name}")

    def _sweeping(self) -> None:
        while not self._stopping.wait(SWEEP):
            with contextlib.suppress(RuntimeError):  # (closed meanwhile)
                self._thread.submit(self._sweep)

    # -- the server's side -----------------------------------------------------------------------

    def start(self, news: Callable[[str], None]) -> None:
        """Take this server's id and life lock, and sweep now and then (``news``: the store's
        follower, told ``presence NAME`` for the tables whose dead servers' rows were swept)."""
        self._news = news
        self._thread.submit(self._try, lambda conn: None).result()
        threading.Thread(target=self._sweeping, name="dvtui-presence-sweep", daemon=True).start()

    def tell(self, name: str, here: list[Here], game: int | None = None) -> None:
        """This server's people at table ``name`` (at its game ``game``) are ``here`` now (written
        in order, off the caller's thread)."""
        if not self._stopping.is_set():
            with contextlib.suppress(RuntimeError):  # (closed meanwhile: its rows go with it)
                self._thread.submit(self._write, name, game, list(here))

    @property
    def pid(self) -> int | None:
        """The backend process id of the presence connection: what it notifies is this server's own news."""
        conn = self._conn
        return None if conn is None or conn.closed else conn.info.backend_pid

    def elsewhere(self, conn: psycopg.Connection[Any], name: str, game: int | None = None) -> list[Here]:
        """The people at table ``name`` through the other servers alive (on the caller's
        connection); ``game``: at that game of the table only (a row that names no game counts)."""
        rows = conn.execute(
            f"SELECT seat, bot, accepts, declined FROM dvtui_presence WHERE table_name = %(name)s AND server <> %(me)s "
            f"AND (%(game)s::bigint IS NULL OR game_id IS NULL OR game_id = %(game)s) AND server IN ({_LIVE})",
            {"name": name, "me": -1 if self.id is None else self.id, "alive": ALIVE, "game": game},
        ).fetchall()
        return [Here(row[0], row[1], row[2], row[3]) for row in rows]

    def close(self) -> None:
        """Stop (the rows go: this server's lock goes with its connection, and its rows with it)."""
        self._stopping.set()

        def drop() -> None:  # (and say so: a server stopped is not swept, as it leaves no rows)
            import psycopg

            conn = self._conn
            if conn is None or conn.closed:
                return
            with contextlib.suppress(psycopg.Error), conn.transaction():  # (a database away: swept later)
                conn.execute("DELETE FROM dvtui_presence WHERE server = %s", (self.id,))
                for name in self._mine:
                    conn.execute("SELECT pg_notify(%s, %s)", (self._channel, f"presence {name}"))
            conn.close()

        self._thread.submit(drop)
        self._thread.shutdown(wait=True)


__all__ = ["ALIVE", "SCHEMA", "Presence"]
