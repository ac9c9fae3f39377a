"""Tournaments at the server: the connections behind :mod:`.arenas`' rules. It opens a tournament
(``arena_new``, within its bounds), holds who is free to be seated in each (``arena_join``: one
waits on its connection, as a seeker does), seats them each second and whenever somebody comes, by
the standings, through the pool's own way of opening a table (:meth:`.seeks.Seeks.seat`), scores
each of its tables once its game ends (:meth:`ArenaRoom.ended`), tells those waiting the standings
each time they change, and keeps each tournament in the server's store (files, or PostgreSQL: one
record a tournament), so its standings outlive the server: listed and shown after the event.

On a store several servers share (PostgreSQL, :mod:`.stores.pgarenas`), a tournament is run through
all of them alike: its record is changed only in place of the version it was read at (a
compare-and-swap: a game's points, taken off its table's entry, count once), who waits through
each server is kept there, one server at a time pairs it (the one holding its lock; another takes
over if it dies, and the one that opens it pairs it first), and each server reads the tournaments'
versions as soon as it is told of a change through another (``arena NAME``, :meth:`ArenaRoom.heard`),
telling its own people the standings when they change and ``matched`` when they are seated through
another; the pairing server is told so of each wait through another server, and pairs at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import TYPE_CHECKING, TypeVar

import msgspec

from ..engine import GameEnded
from ..i18n import N_
from ..ratings import NEWCOMER, places
from ..store import SaveError
from ..tables.clock import TICK
from ..tables.clubwire import (
    ArenaJoin,
    ArenaList,
    ArenaNew,
    Arenas,
    ArenaShow,
    ArenaStandings,
    ArenaSummary,
    Matched,
)
from ..tables.wire import encode, is_table_name
from .arenas import (
    BOT_WAIT,
    MOST_LISTED,
    MOST_PARTICIPANTS,
    MOST_PER_ACCOUNT,
    MOST_RUNNING,
    ArenaRecord,
    bots_for,
    seating,
)
from .live import Conn, LiveTable, RunsIO
from .matching import Match, Seeker, bot_level
from .operator import said
from .refusal import owner_name
from .seeks import Seeks
from .stores.base import GameStore
from .table import Refusal

if TYPE_CHECKING:
    from .stores.pgarenas import PgArenas

_T = TypeVar("_T")
ROUNDS = TICK
"""Seconds between the rounds when nothing is told: what no message or notification says is seen
within it (a tournament's time up, the bots' wait, a pairing server gone and its lock free, a
notification missed while the database was away). A second: a round costs two short reads."""
TRIES = 5
"""Times a change of a shared tournament is made again on the record another server changed first."""
_decoder = msgspec.json.Decoder(ArenaRecord)
_encoder = msgspec.json.Encoder()


def _iso(stamp: float | None) -> str | None:
    if stamp is None:
        return None
    return datetime.fromtimestamp(stamp, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class ArenaRoom:
    """The server's tournaments (see the module's docstring). ``seeks``: the pool, whose way of
    seating a table is used; ``playing``: whether a table of that name is being played here (not
    over, not closed); ``rating_of``: a person's rating (None: a newcomer), for the bots' level."""

    def __init__(
        self, store: GameStore, seeks: Seeks, playing: Callable[[str], bool], rating_of: Callable[[str], int | None],
        run_io: RunsIO, log: Callable[[str], None], *, clock: Callable[[], float] = time.time,
        bot_wait: float = BOT_WAIT, board: PgArenas | None = None,
        table_of: Callable[[str], LiveTable | None] = lambda name: None,
    ) -> None:  # fmt: skip
        self.store = store
        self.seeks = seeks
        self.playing = playing
        self.rating_of = rating_of
        self.run_io = run_io
        self.log = log
        self.clock = clock
        self.bot_wait = bot_wait
        self.records: dict[str, ArenaRecord] = {}
        """Every tournament, by its name folded to lower case (two names alike but for case are one)."""
        self.waiting: dict[str, dict[str, tuple[Conn, float]]] = {}
        """Who is free to be seated, per tournament: account -> its connection, and since when."""
        self.watching: dict[str, set[Conn]] = {}
        """Who follows each tournament's standings (``arena_show`` with ``follow``) until it is over."""
        self.arrived = asyncio.Event()
        self.board = board
        """The tournaments as the servers on a shared store share them (None: this server's alone)."""
        self.table_of = table_of
        self.versions: dict[str, int] = {}
        """Each shared tournament's version as last read here."""
        self.before: dict[tuple[str, str], set[str]] = {}
        """(tournament, account) waiting here -> the tables of it they were at as they came (their
        ``matched`` is for another)."""
        self._tasks: set[asyncio.Task[None]] = set()

    # -- the store ---------------------------------------------------------------------------------

    def load(self) -> None:
        """Every tournament the store keeps (blocks: at the start); one that does not read, or
        names another than the one it is kept as, is said in the log and left out (a store that
        cannot be read now leaves them all out, said too: the tables are served all the same)."""
        left_out = said(N_("tournament {name} is left out: {error}"))
        try:
            kept = self.store.arenas()
        except (SaveError, OSError) as e:
            self.log(said(N_("the tournaments cannot be read now: {error}")).format(error=e))
            return
        for name, data in kept:
            try:
                record = _decoder.decode(data)
                if record.name != name or not is_table_name(record.name):  # (where it is kept again)
                    raise ValueError(f"it names tournament {record.name!r}")
            except (ValueError, msgspec.DecodeError, msgspec.ValidationError) as e:
                self.log(left_out.format(name=name, error=e))
                continue
            self.records[record.name.casefold()] = record

    async def save(self, record: ArenaRecord) -> None:
        """Keep ``record`` (a failure is said in the log: it is kept again at its next change)."""
        data = _encoder.encode(record)
        try:
            await self.run_io(lambda: self.store.keep_arena(record.name, data))
        except (SaveError, OSError) as e:
            self.log(said(N_("tournament {name} is not kept now: {error}")).format(name=record.name, error=e))

    async def change(
        self, record: ArenaRecord, change: Callable[[ArenaRecord], _T], seated: list[str] | None = None
    ) -> tuple[ArenaRecord, _T] | None:
        """``change`` made to ``record`` and kept: the record as kept and what ``change`` gave. On a
        shared store, made on the record as last kept and kept only in place of its version (made
        again on the one another server kept first); ``seated``: the accounts whose waits it ends,
        each still waiting. None: it could not be kept (said in the log)."""
        if self.board is None:
            result = change(record)
            await self.save(record)
            return record, result
        key = record.name.casefold()
        for _ in range(TRIES):
            fresh = _decoder.decode(_encoder.encode(record))
            result = change(fresh)
            data = _encoder.encode(fresh)
            try:
                version = await self.run_io(
                    partial(self.board.swap, record.name, data, self.versions.get(key, 0), seated)
                )
                if version is not None:
                    self.records[key], self.versions[key] = fresh, version
                    return fresh, result
                kept = await self.run_io(partial(self.board.read, record.name))
            except Exception as e:  # (the database away past its patience, or refusing)
                self.log(said(N_("tournament {name} is not kept now: {error}")).format(name=record.name, error=e))
                return None
            if kept is None:
                return None
            record = _decoder.decode(kept[0])
            self.records[key], self.versions[key] = record, kept[1]
        return None

    async def sync(self) -> None:
        """Read the shared tournaments changed through the other servers: those waiting and
        following here are told the new standings, those seated meanwhile their table, and those
        of a tournament now over its end."""
        if self.board is None:
            return
        for name, version in (await self.run_io(self.board.versions)).items():
            key = name.casefold()
            if self.versions.get(key) == version:
                continue
            kept = await self.run_io(partial(self.board.read, name))
            if kept is None:
                continue
            try:
                record = _decoder.decode(kept[0])
            except (msgspec.DecodeError, msgspec.ValidationError) as e:
                self.log(said(N_("tournament {name} is left out: {error}")).format(name=name, error=e))
                continue
            known = key in self.versions
            self.records[key], self.versions[key] = record, kept[1]
            if known:
                self.tell(record)
            if record.ended is not None:
                self._over(record)

    def matched(self, record: ArenaRecord) -> None:
        """Those waiting here whom ``record`` seats at a table already being played here are told
        where (``matched``), and wait no more."""
        key = record.name.casefold()
        waiting = self.waiting.get(key, {})
        for table, invited in record.tables.items():
            if not self.playing(table):
                continue
            for seat, account in enumerate(invited):
                if account is None or account not in waiting or table in self.before.get((key, account), set()):
                    continue
                conn, _since = waiting.pop(account)
                self.before.pop((key, account), None)
                conn.seeking = False
                conn.send(encode(Matched(
                    table=table, seat=seat, players=len(invited), bots=invited.count(None), rated=record.rated,
                    arena=record.name,
                )))  # fmt: skip

    def _in_background(self, work: Callable[[], object]) -> None:
        """``work`` run off the loop, not awaited (its failure said in the log)."""

        async def run() -> None:
            try:
                await self.run_io(work)
            except Exception as e:
                self.log(said(N_("the tournaments' round failed: {error}")).format(error=repr(e)))

        task = asyncio.ensure_future(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- requests ----------------------------------------------------------------------------------

    async def _known(self, name: str) -> ArenaRecord:
        """Tournament ``name``; on a shared store, read again first if it is not known here yet
        (opened through another server within the second)."""
        if self.board is not None and name.casefold() not in self.records:
            await self.sync()
        return self._record(name)

    def _record(self, name: str) -> ArenaRecord:
        record = self.records.get(name.casefold())
        if record is None:
            raise Refusal("no_arena", f"no tournament {name} here (see 'dvtui tournament list')")
        return record

    def standings(self, record: ArenaRecord) -> bytes:
        now = self.clock()
        return encode(ArenaStandings(
            name=record.name, state=record.state(now), ends_in=round(max(0.0, record.ends - now), 1),
            players=record.players, rated=record.rated, move_time=record.move_time, tables=len(record.tables),
            standings=record.lines(), ended=_iso(record.ended),
        ))  # fmt: skip

    async def new(self, conn: Conn, message: ArenaNew) -> None:
        """Open tournament ``message.name`` now, within the bounds: a name nobody used, so many
        running on the server and per account."""
        if message.name.casefold() in self.records:
            raise Refusal("arena_exists", f"tournament {message.name} exists already: choose another name")
        running = [r for r in self.records.values() if r.ended is None]
        if len(running) >= MOST_RUNNING:
            raise Refusal("busy", f"{MOST_RUNNING} tournaments are running here, as many as may: try again later")
        mine = sum(1 for r in running if r.opener == conn.user)
        if mine >= MOST_PER_ACCOUNT:
            raise Refusal("busy", f"{conn.user} runs {mine} tournaments already, as many as one may at once")
        now = self.clock()
        record = ArenaRecord(
            name=message.name, opener=conn.user, started=now, ends=now + message.seconds,
            players=sorted(set(message.players)), rated=message.rated, move_time=message.move_time,
        )  # fmt: skip
        if self.board is not None:  # (kept only if no server has one of that name; paired here first)
            first = await self.run_io(partial(self.board.pairs, record.name))
            version = await self.run_io(partial(self.board.swap, record.name, _encoder.encode(record), 0))
            if version is None:
                if first:
                    await self.run_io(partial(self.board.done, record.name))
                raise Refusal("arena_exists", f"tournament {message.name} exists already: choose another name")
            self.versions[record.name.casefold()] = version
            self.records[record.name.casefold()] = record
        else:
            self.records[record.name.casefold()] = record
            await self.save(record)
        opened = said(N_("{user} opened tournament {name} ({seconds} s)"))
        self.log(opened.format(user=conn.user, name=record.name, seconds=message.seconds))
        conn.send(self.standings(record))

    async def join(self, conn: Conn, message: ArenaJoin) -> None:
        """``conn``'s person is free to be seated in the tournament: the standings now, then
        ``matched`` once seated (or, once it is over, its final standings)."""
        record = await self._known(message.name)
        account = owner_name(conn.identity)
        if record.state(self.clock()) == "finishing":  # no table starts: one hears the end, as a spectator
            await self.show(conn, ArenaShow(name=record.name, follow=True))
            return
        if record.ended is None:
            for table, seated in record.tables.items():
                if account in seated and self.playing(table):
                    raise Refusal("busy", f"{account} plays at table {table} of tournament {record.name}: "
                                  f"finish it first (dvtui join {table})")  # fmt: skip
            elsewhere = conn.identity in self.seeks.conns  # (in the pool, from another connection)
            if conn.seeking or elsewhere or any(account in waiting for waiting in self.waiting.values()):
                raise Refusal("busy", f"{account} waits to be seated already: one wait at a time")
            known = any(p.account == account for p in record.participants)
            if not known and len(record.participants) >= MOST_PARTICIPANTS:
                raise Refusal("busy", f"tournament {record.name} has {MOST_PARTICIPANTS} people, as many as it may")
            if not known:
                changed = await self.change(record, lambda r: r.participant(account))
                record = record if changed is None else changed[0]
                self.log(said(N_("{user} joined tournament {name}")).format(user=conn.user, name=record.name))
                self.tell(record)
            key, since = record.name.casefold(), self.clock()
            self.waiting.setdefault(key, {})[account] = (conn, since)
            self.before[(key, account)] = {table for table, seated in record.tables.items() if account in seated}
            conn.seeking = True
            if self.board is not None:  # (every server's people are paired together)
                await self.run_io(partial(self.board.wait, record.name, account, since))
            self.arrived.set()
        conn.send(self.standings(record))

    async def show(self, conn: Conn, message: ArenaShow) -> None:
        """The standings; with ``follow``, again at each change until it is over (not idle meanwhile)."""
        record = await self._known(message.name)
        if message.follow and record.ended is None:
            self.watching.setdefault(record.name.casefold(), set()).add(conn)
            conn.seeking = True
        conn.send(self.standings(record))

    async def listing(self, conn: Conn, message: ArenaList) -> None:
        """The tournaments running (or finishing), then those over, the latest ended first."""
        now = self.clock()
        ordered = sorted(self.records.values(), key=lambda r: (r.ended is not None, -(r.ended or r.started)))
        listed = []
        for record in ordered[:MOST_LISTED]:
            ranked = record.ranked()
            leader = ranked[0].account if ranked and ranked[0].points else None
            listed.append(ArenaSummary(name=record.name, state=record.state(now), participants=len(record.participants),
                                       leader=leader, ended=_iso(record.ended)))  # fmt: skip
        conn.send(encode(Arenas(arenas=listed)))

    def leave(self, conn: Conn) -> None:
        """``conn`` ended: it waits in no tournament any more (its points stay)."""
        for key, waiting in self.waiting.items():
            for account, (there, _since) in list(waiting.items()):
                if there is conn:
                    del waiting[account]
                    self.before.pop((key, account), None)
                    conn.seeking = False
                    if self.board is not None:
                        self._in_background(partial(self.board.unwait, key, account))
        for watching in self.watching.values():
            watching.discard(conn)

    def tell(self, record: ArenaRecord) -> None:
        """Those waiting in ``record``'s tournament, and those following it, hear its standings."""
        line = self.standings(record)
        for conn, _since in self.waiting.get(record.name.casefold(), {}).values():
            conn.send(line)
        for conn in self.watching.get(record.name.casefold(), set()):
            conn.send(line)

    # -- the games ---------------------------------------------------------------------------------

    async def ended(self, table: LiveTable) -> None:
        """``table``'s game has just ended: if it is a tournament's, each person there earns the
        points of their place, kept, and told to those waiting."""
        record = next((r for r in self.records.values() if table.name in r.tables), None)
        events = table.session.events
        if record is None or not events:
            return
        if not isinstance(events[-1], GameEnded):
            return
        scores = events[-1].scores
        resigned = list(table.record.resigned)
        placed = places(tuple(scores), tuple(i for i, r in enumerate(resigned) if r))
        changed = await self.change(record, lambda r: r.score(table.name, placed, resigned))
        if changed is None or not changed[1]:  # (counted already, through another server or here)
            return
        record, earned = changed
        scored = said(N_("tournament {name}: table {table} ended ({earned})"))
        words = ", ".join(f"{account} +{won}" for account, won in earned)
        self.log(scored.format(name=record.name, table=table.name, earned=words))
        self.tell(record)

    def heard(self, name: str) -> None:
        """Tournament ``name`` changed through another server (its ``arena NAME`` notification): a
        round at once, whose read tells the people here what changed (new standings, a seating,
        the end), and on the server that pairs it seats who came through another server."""
        self.arrived.set()

    async def run(self) -> None:
        """Seat those free each :data:`ROUNDS` seconds, whenever somebody comes, whenever another
        server changes a tournament (:meth:`heard`), and as a running tournament's time is up (one
        with no game left is over then, not at the next round); a round that fails is logged."""
        while True:
            with contextlib.suppress(TimeoutError):  # (no task of its own: none is left pending at the end)
                async with asyncio.timeout(self._until_round()):
                    await self.arrived.wait()
            self.arrived.clear()
            try:
                await self.round()
            except Exception as e:  # (a round's failure must not end the tournaments)
                self.log(said(N_("the tournaments' round failed: {error}")).format(error=repr(e)))

    def _until_round(self) -> float:
        """Seconds until the next round unasked: :data:`ROUNDS`, or less if a running tournament's
        time is up sooner."""
        now = self.clock()
        ends = [r.ends - now for r in self.records.values() if r.ended is None and r.ends > now]
        return max(0.0, min([ROUNDS, *ends]))

    async def round(self) -> None:
        """One round: each running tournament seats those free; one whose time is up and whose
        tables have all ended is over (its final standings kept and told)."""
        now = self.clock()
        await self.sync()
        for record in list(self.records.values()):
            if record.ended is not None:
                continue
            if self.board is not None:  # (any server counts a game it sees ended; one pairs)
                for table in list(record.tables):
                    live = self.table_of(table)
                    if live is not None and live.over:
                        await self.ended(live)
                record = self.records[record.name.casefold()]
                self.matched(record)
                if not await self.run_io(partial(self.board.pairs, record.name)):
                    continue
            if now < record.ends:
                await self._seat(record, now)
                continue
            if any(self.playing(t) for t in record.tables):
                continue
            changed = await self.change(record, partial(_end, now=now))  # closed unfinished: no points
            if changed is None or changed[0].ended is None:
                continue
            record = changed[0]
            self.log(said(N_("tournament {name} is over")).format(name=record.name))
            self.tell(record)
            self._over(record)

    def _over(self, record: ArenaRecord) -> None:
        """``record``'s tournament is over: nobody waits in it or follows it here any more."""
        key = record.name.casefold()
        for account, (conn, _since) in self.waiting.pop(key, {}).items():
            self.before.pop((key, account), None)
            conn.seeking = False
        for conn in self.watching.pop(key, set()):
            conn.seeking = False
        if self.board is not None:
            self._in_background(partial(self.board.done, record.name))

    async def _seat(self, record: ArenaRecord, now: float) -> None:
        """Seat ``record``'s free people (:func:`.arenas.seating`, then :func:`.arenas.bots_for`):
        every table's people taken out of the wait first, before any is opened (one who leaves
        meanwhile is seated all the same: the seat is kept for them)."""
        if self.board is not None:
            await self._seat_shared(record, now)
            return
        waiting = self.waiting.get(record.name.casefold(), {})
        if not waiting:
            return
        tables = seating(list(waiting), record)
        seated = {account for table in tables for account in table}
        left = sorted((a for a in waiting if a not in seated), key=lambda a: waiting[a][1])
        people, bots = bots_for(left, now - waiting[left[0]][1] if left else 0.0, record.players, self.bot_wait)
        matches = []
        for table, n in [*((t, 0) for t in tables), *([(people, bots)] if people else [])]:
            conns = [waiting.pop(account)[0] for account in table]
            for conn in conns:
                conn.seeking = False
            ratings = [self.rating_of(account) for account in table]
            mean = [round(NEWCOMER.mu) if r is None else r for r in ratings]
            level = bot_level(mean, self.seeks.level_allowed)
            matches.append(Match(
                people=[Seeker(key=c.identity, rating=r, sizes=frozenset(record.players), rated=record.rated,
                               move_time=record.move_time, wait=0.0, since=now, ticket=c)
                        for c, r in zip(conns, mean, strict=True)],
                bots=[level] * n,
            ))  # fmt: skip
        for match in matches:
            opened = await self.seeks.seat(match, arena=record.name)
            if opened is not None:
                name, invited = opened
                record.tables[name] = invited
                await self.save(record)
                self.tell(record)

    async def _seat_shared(self, record: ArenaRecord, now: float) -> None:
        """:meth:`_seat` for a tournament shared by several servers, by the server that pairs it:
        everyone waiting through a server alive is paired; each table opened here, then kept in
        the record with the waits it ends (each server tells its own people, :meth:`matched`)."""
        assert self.board is not None
        waits = dict(await self.run_io(partial(self.board.waiting, record.name)))
        if not waits:
            return
        tables = seating(list(waits), record)
        seated = {account for table in tables for account in table}
        left = sorted((a for a in waits if a not in seated), key=lambda a: waits[a])
        people, bots = bots_for(left, now - waits[left[0]] if left else 0.0, record.players, self.bot_wait)
        for table, n in [*((t, 0) for t in tables), *([(people, bots)] if people else [])]:
            ratings = [self.rating_of(account) for account in table]
            level = bot_level([round(NEWCOMER.mu) if r is None else r for r in ratings], self.seeks.level_allowed)
            opened = await self.seeks.open_for(table, [level] * n, rated=record.rated, move_time=record.move_time)
            if opened is None:
                continue
            changed = await self.change(record, partial(_add_table, table=opened), seated=list(table))
            if changed is None:
                unkept = said(N_("tournament {name}: table {table} is not kept (seated meanwhile elsewhere?)"))
                self.log(unkept.format(name=record.name, table=opened[0]))
                continue
            record = changed[0]
            self.tell(record)
            self.matched(record)


def _add_table(record: ArenaRecord, table: tuple[str, list[str | None]]) -> None:
    """``record`` has a new table: its name, and whom each seat is kept for."""
    record.tables[table[0]] = table[1]


def _end(record: ArenaRecord, now: float) -> None:
    """``record``'s time is up: its tables no longer played are dropped (no points), and with
    none left it is over ``now``."""
    record.tables = {}
    record.ended = now


__all__ = ["ArenaRoom"]
