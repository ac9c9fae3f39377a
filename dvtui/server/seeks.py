"""Play now: the server's side of ``seek`` (:class:`Seeks`). Who seeks is held in the pool
(:mod:`.matching`, which decides who sits with whom); here are the connections behind it: a seek
checked against its bounds (one per identity, so many in all), the pool matched as people come
and each second, each table it seats opened through the server's own way of opening a table (as
its own account's, so no person's quota pays for it), and everyone told: ``seeking`` each second
while they wait, ``matched`` with the table and the seat kept for them once seated.

It holds no table: what it opens is the hall's, and the people seated join it as any table.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from ..i18n import N_
from ..ratings import NEWCOMER
from ..tables.clock import TICK
from ..tables.clubwire import LeavePool, Matched, PoolLeft, Seek, Seeking
from ..tables.protocol import OpenTable
from ..tables.wire import Owner, encode
from .connection import Connection
from .live import Conn
from .matching import MOST_SEEKERS, Match, Pool, Seeker, bot_level, window
from .operator import said
from .refusal import owner_name
from .table import Refusal

MAX_SEAT_CHARS = 24
"""The longest seat name (a game file's bound): a longer account name is cut to it at the table."""
TABLE_PREFIX = "play-"
"""How the tables the pool opens are named: ``play-`` and eight hex digits at random."""


class Opener(Protocol):
    """Who opens a table: the identity that owns it as opener and the name the log says."""

    @property
    def identity(self) -> Owner: ...

    @property
    def user(self) -> str: ...


@dataclass(frozen=True)
class PoolOpener:
    """The pool opens its tables as the server's own account: the seated people own their seats,
    nobody owns the table (no person's quota of tables pays for a table they did not choose)."""

    identity: Owner
    user: str = "the pool"


def seat_names(people: list[str]) -> list[str]:
    """Each person's seat name at a table the pool opens: their name as the server shows it (a
    vouched person's may hold what a seat's may not: a comma, which separates seats, is a space),
    cut to a seat's length without spaces around, made unique (case aside) with a number when two
    cut alike. Only a name: the seat is kept for its person by the table's invitation."""
    names: list[str] = []
    for person in people:
        plain = " ".join(person.replace(",", " ").split())
        name = plain[:MAX_SEAT_CHARS].strip()
        n = 2
        while name.casefold() in (taken.casefold() for taken in names):
            suffix = f" {n}"
            name = plain[: MAX_SEAT_CHARS - len(suffix)].strip() + suffix
            n += 1
        names.append(name)
    return names


class Seeks:
    """The seekers' connections and the pool they wait in (see the module's docstring).

    ``open_table``: the server's way of opening a table, for ``opener``; ``rating_of``: a person's
    rating by the name the server shows them by (None: unrated, a newcomer); ``level_allowed``:
    whether the server's bots may play a level (its bound on thinking); ``taken``: whether a
    table name is in use; ``paced``: the seconds before an identity may open a table again (0: now,
    counted), since each seek may open one: a seek-and-leave loop is paced as opening tables is."""

    def __init__(
        self, open_table: Callable[[Opener, OpenTable], Awaitable[object]], rating_of: Callable[[str], int | None],
        level_allowed: Callable[[str], bool], taken: Callable[[str], bool], log: Callable[[str], None],
        *, paced: Callable[[Owner], float] = lambda identity: 0.0, most: int = MOST_SEEKERS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:  # fmt: skip
        self.open_table = open_table
        self.rating_of = rating_of
        self.level_allowed = level_allowed
        self.taken = taken
        self.paced = paced
        self.log = log
        self.most = most
        self.clock = clock
        self.pool = Pool()
        self.conns: dict[Owner, Conn] = {}
        """Each seeking identity's connection (one seek each)."""
        self.arrived = asyncio.Event()
        """Set when somebody joins the pool: it is matched at once rather than at the next tick."""
        self.opener = PoolOpener(os.geteuid())

    async def seek(self, conn: Conn, message: Seek) -> None:
        """``conn``'s identity joins the pool, or is refused (``busy``): it seeks already, or the
        pool is full."""
        sizes, wait = message.players, message.wait
        identity = conn.identity
        if identity in self.conns:
            raise Refusal("busy", f"{conn.person} seeks a game already: one seek at a time (leave the pool first)")
        if len(self.pool) >= self.most:
            raise Refusal("busy", f"the pool holds {self.most} seekers, as many as it may: try again soon")
        wait_more = self.paced(identity)
        if wait_more:
            raise Refusal("busy", f"{conn.person} has sought (or opened) many tables lately, as many as one may in a "
                          f"row: the next seek in {wait_more:.0f} s")  # fmt: skip
        rating = self.rating_of(owner_name(identity))
        seeker = Seeker(
            key=identity, rating=round(NEWCOMER.mu) if rating is None else rating, sizes=frozenset(sizes),
            rated=message.rated, move_time=message.move_time, wait=float(wait), since=self.clock(), ticket=conn,
        )  # fmt: skip
        self.pool.add(seeker)
        self.conns[identity] = conn
        conn.seeking = True
        seeks = said(N_("{user} seeks a game ({sizes} players, rating {rating}, bots after {wait} s)"))
        sized = "/".join(str(n) for n in sorted(sizes))
        self.log(seeks.format(user=conn.user, sizes=sized, rating=seeker.rating, wait=wait))
        self.tell(seeker, self.clock(), self.pool.sizes()[seeker.pool()])
        self.arrived.set()

    def leave(self, conn: Conn) -> bool:
        """``conn`` leaves the pool (a ``leave_pool``, or its connection ended); whether it was in it."""
        if self.conns.get(conn.identity) is not conn:
            return False
        del self.conns[conn.identity]
        self.pool.remove(conn.identity)
        conn.seeking = False
        self.log(said(N_("{user} left the pool")).format(user=conn.user))
        return True

    async def leave_pool(self, conn: Conn, message: LeavePool) -> None:
        """Answer ``leave_pool``: ``pool_left``, saying whether it was seeking."""
        conn.send(encode(PoolLeft(seeking=self.leave(conn))))

    def tell(self, seeker: Seeker, now: float, alike: int) -> None:
        """Tell ``seeker`` where they stand in the pool (``seeking``), ``alike`` seeking as they do."""
        _conn(seeker).send(encode(Seeking(
            players=sorted(seeker.sizes), rated=seeker.rated, move_time=seeker.move_time,
            wait_left=round(seeker.left(now), 1), pool=alike,
            window=window(now - seeker.since),
        )))  # fmt: skip

    async def run(self) -> None:
        """Match the pool whenever somebody comes, each second, and as a seeker's wait runs out
        (bots fill their seats then, not up to a second later); tell those still waiting. A round
        that fails is logged, and the next one comes as usual: the pool never stops. Those waiting
        are told each second however often people come (arrivals do not put it off)."""
        told = self.clock()
        while True:
            now = self.clock()
            pause = min(told + TICK - now, self.pool.soonest_over(now) or TICK)
            with contextlib.suppress(TimeoutError):  # (no task of its own: none is left pending at the end)
                async with asyncio.timeout(max(0.0, pause)):
                    await self.arrived.wait()
            self.arrived.clear()
            tell = self.clock() - told >= TICK
            if tell:
                told = self.clock()
            try:
                await self.round(tell=tell)
            except Exception as e:  # (a round's failure must not end the pool for everyone)
                self.log(said(N_("the pool's round failed: {error}")).format(error=repr(e)))

    async def round(self, *, tell: bool) -> None:
        """One round of matching: each table it seats opened, its people told; then (``tell``) those
        still waiting told where they stand."""
        now = self.clock()
        for match in self.pool.match(now, self._level):
            for seeker in match.people:
                conn = _conn(seeker)
                if self.conns.get(conn.identity) is conn:
                    del self.conns[conn.identity]
                conn.seeking = False
            await self.seat(match)
        if tell:
            now, alike = self.clock(), self.pool.sizes()
            for seeker in list(self.pool.seekers.values()):
                self.tell(seeker, now, alike[seeker.pool()])

    def _level(self, people: list[Seeker]) -> str:
        return bot_level((p.rating for p in people), self.level_allowed)

    async def seat(self, match: Match, *, arena: str | None = None) -> tuple[str, list[str | None]] | None:
        """Open the table ``match`` seats, its seats in a random order, each person's kept for them,
        and tell each where they sit (``arena``: the tournament that seats them, said in ``matched``);
        the table and whom each seat is kept for (None: a bot's). A table that cannot be opened is
        said to them as an error (None)."""
        people = [owner_name(_conn(s).identity) for s in match.people]
        entries: list[tuple[str, str | None]] = [
            *zip(seat_names(people), people, strict=True), *((f"bot:{level}", None) for level in match.bots),
        ]  # fmt: skip
        random.shuffle(entries)
        rated = match.people[0].rated
        message = OpenTable(
            table=self._name(), players=[name for name, _ in entries], invite=[who for _, who in entries],
            move_time=match.people[0].move_time, rated=rated,
        )  # fmt: skip
        try:
            await self.open_table(self.opener, message)
        except Exception as e:  # (a refusal, or a failure: those seated are told either way, never left waiting)
            refusal = e if isinstance(e, Refusal) else Refusal("server", repr(e))
            unseated = said(N_("the pool could not open a table for {people}: {error}"))
            self.log(unseated.format(people=", ".join(people), error=refusal.message))
            for seeker in match.people:
                conn = _conn(seeker)
                conn.error(refusal.code, f"the pool could not open your table: {refusal.message}", re="seek")
            return None
        seated = said(N_("the pool seated {people} at {table} (bots: {bots})"))
        self.log(seated.format(people=", ".join(people), table=message.table, bots=len(match.bots)))
        invited = [who for _, who in entries]
        for seeker, person in zip(match.people, people, strict=True):
            _conn(seeker).send(encode(Matched(
                table=message.table, seat=invited.index(person), players=match.size, bots=len(match.bots),
                rated=rated, arena=arena,
            )))  # fmt: skip
        return message.table, invited

    async def open_for(
        self, people: list[str], bots: list[str], *, rated: bool, move_time: int
    ) -> tuple[str, list[str | None]] | None:
        """Open a table for the accounts ``people`` and bots of ``bots``' levels, as :meth:`seat`
        does (seats in a random order, each person's kept for them), telling nobody: a
        tournament shared by several servers tells its people through whichever server they wait
        on. The table and whom each seat is kept for (None: a bot's); None if it cannot be opened
        (said in the log)."""
        entries: list[tuple[str, str | None]] = [
            *zip(seat_names(people), people, strict=True), *((f"bot:{level}", None) for level in bots),
        ]  # fmt: skip
        random.shuffle(entries)
        message = OpenTable(
            table=self._name(), players=[name for name, _ in entries], invite=[who for _, who in entries],
            move_time=move_time, rated=rated,
        )  # fmt: skip
        try:
            await self.open_table(self.opener, message)
        except Exception as e:  # (a refusal, or a failure: they wait on, to be seated at the next round)
            refusal = e if isinstance(e, Refusal) else Refusal("server", repr(e))
            unseated = said(N_("the pool could not open a table for {people}: {error}"))
            self.log(unseated.format(people=", ".join(people), error=refusal.message))
            return None
        seated = said(N_("the pool seated {people} at {table} (bots: {bots})"))
        self.log(seated.format(people=", ".join(people), table=message.table, bots=len(bots)))
        return message.table, [who for _, who in entries]

    def _name(self) -> str:
        """A table name nobody uses: ``play-`` and eight hex digits."""
        while True:
            name = f"{TABLE_PREFIX}{secrets.token_hex(4)}"
            if not self.taken(name):
                return name


def _conn(seeker: Seeker) -> Conn:
    """The connection a seeker of the server's pool seeks on."""
    conn = seeker.ticket
    assert isinstance(conn, Connection)
    return conn


__all__ = ["TABLE_PREFIX", "Opener", "PoolOpener", "Seeks", "seat_names"]
