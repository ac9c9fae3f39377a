"""Reaching PostgreSQL: a connection string checked (:func:`check_conninfo`), one connection made
with synchronous commit on (:func:`connect`), and the few connections a store writes and reads
through at once (:class:`Pool`); a database error said in one line (:func:`why`)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .pgerrors import DatabaseConflict, DatabaseError, DatabaseLost

if TYPE_CHECKING:
    import psycopg

CHANNEL = "dvtui"
"""The one channel every server listens on. A notification is a wake-up only, sent at commit:
``lines NAME GAME NEXT`` (game ``GAME``, a row of ``dvtui_games``, at table ``NAME`` has lines up
to ``NEXT``), ``record NAME GAME``, ``chat NAME GAME``, ``table NAME`` (a game of that name was made
or put aside), ``want NAME`` (a server waits to decide there: the one that holds it lets it go once
its decision is made); a follower reads the rows themselves, of the game it holds (by its id, never
by the name, which may be another game's by then), from the ``seq`` it has."""


class StoreUnavailable(Exception):
    """``--store`` cannot be used: psycopg is missing, or the connection string does not parse."""


def check_conninfo(conninfo: str) -> None:
    """Refuse what is not a libpq connection string or URL (StoreUnavailable says why in one line)."""
    try:
        import psycopg.conninfo
    except ImportError:
        raise StoreUnavailable("a PostgreSQL store needs psycopg: pip install 'dvtui[postgresql]'") from None
    try:
        psycopg.conninfo.conninfo_to_dict(conninfo)
    except psycopg.ProgrammingError as e:
        raise StoreUnavailable(f"--store: not a PostgreSQL connection string or URL: {why(e)}") from None


def why(e: BaseException) -> str:
    """The first line of a database error (its message may quote what it was given: made printable
    by whoever shows it)."""
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


def connect(conninfo: str) -> psycopg.Connection[Any]:
    import psycopg

    try:
        conn = psycopg.connect(conninfo, autocommit=True, connect_timeout=10)
        # a server's setting cannot weaken what is promised: a line is durable once committed
        conn.execute("SET synchronous_commit TO on")
    except psycopg.Error as e:
        raise DatabaseLost(f"the database cannot be reached: {why(e)}") from None
    return conn


class Pool:
    """A few connections, each used by one thread at a time; a broken one is replaced at next use."""

    def __init__(self, conninfo: str, size: int) -> None:
        self.conninfo = conninfo
        self._idle: list[psycopg.Connection[Any]] = []
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(size)
        self.pids: set[int] = set()
        """The backend process ids of the pool's connections: what they notify is this server's own news."""

    @contextlib.contextmanager
    def conn(self) -> Iterator[psycopg.Connection[Any]]:
        import psycopg

        with self._slots:
            with self._lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None or conn.closed or conn.broken:
                if conn is not None:
                    self.pids.discard(conn.info.backend_pid)
                conn = connect(self.conninfo)
                self.pids.add(conn.info.backend_pid)
            try:
                yield conn
            except psycopg.Error as e:
                if conn.broken or conn.closed:
                    conn.close()
                    raise DatabaseLost(f"the database: {why(e)}") from None
                self._put(conn)
                if isinstance(e, psycopg.errors.UniqueViolation):
                    raise DatabaseConflict(f"the database refused: {why(e)}") from None
                raise DatabaseError(f"the database refused: {why(e)}") from None
            except BaseException:
                conn.close()
                raise
            self._put(conn)

    def _put(self, conn: psycopg.Connection[Any]) -> None:
        if not conn.closed and not conn.broken:
            with self._lock:
                self._idle.append(conn)

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()


__all__ = ["CHANNEL", "Pool", "StoreUnavailable", "check_conninfo", "connect", "why"]
