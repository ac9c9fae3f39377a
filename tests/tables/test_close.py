"""Ending a table: its opener (or the server's own account) closes an unfinished table, everyone at
it is told and takes no more decisions, its game is kept unfinished and its name is free; anyone
else is refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dvtui.store import read_game
from dvtui.tables.server import Server

from ..support.processes import dvtui, one_error_line
from ..support.raw import RawClient
from ..support.servers import in_thread, short_dir


def _as(server: Server, user: str) -> RawClient:
    client = RawClient(str(server.place.socket))
    client.send({"type": "hello", "version": 1, "user": user})
    assert client.until("welcome")["type"] == "welcome"
    return client


def _ask(client: RawClient, message: dict[str, Any], kind: str) -> dict[str, Any]:
    client.send(message)
    return client.until(kind)


def _open(server: Server, opener: RawClient, name: str) -> None:
    players = ["ana", "bob", "bot:random"]
    assert (
        _ask(opener, {"type": "open_table", "table": name, "players": players, "seed": 3}, "opened")["type"] == "opened"
    )


def test_the_opener_closes_a_table_everyone_there_is_told_and_its_game_is_kept_unfinished() -> None:
    with short_dir() as d, in_thread(d) as server:
        ana, bob = _as(server, "ana"), _as(server, "bob")
        _open(server, ana, "t1")
        assert _ask(bob, {"type": "join", "table": "t1", "seat": 1}, "presence")["type"] == "presence"
        refused = _ask(bob, {"type": "close_table", "table": "t1"}, "closed")
        assert (refused["type"], refused["code"], refused["re"]) == ("error", "not_opener", "close_table")
        assert _ask(ana, {"type": "close_table", "table": "t1"}, "closed") == {"type": "closed", "table": "t1"}
        told = bob.until("error")
        assert told["code"] == "closed" and "re" not in told and "web:ana closed table t1" in told["message"]
        late = _ask(bob, {"type": "place", "seq": 2, "card": 1, "column": 0}, "error")
        assert late["code"] == "not_seated"  # no longer at the table
        assert _ask(ana, {"type": "list_tables"}, "tables")["tables"] == []
        kept = [p for p in Path(d, "games").glob("t1.*.dvr")]
        assert len(kept) == 1 and not read_game(kept[0]).game.over
        _open(server, ana, "t1")  # the name is free again
        assert _ask(ana, {"type": "close_table", "table": "nope"}, "closed")["code"] == "no_table"


def test_dvtui_close_by_the_servers_account_and_a_finished_table_refused_in_one_line() -> None:
    with short_dir() as d, in_thread(d) as server:
        _open(server, _as(server, "ana"), "t2")  # opened by a person, closed by the server's operator
        done = dvtui("close", "--server", d, "t2")
        assert done.returncode == 0, done.stderr
        assert done.stdout == "table t2 is closed: its game is kept, unfinished, and its name is free\n"
        done = dvtui("close", "--server", d, "t2")
        assert done.returncode != 0 and "no table t2" in one_error_line(done.stderr)
