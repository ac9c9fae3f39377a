"""The kept games' cap: every game kept after its table counts its bytes against the account (or
vouched person) that opened the table, and against the server; at a cap that opener's new tables
(and rematches) are refused, saying which cap and how room comes back, and nothing of anybody's is
removed to make room. A loop of open, decide, close went past every other bound: in a games
directory and in PostgreSQL alike, it stops at the cap here, and a server started again counts
what was kept before it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
import pytest

from dvtui.bots import choose
from dvtui.engine import new_game
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.server.limits import Limits
from dvtui.server.main import Server
from dvtui.server.stores.base import TableRecord

from ..support.postgres import on_database
from ..support.raw import RawClient, ask, speaking_for
from ..support.servers import in_thread, short_dir, wait_for

PER_OPENER = 6000
"""Bytes: a few kept games of the loop's (each ~1.5 KiB), far below the default."""


@contextmanager
def _server(conninfo: str | None, d: Path, limits: Limits) -> Iterator[Server]:
    """A server on ``d`` keeping its games in files, or in PostgreSQL at ``conninfo``."""
    if conninfo is None:
        with in_thread(d, limits=limits) as server:
            yield server
        return
    with in_thread(d, limits=limits, **on_database(conninfo, d / "games")) as server:
        yield server


def _loop_once(server: Server, who: str, name: str) -> dict[str, Any]:
    """Open table ``name`` as ``who``, place one card in seat 1, close it: a kept game. The answer
    to the opening when it is refused."""
    conn = speaking_for(str(server.place.socket), who)
    try:
        message = {"type": "open_table", "table": name, "players": ["p1", "p2", "bot:random"], "seed": 3}
        opened = ask(conn, message, "opened")
        if opened["type"] != "opened":
            return opened
        conn.send({"type": "join", "table": name, "seat": 0})
        assert ask(conn, {"type": "place", "seq": 1, "card": 1, "column": 0}, "card_placed")["type"] == "card_placed"
        closed = ask(conn, {"type": "close_table", "table": name}, "closed")
        if closed.get("code") == "closed":  # (told first as one seated there: no more decisions)
            closed = conn.until("closed")
        assert closed["type"] == "closed" and closed.get("kept", True) is True, closed
        return closed
    finally:
        conn.close()


def _kept_bytes(server: Server, who: str) -> tuple[int, int]:
    """``who``'s kept games as the store has them: how many, and their bytes."""
    mine = [k for k, info in server.kept.items() if info.opener == who]
    return len(mine), sum(server.store.kept_size(k) for k in mine)


@pytest.mark.parametrize("kind", ["files", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def test_an_open_decide_close_loop_stops_at_the_openers_kept_bytes(kind: str, request: pytest.FixtureRequest) -> None:
    limits = Limits(kept_bytes_per_opener=PER_OPENER)
    conninfo = request.getfixturevalue("pg_database") if kind == "postgresql" else None
    with short_dir() as d:
        with _server(conninfo, d, limits) as server:
            refused: dict[str, Any] | None = None
            for n in range(15):  # (below the pace of openings: 20 in a row)
                answer = _loop_once(server, "mal", f"m{n}")
                if answer["type"] == "error":
                    refused = answer
                    break
            assert refused is not None, "the loop was never refused"
            assert refused["code"] == "bad_setup"
            assert "kept games of tables web:mal opened take" in refused["message"]
            assert "kept-bytes-per-opener=6000" in refused["message"]
            assert "dvtui tables --all" in refused["message"]
            games, used = _kept_bytes(server, "web:mal")
            assert games == n and games >= 2
            assert PER_OPENER <= used < PER_OPENER + used // games * 2  # at most the last one past the cap
            assert server.kept_room.of("mal") == (games, used)
            assert _loop_once(server, "ana", "a0")["type"] == "closed"  # another opener's room is its own
            operator = RawClient(str(server.place.socket))  # the server's own account has no cap
            operator.hello()
            message = {"type": "open_table", "table": "op", "players": ["p1", "p2", "bot:random"]}
            assert ask(operator, message, "opened")["type"] == "opened"
            operator.close()
        with _server(conninfo, d, limits) as again:  # counted again from what is kept
            assert again.kept_room.of("mal") == (games, used)
            assert _loop_once(again, "mal", "m99")["code"] == "bad_setup"
            assert len([k for k, info in again.kept.items() if info.opener == "web:mal"]) == games  # none removed


def test_the_servers_kept_bytes_cap_every_opener_but_its_own_account() -> None:
    limits = Limits(kept_bytes_total=PER_OPENER)
    with short_dir() as d, in_thread(d, limits=limits) as server:
        n = 0
        while server.kept_room.total < PER_OPENER:  # two openers, each below the cap of one
            who = ("ana", "bob")[n % 2]
            assert _loop_once(server, who, f"{who}{n}")["type"] == "closed"
            n += 1
        assert n >= 4
        for who in ("ana", "bob", "cy"):
            refused = _loop_once(server, who, f"x{who}")
            assert refused["code"] == "bad_setup" and "kept-bytes-total=6000" in refused["message"]
        assert server.kept_room.total == sum(server.store.kept_size(k) for k in server.kept)


def _finished_table(games: Path, name: str, opener: str) -> None:
    """Table ``name`` of ``opener``'s, its game over (``p1`` a free person's seat), as a server
    that stopped left it in ``games``."""
    seats = parse_players("p1,bot:greedy,bot:random")
    games.mkdir(parents=True, mode=0o700, exist_ok=True)
    session = PlaySession.start(new_game(seats, seed=5), games / f"{name}.dvr")
    while not session.game.over:
        player = session.game.to_move
        session.place(choose("greedy", session.game, player), player=player)
    session.close()
    record = TableRecord(owners=[None] * 3, stand_ins=[None] * 3, opener=opener, kept_for=[None] * 3)
    (games / f"{name}.table.json").write_bytes(msgspec.json.encode(record))


def test_a_rematch_keeps_a_game_so_it_is_refused_at_the_tables_of_an_opener_at_the_cap() -> None:
    with short_dir() as d:
        games = d / "games"
        _finished_table(games, "full", "mal")
        _finished_table(games, "room", "ana")
        (games / "old.2026-01-02T10-00-00.dvr").write_bytes((games / "full.dvr").read_bytes())  # mal's kept game
        (games / "old.2026-01-02T10-00-00.table.json").write_bytes((games / "full.table.json").read_bytes())
        with in_thread(d, limits=Limits(kept_bytes_per_opener=1000)) as server:
            assert server.kept_room.of("mal")[0] == 1
            for table, answer in (("full", "error"), ("room", "dealt")):
                bob = speaking_for(str(server.place.socket), "bob")  # seated at the table, not its opener
                assert ask(bob, {"type": "join", "table": table, "seat": 0}, "joined")["type"] == "joined"
                said = ask(bob, {"type": "rematch", "table": table, "accept": True}, "dealt")
                assert said["type"] == answer, said
                if answer == "error":
                    assert said["code"] == "bad_setup" and "kept-bytes-per-opener=1000" in said["message"]
                bob.close()
            assert list(games.glob("full.*.dvr")) == [] and len(list(games.glob("room.*.dvr"))) == 1


@pytest.mark.postgresql
def test_servers_sharing_a_database_count_the_games_kept_through_each_other(pg_database: str) -> None:
    """Each server's sweep counts what the others kept: an opener at its cap through one server
    is refused through the other too (within a sweep)."""
    from dvtui.server.registry import TableLimits

    limits, often = Limits(kept_bytes_per_opener=PER_OPENER), TableLimits(sweep=0.05)
    with (
        short_dir() as a_dir,
        short_dir() as b_dir,
        in_thread(a_dir, limits=limits, table_limits=often, **on_database(pg_database, a_dir / "games")) as a,
        in_thread(b_dir, limits=limits, table_limits=often, **on_database(pg_database, b_dir / "games")) as b,
    ):
        n = 0
        while _loop_once(a, "mal", f"m{n}")["type"] == "closed":
            n += 1
        assert n >= 2

        def counted() -> str:
            return f"{a.kept_room.of('mal')} through a, {b.kept_room.of('mal')} through b"

        wait_for("the other server to count them", lambda: b.kept_room.of("mal") == a.kept_room.of("mal"), counted)
        refused = _loop_once(b, "mal", "b0")
        assert refused["code"] == "bad_setup" and "kept-bytes-per-opener" in refused["message"]
        forgotten = sorted(a.kept_room.names())[0]
        a.store.forget(forgotten)  # (as its days run out, through another server)
        wait_for("the room it leaves", lambda: forgotten not in b.kept_room.names(), counted)
