"""A tournament run through two servers on one PostgreSQL database (a ``dvtui serve --store`` process
where the test kills it, else a server in a thread of the test), as
through one: people joining through different servers are seated together, the standings move
through each server whichever server a game ended through, at once (told, not read at the next
round), the final standings are the same through both, and the server pairing it killed with -9
mid-event, the other pairs on."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from typing import Any

import psycopg
import pytest

from dvtui.server import arenaroom
from dvtui.server.arenas import points
from dvtui.server.stores.pg import PgStore
from dvtui.server.stores.pgarenas import PAIRS
from dvtui.store import parse_game
from dvtui.tables import ServerPlace
from dvtui.tables.arena import follow, new, wait_seat
from dvtui.tables.clubwire import ArenaStandings

from ..support.postgres import db_lines, on_database
from ..support.processes import dvtui_cmd, env
from ..support.servers import (
    Served,
    Threaded,
    WallByHand,
    in_thread,
    short_dir,
    tournament_time_up,
    wait_for,
    wait_until,
)

pytestmark = pytest.mark.postgresql

SEATED = re.compile(r"tournament cup seated you at table (play-[0-9a-f]{8})")


@contextmanager
def servers(database: str, *names: str, killed: str = "") -> Iterator[list[Served]]:
    """Servers of these names on ``database``: the one named ``killed`` a ``dvtui serve`` process (the
    test kills it with -9), the others in threads of the test (:class:`Threaded`: the tournament is
    run through the database, not through a process's start)."""
    with short_dir() as d:
        served = [
            Served(d / name, {"DVTUI_STORE": database}) if name == killed else Threaded(d / name, database)
            for name in names
        ]
        try:
            yield served
        finally:
            for server in served:
                server.__exit__()


def started(*served: Served) -> None:
    """Each server started, all at once (each one's start is a process's start: they overlap)."""
    with ThreadPoolExecutor(len(served)) as pool:
        list(pool.map(lambda server: server.start(), served))


def joiner(server: Served, person: str) -> subprocess.Popen[str]:
    """``dvtui tournament join cup --bot greedy`` for ``person``, through ``server``."""
    return subprocess.Popen(
        dvtui_cmd("tournament", "join", "cup", "--bot", "greedy", "--server", str(server.directory)),
        env={**env(), "DVTUI_PLAYER": person}, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def follower(server: Served) -> subprocess.Popen[str]:
    """``dvtui tournament show cup --follow --json`` through ``server``."""
    return subprocess.Popen(
        dvtui_cmd("tournament", "show", "cup", "--follow", "--json", "--server", str(server.directory)),
        env=env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def counted(lines: Iterator[str]) -> bool:
    """Whether a follower's lines (``--json``) show a game counted before the tournament is over:
    read until one does, or the end."""
    for line in lines:
        standings = json.loads(line)
        if standings["state"] == "over":
            return False
        if any(person["games"] for person in standings["standings"]):
            return True
    return False


def shown(server: Served) -> dict[str, Any]:
    run = server.dvtui("tournament", "show", "cup", "--json")
    assert run.returncode == 0, run.stderr
    result: dict[str, Any] = json.loads(run.stdout)
    return result


def open_cup(server: Served, minutes: str) -> None:
    opened = server.dvtui("tournament", "new", "cup", "--minutes", minutes, "--players", "3", "--move-time", "1s")
    assert opened.returncode == 0, opened.stderr


def pairing(database: str) -> int:
    """How many sessions hold a tournament's pairing lock."""
    with psycopg.connect(database, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = %s AND objsubid = 2",
            (PAIRS,),
        ).fetchone()
    return int(row[0]) if row else 0


def test_people_through_two_servers_play_one_tournament(pg_database: str) -> None:
    """Ana through one server, Bo and Cy through the other: seated together at every table, each
    game counted once, the standings pushed through both, and the same final standings."""
    with servers(pg_database, "a", "b") as (a, b):
        started(a, b)
        assert isinstance(a, Threaded) and isinstance(b, Threaded)
        rooms = [server.server.arenas for server in (a, b) if server.server is not None]
        clock = WallByHand()  # (its time up once what is tested is under way: see below)
        for room in rooms:
            room.clock = clock
        open_cup(a, "0.1")
        followers = [follower(a), follower(b)]
        people = [joiner(a, "ana"), joiner(b, "bo"), joiner(b, "cy")]
        known = b.dvtui("tournament", "show", "cup")  # known through the other at once
        assert known.returncode == 0 and "cup" in known.stdout, known.stderr

        tournament_time_up([a, b], clock, "cup")
        outs = [p.communicate(timeout=180) for p in people]
        assert [p.returncode for p in people] == [0, 0, 0], outs
        tables = [SEATED.findall(out) for out, _err in outs]
        assert tables[0] and tables[0] == tables[1] == tables[2], tables  # seated together, every time
        followed = [[json.loads(line) for line in f.communicate(timeout=60)[0].splitlines()] for f in followers]
        for lines in followed:
            assert lines[-1]["state"] == "over", lines
            assert any(line["standings"] != lines[-1]["standings"] for line in lines[:-1])  # moved as games ended
            assert any(any(person["games"] for person in line["standings"]) for line in lines[:-1]), lines  # live
        final = followed[0][-1]["standings"]
        through = [shown(server)["standings"] for server in (a, b)]  # (asked by this process: no start-up each)
        assert followed[1][-1]["standings"] == final == through[0] == through[1]
        assert sorted(line["account"] for line in final) == ["web:ana", "web:bo", "web:cy"]
        assert all(line["games"] == len(tables[0]) for line in final), (final, tables)  # each game counted once
        earned: Counter[str] = Counter()  # the points of each game's places, once
        for table in tables[0]:
            game = parse_game(b"".join(db_lines(pg_database, table)))
            scores = game.events[-1].scores  # type: ignore[attr-defined]
            for player, score in zip(game.events[0].players, scores, strict=True):  # type: ignore[attr-defined]
                earned[player.name] += points(1 + sum(1 for other in scores if other > score), 3)
        assert {line["account"]: line["points"] for line in final} == earned
        assert a.stop() == 0 and b.stop() == 0


def test_the_pairing_server_killed_the_other_pairs_on(pg_database: str) -> None:
    """The server that pairs (it opened the tournament: it pairs from its opening) seats the people
    waiting through the other; their game, played and ended through the other, moves the standings
    shown through it; it is then killed with -9 mid-event, and the other takes over the pairing and
    seats them again; the standings shown through the first, started again meanwhile, are the
    final ones."""
    with servers(pg_database, "a", "b", killed="a") as (a, b):
        started(a, b)
        assert isinstance(b, Threaded) and b.server is not None
        b.server.arenas.clock = clock = WallByHand()  # (its time up once it has seated them again: below)
        open_cup(a, "2")  # (its time up through the other, which pairs then: however busy the machine)
        assert pairing(pg_database) == 1  # by the server that opened it, from its opening
        through_a = follower(a)
        people = [joiner(b, person) for person in ("bo", "cy", "di")]
        assert through_a.stdout is not None
        assert counted(through_a.stdout), a.log()  # its game, played through the other, counted through this one
        assert "the pool seated" in a.log()  # the first table, by this server
        a.kill9()
        through_a.communicate(timeout=60)
        wait_for("the other to seat them again", lambda: "the pool seated" in b.log(), b.log, every=0.1)
        a.start()  # (while the tournament runs: it reads the standings, then follows them)
        clock.t += 3600  # its time up through the other, seen at once: the game under way is its last
        b.soon(partial(b.server.arenas.heard, "cup"))
        outs = [p.communicate(timeout=180) for p in people]
        assert [p.returncode for p in people] == [0, 0, 0], outs
        tables = [SEATED.findall(out) for out, _err in outs]
        assert len(tables[0]) >= 2 and tables[0] == tables[1] == tables[2], tables  # seated again after the kill
        final, through_a_again = shown(b), shown(a)
        assert final["state"] == "over"
        assert all(line["games"] == len(tables[0]) for line in final["standings"]), (final, tables)
        assert through_a_again["standings"] == final["standings"]
        assert a.stop() == 0 and b.stop() == 0


def test_a_change_through_one_server_is_told_through_the_other_at_once(
    pg_database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The servers' rounds an hour apart, so none reads the tournaments meanwhile: Bo joining
    through one server is in the standings followed through the other all the same, told by the
    change's notification."""
    monkeypatch.setattr(arenaroom, "ROUNDS", 3600.0)
    with short_dir() as d:
        for name in ("a", "b"):
            (d / name).mkdir(mode=0o700)
        with (
            in_thread(d / "a", **on_database(pg_database, d / "a" / "games")),
            in_thread(d / "b", **on_database(pg_database, d / "b" / "games")),
        ):
            a, b = (ServerPlace(d / name, personal=False) for name in ("a", "b"))

            async def main() -> None:
                await new(a, "cup", 60, players=[3])
                told: list[ArenaStandings] = []
                following = asyncio.ensure_future(follow(a, "cup", told.append))
                joining = asyncio.ensure_future(wait_seat(b, "cup", user="bo"))
                try:
                    await wait_until("bo's join told through the other server", lambda: any(
                        line.account == "web:bo" for standings in told for line in standings.standings))  # fmt: skip
                finally:
                    following.cancel()
                    joining.cancel()
                    await asyncio.gather(following, joining, return_exceptions=True)

            asyncio.run(main())


def test_a_shared_tournament_is_changed_only_in_place_of_the_version_read(pg_database: str) -> None:
    """Two servers' sides of the shared tournaments: a change made on a version another replaced is
    not kept (nor a name taken twice), a seating is kept only while its people all wait (so nobody
    is seated twice), and one server at a time pairs, the other once the first is gone."""
    stores = [PgStore(pg_database), PgStore(pg_database)]
    try:
        for store in stores:
            store.presence.start(lambda payload: None)
        one, two = (store.arena_board() for store in stores)
        assert one.swap("cup", b"{}", 0) == 1
        assert two.swap("cup", b"{}", 0) is None  # the name is taken
        assert one.swap("cup", b"[1]", 1) == 2
        assert two.swap("cup", b"[2]", 1) is None  # made on a version replaced meanwhile
        assert two.read("cup") == (b"[1]", 2)
        two.wait("cup", "web:bo", 1.0)
        assert one.waiting("cup") == [("web:bo", 1.0)]
        assert one.swap("cup", b"[3]", 2, seated=["web:bo"]) == 3
        assert two.swap("cup", b"[4]", 3, seated=["web:bo"]) is None  # seated already: nothing kept
        assert one.read("cup") == (b"[3]", 3) and one.waiting("cup") == []
        assert one.pairs("cup") and one.pairs("cup") and not two.pairs("cup")
        one.close()  # (its session, and the lock, end a moment after: its backend ends on its own)
        wait_for("the other to take over the pairing", lambda: two.pairs("cup"))  # the one pairing gone
        two.close()
    finally:
        for store in stores:
            store.close()
