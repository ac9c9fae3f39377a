"""A server on PostgreSQL notices at once when its hold on a table is gone (the database session
holding the table's advisory lock terminated: an administrator, a pooler, a timeout), not at the
table's next write: with nobody moving, it lets the table go, tells the people at it, holds it
again and tells them so, and the game goes on where it was."""

from __future__ import annotations

import time
from pathlib import Path

import psycopg
import pytest

from dvtui.server.limits import Limits

from ..support.pilot import WAIT
from ..support.postgres import on_database
from ..support.raw import FEATURES, RawClient
from ..support.servers import in_thread, short_dir, wait_for

pytestmark = pytest.mark.postgresql

HELD_BY = """SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted AND
    objid = (SELECT id FROM dvtui_games WHERE name = 't')::oid
    AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"""


def _holder(admin: psycopg.Connection[tuple[object, ...]]) -> int | None:
    row = admin.execute(HELD_BY).fetchone()
    return None if row is None else int(str(row[0]))


def _next_error(client: RawClient) -> dict[str, object]:
    message = client.until("error")
    assert message["type"] == "error", message
    return message


def test_a_lost_hold_is_noticed_without_a_move_told_and_taken_again(pg_database: str, tmp_path: Path) -> None:
    limits = Limits(hold_check=0.2)  # asked five times a second (every 2 s by default)
    with short_dir() as d, in_thread(d, limits=limits, **on_database(pg_database, d / "games")) as server:
        client = RawClient(str(server.place.socket))
        client.hello([*FEATURES, "reasons"])
        client.send({"type": "open_table", "table": "t", "players": ["Ana", "Bob", "bot:greedy"], "seed": 4,
                     "first_player": 0})  # fmt: skip
        assert client.until("opened")["type"] == "opened"
        client.send({"type": "join", "table": "t", "seat": 0})
        assert client.until("joined")["seat"] == 0
        client.send({"type": "place", "seq": 1, "card": 1, "column": 0})
        assert client.until("card_placed")["type"] == "card_placed"
        with psycopg.connect(pg_database, autocommit=True) as admin:
            wait_for("the server to hold the table", lambda: _holder(admin) is not None)
            first = _holder(admin)
            admin.execute("SELECT pg_terminate_backend(%s)", (first,))
            started = time.monotonic()
            lost = _next_error(client)  # nobody moves: the server finds out by itself
            assert (lost["code"], lost["reason"], lost.get("re")) == ("busy", "hold_lost", None), lost
            assert lost["message"] == ("the table server lost its hold on this table in the database: no move is "
                                       "saved until it holds it again")  # fmt: skip
            back = _next_error(client)
            assert (back["code"], back["reason"]) == ("busy", "hold_back"), back
            assert time.monotonic() - started < WAIT
            held = _holder(admin)
            assert held is not None and held != first  # held again, on the holder's new session
        client.send({"type": "undo", "seq": 2})
        assert client.until("placement_undone")["seq"] == 2  # and the game goes on, written there
        client.close()
