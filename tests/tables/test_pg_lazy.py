"""A server on a shared database follows only the tables someone looks at through it: told of a
move at a table nobody is at there, it remembers how far the game went and reads nothing; what it
missed is read when it is needed (the table listed or named by a request, or put aside or dealt
through another server), with the turn's clock as it was when the move was told. Tables read
together are read in one query."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import msgspec
import psycopg
import pytest

from dvtui.engine import GameCreated, new_game
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.server.clocks import AliveStamp
from dvtui.server.followers import Followers
from dvtui.server.following import Following
from dvtui.server.hall import Hall
from dvtui.server.limits import Limits
from dvtui.server.live import Backing, LiveTable
from dvtui.server.registry import TableLimits
from dvtui.server.stores.base import TableRecord
from dvtui.server.stores.pg import PgStore
from dvtui.server.stores.pgpeers import PgPeers
from dvtui.tables.protocol import ListTables
from tests.support.pgstores import two_stores
from tests.support.postgres import told_so_far
from tests.support.servers import wait_until
from tests.support.visitors import now

pytestmark = pytest.mark.postgresql


def _created(seed: int) -> GameCreated:
    return new_game(parse_players("bot:random,bot:greedy,bot:random"), seed=seed)


def _record(**fields: object) -> TableRecord:
    return msgspec.structs.replace(TableRecord(owners=[None] * 3, stand_ins=[None] * 3, opener=1), **fields)


def _play(session: PlaySession, decisions: int) -> None:
    count = iter(range(10**6))
    session.play_bots(lambda: next(count) >= decisions)


class CountedPeers(PgPeers):
    """The database's peers, counting the reads of what the others wrote."""

    def __init__(self, store: PgStore) -> None:
        super().__init__(store)
        self.reads: list[dict[int, int]] = []

    def news(self, since: dict[int, int]) -> dict[int, list[bytes]]:
        self.reads.append(dict(since))
        return super().news(since)


class CountedStore(PgStore):
    """The database, counting each table's lines read one by one."""

    one_by_one = 0

    def lines_since(self, name: str, seq: int, game: int | None = None) -> list[bytes]:
        self.one_by_one += 1
        return super().lines_since(name, seq, game)


@pytest.fixture
def stores(pg_database: str, tmp_path: Path) -> Iterator[tuple[PgStore, CountedStore]]:
    with two_stores(pg_database, tmp_path, CountedStore) as both:
        yield both


def _following(
    store: PgStore, directory: Path, limits: TableLimits | None = None
) -> tuple[Hall, Following, CountedPeers, Followers]:
    """Server ``store``'s hall and what follows the others into it, without a socket."""
    peers = CountedPeers(store)
    backing = Backing(store, peers, now, lambda line: None)
    followers = Followers(lambda name, kept: None, 0.0)
    directory.mkdir(parents=True, exist_ok=True)
    hall = Hall(backing, store.talk(), followers, AliveStamp(directory), Limits(), limits or TableLimits())
    following = Following(
        hall, backing, store.talk(), followers, asyncio.Event(), lambda kind, line: None,
        wake=lambda table: None, deal_soon=lambda table: None, dealt=lambda table, lines: None,
        let_go=lambda conn: None,
    )  # fmt: skip
    return hall, following, peers, followers


def _listed(hall: Hall, name: str) -> LiveTable:
    table = hall.reopened(name, None)
    assert table is not None
    hall.tables[name] = table
    return table


def _opened(a: PgStore, hall: Hall, name: str, created: GameCreated, record: TableRecord) -> PlaySession:
    """Table ``name`` opened through ``a``, listed in ``hall`` (the other server's), then held by
    ``a`` again to play it: its session."""
    session, _lines = a.create(name, created, record)
    a.rest(name, session)
    _listed(hall, name)
    return a.reopen(name)[0]


def _told(pg_database: str, work: object) -> list[str]:
    """What the database notified while ``work`` (called) ran."""
    with psycopg.connect(pg_database, autocommit=True) as listener:
        listener.execute("LISTEN dvtui")
        assert callable(work)
        work()
        return told_so_far(listener)


async def _heard(following: Following, told: list[str]) -> None:
    """``told`` heard by ``following`` as from its listener, and whatever it reads for it read."""
    for payload in told:
        following.news(payload)
    await asyncio.sleep(0)
    while following.reading:
        await asyncio.gather(*following.reading)


async def test_a_table_nobody_is_at_is_not_read_as_it_is_told_but_when_it_is_listed(
    pg_database: str, stores: tuple[PgStore, CountedStore], tmp_path: Path
) -> None:
    a, b = stores
    hall, following, peers, _followers = _following(b, tmp_path / "b")
    session = _opened(a, hall, "n", _created(3), _record())
    table = hall.tables["n"]
    first = list(table.lines)
    told = _told(pg_database, lambda: _play(session, 4))
    assert sum(payload.startswith("lines n ") for payload in told) == 4
    await _heard(following, told)
    assert table.lines == first  # nobody at it through b: nothing read
    assert peers.reads == [] and b.one_by_one == 0
    assert following.reads.behind(table)
    listed: list[LiveTable] = []

    async def listing(conn: object, message: ListTables) -> None:
        listed.append(hall.tables["n"])
        assert hall.tables["n"].lines == a.lines("n")  # as it is listed: up to the last move

    await following.reads.caught_up(listing)(None, ListTables())  # type: ignore[arg-type]
    assert listed == [table] and table.failed is None
    assert table.lines == a.lines("n") and len(table.lines) > len(first)
    assert table.session.game.to_move == _replayed(a.lines("n"))
    assert not following.reads.behind(table) and len(peers.reads) == 1


def _replayed(lines: list[bytes]) -> int:
    from dvtui.store import parse_game

    return parse_game(b"".join(lines), "n").game.to_move


async def test_tables_told_of_together_are_read_in_one_query(
    pg_database: str, stores: tuple[PgStore, CountedStore], tmp_path: Path
) -> None:
    a, b = stores
    hall, following, peers, followers = _following(b, tmp_path / "b")
    sessions = [_opened(a, hall, name, _created(seed), _record()) for seed, name in enumerate(("p", "q", "r"))]
    tables = [hall.tables[name] for name in ("p", "q", "r")]
    followers.follow(_Lobby(), kept=False)  # a lobby follows the list: every table is looked at

    def play() -> None:
        for session in sessions:
            _play(session, 2)

    told = _told(pg_database, play)
    await _heard(following, told)
    for table in tables:
        assert table.lines == a.lines(table.name) and len(table.lines) > 1
    assert b.one_by_one == 0
    assert len(peers.reads) == 1 and len(peers.reads[0]) == 3  # the three tables, one read


class _Lobby:
    features: frozenset[str] = frozenset()

    def send(self, data: bytes) -> None:
        pass


async def test_a_turn_read_late_began_when_its_move_was_told(
    pg_database: str, stores: tuple[PgStore, CountedStore], tmp_path: Path
) -> None:
    a, b = stores
    hall, following, _peers, _followers = _following(b, tmp_path / "b")
    session = _opened(a, hall, "c", _created(5), _record(move_time=60, started=True))
    table = hall.tables["c"]
    clock = [1000.0]
    table.now = lambda: clock[0]
    told = _told(pg_database, lambda: _play(session, 1))
    await _heard(following, told)  # told at 1000
    assert table.lines != a.lines("c")
    clock[0] = 1030.0
    await following.reads.catch_up(table)  # read 30 s later
    assert table.lines == a.lines("c")
    assert table.clock is not None and table.clock.deadline == 1060.0  # the turn began at 1000, when it was told


async def test_a_rematch_dealt_elsewhere_at_a_table_read_late_is_followed_into(
    pg_database: str, stores: tuple[PgStore, CountedStore], tmp_path: Path
) -> None:
    """Its game ended and its rematch was dealt through another server while nobody was at it
    here: told `table NAME`, it reads the end it missed, and follows into the next game rather
    than taking the game for closed unfinished."""
    a, b = stores
    hall, following, _peers, _followers = _following(b, tmp_path / "b")
    session = _opened(a, hall, "m", _created(7), _record())
    table = hall.tables["m"]

    def play_out() -> None:
        _play(session, 10**5)
        assert session.game.over
        a.rest("m", session)

    told = _told(pg_database, play_out)
    await _heard(following, told)
    assert not table.over  # (not read yet)
    a.archive("m")
    again, _ = a.create("m", _created(8), _record(game=2))
    a.rest("m", again)
    await following.follow("table m")
    assert table.failed is None, table.failed
    assert hall.tables["m"] is table and table.record.game == 2
    assert table.lines == a.lines("m")


async def test_a_table_played_through_another_server_is_not_swept_where_nobody_reads_it(
    pg_database: str, stores: tuple[PgStore, CountedStore], tmp_path: Path
) -> None:
    """The sweep puts aside a table nobody took a seat at for a while; one whose moves are told,
    not read, was played meanwhile, and stays."""
    a, b = stores
    hall, following, _peers, _followers = _following(b, tmp_path / "b", TableLimits(unjoined=50, sweep=0.01))
    session = _opened(a, hall, "s", _created(9), _record())
    table = hall.tables["s"]
    table.active = time.time() - 100  # nobody was at it for 100 s, as far as b knew
    told = _told(pg_database, lambda: _play(session, 2))
    a.rest("s", session)
    await _heard(following, told)
    passes = 0
    forget = hall.forget_expired

    async def counted() -> None:  # (the end of each pass of the sweep, every table looked at)
        nonlocal passes
        await forget()
        passes += 1

    hall.forget_expired = counted  # type: ignore[method-assign]
    sweeping = asyncio.ensure_future(hall.sweep())
    await wait_until("two passes of the sweep", lambda: passes >= 2)
    sweeping.cancel()
    assert hall.tables.get("s") is table and b.find("s") is not None  # (listed, and not put aside)
