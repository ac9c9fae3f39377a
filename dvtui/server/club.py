"""The club at the table server: the ratings (:class:`~.rated.Rater`), the pool that seats strangers
(:class:`~.seeks.Seeks`) and the tournaments (:class:`~.arenaroom.ArenaRoom`), wired together and to
the server: their messages' handlers, what they do at the start, their background work, and what a
game's end and a connection's end tell them.

The ratings are folded in the background at the start (:meth:`~.rated.Rater.fold_in_background`),
so the server listens and serves its tables at once; what needs them waits for the fold, here: a
``ratings`` or ``profile`` request (in the rater), a seek (its seeker's rating places them in the
pool) and an ``arena_join`` (a tournament seats its people by their ratings). Waiting rather than
refusing keeps the wire as it is and gives the asker the folded answer without asking again; the
wait lasts only the first seconds after a start, and a connection waiting so is not idle.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar

from ..tables.clubwire import ArenaJoin, ArenaList, ArenaNew, ArenaShow, AskProfile, AskRatings, LeavePool, Seek
from ..tables.protocol import OpenTable
from .arenaroom import ArenaRoom
from .hall import Hall
from .live import Conn, LiveTable, RunsIO
from .pool import BotPool
from .rated import Rater
from .seeks import Opener, Seeks
from .stores.base import GameStore

M = TypeVar("M")
Handler = Callable[[Conn, Any], Awaitable[None]]


class Club:
    """The club's parts at the server (see the module's docstring). ``open_table``: the server's
    way of opening a table (the pool's and the tournaments' tables are opened so);
    ``rating_of``: what the pool matches people by (None: their ratings here)."""

    def __init__(
        self, store: GameStore, hall: Hall, bots: BotPool, open_table: Callable[[Opener, OpenTable], Awaitable[object]],
        run_io: RunsIO, log: Callable[[str], None], *, rating_of: Callable[[str], int | None] | None = None,
    ) -> None:  # fmt: skip
        self.hall = hall
        self.rater = Rater(store, run_io, log)
        """The ratings: each rated game's end kept once, folded (:mod:`.rated`)."""
        self.seeks = Seeks(
            open_table, rating_of or self.rater.matched_rating, lambda level: bots.budget.problem(level) is None,
            lambda name: name in hall.tables or name in hall.opening, log,
            paced=lambda identity: 0.0 if identity == os.geteuid() else hall.openings.spend(identity),
        )  # fmt: skip
        """The pool that seats strangers together ("Play now": ``seek``)."""
        shared = getattr(store, "arena_board", None)  # (a store several servers share: PostgreSQL)
        self.arenas = ArenaRoom(
            store, self.seeks, self._playing, self.seeks.rating_of, run_io, log,
            board=shared() if shared is not None else None, table_of=hall.tables.get,
        )  # fmt: skip
        """The tournaments, whose tables the pool's way opens (``arena_new``, ``arena_join``...)."""
        self._folding: Coroutine[Any, Any, None] | None = None

    def handlers(self) -> dict[type[Any], Handler]:
        """Each of the club's client messages, and its handler."""
        return {
            Seek: self._after_fold(self.seeks.seek), LeavePool: self.seeks.leave_pool,
            ArenaNew: self.arenas.new, ArenaJoin: self._after_fold(self.arenas.join), ArenaShow: self.arenas.show,
            ArenaList: self.arenas.listing, AskRatings: self._ratings, AskProfile: self._profile,
        }  # fmt: skip

    def start(self, tables: Sequence[LiveTable], kept: Sequence[str]) -> None:
        """At the start, before the server listens: the tournaments read (blocks), the ratings'
        fold begun (it runs with :meth:`works`)."""
        self.arenas.load()
        self._folding = self.rater.fold_in_background(tables, kept)

    def works(self) -> list[Coroutine[Any, Any, None]]:
        """The club's background work while the server listens: the start's fold, the pool's and the
        tournaments' rounds."""
        folding, self._folding = self._folding, None
        return [*([folding] if folding is not None else []), self.seeks.run(), self.arenas.run()]

    async def ended(self, table: LiveTable) -> None:
        """A game has just ended here: rated once (:meth:`.rated.Rater.ended`), scored in its tournament."""
        await self.rater.ended(table)
        await self.arenas.ended(table)

    def gone(self, conn: Conn) -> None:
        """A connection ended: it leaves the pool and its tournament's wait."""
        self.seeks.leave(conn)
        self.arenas.leave(conn)

    def _playing(self, name: str) -> bool:
        """Whether table ``name`` is being played here (neither over nor closed)."""
        table = self.hall.tables.get(name)
        return table is not None and not table.over and table.failed is None

    def _after_fold(self, handler: Callable[[Conn, M], Awaitable[None]]) -> Callable[[Conn, M], Awaitable[None]]:
        """``handler``, once the ratings are folded (see the module's docstring)."""

        async def handle(conn: Conn, message: M) -> None:
            await self.rater.ready.wait()
            await handler(conn, message)

        return handle

    async def _ratings(self, conn: Conn, message: AskRatings) -> None:
        """The leaderboard's first lines (:meth:`.rated.Rater.leaderboard`)."""
        conn.send(await self.rater.leaderboard(message))

    async def _profile(self, conn: Conn, message: AskProfile) -> None:
        """An account's rating and rated games (:meth:`.rated.Rater.profile`; none named: the asker's)."""
        conn.send(await self.rater.profile(message, conn.user))


__all__ = ["Club"]
