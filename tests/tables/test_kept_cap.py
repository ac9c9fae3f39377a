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

import pytest

from dvtui.tables.limits import Limits
from dvtui.tables.server import Server

from ..support.raw import RawClient, ask, speaking_for
from ..support.servers import in_thread, short_dir

PER_OPENER = 6000
"""Bytes: a few kept games of the loop's (each ~1.5 KiB), far below the default."""


@contextmanager
def _server(conninfo: str | None, d: Path, limits: Limits) -> Iterator[Server]:
    """A server on ``d`` keeping its games in files, or in PostgreSQL at ``conninfo``."""
    if conninfo is None:
        with in_thread(d, limits=limits) as server:
            yield server
        return
    from dvtui.tables.pgstore import PgStore

    with in_thread(d, limits=limits, store=PgStore(conninfo, d / "games")) as server:
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
