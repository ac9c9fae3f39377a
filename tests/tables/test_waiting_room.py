"""A waiting room: a table opened with ``wait`` takes no placement (and its bots make none) until
every person's seat has been taken once, or until its opener starts it; then each seat nobody took
is played by a stand-in until its person comes. The rules on the :class:`Table` value, then over
the wire (a server in this process), then from the command line (real processes)."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from dvtui.app.widgets.panels import Banner, RoundBar
from dvtui.engine import new_game
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.server.main import Server
from dvtui.server.registry import kept_for
from dvtui.server.stores.base import TableRecord
from dvtui.server.table import STAND_IN, BotTurn, Refusal, Table
from dvtui.tables import RemoteSession, open_table, table_info
from dvtui.tables.wire import Owner

from ..support.apps import table_app
from ..support.pilot import text, until
from ..support.processes import dvtui, one_error_line
from ..support.raw import RawClient
from ..support.servers import Served, in_thread, short_dir, wait_for

ANA_UID = 70001
BOB_UID = 70002
CY_UID = 70003


class Guest(msgspec.Struct, eq=False):
    identity: Owner
    person: str
    bot: str | None = None


def waiting_table(players: str = "Ana,Bob,Cy,bot:greedy", first: int = 0) -> Table[Guest]:
    seats = parse_players(players)
    n = len(seats)
    record = TableRecord(owners=[None] * n, stand_ins=[None] * n, opener=ANA_UID, kept_for=kept_for(seats),
                         started=False)  # fmt: skip
    return Table("t", PlaySession.start(new_game(seats, first_player=first, seed=5), None), record)


def test_a_waiting_room_waits_for_every_persons_seat_and_its_bots_make_no_move() -> None:
    t = waiting_table(first=3)  # the bot's seat is to move first
    t.join(Guest(ANA_UID, "ana"), 0)
    assert t.waiting and t.awaited() == [1, 2] and t.presence().waiting and t.info().waiting
    assert t.bot_to_move() is None  # somebody is at the table, the bot is to move: still nobody moves
    why = t.why_waiting()
    assert why is not None and "seat 2 (Bob), seat 3 (Cy)" in why and "dvtui tables start t" in why
    t.join(Guest(BOB_UID, "bob"), 1)
    sat = t.join(Guest(CY_UID, "cy"), 2)
    assert sat.changed and t.record.started  # the record says so: a restart keeps the table started
    assert not t.waiting and t.why_waiting() is None
    turn = t.bot_to_move()
    assert turn is not None and turn.seat == 3


def test_a_seat_taken_once_counts_even_when_its_person_left() -> None:
    t = waiting_table("Ana,Bob,bot:greedy")
    bob = Guest(BOB_UID, "bob")
    t.join(Guest(ANA_UID, "ana"), 0)
    t.join(bob, 1)
    t.leave(bob)
    assert not t.waiting  # Bob came: his seat is away now, as at any table


def test_only_the_opener_or_the_operator_starts_and_the_seats_nobody_took_get_a_stand_in() -> None:
    t = waiting_table()
    t.join(Guest(ANA_UID, "ana"), 0)
    with pytest.raises(Refusal) as no:
        t.start(BOB_UID, operator=CY_UID)
    assert no.value.code == "not_opener" and t.waiting
    assert t.start(ANA_UID, operator=CY_UID) is True
    assert not t.waiting and t.record.stand_ins == [None, STAND_IN, STAND_IN, None]
    assert t.start(ANA_UID, operator=CY_UID) is False  # started already: nothing changes
    bob = Guest(BOB_UID, "bob")
    t.join(bob, 1)  # his person comes: the stand-in stops
    assert t.record.stand_ins == [None, None, STAND_IN, None]
    assert waiting_table().start(CY_UID, operator=CY_UID)  # the server's own account may start any table


def test_the_stand_in_plays_a_seat_nobody_took_once_started() -> None:
    t = waiting_table("Ana,Bob,bot:greedy", first=1)
    t.join(Guest(ANA_UID, "ana"), 0)
    assert t.bot_to_move() is None
    t.start(ANA_UID, operator=CY_UID)
    assert t.bot_to_move() == BotTurn(1, STAND_IN, t.session.hint_seed(1), standing_in=True)


def test_a_record_without_the_key_is_a_table_that_started() -> None:
    record = msgspec.json.decode(b'{"owners":[null,null],"stand_ins":[null,null]}', type=TableRecord)
    assert record.started


# -- over the wire --------------------------------------------------------------------------------


def _client(server: Server) -> RawClient:
    client = RawClient(str(server.place.socket))
    client.hello()
    return client


def _not_presence(client: RawClient, kind: str) -> dict[str, Any]:
    message = client.until(kind)
    assert message["type"] == kind, message
    return message


def test_a_placement_in_a_waiting_room_is_refused_until_the_opener_starts_the_table(in_process: Server) -> None:
    opener = _client(in_process)
    opener.send({"type": "open_table", "table": "t", "players": ["Ana", "Bob", "Cy"], "seed": 1, "wait": True})
    assert _not_presence(opener, "opened")["table"] == "t"
    opener.send({"type": "join", "table": "t", "seat": 0})
    assert _not_presence(opener, "joined")["waiting"] is True  # before the lines: a bot client answers none
    assert opener.until("presence")["waiting"] is True
    opener.send({"type": "place", "seq": 1, "card": 6, "column": 3})
    refused = opener.until("card_placed")
    assert (refused["type"], refused["code"], refused["re"]) == ("error", "illegal", "place")
    assert "waits for seat 2 (Bob), seat 3 (Cy)" in refused["message"]
    opener.send({"type": "list_tables", "table": "t"})
    assert _not_presence(opener, "tables")["tables"][0]["waiting"] is True

    opener.send({"type": "start", "table": "t"})
    assert _not_presence(opener, "started")["table"] == "t"
    presence = opener.until("presence")
    assert "waiting" not in presence  # omitted once false: a client of before reads the same presence
    assert [s.get("stand_in") for s in presence["seats"]] == [None, "greedy", "greedy"]
    opener.send({"type": "place", "seq": 1, "card": 6, "column": 3})
    assert _not_presence(opener, "card_placed")["player"] == 0
    for seat in (1, 2):  # the stand-ins play the seats nobody took, marked as such
        placed = _not_presence(opener, "card_placed")
        assert (placed["player"], placed["stand_in"]) == (seat, "greedy")
    opener.close()


def test_a_table_opened_without_the_key_starts_at_once(in_process: Server) -> None:
    """What clients that never heard of waiting rooms get: the table they open deals at once."""
    opener = _client(in_process)
    opener.send({"type": "open_table", "table": "t", "players": ["Ana", "Bob", "Cy"], "seed": 1})
    _not_presence(opener, "opened")
    opener.send({"type": "join", "table": "t", "seat": 0})
    _not_presence(opener, "joined")
    assert "waiting" not in opener.until("presence")
    opener.send({"type": "place", "seq": 1, "card": 6, "column": 3})
    assert _not_presence(opener, "card_placed")["player"] == 0
    opener.close()


def test_dvtuis_client_opens_a_waiting_room_by_default_and_a_restart_keeps_it_waiting() -> None:
    with short_dir() as d:
        with in_thread(d) as server:
            asyncio.run(open_table(server.place, "r", ["Ana", "Bob", "Cy"], seed=1))
        with in_thread(d) as server:  # the same directory, as after a restart
            info = asyncio.run(table_info(server.place, "r"))
            assert info is not None and info.waiting and info.to_move == 0


# -- from the command line (real processes) ------------------------------------------------------


def test_the_opener_starts_a_waiting_table_from_the_shell_and_a_bot_client_waits_for_it(served: Served) -> None:
    """A bot client sat in a waiting room places nothing (the table would refuse it) and plays once
    the opener starts the table; the seats nobody took are played by stand-ins to the end."""
    opened = served.dvtui("new", "--table", "w", "--players", "Ana,Bob,bot:greedy", "--seed", "3")  # the default
    assert opened.returncode == 0, opened.stderr
    listed = served.dvtui("tables")
    assert "waiting room, waiting for Ana, Bob (or 'dvtui tables start w')" in listed.stdout, listed.stdout
    ana = served.player("w", "Ana")
    wait_for("Ana's bot client to sit", lambda: "Ana: connected" in served.listed(), served.log)
    assert served.lines("w") == 1  # the deal only: nobody has moved, the bot neither
    started = served.dvtui("tables", "start", "w", real=True)  # from the shell
    assert started.returncode == 0, started.stderr
    assert "table w has started" in started.stdout
    code, _out, err = ana.finish()
    assert code == 0, err
    game = served.game("w")
    assert game.over
    verified = dvtui("verify", str(served.game_file("w")))
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_start_now_opens_a_table_that_deals_at_once_and_goes_with_a_table_alone(served: Served) -> None:
    """``--start-now`` is the way to the table of before: no waiting room, each seat waits for its
    person at its turn. It and ``--wait`` (the default's name) exclude each other."""
    opened = served.dvtui("new", "--table", "n", "--players", "Ana,Bob,bot:greedy", "--seed", "3", "--start-now")
    assert opened.returncode == 0, opened.stderr
    listed = served.dvtui("tables").stdout
    assert listed.startswith("n  round 1/6, Ana to move"), listed
    both = served.dvtui("new", "--table", "m", "--players", "Ana,Bob,Cy", "--wait", "--start-now")
    assert both.returncode == 2 and "not allowed with argument" in one_error_line(both.stderr)
    alone = dvtui("new", "--players", "Ana,Bob,Cy", "--start-now")
    assert alone.returncode == 2 and alone.stderr == "dvtui: error: --start-now goes with --table NAME\n"


# -- on the table screen -------------------------------------------------------------------------


async def test_the_screen_says_whom_the_table_waits_for_and_s_starts_it(in_process: Server) -> None:
    """Every screen shows the waiting room (the banner and the round bar say whom it waits for),
    takes no placement there, and ``s`` (the opener's) deals: the stand-ins then play."""
    players = ["Ana", "Bob", "Cy"]
    opening = open_table(in_process.place, "t", players, first_player=0, seed=5, wait=True)
    await asyncio.to_thread(lambda: asyncio.run(opening))
    session = await RemoteSession.open(in_process.place, "t", seat=0)
    app = table_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        bar, banner = app.screen.query_one(RoundBar), app.screen.query_one(Banner)
        await until(pilot, "the waiting room's words", lambda: "Waiting for Bob, Cy" in text(bar))
        assert "Waiting room, for Bob, Cy" in text(banner)
        assert session.human_to_move() is None  # Ana is first, but nobody places in a waiting room
        await pilot.press("s")
        await until(pilot, "the table to start", lambda: session.human_to_move() == 0)
        assert "Waiting" not in text(bar) and "Waiting" not in text(banner)
        assert "greedy bot standing in" in text(banner)
