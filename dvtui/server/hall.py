"""The hall: the server's tables by name and the games kept after them (:class:`Hall`).

It reopens the tables kept at the start (their files closed until somebody plays), lists them,
makes room for a new one (the opener's quota: a finished table nobody comes to is put aside), puts
a table aside (no longer listed, its name free, its game kept) and forgets the kept games whose
time is up, sweeping now and then for the tables nobody comes to. It holds no connection: what it
is asked for comes from the server's handlers, and what changes in the list it tells the list's
followers (:mod:`.followers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections import deque
from collections.abc import Awaitable, Callable
from functools import partial

from ..i18n import N_
from ..store import GameFileError, SaveError
from ..tables.clock import resumed_left, waiting_time
from ..tables.older import listed_for
from ..tables.protocol import Tables
from ..tables.tableinfo import ListedTable
from ..tables.wire import Owner, encode
from .chat import RECENT, Talk
from .clocks import AliveStamp
from .followers import Followers
from .keptroom import KeptRoom, KeptSize
from .limits import Limits
from .live import Backing, LiveTable
from .openings import Openings
from .operator import said
from .registry import TableLimits, expired, kept_info, page, put_aside_reason
from .stores.base import TableExists, normal_record
from .table import Refusal, owner_name
from .tableclock import record_bank


class Hall:
    """The tables of a server and its kept games (see the module's docstring)."""

    def __init__(
        self, backing: Backing, chats: Talk, followers: Followers, alive: AliveStamp, limits: Limits,
        table_limits: TableLimits,
    ) -> None:  # fmt: skip
        self.backing = backing
        self.chats = chats
        self.followers = followers
        self.alive = alive
        self.limits = limits
        self.table_limits = table_limits
        self.tables: dict[str, LiveTable] = {}
        self.kept: dict[str, ListedTable] = {}
        """The games kept after their tables, as ``list_tables`` with ``all`` shows them, by name."""
        self.kept_last: dict[str, float] = {}
        """When each kept game's last line was written: it is removed ``keep_days`` after."""
        self.kept_room = KeptRoom(limits.kept_bytes_per_opener, limits.kept_bytes_total)
        """The kept games' bytes, per opener and in all: at a cap, no new table of that opener."""
        self.openings = Openings(table_limits.opens_at_once, table_limits.opens_per_hour)
        """How fast each account opens tables (closing one frees its place in the quota, not its pace)."""
        self.opening: set[str] = set()
        """The names of the tables being opened or moved: no other table takes them meanwhile."""
        self.catch_up: Callable[[LiveTable], Awaitable[None]] = _read_already
        """A table read up to what the other servers wrote there (:mod:`.catchup`; on one server,
        it has read it all already)."""

    def reopen_all(self) -> None:
        """Every table kept, over or not, each with its files closed until somebody plays there
        (opened once here, so a torn tail is repaired before any line is sent)."""
        alive = self.alive.last()
        for name in self.backing.store.names():
            table = self.reopened(name, alive)
            if table is not None:
                self.tables[name] = table
                table.stop_if_full()

    def reopened(self, name: str, alive: float | None) -> LiveTable | None:
        """Table ``name`` read from the store, its files closed (None: it cannot be read, and is
        left alone). Blocks: off the loop once the server listens."""
        try:
            session, lines, record = self.backing.store.reopen(name)
        except (GameFileError, SaveError, OSError) as e:
            self.backing.log(said(N_("table {name} not reopened: {error}")).format(name=name, error=e))
            return None
        record = normal_record(record, session.game.n)
        left = None
        if record.move_time is not None:  # the turn's time used while a server ran is gone, never given back
            # the turn began with the game's last line; the first one, when the record said the game began
            began = self.backing.store.game_written(name) if len(lines) > 1 else self.backing.store.last_active(name)
            whole = record.move_time if record.started else waiting_time(record.move_time)
            whole += record_bank(record, None if session.game.over or not record.started else session.game.to_move)
            left = resumed_left(whole, began, alive, time.time())
        table = LiveTable(name, session, lines, record, self.backing, self.limits.presence_tick, left)
        table.relisted = self.followers.changed
        heard = self.chats.recent(name, table.game_id)
        table.chat, table.chat_seen = deque(heard.lines, maxlen=RECENT), heard.seen
        table.active = self.backing.store.last_active(name)
        self.backing.store.rest(name, session)
        table.playing = False
        for notice in session.notices:
            self.backing.log(notice)
        self.backing.log(said(N_("table {name} reopened at line {line}")).format(name=name, line=table.next_seq))
        return table

    def keep_all(self) -> None:
        """Every game kept after its table: listed (``all``) until its time is up, then removed."""
        for kept in self.backing.store.kept():
            self.keep(kept, self.read_kept(kept))
        for kept in self.expired():
            if self.forget(kept):
                del self.kept[kept], self.kept_last[kept]
                self.followers.changed(kept)
                self.kept_room.remove(kept)

    def read_kept(self, kept: str) -> tuple[ListedTable, float, KeptSize] | None:
        """Kept game ``kept`` as listed, when its last line was written, and what it counts against
        its opener (None: it does not read, and is left alone, unlisted). Blocks: off the loop once
        the server listens."""
        try:
            loaded, last = self.backing.store.read_kept(kept)
        except (GameFileError, SaveError, OSError) as e:  # (gone from a shared store meanwhile: SaveError)
            self.backing.log(said(N_("kept game {kept} cannot be read: {error}")).format(kept=kept, error=e))
            return None
        try:  # its table's record, kept beside it: who sat where
            record = self.backing.store.record(kept)
        except (SaveError, OSError):
            record = None
        users = [] if record is None else [None if o is None else owner_name(o) for o in record.owners]
        invited = [] if record is None else [None if o is None else owner_name(o) for o in record.kept_for]
        try:
            size = KeptSize(None if record is None else record.opener, self.backing.store.kept_size(kept))
        except (SaveError, OSError):
            size = KeptSize(None if record is None else record.opener, 0)
        if record is None:
            return kept_info(kept, loaded.game, last, users, invited), last, size
        opener = None if record.opener is None else owner_name(record.opener)
        listed = kept_info(kept, loaded.game, last, users, invited, number=record.game, move_time=record.move_time,
                           opener=opener)  # fmt: skip
        return listed, last, size

    def keep(self, kept: str, read: tuple[ListedTable, float, KeptSize] | None) -> None:
        if read is not None:
            self.kept[kept], self.kept_last[kept], size = read
            self.kept_room.add(kept, size)
            self.followers.changed(kept)

    def expired(self) -> list[str]:
        """The kept games whose last line is older than the server keeps games (a table in play
        is never one: only games put aside are kept games)."""
        now = time.time()
        return [kept for kept, last in self.kept_last.items() if expired(last, now=now, limits=self.table_limits)]

    def forget(self, kept: str) -> bool:
        """Remove kept game ``kept`` (blocks: called off the loop once the server listens)."""
        try:
            self.backing.store.forget(kept)
        except OSError as e:
            self.backing.log(said(N_("kept game {kept} could not be removed: {error}")).format(kept=kept, error=e))
            return False
        removed = said(N_("kept game {kept} removed: its last line is over {days} days old"))
        self.backing.log(removed.format(kept=kept, days=f"{self.table_limits.keep_days:g}"))
        return True

    async def forget_expired(self) -> None:
        for kept in self.expired():
            if await self.backing.run_io(partial(self.forget, kept)):
                self.kept.pop(kept, None)
                self.kept_last.pop(kept, None)
                self.followers.changed(kept)
                self.kept_room.remove(kept)

    async def sweep(self) -> None:
        """Put aside, now and then, the tables nobody comes to (see :func:`put_aside_reason`)."""
        while True:
            for table in list(self.tables.values()):
                if self._aside_why(table) is None:
                    continue
                await self.catch_up(table)  # (what another server wrote there: its game ended, say)
                why = self._aside_why(table)
                if why is not None:
                    await self.put_aside(table, why)
            await self.forget_expired()
            known = self.kept_room.names()  # the games kept through the other servers count too
            self.kept_room.apply(*await self.backing.run_io(partial(self.backing.peers.recount, known)))
            await asyncio.sleep(self.table_limits.sweep)

    def _aside_why(self, table: LiveTable) -> str | None:
        """Why the sweep puts ``table`` aside now (None: it does not)."""
        return put_aside_reason(
            present=table.anyone_here() or not table.quiet(),
            taken=any(owner is not None for owner in table.record.owners),
            quiet_for=time.time() - table.active, limits=self.table_limits,
        )  # fmt: skip

    def listed_info(self, name: str, kept: bool) -> ListedTable | None:
        """Table ``name`` as listed (``kept``: or kept game ``name``); None: there is none."""
        table = self.tables.get(name)
        if table is not None:
            return table.info()
        return self.kept.get(name) if kept else None

    def listing(
        self, features: frozenset[str], name: str | None, *, kept: bool, after: str | None, limit: int | None
    ) -> bytes:
        """One page of the tables as a client of ``features`` reads it (``kept``: with the games
        kept after them), or table ``name`` alone: a line of the protocol whatever their number."""
        if name is not None:
            table = self.tables.get(name)
            return encode(Tables(tables=[] if table is None else [listed_for(table.info(), features)]))
        if not kept:
            names = sorted(self.tables)
            return page(names, lambda name: listed_for(self.tables[name].info(), features), after=after, limit=limit)

        def info(name: str) -> ListedTable:
            table = self.tables.get(name)
            return listed_for(table.info() if table is not None else self.kept[name], features)

        names = sorted({*self.tables, *self.kept})  # a table's kept games follow it: "t" < "t.2026-..."
        return page(names, info, after=after, limit=limit)

    def room_to_keep(self, opener: Owner | None, user: str, what: str) -> None:
        """Refuse what would make one more kept game of ``opener``'s tables once its kept games, or
        the server's, are at their cap (:mod:`.keptroom`; the server's own account has none)."""
        if opener is None or opener == os.geteuid():
            return
        full = self.kept_room.full(opener, owner_name(opener))
        if full is not None:
            raise Refusal("bad_setup", f"{user} cannot {what}: {full}. `dvtui tables --all` lists the kept games; "
                          f"each is removed {self.table_limits.keep_days:g} days after its last line, or sooner "
                          "by the server's operator")  # fmt: skip

    async def room_for(self, identity: Owner, user: str, replaced: LiveTable | None) -> None:
        """Make room for one more table of ``identity``'s, named ``user`` (``replaced``: the finished one it takes the
        name of), or refuse. At its quota, its finished table nobody has been at for longest is put
        aside to make room; with none, it is refused. The server's own account has no quota (on a
        personal server it is the only one; on a shared one, its operator)."""
        if identity == os.geteuid():
            return
        mine = [t for t in self.tables.values() if t.record.opener == identity and t is not replaced]
        if len(mine) < self.table_limits.per_opener:
            return
        done = sorted((t for t in mine if t.over and not t.anyone_here() and t.quiet()), key=lambda t: t.active)
        if not done:
            raise Refusal("bad_setup", f"{user} has {len(mine)} unfinished tables at this server, as many as "
                          "one may open: finish one, or let it be put aside (a table nobody comes to is)")  # fmt: skip
        await self.put_aside(done[0], f"{user} opened another table")

    def retire(self, table: LiveTable) -> None:
        """``table`` is no longer listed: its files are closed; whoever is still at it keeps what they
        have (a spectator of a finished game goes on looking at it)."""
        if self.tables.get(table.name) is table:
            del self.tables[table.name]
            table.told, table.listed = [], False
            self.followers.changed(table.name)
            self.backing.peers.tell_presence(table.name, [])  # (its name may be a new table's: nobody is there)
        if table.playing:
            self.backing.store.rest(table.name, table.session)
            table.playing = False

    async def put_aside(self, table: LiveTable, why: str, *, keep: bool = True) -> None:
        """Archive ``table``: no longer listed, its name free, its game kept in the games directory
        (``keep`` False: removed, a game closed before anybody decided anything in it)."""
        name = table.name
        if self.tables.get(name) is not table or name in self.opening:
            return
        self.retire(table)
        self.opening.add(name)  # no table of that name opens while its file moves
        try:
            aside = await self.backing.run_io(lambda: self.backing.store.archive(name))
        except OSError as e:
            unmoved = said(N_("table {table} could not be put aside ({why}): {error}"))
            self.backing.log(unmoved.format(table=name, why=why, error=e))
            return
        finally:
            self.opening.discard(name)
        kept = aside.removesuffix(".dvr")
        if not keep:
            with contextlib.suppress(OSError, ValueError):
                await self.backing.run_io(partial(self.backing.store.forget, kept))
                removed = said(N_("table {table} removed ({why}): nobody made a decision there"))
                self.backing.log(removed.format(table=name, why=why))
                return
        self.backing.log(
            said(N_("table {table} put aside ({why}): its game is {game}")).format(table=name, why=why, game=aside)
        )
        self.keep(kept, await self.backing.run_io(partial(self.read_kept, kept)))

    async def deal_again(self, table: LiveTable) -> tuple[list[bytes], str] | None:
        """Deal the rematch at ``table`` if it is still this server's to deal: its finished game is
        put aside and kept in its history, the next game is dealt with the same seats. The new
        game's lines and the file its finished game is now (None: not dealt; if it could not be,
        the table is stopped, saying why)."""
        name = table.name
        async with table.lock:
            if not table.deals_here() or self.tables.get(name) is not table:
                return None
            created = table.next_game()
            if table.playing:
                self.backing.store.rest(name, table.session)
                table.playing = False
            self.opening.add(name)  # no table of that name opens while its files move
            try:
                aside = await self.backing.run_io(lambda: self.backing.store.archive(name))
                record = table.next_record(aside)
                session, lines = await self.backing.run_io(lambda: self.backing.store.create(name, created, record))
            except (TableExists, SaveError, OSError) as e:
                table.halt("server", f"table {name} could not deal its rematch: {e}")
                self.backing.log(
                    said(N_("table {table} could not deal its rematch: {error}")).format(table=name, error=e)
                )
                return None
            finally:
                self.opening.discard(name)
            table.presence_soon.flush()  # (what is pending is the finished game's: before it goes)
            table.deal(session, record)
            table.record_version = table.chat_seen = 0  # (the new game's, as the store made them)
            table.lines, table.playing, table.active = lines, True, time.time()
        dealt = said(N_("table {table} deals game {number} (a rematch); game {previous} is {game}"))
        self.backing.log(dealt.format(table=name, number=record.game, previous=record.game - 1, game=aside))
        return lines, aside

    async def keep_game(self, aside: str) -> None:
        """The game put aside as file ``aside`` listed as a kept game, as after a restart."""
        kept = aside.removesuffix(".dvr")
        self.keep(kept, await self.backing.run_io(partial(self.read_kept, kept)))

    async def game_lines(self, identity: Owner, name: str, game: int) -> list[bytes]:
        """Table ``name``'s game number ``game``, for ``identity``: the current one's lines as a
        watch sends them, an earlier one's from the file the table's history names; a kept game's,
        to who sat at it."""
        if name in self.kept:
            return await self._kept_lines(identity, name, game)
        table = self.table(name)
        current = table.record.game
        if game == current:
            return list(table.lines)
        aside = table.earlier_game(game)
        if aside is None:
            kept = table.record.game - len(table.record.history)
            raise Refusal("no_table", f"table {table.name} keeps games {kept} to {current}, not {game}")
        try:
            data = await self.backing.run_io(partial(self.backing.store.game_bytes, aside))
        except OSError as e:
            raise Refusal("no_table", f"table {table.name}'s game {game} is gone: {e}") from None
        return data.splitlines(keepends=True)

    async def _kept_lines(self, identity: Owner, name: str, game: int) -> list[bytes]:
        """Kept game ``name``'s lines, for the people who sat at it (a seat's owner, or whom a seat
        nobody took was kept for) and the server's own account: a closed table's game is theirs
        to replay, never anybody's who lists it."""
        info = self.kept[name]
        me = owner_name(identity)
        sat = any(seat.user == me or (seat.user is None and seat.kept_for == me) for seat in info.seats)
        if not sat and identity != os.geteuid():
            raise Refusal("not_seated", f"only who sat at kept game {name} may fetch it")
        if game != info.game:
            raise Refusal("no_table", f"kept game {name} is game {info.game} of its table, not {game}")
        try:
            data = await self.backing.run_io(partial(self.backing.store.game_bytes, f"{name}.dvr"))
        except (OSError, SaveError) as e:
            raise Refusal("no_table", f"kept game {name} is gone: {e}") from None
        return data.splitlines(keepends=True)

    def rest(self, table: LiveTable) -> None:
        """Close the table's files while nobody plays there (a listed table costs no descriptor),
        or once no decision is being made there when another server wants to make the next."""
        resting = table.quiet() or (table.wanted and not table.lock.locked())
        if table.playing and resting and self.tables.get(table.name) is table:
            table.wanted = False
            self.backing.store.rest(table.name, table.session)
            table.playing = False

    def table(self, name: str) -> LiveTable:
        table = self.tables.get(name)
        if table is None:
            raise Refusal("no_table", f"no table {name} (see 'dvtui tables')")
        return table


async def _read_already(table: LiveTable) -> None:
    return None


__all__ = ["Hall"]
