"""Ending a table: its opener (or the server's own account) closes an unfinished table, everyone at
it is told and takes no more decisions, its game is kept unfinished and its name is free; anyone
else is refused."""

from __future__ import annotations

from pathlib import Path

from dvtui.server.main import Server
from dvtui.server.registry import TableLimits
from dvtui.store import read_game

from ..support.processes import dvtui, one_error_line
from ..support.raw import RawClient, ask, speaking_for
from ..support.servers import in_thread, short_dir


def _as(server: Server, user: str) -> RawClient:
    return speaking_for(str(server.place.socket), user)


_ask = ask


def _open(server: Server, opener: RawClient, name: str, first: int = 0) -> None:
    players = ["ana", "bob", "bot:random"]
    message = {"type": "open_table", "table": name, "players": players, "seed": 3, "first_player": first}
    assert _ask(opener, message, "opened")["type"] == "opened"


def test_the_opener_closes_a_table_everyone_there_is_told_and_its_game_is_kept_unfinished() -> None:
    with short_dir() as d, in_thread(d) as server:
        ana, bob = _as(server, "ana"), _as(server, "bob")
        _open(server, ana, "t1", first=1)
        joined = _ask(bob, {"type": "join", "table": "t1", "seat": 1}, "joined")
        assert "may_close" not in joined  # bob did not open it
        assert bob.until("presence")["type"] == "presence"
        assert _ask(bob, {"type": "place", "seq": 1, "card": 1, "column": 0}, "card_placed")["type"] == "card_placed"
        looking = _as(server, "ana")
        assert _ask(looking, {"type": "watch", "table": "t1"}, "joined")["may_close"] is True  # its opener may
        looking.close()
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
        assert done.stdout == (
            "table t2 is closed: nobody had made a decision there, so its game is not kept; its name is free\n"
        )
        done = dvtui("close", "--server", d, "t2")
        assert done.returncode != 0 and "no table t2" in one_error_line(done.stderr)


def test_a_player_resigns_a_bot_plays_the_seat_marked_as_a_stand_in_and_nobody_takes_it_back() -> None:
    with short_dir() as d, in_thread(d) as server:
        ana, bob = _as(server, "ana"), _as(server, "bob")
        players = ["ana", "bob", "bot:random"]
        message = {"type": "open_table", "table": "t3", "players": players, "seed": 3, "first_player": 1}
        assert _ask(ana, message, "opened")["type"] == "opened"
        assert _ask(ana, {"type": "join", "table": "t3", "seat": 0}, "presence")["type"] == "presence"
        assert _ask(bob, {"type": "join", "table": "t3", "seat": 1}, "presence")["type"] == "presence"
        bob.send({"type": "resign", "table": "t3"})
        while (line := bob.receive()) is not None and line["type"] != "card_placed":
            assert line["type"] != "error", line
        assert line is not None and (line["player"], line["stand_in"]) == (1, "strong")
        seats = _ask(ana, {"type": "list_tables", "table": "t3"}, "tables")["tables"][0]["seats"]
        assert (seats[1]["state"], seats[1]["stand_in"], seats[1]["user"]) == ("away", "strong", "web:bob")
        assert seats[1]["resigned"] is True and "resigned" not in seats[0]  # told, and left out while false
        listed = dvtui("tables", "--server", d)
        assert "bob: away (web:bob), strong bot standing in, resigned" in listed.stdout, listed.stdout
        assert _ask(bob, {"type": "join", "table": "t3", "seat": 1}, "error")["code"] == "no_seat"
        assert _ask(ana, {"type": "stand_in", "seat": 1}, "error")["code"] == "no_seat"
        assert _ask(bob, {"type": "resign", "table": "t3"}, "error")["code"] == "no_seat"
        done = dvtui("resign", "--server", d, "t3")  # the test's account holds no seat there
        assert done.returncode != 0 and "no seat at table t3" in one_error_line(done.stderr)


def test_a_table_closed_before_anybody_decided_is_removed_and_opening_is_paced_per_account() -> None:
    """Closing frees a place in the opener's quota, so an open-and-close loop went round it and
    filled the disk with kept games: a game nobody made a decision in is removed when closed (a
    stand-in's or a bot's moves are no person's), and an account opens at most so many in a row."""
    limits = TableLimits(opens_at_once=3, opens_per_hour=1.0)
    with short_dir() as d, in_thread(d, table_limits=limits) as server:
        mal, ana = _as(server, "mal"), _as(server, "ana")
        for name in ("k1", "k2", "k3"):
            _open(server, mal, name)
            assert _ask(mal, {"type": "close_table", "table": name}, "closed")["type"] == "closed"
        refused = _ask(mal, {"type": "open_table", "table": "k4", "players": ["a", "b", "c"]}, "opened")
        assert refused["code"] == "busy" and "web:mal has opened 3 tables lately" in refused["message"]
        assert list(Path(d, "games").glob("k*")) == []  # nothing kept, nothing beside it
        assert _ask(mal, {"type": "list_tables", "all": True}, "tables")["tables"] == []
        _open(server, ana, "k4")  # another account's pace is its own
        ana.send({"type": "join", "table": "k4", "seat": 1})
        assert _ask(ana, {"type": "stand_in", "seat": 0, "bot": "greedy"}, "card_placed")["type"] == "card_placed"
        assert _ask(_as(server, "ana"), {"type": "close_table", "table": "k4"}, "closed")["type"] == "closed"
        assert list(Path(d, "games").glob("k4.*.dvr")) == []  # a stand-in's move is no person's decision
