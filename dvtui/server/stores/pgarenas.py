"""Tournaments shared by the servers on one database (a :class:`~.pg.PgStore`): what lets a
tournament be joined, paired and scored through any of them.

- A tournament's record is its row of ``dvtui_arenas`` with a ``version``: a change is kept only in
  place of the version it was made on (:meth:`PgArenas.swap`, a compare-and-swap), so two servers
  scoring, joining or seating at once never lose each other's change, and a game's points, taken
  off its table's entry as they are added, count once.
- Who waits to be seated is a row of ``dvtui_arena_waiting`` (the tournament, the account, the
  server it waits through, since when): every server's people, so one server pairs them all. A
  row counts only while its server lives (its life lock, :mod:`.pgpresence`).
- One server at a time pairs a tournament: the one holding the session advisory lock named for it
  (:data:`PAIRS` and a hash of its name) on this module's own connection. A server killed loses it
  with its connection, and the next server to ask takes it and pairs on.

Every method may block on the database: the server calls them off its event loop.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .pgconn import CHANNEL, Pool, connect
from .pgerrors import DatabaseLost
from .pgpresence import ALIVE

if TYPE_CHECKING:
    import psycopg

PAIRS = 0x64766172
"""The first key of a tournament's pairing lock (``pg_try_advisory_lock(PAIRS, hashtext(name))``):
a key space of its own, apart from the games' one-number keys and the servers' life locks."""

SCHEMA = """
ALTER TABLE dvtui_arenas ADD COLUMN IF NOT EXISTS version bigint NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS dvtui_arena_waiting (
    arena text NOT NULL,
    account text NOT NULL,
    server integer NOT NULL,
    since double precision NOT NULL,
    PRIMARY KEY (arena, account)
);
"""
"""Made with the store's schema (:data:`~.pg.SCHEMA` runs it), after ``dvtui_arenas``."""

_LIVE = (
    "SELECT l.objid::bigint FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
    "AND l.classid = %(alive)s AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
)
"""The ids of the servers alive now: those whose life lock is held (:mod:`.pgpresence`)."""

_T = TypeVar("_T")


class PgArenas:
    """The tournaments' shared side (see the module's docstring). ``pool``: the store's connections;
    ``server``: this server's id, once it has one; ``patiently``: the store's way of trying again
    while the database is away."""

    def __init__(
        self, conninfo: str, pool: Pool, server: Callable[[], int | None], patiently: Callable[[Callable[[], Any]], Any]
    ) -> None:
        self._conninfo = conninfo
        self._pool = pool
        self._server = server
        self._patiently = patiently
        self._lock = threading.Lock()
        self._conn: psycopg.Connection[Any] | None = None
        self._pairing: set[str] = set()
        """The tournaments (folded names) whose pairing lock this server's connection holds."""

    def _run(self, what: Callable[[psycopg.Connection[Any]], _T]) -> _T:
        def once() -> _T:
            with self._pool.conn() as conn:
                return what(conn)

        result: _T = self._patiently(once)
        return result

    # -- the records -------------------------------------------------------------------------------

    def versions(self) -> dict[str, int]:
        """Every tournament's name and the version of its record now."""
        rows = self._run(lambda conn: conn.execute("SELECT name, version FROM dvtui_arenas").fetchall())
        return {str(row[0]): int(row[1]) for row in rows}

    def read(self, name: str) -> tuple[bytes, int] | None:
        """Tournament ``name``'s record and its version (None: no such tournament)."""
        row = self._run(
            lambda conn: conn.execute("SELECT record, version FROM dvtui_arenas WHERE name = %s", (name,)).fetchone()
        )
        return None if row is None else (bytes(row[0]), int(row[1]))

    def swap(self, name: str, data: bytes, version: int, seated: list[str] | None = None) -> int | None:
        """Keep ``data`` as tournament ``name``'s record in place of ``version`` (0: a new
        tournament, kept only if none has that name): its new version, or None when another change
        came first. ``seated``: the accounts this change seats, whose waits it ends: kept only if
        each of them still waits (none was seated meanwhile by another pairing)."""

        def write(conn: psycopg.Connection[Any]) -> int | None:
            import psycopg

            with conn.transaction():
                if version == 0:
                    row = conn.execute(
                        "INSERT INTO dvtui_arenas (name, record, version) VALUES (%s, %s, 1) "
                        "ON CONFLICT (name) DO NOTHING RETURNING version",
                        (name, data),
                    ).fetchone()
                else:
                    row = conn.execute(
                        "UPDATE dvtui_arenas SET record = %s, version = version + 1 "
                        "WHERE name = %s AND version = %s RETURNING version",
                        (data, name, version),
                    ).fetchone()
                if row is None:
                    return None
                if seated:
                    gone = conn.execute(
                        "DELETE FROM dvtui_arena_waiting WHERE arena = %s AND account = ANY(%s) RETURNING account",
                        (name.casefold(), seated),
                    ).fetchall()
                    if len(gone) != len(set(seated)):
                        raise psycopg.Rollback
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"arena {name}"))
                return int(row[0])
            return None  # (rolled back)

        return self._run(write)

    # -- who waits ---------------------------------------------------------------------------------

    def wait(self, name: str, account: str, since: float) -> None:
        """``account`` waits to be seated in tournament ``name``, through this server (notified as
        ``arena NAME``: the server pairing it seats them at once)."""

        def write(conn: psycopg.Connection[Any]) -> None:
            with conn.transaction():
                conn.execute(
                    "INSERT INTO dvtui_arena_waiting (arena, account, server, since) VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT (arena, account) DO UPDATE SET server = EXCLUDED.server, since = EXCLUDED.since",
                    (name.casefold(), account, self._server() or 0, since),
                )
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"arena {name}"))

        self._run(write)

    def unwait(self, name: str, account: str) -> None:
        """``account`` waits no more in tournament ``name`` through this server."""
        self._run(lambda conn: conn.execute(
            "DELETE FROM dvtui_arena_waiting WHERE arena = %s AND account = %s AND server = %s",
            (name.casefold(), account, self._server() or 0),
        ))  # fmt: skip

    def waiting(self, name: str) -> list[tuple[str, float]]:
        """Who waits in tournament ``name`` through a server alive now, and since when (a wait
        through a server that died is left out, not deleted: a server whose life lock went with a
        lost connection takes it again, and its people's waits count again)."""
        rows = self._run(lambda conn: conn.execute(
            f"SELECT account, since FROM dvtui_arena_waiting WHERE arena = %(arena)s AND server IN ({_LIVE}) "
            "ORDER BY since, account",
            {"arena": name.casefold(), "alive": ALIVE},
        ).fetchall())  # fmt: skip
        return [(str(row[0]), float(row[1])) for row in rows]

    # -- who pairs ---------------------------------------------------------------------------------

    def pairs(self, name: str) -> bool:
        """Whether this server pairs tournament ``name`` now: it holds its pairing lock, or takes
        it (a connection lost loses every lock with it: they are asked for again)."""
        key = name.casefold()
        with self._lock:
            try:
                conn = self._connection()
                if key in self._pairing:
                    return True
                row = conn.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))", (PAIRS, key)).fetchone()
            except DatabaseLost:
                return False
            except Exception:  # (a connection that broke: made again at the next ask)
                self._drop()
                return False
            if row and row[0]:
                self._pairing.add(key)
                return True
            return False

    def done(self, name: str) -> None:
        """Tournament ``name`` is over: its pairing lock let go."""
        key = name.casefold()
        with self._lock:
            if key in self._pairing and self._conn is not None:
                self._pairing.discard(key)
                try:
                    self._conn.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))", (PAIRS, key))
                except Exception:
                    self._drop()

    def _connection(self) -> psycopg.Connection[Any]:
        if self._conn is None or self._conn.closed or self._conn.broken:
            self._pairing.clear()
            self._conn = connect(self._conninfo)
        return self._conn

    def _drop(self) -> None:
        if self._conn is not None:
            if not (self._conn.closed or self._conn.broken):
                # let go of the pairing locks before the connection goes: the session's end lets go of
                # them too, but only once the database has seen it end, which the next server to ask
                # may come before
                with contextlib.suppress(Exception):
                    self._conn.execute("SELECT pg_advisory_unlock_all()")
            self._conn.close()
        self._conn = None
        self._pairing.clear()

    def close(self) -> None:
        with self._lock:
            self._drop()


__all__ = ["PAIRS", "SCHEMA", "PgArenas"]
