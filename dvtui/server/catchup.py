"""What the other servers wrote at a table, read when someone here looks at it (:class:`CatchUp`).

A server that read every notified move's lines at every table, whether anyone was at it through
it or not, would pay for every move of every server, and two servers would hold no more than one.
So a server reads a table's lines as they are told only while the table is looked at here: somebody at it through this
server (a seat, a spectator, a bot played here), a lobby following the list, a rated game being
played or a tournament's table (its end is rated and scored by whichever server reads it first,
:mod:`.rated`, :mod:`.arenaroom`). For any
other table it only remembers what it was told (``lines NAME GAME NEXT``: how many lines the game
has, and when it was told), at no query; what it missed is read when it is needed: the table
listed, joined, watched, fetched, decided at or named by any request (:meth:`CatchUp.caught_up`),
looked at by the sweep, or put aside or dealt elsewhere. The decision's own path reads what was
written since its ``seq`` as it holds the table (:meth:`~.live.LiveTable.held`).

Reads are batched: every table wanted while a read is under way is read by the next, in one query
(:meth:`~.peers.Peers.news`) on one hop to a thread.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..tables.protocol import FollowTables, ListTables, OpenTable
from .followers import Followers
from .hall import Hall
from .live import Backing, Conn, LiveTable

Handler = Callable[[Conn, Any], Awaitable[None]]


@dataclass(frozen=True)
class Missed:
    """What a server was told of a table nobody here looks at, and did not read."""

    game: int
    """The store's identity of the game told of (news of the table's game only)."""
    upto: int
    """How many lines that game has, as told."""
    heard: float
    """When it was told, on the table's clock: its turn began then, not when the lines are read."""
    wall: float
    """The same, on the wall clock: when something was last played there (the sweep's measure)."""


class CatchUp:
    """The lines a server reads of what the others wrote (see the module's docstring). ``wake``:
    a table's bot started if one is to move, after its news."""

    def __init__(self, hall: Hall, backing: Backing, followers: Followers, wake: Callable[[LiveTable], None]) -> None:
        self.hall = hall
        self.backing = backing
        self.followers = followers
        self.wake = wake
        self.missed: dict[LiveTable, Missed] = {}
        """The tables told of and not read (nobody here looked at them)."""
        self.looking: Callable[[str], bool] = lambda name: False
        """Whether table NAME is looked at for something else than who is here (a rated game, a
        tournament's table being played: the server that ended it may die before counting it)."""
        self._wanted: dict[int, int] = {}
        """The games to read at the next read, each from its ``seq``."""
        self._batch: asyncio.Future[dict[int, tuple[int, list[bytes]]]] | None = None
        """Each game wanted now, the ``seq`` it was read from and its lines, once read (by the read
        after the one under way)."""
        self._reader: asyncio.Task[None] | None = None
        hall.catch_up = self.catch_up

    def looked_at(self, table: LiveTable) -> bool:
        """Whether what is written at ``table`` is read as soon as it is told (else remembered)."""
        return (
            any(table.seated) or bool(table.spectators) or not table.quiet() or len(self.followers) > 0
            or self.looking(table.name)
        )  # fmt: skip

    def remember(self, table: LiveTable, game: int, upto: int) -> bool:
        """Told that ``table``'s game ``game`` has ``upto`` lines: remembered, not read, if nobody
        looks at it here (True); False: it is to be read now."""
        if self.looked_at(table):
            return False
        if table.next_seq < upto:
            before = self.missed.get(table)
            now = time.time()
            upto = upto if before is None or before.game != game else max(upto, before.upto)
            self.missed[table] = Missed(game, upto, table.now(), now)
            table.active = now  # (somebody plays there: not a table nobody comes to)
        return True

    def behind(self, table: LiveTable) -> bool:
        """Whether ``table`` was told of lines it has not read."""
        missed = self.missed.get(table)
        return missed is not None and missed.upto > table.next_seq and missed.game == table.game_id

    async def catch_up(self, table: LiveTable) -> None:
        """``table`` read up to what it was told, if it is behind."""
        while self.behind(table) and self.hall.tables.get(table.name) is table:
            seq = table.next_seq
            await self.read([table])
            if table.next_seq == seq:  # (stopped, or put aside: nothing more to read into it)
                break
        if not self.behind(table):
            self.missed.pop(table, None)

    async def catch_up_all(self) -> None:
        """Every table here read up to what it was told (a list of them is asked for, say)."""
        for table in [table for table in self.missed if self.hall.tables.get(table.name) is not table]:
            del self.missed[table]  # (put aside meanwhile, or followed into its next game)
        await self.read([table for table in list(self.missed) if self.behind(table)])

    def caught_up(self, handle: Handler) -> Handler:
        """``handle`` with the tables its request names read first (every table, for a request
        that lists them or opens one, whose quota counts its opener's unfinished tables), and
        again after it if more was told meanwhile (one who joined while it was read is sent it)."""

        async def handled(conn: Conn, message: Any) -> None:
            name = getattr(message, "table", None)
            if isinstance(message, OpenTable) or (isinstance(message, ListTables | FollowTables) and name is None):
                await self.catch_up_all()
                await handle(conn, message)
                return
            table = self.hall.tables.get(name) if isinstance(name, str) else None
            if table is not None:
                await self.catch_up(table)
            await handle(conn, message)
            if table is not None:
                await self.catch_up(table)

        return handled

    async def read(self, tables: Iterable[LiveTable]) -> None:
        """``tables`` read from the ``seq`` each has, with every table wanted meanwhile, in one
        read of the store; the lines applied to each table (sent to everyone at it)."""
        asked = {
            table: (table.game_id, table.next_seq) for table in tables if self.hall.tables.get(table.name) is table
        }
        for table, (game, seq) in asked.items():
            if game is None:  # (a store that knows games by name alone)
                lines = await self.backing.run_io(partial(self.backing.store.lines_since, table.name, seq, None))
                await self._apply(table, None, seq, lines)
            else:
                self._wanted[game] = min(seq, self._wanted.get(game, seq))
        if all(game is None for game, _seq in asked.values()):
            return
        if self._batch is None:
            self._batch = asyncio.get_running_loop().create_future()
        batch = self._batch
        if self._reader is None or self._reader.done():
            self._reader = asyncio.ensure_future(self._reads())
        news = await asyncio.shield(batch)
        await asyncio.gather(  # (each under its table's lock: one held by a decision holds up no other)
            *(self._apply(table, game, *news[game]) for table, (game, _seq) in asked.items() if game in news)
        )

    async def _reads(self) -> None:
        """Read what is wanted, in one query, again while more was wanted meanwhile."""
        while self._wanted:
            since, self._wanted = self._wanted, {}
            batch, self._batch = self._batch, None
            assert batch is not None
            try:
                news = await self.backing.run_io(partial(self.backing.peers.news, since))
            except Exception as e:  # (told to each who waits for it: a read that failed, the database away)
                batch.set_exception(e)
                batch.exception()  # (retrieved: its waiters may have gone)
            except BaseException:
                if not batch.get_loop().is_closed():  # (a server stopped with the read under way: nobody waits)
                    batch.cancel()
                raise
            else:
                batch.set_result({game: (seq, news.get(game, [])) for game, seq in since.items()})

    async def _apply(self, table: LiveTable, game: int | None, seq: int, lines: list[bytes]) -> None:
        """``lines`` (``table``'s game's from ``seq`` on) applied to it, those it has not yet."""
        async with table.lock:
            if self.hall.tables.get(table.name) is not table or table.game_id != game or table.next_seq < seq:
                return
            news = lines[table.next_seq - seq :]
            table.apply_news(news)
            missed = self.missed.get(table)
            if missed is not None and missed.game == game:
                if news:  # its turn began when it was told, not now (and that is when it was last played)
                    table.lag(missed.heard - table.now())
                    table.active = missed.wall
                if table.next_seq >= missed.upto:
                    del self.missed[table]
            await table.told_if_ended(news)
        self.wake(table)


__all__ = ["CatchUp", "Missed"]
