"""The tournaments' rules, without I/O (dvtui/server/arenas.py): the points a place earns at each
table size, who sits with whom (by the standings, at the sizes that seat everyone they can), when
bots fill a table, a game counted once; and the room's round (dvtui/server/arenaroom.py): a game
still running when time is up keeps the tournament open until it ends, and none starts after."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import pytest

from dvtui.server.arenaroom import ArenaRoom
from dvtui.server.arenas import (
    BOT_WAIT,
    MOST_PARTICIPANTS,
    MOST_PER_ACCOUNT,
    MOST_RUNNING,
    ArenaRecord,
    Participant,
    bots_for,
    points,
    seating,
    sizes_that_fill,
)
from dvtui.server.stores.files import FileStore
from dvtui.server.table import Refusal
from dvtui.tables.clubwire import ARENA_LEAST_SECONDS, ARENA_MOST_SECONDS, ArenaJoin, ArenaNew, ArenaShow

T = TypeVar("T")


def test_points_by_place_at_each_table_size() -> None:
    assert [points(p, 3) for p in (1, 2, 3)] == [5, 3, 1]
    assert [points(p, 4) for p in (1, 2, 3, 4)] == [5, 4, 2, 1]
    assert [points(p, 5) for p in (1, 2, 3, 4, 5)] == [5, 4, 3, 2, 1]


def test_a_table_of_any_size_pays_the_same_on_average() -> None:
    """No table size is worth seeking out: each pays 3 points a seat, first 5 and last 1 anywhere."""
    for size in (3, 4, 5):
        assert sum(points(p, size) for p in range(1, size + 1)) == 3 * size


def test_a_resigned_seat_earns_nothing() -> None:
    assert points(3, 3, resigned=True) == 0
    assert points(1, 5, resigned=True) == 0


def test_shared_places_share_their_points() -> None:
    record = ArenaRecord(name="cup", opener="ana", started=0, ends=60, tables={"t": ["ana", "bo", "cy", "di"]})
    record.score("t", [1, 1, 3, 4], [False] * 4)
    assert [(p.account, p.points) for p in record.ranked()] == [("ana", 5), ("bo", 5), ("cy", 2), ("di", 1)]
    assert [line.rank for line in record.lines()] == [1, 1, 3, 4]


@pytest.mark.parametrize(
    ("free", "sizes", "tables"),
    [
        (2, [3, 4, 5], []),
        (3, [3, 4, 5], [3]),
        (6, [3, 4, 5], [3, 3]),
        (7, [3, 4, 5], [4, 3]),
        (8, [3, 4, 5], [5, 3]),
        (11, [3, 4, 5], [5, 3, 3]),
        (6, [4], [4]),
        (9, [4, 5], [5, 4]),
        (7, [3], [3, 3]),
    ],
)
def test_the_free_are_split_into_tables_as_large_as_leave_nobody_out(free: int, sizes: list[int],
                                                                       tables: list[int]) -> None:  # fmt: skip
    assert sizes_that_fill(free, sizes) == tables


def test_those_near_each_other_in_the_standings_sit_together() -> None:
    record = ArenaRecord(name="cup", opener="ana", started=0, ends=60, players=[3])
    record.participants = [
        Participant(account=name, points=pts, since=i + 1)
        for i, (name, pts) in enumerate([("a", 1), ("b", 9), ("c", 4), ("d", 8), ("e", 3), ("f", 7)])
    ]
    free = ["a", "b", "c", "d", "e", "f"]  # in the order they came: not the standings'
    assert seating(free, record) == [["b", "d", "f"], ["c", "e", "a"]]
    assert seating(["a", "c", "e", "f"], record) == [["f", "c", "e"]]  # the last waits (3s only)


def test_a_newcomer_sits_after_those_with_points() -> None:
    record = ArenaRecord(name="cup", opener="ana", started=0, ends=60, players=[3])
    record.participants = [Participant(account=n, points=p, since=i + 1) for i, (n, p) in enumerate([("x", 5)])]
    assert seating(["new", "x", "y", "z"], record)[0][0] == "x"


def test_bots_only_once_someone_has_waited_the_bound() -> None:
    assert bots_for(["a"], BOT_WAIT - 1, [3, 4, 5]) == ([], 0)
    assert bots_for(["a"], BOT_WAIT, [3, 4, 5]) == (["a"], 2)
    assert bots_for(["a", "b"], BOT_WAIT, [4, 5]) == (["a", "b"], 2)
    assert bots_for([], BOT_WAIT * 10, [3]) == ([], 0)


def test_a_game_counts_once() -> None:
    record = ArenaRecord(name="cup", opener="ana", started=0, ends=60, tables={"t": ["ana", None, "bo"]})
    assert record.score("t", [2, 1, 3], [False, False, False]) == [("ana", 3), ("bo", 1)]
    assert record.score("t", [2, 1, 3], [False, False, False]) == []
    assert [(p.account, p.points, p.games) for p in record.ranked()] == [("ana", 3, 1), ("bo", 1, 1)]


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _run_io(fn: Callable[[], T]) -> T:
    return fn()


def test_a_game_running_when_time_is_up_keeps_the_tournament_until_it_ends(tmp_path: Path) -> None:
    clock = _Clock()
    playing = {"t1"}
    seeks: Any = None  # (no one is free: nothing is seated)
    room = ArenaRoom(FileStore(tmp_path), seeks, lambda name: name in playing, lambda name: None, _run_io,
                     lambda line: None, clock=clock)  # fmt: skip
    record = ArenaRecord(name="cup", opener="ana", started=940, ends=1010, tables={"t1": ["ana", "bo", "cy"]})
    room.records["cup"] = record
    clock.now = 1020  # time is up; t1 still plays
    asyncio.run(room.round())
    assert record.state(clock.now) == "finishing" and record.ended is None
    record.score("t1", [1, 2, 3], [False] * 3)  # it ends: it counts
    playing.clear()
    clock.now = 1030
    asyncio.run(room.round())
    assert record.state(clock.now) == "over" and record.ended == 1030
    assert [(p.account, p.points) for p in record.ranked()] == [("ana", 5), ("bo", 3), ("cy", 1)]
    room.records.clear()
    room.load()  # kept: read again as it ended
    assert room.records["cup"] == record


def test_a_tournament_file_that_names_another_place_is_left_out(tmp_path: Path) -> None:
    """A file is read as a tournament only under its own name, one a table's rule allows: the
    record's name is where it is written again (never ``../``)."""
    said: list[str] = []
    seeks: Any = None
    room = ArenaRoom(FileStore(tmp_path), seeks, lambda name: False, lambda name: None, _run_io, said.append)
    (tmp_path / "arenas").mkdir()
    for stem, name in (("cup", "../cup"), ("fine", "other"), ("ok", "ok")):
        data = msgspec.json.encode(ArenaRecord(name=name, opener="x", started=0, ends=1))
        (tmp_path / "arenas" / f"{stem}.json").write_bytes(data)
    room.load()
    assert list(room.records) == ["ok"]
    assert len(said) == 2 and all("is left out" in line for line in said), said


def test_the_documents_say_the_rules_as_they_are() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs"
    shared = " ".join((docs / "SHARED_TABLES.md").read_text().split())
    protocol = " ".join((docs / "PROTOCOL.md").read_text().split())
    by_size = {n: "/".join(str(points(p, n)) for p in range(1, n + 1)) for n in (3, 4, 5)}
    assert f"3 players {by_size[3]}, 4 players {by_size[4]}, 5 players {by_size[5]}" in shared
    assert f"(3 players: {by_size[3]}; 4: {by_size[4]}; 5: {by_size[5]})" in protocol
    assert f"has waited {BOT_WAIT:g} seconds" in protocol and f"has waited {BOT_WAIT:g} seconds" in shared
    bounds = f"{MOST_PARTICIPANTS} people a tournament, {MOST_RUNNING} running on a server, {MOST_PER_ACCOUNT} running"
    assert bounds in protocol and bounds in shared
    assert f"`seconds`: how long it runs, {ARENA_LEAST_SECONDS} to {ARENA_MOST_SECONDS:,}" in protocol
    assert f"from {ARENA_LEAST_SECONDS / 60:g} to {ARENA_MOST_SECONDS // 60} minutes" in shared


class _Conn:
    """A connection as the room sees one: whom it speaks for, and what it was sent."""

    def __init__(self, person: str) -> None:
        self.identity = person
        self.user = f"web:{person}"
        self.seeking = False
        self.sent: list[bytes] = []

    def send(self, data: bytes) -> None:
        self.sent.append(data)


def _room(tmp_path: Path, playing: set[str] | None = None) -> ArenaRoom:
    seeks: Any = _Seeks()
    live = playing if playing is not None else set()
    return ArenaRoom(FileStore(tmp_path), seeks, lambda name: name in live, lambda name: None, _run_io,
                     lambda line: None, clock=_Clock())  # fmt: skip


def _refused(call: Any) -> Refusal:
    with pytest.raises(Refusal) as caught:
        asyncio.run(call)
    return caught.value


def test_the_bounds_of_tournaments_and_their_people(tmp_path: Path) -> None:
    room = _room(tmp_path)
    conn: Any = _Conn("ana")
    for n in range(MOST_RUNNING):
        room.records[f"a{n}"] = ArenaRecord(name=f"a{n}", opener="someone", started=0, ends=10_000)
    refused = _refused(room.new(conn, ArenaNew(name="one-more", seconds=60)))
    assert refused.code == "busy" and f"{MOST_RUNNING} tournaments are running here" in refused.message
    full = room.records["a0"]
    full.participants = [Participant(account=f"p{n}", since=n + 1) for n in range(MOST_PARTICIPANTS)]
    refused = _refused(room.join(conn, ArenaJoin(name="A0")))  # (a name alike but for case is the same)
    assert refused.code == "busy" and f"has {MOST_PARTICIPANTS} people" in refused.message
    full.participants.pop()
    asyncio.run(room.join(conn, ArenaJoin(name="a0")))  # one place left: taken
    assert conn.seeking and b'"type":"arena"' in conn.sent[-1]
    refused = _refused(room.join(conn, ArenaJoin(name="a1")))
    assert refused.code == "busy" and "one wait at a time" in refused.message
    room.seeks.conns["bo"] = object()  # bo seeks a game in the pool, on another connection
    refused = _refused(room.join(_Conn("bo"), ArenaJoin(name="a1")))  # type: ignore[arg-type]
    assert refused.code == "busy" and "web:bo waits to be seated already" in refused.message
    assert _refused(room.show(conn, ArenaShow(name="nope"))).code == "no_arena"


def test_nobody_is_seated_again_while_their_table_plays(tmp_path: Path) -> None:
    room = _room(tmp_path, playing={"play-1"})
    room.records["cup"] = ArenaRecord(name="cup", opener="x", started=0, ends=10_000,
                                      tables={"play-1": ["web:ana", "web:bo", None]})  # fmt: skip
    conn: Any = _Conn("ana")
    refused = _refused(room.join(conn, ArenaJoin(name="cup")))
    assert refused.code == "busy" and "plays at table play-1 of tournament cup" in refused.message
    assert not conn.seeking and "cup" not in room.waiting


class _Seeks:
    """The pool's way of seating a table, as the room calls it: each table asked for, kept."""

    def __init__(self) -> None:
        self.seated: list[tuple[list[str], list[str], str | None]] = []
        self.conns: dict[object, object] = {}
        """Who seeks in the pool itself."""

    def level_allowed(self, level: str) -> bool:
        return True

    async def seat(self, match: Any, *, arena: str | None = None) -> tuple[str, list[str | None]]:
        people = [f"web:{s.key}" for s in match.people]
        assert all((s.rated, s.move_time) == (True, 30) for s in match.people)  # the tournament's kind of game
        self.seated.append((people, list(match.bots), arena))
        return f"play-{len(self.seated)}", [*people, *([None] * len(match.bots))]


def test_the_room_seats_by_the_standings_and_bots_only_after_the_bound(tmp_path: Path) -> None:
    seeks = _Seeks()
    clock = _Clock()
    room = ArenaRoom(FileStore(tmp_path), seeks, lambda name: True, lambda name: None, _run_io,  # type: ignore[arg-type]
                     lambda line: None, clock=clock)  # fmt: skip
    record = ArenaRecord(name="cup", opener="x", started=clock.now, ends=clock.now + 600, players=[3], rated=True,
                         move_time=30)  # fmt: skip
    record.participants = [Participant(account=f"web:{p}", points=pts, since=i + 1)
                           for i, (p, pts) in enumerate([("a", 2), ("b", 9), ("c", 5), ("d", 7)])]  # fmt: skip
    room.records["cup"] = record
    conns: dict[str, Any] = {p: _Conn(p) for p in "abcd"}
    for p in "abcd":
        asyncio.run(room.join(conns[p], ArenaJoin(name="cup")))
    asyncio.run(room.round())
    assert seeks.seated == [(["web:b", "web:d", "web:c"], [], "cup")]  # the leaders together; a waits
    assert record.tables == {"play-1": ["web:b", "web:d", "web:c"]}
    clock.now += BOT_WAIT - 1
    asyncio.run(room.round())
    assert len(seeks.seated) == 1  # not yet
    clock.now += 1
    asyncio.run(room.round())
    assert seeks.seated[1] == (["web:a"], ["club", "club"], "cup")  # a newcomer's rung, for a newcomer
    assert room.waiting["cup"] == {}
    clock.now = record.ends  # time is up: nobody is seated any more
    asyncio.run(room.join(_Conn("e"), ArenaJoin(name="cup")))  # type: ignore[arg-type]
    clock.now += BOT_WAIT
    asyncio.run(room.round())
    assert len(seeks.seated) == 2 and record.ended is None  # its tables still play
    assert "web:e" not in [p.account for p in record.participants]  # come too late: nobody to play with


def test_one_who_leaves_while_tables_are_being_opened_is_seated_all_the_same(tmp_path: Path) -> None:
    """Every table of a round takes its people out of the wait before any is opened: opening one
    lets the loop run, and a connection may end meanwhile."""
    seeks = _Seeks()
    room = ArenaRoom(FileStore(tmp_path), seeks, lambda name: True, lambda name: None, _run_io,  # type: ignore[arg-type]
                     lambda line: None, clock=_Clock())  # fmt: skip
    record = ArenaRecord(name="cup", opener="x", started=0, ends=10_000, players=[3], rated=True, move_time=30)
    room.records["cup"] = record
    conns: dict[str, Any] = {p: _Conn(p) for p in "abcdef"}
    for p in "abcdef":
        asyncio.run(room.join(conns[p], ArenaJoin(name="cup")))
    first = seeks.seat

    async def seat(match: Any, *, arena: str | None = None) -> tuple[str, list[str | None]]:
        for conn in conns.values():
            room.leave(conn)  # (everyone's connection ends while the first table is opened)
        return await first(match, arena=arena)

    seeks.seat = seat  # type: ignore[method-assign]
    asyncio.run(room.round())
    assert [sorted(people) for people, _bots, _arena in seeks.seated] == [
        ["web:a", "web:b", "web:c"], ["web:d", "web:e", "web:f"],
    ]  # fmt: skip
    assert len(record.tables) == 2
