"""What the other servers on one database wrote, followed here (:class:`Following`).

The peers (:mod:`.peers`) say that something changed (a wake-up: ``lines NAME GAME NEXT``, ``record
NAME GAME``, ``table NAME``, ``presence NAME``, ``chat NAME GAME``, ``want NAME``, or ``*``); what
changed is read from the store, from what this server has, of the game it holds (by the store's
identity of the game, never by the table's name, which may be another game's by then): the lines
applied to the table (:meth:`~.live.LiveTable.apply_news`), a record taken if it is newer, who is at
a table through the others counted as present, a rematch dealt elsewhere followed into, a table
closed elsewhere closed here too. A server alone has peers that say nothing, and this never runs.
What it does to the connections here it says through what the server hands it (``wake``,
``deal_soon``, ``dealt``, ``let_go``), never through the server itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import partial

from ..i18n import N_
from ..store import GameFileError, SaveError
from .catchup import CatchUp
from .chat import Talk
from .followers import Followers
from .hall import Hall
from .live import Backing, Conn, LiveTable
from .operator import said

REDEAL_WAIT = 1.0
"""Seconds a server waits, when another put a finished table's game aside, for the rematch it may
be dealing there (its next game is made just after, and said by a ``table NAME`` of its own: the
wait ends with it), before it takes the table for gone."""


class Following:
    """This server following the others on its store (see the module's docstring). ``wake``: a
    table's bot started if one is to move; ``deal_soon``: its rematch dealt if everyone accepted;
    ``dealt``: everyone at a table follows into the game another server dealt there; ``let_go``: a
    connection no longer at a table."""

    def __init__(
        self, hall: Hall, backing: Backing, chats: Talk, followers: Followers, stopping: asyncio.Event,
        limited: Callable[[str, str], None], *, wake: Callable[[LiveTable], None],
        deal_soon: Callable[[LiveTable], None], dealt: Callable[[LiveTable, list[bytes]], None],
        let_go: Callable[[Conn], None],
    ) -> None:  # fmt: skip
        self.hall = hall
        self.backing = backing
        self.chats = chats
        self.followers = followers
        self.stopping = stopping
        self.limited = limited
        self.wake = wake
        self.deal_soon = deal_soon
        self.dealt = dealt
        self.let_go = let_go
        self.reads = CatchUp(hall, backing, followers, wake)
        """What the others wrote, read when someone here looks at the table (:mod:`.catchup`)."""
        self.reading: set[asyncio.Future[None]] = set()
        """What another server wrote, being read."""
        self.arena: Callable[[str], None] = lambda name: None
        """Told ``arena NAME``: tournament NAME changed through another server (the club's, once made)."""
        self.table_news: dict[str, asyncio.Event] = {}
        """Set by each ``table NAME`` heard, for a table whose rematch is awaited (:meth:`replaced_now`)."""

    async def chat_elsewhere(self, table: LiveTable) -> None:
        """What was said at ``table`` through the other servers, told here in the order kept."""
        async with table.chat_lock:
            heard = await self.backing.run_io(partial(self.chats.since, table.name, table.chat_seen, table.game_id))
            if self.hall.tables.get(table.name) is table:
                table.tell_chat(heard)

    def start(self) -> None:
        """Hear from the peers what the other servers wrote (a wake-up each time; what was
        written is read from the store, from the ``seq`` this server has)."""
        loop = asyncio.get_running_loop()
        heard: deque[str] = deque()
        here = threading.get_ident()

        def news(payload: str) -> None:  # on the loop, or in a thread of the store's
            heard.append(payload)
            if len(heard) > 1:  # (the loop is woken once for all it has not taken yet, not once each)
                return
            if threading.get_ident() == here:
                loop.call_soon(take)
            else:
                with contextlib.suppress(RuntimeError):  # (the loop is closed: the server has stopped)
                    loop.call_soon_threadsafe(take)

        def take() -> None:
            try:
                while heard:
                    self.news(heard.popleft())
            finally:  # (one that raised leaves the others to be taken still)
                if heard:
                    loop.call_soon(take)

        self.backing.peers.follow(news)

    def news(self, payload: str) -> None:
        if self.stopping.is_set() or self.remembered(payload):
            return
        task = asyncio.ensure_future(self.follow(payload))
        self.reading.add(task)
        task.add_done_callback(self.reading.discard)

    def remembered(self, payload: str) -> bool:
        """``lines NAME GAME NEXT`` of a table nobody here looks at: remembered, not read (True)."""
        if not payload.startswith("lines "):
            return False
        _kind, name, game, upto = _parsed(payload)
        table = self.hall.tables.get(name)
        if table is None or game is None or upto is None or game != table.game_id:
            return False
        return self.reads.remember(table, game, upto)

    async def follow(self, payload: str) -> None:
        """``lines NAME GAME NEXT``, ``record NAME GAME``, ``table NAME``, ``presence NAME``, ``chat
        NAME GAME``, or ``*`` (notifications may have been missed: every table here is checked for
        its name given to another game, as ``table NAME`` would have said, then read again from its
        ``seq``, with who is at it through the others). What is read is the game held here
        (``GAME``, the store's identity of a game, is news of that game only): a name may have
        been given to another game meanwhile, which ``table NAME`` says."""
        kind, name, game, upto = _parsed(payload)
        there = self.hall.tables.get(name)
        if there is not None and None not in (game, there.game_id) and game != there.game_id:
            return  # (news of another game given the table's name: `table NAME` says so)
        try:
            if kind == "*":  # a name given to another game meanwhile was said by a `table NAME` missed too
                await self.reads.read(list(self.hall.tables.values()))  # (every table from its seq, in one read)
                await asyncio.gather(*(self.replaced(table) for table in list(self.hall.tables.values())))
                for name in await self.backing.run_io(self.backing.store.names):
                    if name not in self.hall.tables:
                        await self.follow_table(name, None)
                for table in list(self.hall.tables.values()):
                    await self.record_elsewhere(table)
                    await self.presence_elsewhere(table)
                    await self.chat_elsewhere(table)
            elif kind == "record" and name in self.hall.tables:
                await self.record_elsewhere(self.hall.tables[name])
            elif kind == "chat" and name in self.hall.tables:
                await self.chat_elsewhere(self.hall.tables[name])
            elif kind == "presence" and name in self.hall.tables:
                await self.presence_elsewhere(self.hall.tables[name])
            elif kind == "want" and name in self.hall.tables:
                table = self.hall.tables[name]
                table.wanted = True  # (taken meanwhile, or about to be: let go after the decision)
                self.hall.rest(table)
            elif kind == "table" and name in self.hall.tables:
                if (news := self.table_news.get(name)) is not None:
                    news.set()
                await self.replaced(self.hall.tables[name])
            elif kind == "arena":  # (tournament NAME changed: told to the club's tournaments)
                self.arena(name)
            elif kind in ("lines", "table"):
                await self.follow_table(name, upto)
        except (GameFileError, SaveError, OSError) as e:
            self.limited("follow", said(N_("could not follow {news}: {error}")).format(news=repr(payload), error=e))

    async def record_elsewhere(self, table: LiveTable) -> None:
        """``table``'s record read again, taken if another server kept a newer one (a seat taken, a
        rematch turned down: the acceptances here are withdrawn)."""
        async with table.record_lock:  # (a change being kept here is compared with it)
            store = self.backing.store
            record, version = await self.backing.run_io(partial(store.versioned_record, table.name, table.game_id))
            if self.hall.tables.get(table.name) is table and version > table.record_version:
                table.adopt_record(record, version)
                self.deal_soon(table)

    async def presence_elsewhere(self, table: LiveTable) -> None:
        """Who is at ``table`` through the other servers, read again (they notify ``presence NAME``
        at each change, and a server that died is swept from it): counted as present here."""
        async with table.presence_lock:
            peers = self.backing.peers
            here = await self.backing.run_io(partial(peers.presence_elsewhere, table.name, table.game_id))
            seats = {h.seat: h for h in here if h.seat is not None and 0 <= h.seat < table.session.game.n}
            watching = sum(h.seat is None for h in here)
            if (seats, watching) != (table.elsewhere, table.watching_elsewhere):
                table.elsewhere, table.watching_elsewhere = seats, watching
                table.presence_soon()
                self.wake(table)  # (a stand-in plays only for a seat nobody is at)
                self.deal_soon(table)  # (the last acceptance of a rematch may have come through another)

    async def replaced(self, table: LiveTable) -> None:
        """Table ``table``'s game was put aside, or another dealt at its name, through another
        server (or this one), if the store's game is no longer the one here: the rematch of its
        finished game is followed into, and an unfinished game put aside was closed, as those here
        would be told by their own server; a finished game put aside otherwise (its name used for
        a new table, say) is no longer listed, and those at it stay there, as on one server. The
        table is then listed as the store has it."""
        async with table.replacing:
            await self.reads.catch_up(table)  # (whether its game ended, before it is judged closed or dealt)
            await self.replaced_now(table)

    async def replaced_now(self, table: LiveTable) -> None:
        name = table.name
        news = self.table_news[name] = asyncio.Event()  # (before the read: no later deal goes unheard)
        try:
            first = (await self.backing.run_io(partial(self.backing.store.lines_since, name, 0)))[:1]
            if not first and table.over:  # a rematch puts the finished game aside, then deals the next
                first = await self.redealt(name, news)
        finally:
            if self.table_news.get(name) is news:
                del self.table_news[name]
        if first == table.lines[:1] or name in self.hall.opening or self.hall.tables.get(name) is not table:
            return
        if first and table.over:
            fresh = await self.backing.run_io(partial(self.hall.reopened, name, None))
            if fresh is not None and fresh.record.game == table.record.game + 1:
                await self.follow_deal(table, fresh)
                return
        if not table.over:  # an unfinished game is put aside by its opener's close only
            self.closed_elsewhere(table)
        else:  # as on one server, whoever is at the finished game goes on looking at it, told nothing
            self.hall.retire(table)
            aside = said(N_("table {table}: its finished game was put aside through another server"))
            self.backing.log(aside.format(table=name))
        if first:
            await self.follow_table(name, None)

    async def redealt(self, name: str, news: asyncio.Event) -> list[bytes]:
        """The first line of table ``name``'s next game once another server has dealt it (empty:
        none within :data:`REDEAL_WAIT`): read again at each ``table NAME`` heard (the deal says
        one as it commits), not after a fixed wait, so that the people here follow a rematch as
        soon as those there."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + REDEAL_WAIT
        first: list[bytes] = []
        while not first and (left := deadline - loop.time()) > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(news.wait(), left)
            news.clear()
            first = (await self.backing.run_io(partial(self.backing.store.lines_since, name, 0)))[:1]
        return first

    async def follow_deal(self, table: LiveTable, dealt: LiveTable) -> None:
        """The rematch another server dealt at ``table`` (read as the table ``dealt``): everyone here
        follows into it, as at a rematch dealt here."""
        name = table.name
        async with table.lock:
            if self.hall.tables.get(name) is not table or table.lines[:1] == dealt.lines[:1]:
                return
            if table.playing:
                self.backing.store.rest(name, table.session)
            table.presence_soon.flush()  # (what is pending is the finished game's: before it goes)
            table.deal(dealt.session, dealt.record)
            table.lines, table.playing, table.active = dealt.lines, False, time.time()
            table.record_version, table.chat_seen = -1, dealt.chat_seen
            self.reads.missed.pop(table, None)  # (what was told of the finished game)
        follows = said(N_("table {table} deals game {number} (a rematch, through another server)"))
        self.backing.log(follows.format(table=name, number=table.record.game))
        self.dealt(table, dealt.lines)
        self.wake(table)

    def closed_elsewhere(self, table: LiveTable) -> None:
        """``table``'s unfinished game was put aside through another server (its opener closed it):
        everyone here is told so, as if it was closed here."""
        name = table.name
        self.hall.retire(table)
        table.halt("closed", f"table {name} was closed through another server; its game is kept, unfinished")
        for there in table.evict():
            self.let_go(there)
        self.backing.log(said(N_("table {table} was closed through another server")).format(table=name))

    async def follow_table(self, name: str, upto: int | None) -> None:
        """Table ``name`` caught up with what the others wrote (``upto``: its lines, as told)."""
        table = self.hall.tables.get(name)
        if table is None:  # opened through another server: listed here too
            if name not in self.hall.opening:
                table = await self.backing.run_io(partial(self.hall.reopened, name, None))
                if table is not None and name not in self.hall.tables:
                    self.hall.tables[name] = table
                    self.followers.changed(name)
                    await self.presence_elsewhere(table)
            return
        if upto is not None and table.next_seq >= upto:
            return
        await self.reads.read([table])  # (with every table told of meanwhile)


def _parsed(payload: str) -> tuple[str, str, int | None, int | None]:
    """A notification's kind, table name, game (the store's identity of the game it is news of;
    None: not said) and, for ``lines``, how many lines the game has now (None: not said).
    ``lines NAME GAME NEXT``; ``record``, ``chat`` and ``presence``: ``KIND NAME [GAME]``."""
    kind, *rest = payload.split(" ")
    name = rest[0] if rest else ""
    numbers = [int(word) for word in rest[1:3] if word.isdigit()]
    if kind == "lines":
        game, upto = (numbers[0], numbers[1]) if len(numbers) == 2 else (None, numbers[0] if numbers else None)
        return kind, name, game, upto
    return kind, name, numbers[0] if numbers and kind in ("record", "chat", "presence") else None, None


__all__ = ["REDEAL_WAIT", "Following"]
