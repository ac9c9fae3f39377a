"""The lobby follows the list of tables (``follow_tables``): the server sends it once, then only
what changes (a table opened, a decision that changes whose turn it is, a table closed), pushed
without the list being asked for again; the work is the changes', not the tables' times the
followers'; a server that does not speak ``follow`` is read again as before."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dvtui.server import gateway as gateway_module
from dvtui.server.followers import Followers
from dvtui.tables import NotFollowed, ServerPlace, follow_lobby, open_table
from dvtui.tables.protocol import FEATURES, TablesChanged, incoming_decoder
from dvtui.tables.tableinfo import ListedTable, SeatState

from ..support.raw import FEATURES as RAW_FEATURES
from ..support.raw import RawClient, ask, speaking_for
from ..support.servers import in_thread, short_dir

FOLLOWS = [*RAW_FEATURES, "turn", "follow"]


def _changes(client: RawClient) -> dict[str, Any]:
    """The next ``tables_changed`` (any other message in between is a test failure unless presence)."""
    while True:
        message = client.receive()
        assert message is not None, "the connection closed"
        if message["type"] == "tables_changed":
            return message
        assert message["type"] not in ("tables", "error"), message


def test_a_follower_is_told_of_a_table_opened_a_move_and_the_table_closed() -> None:
    with short_dir() as d, in_thread(d / "srv") as srv:
        sock = str(srv.place.socket)
        lobby = speaking_for(sock, "dora", FOLLOWS)
        first = ask(lobby, {"type": "follow_tables"}, "tables")
        assert first["tables"] == [] and not first.get("more")
        carol = speaking_for(sock, "carol", FOLLOWS)
        opened = {"type": "open_table", "table": "t1", "players": ["Carol", "Bob", "Cy"], "seed": 1,
                  "first_player": 0}  # fmt: skip
        assert ask(carol, opened, "opened")["type"] == "opened"
        added = _changes(lobby)
        assert [info["table"] for info in added["tables"]] == ["t1"] and added["tables"][0]["to_move"] == 0
        assert ask(carol, {"type": "join", "table": "t1", "seat": 0}, "joined")["seat"] == 0
        joined = _changes(lobby)  # Carol's seat is taken now
        assert joined["tables"][0]["seats"][0]["state"] == "connected"
        carol.send({"type": "place", "seq": 1, "card": 1, "column": 0})
        moved = _changes(lobby)
        while moved["tables"][0]["to_move"] == 0:  # (a change of presence may come between)
            moved = _changes(lobby)
        assert moved["tables"][0]["to_move"] == 1
        carol.send({"type": "close_table", "table": "t1"})
        closed = _changes(lobby)
        while "t1" not in closed.get("removed", []):
            closed = _changes(lobby)
        assert closed.get("tables", []) == []
        for client in (lobby, carol):
            client.close()


def test_a_client_that_names_no_follow_never_gets_the_lists_changes() -> None:
    with short_dir() as d, in_thread(d / "srv") as srv:
        sock = str(srv.place.socket)
        old = speaking_for(sock, "dora", RAW_FEATURES)
        assert ask(old, {"type": "list_tables"}, "tables")["tables"] == []
        carol = speaking_for(sock, "carol", FOLLOWS)
        opened = {"type": "open_table", "table": "t1", "players": ["Carol", "Bob", "Cy"], "seed": 1}
        assert ask(carol, opened, "opened")["type"] == "opened"
        old.send({"type": "list_tables"})  # what it gets next is the answer, nothing pushed before it
        listed = old.receive()
        assert listed is not None and listed["type"] == "tables" and [t["table"] for t in listed["tables"]] == ["t1"]
        for client in (old, carol):
            client.close()


class _Counted:
    """A follower that counts what it is sent."""

    def __init__(self, features: frozenset[str]) -> None:
        self.features = features
        self.lines: list[bytes] = []

    def send(self, data: bytes) -> None:
        self.lines.append(data)


def test_with_2000_tables_and_10_followers_a_change_costs_the_change_not_the_tables() -> None:
    names = [f"t{i:04}" for i in range(2000)]
    asked: list[str] = []

    def info(name: str, kept: bool) -> ListedTable | None:
        asked.append(name)
        seat = SeatState(seat=0, name="Ana", kind="human", state="free")
        return ListedTable(table=name, seats=[seat], round=1, rounds=6, to_move=0)

    async def main() -> list[_Counted]:
        followers = Followers(info, tick=0.0)
        conns = [_Counted(frozenset(FEATURES)) for _ in range(10)]
        for conn in conns:
            followers.follow(conn, kept=False)
        for _ in range(5):  # the same three tables change five times within a tick: told once each
            for name in names[:3]:
                followers.changed(name)
        await asyncio.sleep(0.05)
        return conns

    conns = asyncio.run(main())
    assert sorted(asked) == names[:3]  # each changed table's info made once, whatever the followers
    for conn in conns:
        assert len(conn.lines) == 1  # one batch each
        batch = incoming_decoder.decode(conn.lines[0])
        assert isinstance(batch, TablesChanged)
        assert [t.table for t in batch.tables] == names[:3]
    total = sum(len(line) for conn in conns for line in conn.lines)
    assert total < 10 * 3 * 400  # the changes' bytes, far from 2,000 tables × 10 followers


def test_a_gone_follower_is_told_nothing_and_nothing_is_made_for_nobody() -> None:
    asked: list[str] = []

    def info(name: str, kept: bool) -> ListedTable | None:
        asked.append(name)
        return None

    async def main() -> _Counted:
        followers = Followers(info, tick=0.0)
        conn = _Counted(frozenset(FEATURES))
        followers.follow(conn, kept=False)
        followers.forget(conn)
        followers.changed("t1")
        await asyncio.sleep(0.05)
        return conn

    assert asyncio.run(main()).lines == [] and asked == []


def test_the_client_follows_the_list_and_falls_back_against_a_server_that_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def first_two(place: ServerPlace) -> list[list[str]]:
        seen: list[list[str]] = []
        async for _me, infos in follow_lobby(place):
            seen.append([info.table for info in infos])
            if len(seen) == 1:
                await open_table(place, "t2", ["Ana", "Bob", "Cy"], seed=1)
            if len(seen) == 2:
                return seen
        raise AssertionError("the list stopped")

    with short_dir() as d, in_thread(d / "srv") as srv:
        asyncio.run(open_table(srv.place, "t1", ["Ana", "Bob", "Cy"], seed=1))
        assert asyncio.run(first_two(srv.place)) == [["t1"], ["t1", "t2"]]

    monkeypatch.setattr(gateway_module, "FEATURES", tuple(f for f in FEATURES if f != "follow"))  # an older server
    with short_dir() as d, in_thread(d / "srv") as srv:

        async def follow() -> None:
            async for _ in follow_lobby(srv.place):
                raise AssertionError("an older server pushes no changes")

        with pytest.raises(NotFollowed):
            asyncio.run(follow())
