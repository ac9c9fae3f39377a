"""The other servers on one PostgreSQL database, as a server's :class:`~dvtui.server.peers.Peers`.

What they wrote comes as notifications on the store's channel (:data:`~.pg.CHANNEL`: a wake-up only,
the rows are read from the ``seq`` a server has), who is at a table through them from the presence
rows (:mod:`.pgpresence`), and a table is held again for a decision with the lines written since
(the advisory lock of :meth:`~.pg.PgStore.take`). The store keeps the tables; these are only what
several servers need of each other, over the store's connections, stopped with it
(:meth:`~.pg.PgStore.close`).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...play.session import PlaySession
from ...store import GameLocked, SaveError
from ..keptroom import KeptSize, recount
from .base import Here
from .pg import CHANNEL, RETRY, PgStore, connect
from .pgerrors import DatabaseLost

if TYPE_CHECKING:
    import psycopg


class PgPeers:
    """The servers sharing ``store``'s database (see the module's docstring)."""

    def __init__(self, store: PgStore) -> None:
        self.store = store

    def follow(self, news: Callable[[str], None]) -> None:
        """Call ``news(payload)`` for each notification on :data:`CHANNEL` (on the running event
        loop, which reads the listening connection's socket), and ``news("*")`` (in a thread of
        the store's) each time listening (re)starts: notifications sent while it did not listen are
        lost, and a follower then reads every table from the ``seq`` it has."""
        loop = asyncio.get_running_loop()
        thread = threading.Thread(target=self._listen, args=(news, loop), name="dvtui-listen", daemon=True)
        thread.start()
        self.store.listener = thread
        self.store.presence.start(news)

    def _listen(self, news: Callable[[str], None], loop: asyncio.AbstractEventLoop) -> None:
        import psycopg

        store = self.store
        while not store.stopping.is_set():
            try:
                conn = connect(store.conninfo)
            except DatabaseLost:
                store.stopping.wait(RETRY)
                continue
            try:
                conn.execute(f"LISTEN {CHANNEL}")
                news("*")
                _heard(conn, store, news, loop)
            except (psycopg.Error, OSError, RuntimeError):  # (RuntimeError: the loop is closed)
                store.stopping.wait(RETRY)
            finally:
                conn.close()

    def tell_presence(self, name: str, here: list[Here], game: int | None = None) -> None:
        self.store.presence.tell(name, here, game)

    def presence_elsewhere(self, name: str, game: int | None = None) -> list[Here]:
        store = self.store

        def read() -> list[Here]:
            with store.pool.conn() as conn:
                return store.presence.elsewhere(conn, name, game)

        return store.patiently(read)

    def news(self, since: dict[int, int]) -> dict[int, list[bytes]]:
        return self.store.lines_since_many(since)

    def hold(self, name: str, session: PlaySession, seq: int) -> list[bytes]:
        """Hold table ``name`` again for a decision, ``session`` being its game at line ``seq``: the
        lines other servers wrote since (for the caller to apply), and the session given a writer
        that appends after them. Cheaper than :meth:`~.pg.PgStore.reopen` (the game is not read again).
        The game held is ``session``'s, never another that was given the table's name meanwhile:
        if its game has been put aside, it is not held (:class:`SaveError`)."""
        store = self.store
        game_id = store.game_id(session)
        if game_id is None:
            raise SaveError(f"table {name}: its game is not one of the database's")
        if not store.take(game_id, name):
            raise GameLocked(f"table {name}", None, "another server plays it")
        try:
            if store.name_of(game_id) != name:
                raise SaveError(f"table {name}: its game was put aside through another server")
            news = store.lines_since(name, seq, game_id)
        except BaseException:
            store.holds.release(game_id)
            raise
        session.write_again(seq + len(news))
        return news

    def recount(self, known: frozenset[str]) -> tuple[set[str], dict[str, KeptSize]]:
        return recount(self.store, known)

    def lost_holds(self) -> set[str]:
        return self.store.lost_holds()


def _heard(
    conn: psycopg.Connection[Any], store: PgStore, news: Callable[[str], None], loop: asyncio.AbstractEventLoop
) -> None:
    """Tell ``news`` each notification ``conn`` (listening) receives, until the store stops or the
    connection is lost. Its socket is read by ``loop`` as data comes, every notification that came
    at once at once: a follower is told of every move of every server, and a thread of its own
    waiting for each (then handing it to the loop) cost more than what the loop does with it."""
    import psycopg

    pgconn = conn.pgconn
    fd = pgconn.socket
    lost = threading.Event()

    def readable() -> None:  # (on the loop)
        try:
            pgconn.consume_input()
        except psycopg.Error:
            loop.remove_reader(fd)
            lost.set()
            store.stirred.set()
            return
        while (notification := pgconn.notifies()) is not None:
            pid = notification.be_pid
            if pid not in store.pool.pids and pid not in (store.presence.pid, store.holds.pid):  # (its own news
                news(notification.extra.decode("utf-8", "replace"))  # this server knows)

    removed = threading.Event()

    def remove() -> None:
        loop.remove_reader(fd)
        removed.set()

    loop.call_soon_threadsafe(loop.add_reader, fd, readable)
    try:
        while not store.stopping.is_set() and not lost.is_set():  # (either sets stirred)
            store.stirred.wait()
            store.stirred.clear()
    finally:
        loop.call_soon_threadsafe(remove)
        if not store.stopping.is_set():  # (the socket is the loop's until it lets it go: then closed)
            removed.wait(5)


__all__ = ["PgPeers"]
