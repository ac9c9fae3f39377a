"""Seats as people count them, from 1, wherever a person reads one (the server's refusals and its
log, ``dvtui join --as``), while the protocol's indices count from 0; and a client that says it is
a bot (``hello.bot``) is shown as one in ``presence`` and ``dvtui tables``."""

from __future__ import annotations

from typing import Any

from dvtui.cli.tables import table_line
from dvtui.server.main import Server
from dvtui.tables import SeatState, TableInfo

from ..support.processes import dvtui
from ..support.raw import RawClient


def _client(server: Server, **hello: Any) -> RawClient:
    client = RawClient(str(server.place.socket))
    client.send({"type": "hello", "version": 1, "client": "raw", **hello})
    assert client.until("welcome")["type"] == "welcome"
    return client


def _open(server: Server, table: str = "t") -> None:
    owner = _client(server)
    owner.send({"type": "open_table", "table": table, "players": ["Ana", "Bob", "bot:greedy"], "seed": 1})
    assert owner.until("opened")["table"] == table
    owner.close()


def test_the_servers_refusals_and_log_number_seats_from_1(in_process: Server) -> None:
    logged: list[str] = []
    in_process._log = logged.append  # what `dvtui serve` prints
    _open(in_process)
    ana = _client(in_process)
    for index, said in (
        (2, "seat 3 (Bot 1) is a bot's seat of table t, not a person's"),
        (4, "table t has no seat 5 (its seats are 1 to 3)"),
    ):
        ana.send({"type": "join", "table": "t", "seat": index})
        refused = ana.until("joined")
        assert (refused["code"], refused["message"]) == ("no_seat", said)
    ana.send({"type": "join", "table": "t", "seat": 0})
    assert ana.until("joined")["seat"] == 0  # the protocol's index: from 0
    ana.send({"type": "stand_in", "seat": 2, "bot": "greedy"})
    refused = ana.until("presence")
    while refused["type"] == "presence":
        refused = ana.until("error")
    assert refused["message"] == "seat 3 (Bot 1) is a bot's seat of table t, not a person's"
    ana.close()
    sat = [line for line in logged if " sits at t " in line]
    assert sat and sat[0].endswith(" sits at t seat 1 (Ana)"), logged


def test_join_as_a_bots_seat_is_a_usage_error_that_names_it(in_process: Server) -> None:
    _open(in_process)
    done = dvtui("join", "t", "--as", "3", "--server", str(in_process.place.directory))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "dvtui: error: --as 3: Bot 1 is a bot's seat\n"


def test_a_client_that_says_it_is_a_bot_is_shown_as_one(in_process: Server) -> None:
    logged: list[str] = []
    in_process._log = logged.append
    _open(in_process)
    bot = _client(in_process, bot="greedy")
    bot.send({"type": "join", "table": "t", "seat": 1})
    assert bot.until("joined")["seat"] == 1
    seats = bot.until("presence")["seats"]
    assert seats[1]["state"] == "connected" and seats[1]["bot"] == "greedy"
    assert "bot" not in seats[0]  # an optional key: absent for a person, and for a seat nobody is at
    listed = dvtui("tables", "--server", str(in_process.place.directory))
    assert "Bob: connected (" in listed.stdout and ", bot greedy; Bot 1: bot]" in listed.stdout
    assert any(line.endswith(" sits at t seat 2 (Bob), a greedy bot client") for line in logged), logged
    bot.close()
    for level in ("\x1b]0;owned\x07", " greedy", "x" * 33):  # shown to everyone: printable, bounded
        refused = RawClient(str(in_process.place.socket))
        refused.send({"type": "hello", "version": 1, "bot": level})
        error = refused.until("welcome")
        assert error["type"] == "error" and error["code"] == "bad_message", error
        assert refused.receive() is None  # closed


def test_dvtui_tables_says_who_asked_for_a_stand_in() -> None:
    asked = SeatState(seat=1, name="Bob", kind="human", state="away", user="bob", stand_in="greedy", stand_in_by="cy")
    own = SeatState(seat=2, name="Cy", kind="human", state="connected", user="cy")
    free = SeatState(seat=0, name="Ana", kind="human", state="free")
    line = table_line(TableInfo(table="t", seats=[free, asked, own], round=1, rounds=6, to_move=1))
    assert "; Bob: away (bob), greedy bot standing in (asked by cy); Cy: connected (cy)]" in line, line
