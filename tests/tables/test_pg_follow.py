"""A server following another on one database reads each table's game by the game's identity, never
by the table's name: a name is given to another game (the game put aside, a new table opened at it)
while a follower still holds the first, and what it is then woken for (that game's lines, its talk,
its record) and what it holds the table again with before a decision are the game's it holds."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

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
from dvtui.server.live import Backing
from dvtui.server.registry import TableLimits
from dvtui.server.stores.base import Here, TableRecord
from dvtui.server.stores.pg import PgStore
from dvtui.server.stores.pgpeers import PgPeers
from dvtui.store import SaveError
from tests.support.pgstores import two_stores
from tests.support.postgres import told_so_far
from tests.support.servers import wait_for
from tests.support.visitors import now

pytestmark = pytest.mark.postgresql

SAID = b'{"type":"said","table":"n","user":"bob","text":"hello, new game"}\n'


def _created(seed: int) -> GameCreated:
    return new_game(parse_players("bot:random,bot:greedy,bot:random"), seed=seed)


def _record(opener: int) -> TableRecord:
    return TableRecord(owners=[None] * 3, stand_ins=[None] * 3, opener=opener)


def _play(session: PlaySession, decisions: int) -> None:
    count = iter(range(10**6))
    session.play_bots(lambda: next(count) >= decisions)


@pytest.fixture
def stores(pg_database: str, tmp_path: Path) -> Iterator[tuple[PgStore, PgStore]]:
    with two_stores(pg_database, tmp_path, PgStore) as both:
        yield both


def _following(store: PgStore, directory: Path, logged: list[str]) -> tuple[Hall, Following]:
    """Server ``store``'s hall and what follows the others into it, without a socket."""
    backing = Backing(store, PgPeers(store), now, logged.append)
    followers = Followers(lambda name, kept: None, 0.0)
    directory.mkdir(parents=True, exist_ok=True)
    hall = Hall(backing, store.talk(), followers, AliveStamp(directory), Limits(), TableLimits())
    following = Following(
        hall, backing, store.talk(), followers, asyncio.Event(), lambda kind, line: None,
        wake=lambda table: None, deal_soon=lambda table: None, dealt=lambda table, lines: None,
        let_go=lambda conn: None,
    )  # fmt: skip
    return hall, following


async def test_a_follower_reads_the_game_it_holds_after_its_name_is_given_to_another(
    pg_database: str, stores: tuple[PgStore, PgStore], tmp_path: Path
) -> None:
    a, b = stores
    session, _lines = a.create("n", _created(3), _record(opener=1))
    a.rest("n", session)
    logged: list[str] = []
    hall, following = _following(b, tmp_path / "b", logged)
    table = hall.reopened("n", None)  # server b follows table n: its first game
    assert table is not None
    hall.tables["n"] = table
    first, record = list(table.lines), table.record
    with psycopg.connect(pg_database, autocommit=True) as listener:
        listener.execute("LISTEN dvtui")
        aside = a.archive("n")  # its opener closed it through server a, and opened another table at its name
        again, _ = a.create("n", _created(4), _record(opener=2))
        a.talk().say("n", SAID, 0)
        a.replace_record("n", _record(opener=2), 0)
        _play(again, 3)
        a.presence.start(lambda payload: None)
        PgPeers(a).tell_presence("n", [Here(0, None)], a.game_id(again))  # somebody at the new game through a
        wait_for("a's presence row", lambda: PgPeers(b).presence_elsewhere("n") != [])
        told = told_so_far(listener)
    assert any(payload.startswith("lines n ") for payload in told)
    for payload in told:  # what b is woken for before it hears `table n` (notifications are read concurrently)
        if not payload.startswith("table "):
            await following.follow(payload)
    assert table.failed is None, table.failed
    assert table.lines == first == a.lines(aside.removesuffix(".dvr"))
    assert list(table.chat) == [] and table.record == record and table.elsewhere == {}
    with pytest.raises(SaveError, match="put aside"):  # held again for a decision: never on the other game
        PgPeers(b).hold("n", table.session, table.next_seq)
    assert table.lines == first


async def test_a_follower_that_missed_every_notification_notices_the_name_given_to_another_game(
    pg_database: str, stores: tuple[PgStore, PgStore], tmp_path: Path
) -> None:
    """Notifications missed (the follower's listening was down): ``*`` alone must tell it what
    ``table NAME`` would have, that its unfinished game was put aside and another dealt at the
    name, and list the new game; never keep showing the old one as the table's."""
    a, b = stores
    session, _lines = a.create("n", _created(3), _record(opener=1))
    a.rest("n", session)
    logged: list[str] = []
    hall, following = _following(b, tmp_path / "b", logged)
    table = hall.reopened("n", None)
    assert table is not None
    hall.tables["n"] = table
    first = list(table.lines)
    a.archive("n")
    again, _ = a.create("n", _created(4), _record(opener=2))
    _play(again, 3)
    a.rest("n", again)  # (a server holds a game only while it decides)
    await following.follow("*")
    assert table.failed is not None and table.failed.code == "closed", table.failed
    assert table.lines == first  # never the other game's
    assert "n" in hall.tables, logged
    listed = hall.tables["n"]
    assert listed is not table and listed.game_id == a.game_id(again)
    assert listed.lines == a.lines("n") != table.lines
