"""The advisory locks of the games a server plays, held on one connection of its own (:class:`Holds`)."""

from __future__ import annotations

import contextlib
import threading
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .pgconn import connect, why
from .pgerrors import DatabaseError, DatabaseLost

if TYPE_CHECKING:
    import psycopg

_HELD_ALL = """SELECT (classid::bigint << 32) | objid::bigint FROM pg_locks WHERE locktype = 'advisory'
    AND pid = pg_backend_pid() AND granted AND objsubid = 1"""
"""The games whose advisory locks the session holds (a bigint key made whole again)."""


@dataclass(frozen=True, slots=True)
class HolderSession:
    """The holder's connection lent for a write (:meth:`Holds.session`)."""

    conn: psycopg.Connection[Any]
    pid: int
    """The session's backend process id, as the database gave it when it was connected: a
    statement that checks ``pg_backend_pid()`` against it runs on that session and no other (a
    pooler that handed the connection to another session would hold none of the locks)."""
    taken: Collection[int]
    lost: Collection[int]

    def holds(self, game_id: int) -> bool:
        """Whether this very session took ``game_id``'s lock and holds it, to be trusted: the locks
        a session takes are its own until it lets them go or ends (no other session can take them
        from it), so what the server took on this connection, never let go nor lost since, is
        held, without asking the lock table (whose every read copies each lock of the cluster, a
        thousand and more). Asked game by game, under the holds' lock, not copied for each commit."""
        return game_id in self.taken and game_id not in self.lost


def _refusal(error: psycopg.Error) -> bool:
    """``error`` is the database refusing a statement, its session alive: a SQLSTATE of its own,
    not a connection's (class 08) nor an administrator's or a shutdown's (class 57); an error
    psycopg raises itself (a connection lost as it read the answer) has none."""
    state = error.sqlstate
    return state is not None and not state.startswith(("08", "57"))


class Holds:
    """The advisory locks of the games this server plays, all on one connection of its own: they
    last as long as it does, so a server that dies lets its tables go with its connection. A
    connection lost while the server lives (PostgreSQL restarted, its session terminated) is made
    again with every lock taken again, but each game held is :meth:`lost` all the same until held
    anew (:meth:`take`): another server may have played it while nobody held it."""

    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self._conn: psycopg.Connection[Any] | None = None
        self._pid = 0
        """The backend process id of :attr:`_conn`'s session, asked of the database itself."""
        self._lock = threading.Lock()
        self._held: Counter[int] = Counter()
        self._lost: set[int] = set()

    def _connection(self) -> psycopg.Connection[Any]:
        """The holder's connection (called with the lock held); made again, locks and all, if lost."""
        import psycopg

        if self._conn is not None and not self._conn.closed and not self._conn.broken:
            return self._conn
        conn = connect(self.conninfo)
        try:
            row = conn.execute("SELECT pg_backend_pid()").fetchone()
            self._pid = int(row[0]) if row else 0
            for game_id in self._held:
                conn.execute("SELECT pg_try_advisory_lock(%s)", (game_id,))  # (let go at its writer's close)
            self._lost.update(self._held)
        except psycopg.Error as e:
            conn.close()
            raise DatabaseLost(f"the database: {why(e)}") from None
        self._conn = conn
        return conn

    def _call(self, sql: str, key: int) -> bool:
        import psycopg

        conn = self._connection()
        try:
            row = conn.execute(sql, (key,)).fetchone()
        except psycopg.Error as e:
            conn.close()
            raise DatabaseLost(f"the database: {why(e)}") from None
        return bool(row and row[0])

    def take(self, game_id: int) -> bool:
        with self._lock:
            if self._call("SELECT pg_try_advisory_lock(%s)", game_id):
                self._held[game_id] += 1
                self._lost.discard(game_id)
                return True
            return False

    def release(self, game_id: int) -> None:
        with self._lock:
            if self._held[game_id] <= 0:
                return
            self._held[game_id] -= 1
            if not self._held[game_id]:
                del self._held[game_id]
            with contextlib.suppress(DatabaseError):  # a lost connection took the lock with it
                self._call("SELECT pg_advisory_unlock(%s)", game_id)

    @contextlib.contextmanager
    def session(self) -> Iterator[HolderSession]:
        """The holder's connection, to write on (nothing else uses it meanwhile), with the games
        that session holds (not :meth:`lost`) and its backend's pid: what is written there is
        written by the session that holds the games' locks, and a statement can check that it runs
        on it. A connection lost raises :class:`DatabaseLost` (it is made again at next use, every
        game held then lost until held anew); a refusal, :class:`DatabaseError`."""
        import psycopg

        with self._lock:
            conn = self._connection()
            try:
                yield HolderSession(conn, self._pid, self._held.keys(), self._lost)
            except psycopg.Error as e:
                if conn.broken or conn.closed or not _refusal(e):  # (its state is not to be trusted: made again)
                    conn.close()
                    raise DatabaseLost(f"the database: {why(e)}") from None
                raise DatabaseError(f"the database refused: {why(e)}") from None

    @property
    def pid(self) -> int | None:
        """The backend process id of the holder's connection: what it notifies (the lines it
        writes) is this server's own news."""
        conn = self._conn
        return None if conn is None or conn.closed else conn.info.backend_pid

    def renew(self) -> None:
        """Make sure the holder's connection is alive (made again, with its locks, if it was lost)."""
        with self._lock:
            self._call("SELECT %s::int = 1", 1)

    def lost(self, game_id: int) -> bool:
        """This server's hold on game ``game_id`` went with a connection lost since it took it.
        Asked before each decision, without the holds' lock: a commit keeps that lock for its
        whole round trip, and a decision waiting for it would be a thread put to sleep and woken
        again at every move. The set is only changed under the lock, and a look into it is
        whole; a hold lost just after the look is the commit's to find (it writes only the games
        its session holds)."""
        return game_id in self._lost

    def mark_lost(self, game_id: int) -> None:
        """Another server wrote game ``game_id``'s next line: whatever the lock says, this server's
        hold is not to be trusted until held anew (:meth:`take`), reading what was written."""
        with self._lock:
            if game_id in self._held:
                self._lost.add(game_id)

    def check(self) -> set[int]:
        """The games held whose hold is gone, as the database says now in one question on the
        holder's connection (the server asks every few seconds, so a hold lost with its session
        is noticed at once rather than at the table's next write): each is :meth:`lost` until
        held anew."""
        import psycopg

        with self._lock:
            if not self._held:
                return set()
            conn = self._conn
            try:
                if conn is None or conn.closed or conn.broken:
                    raise psycopg.OperationalError("the holder's connection is gone")
                held = {int(row[0]) for row in conn.execute(_HELD_ALL).fetchall()}
            except psycopg.Error:
                if conn is not None:
                    conn.close()
                held = set()
            self._lost.update(game_id for game_id in self._held if game_id not in held)
            return self._lost & set(self._held)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()


__all__ = ["HolderSession", "Holds"]
