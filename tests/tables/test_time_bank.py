"""The time bank beside the move clock: a turn spends its move time, then its seat's bank; a
placement made in time earns the increment; an undo gives the bank back; a restart keeps it."""

from __future__ import annotations

import asyncio
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dvtui.app.widgets.panels import Banner, RoundBar
from dvtui.engine import new_game
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.server.main import Server
from dvtui.server.registry import kept_for
from dvtui.server.stores.base import TableRecord, normal_record
from dvtui.server.table import STAND_IN, BotTurn, Refusal, Table
from dvtui.server.tableclock import record_bank
from dvtui.tables import RemoteSession, open_table
from dvtui.tables.clock import MAX_MOVE_TIME, MoveClock, bank_left
from dvtui.tables.older import presence_for
from dvtui.tables.protocol import FEATURES, Presence
from dvtui.tables.received import BadServer, check_message, check_table_info
from dvtui.tables.tableinfo import SeatState, TableInfo

from ..support.apps import table_app
from ..support.guests import Guest, HandClock
from ..support.pilot import text, until
from ..support.plain import PlainPlayer, no_escape
from ..support.processes import dvtui, in_process
from ..support.raw import RawClient
from ..support.servers import Served, server_in_thread

ANA_UID = 70001


def test_the_move_time_is_spent_before_the_bank() -> None:
    assert bank_left(60.0, 70.0) == 60.0  # 10 s of move time left: the bank untouched
    assert bank_left(60.0, 45.0) == 45.0  # the move time gone, 15 s of the bank too
    assert bank_left(60.0, 0.0) == 0.0


def test_a_placement_in_time_keeps_what_is_left_of_the_bank_plus_the_increment() -> None:
    clock = MoveClock(move_time=10, deadline=0.0, increment=5.0, banks=[60.0, 60.0])
    clock.turn(100.0, 0)
    assert clock.left(100.0) == 70.0  # the move time, then the bank
    assert clock.banks_now(105.0, 0) == [60.0, 60.0]  # still within the move time
    assert clock.banks_now(130.0, 0) == [40.0, 60.0]  # 20 s into the bank
    before = clock.spend(0, 130.0, in_time=True)
    assert before == 60.0 and clock.banks == [45.0, 60.0]
    clock.turn(130.0, 1)
    assert clock.left(130.0) == 70.0  # Bob's bank behind his move time


def test_a_stand_ins_turn_empties_the_bank_and_earns_nothing() -> None:
    clock = MoveClock(move_time=10, deadline=0.0, increment=5.0, banks=[3.0, 60.0])
    clock.turn(0.0, 0)
    assert clock.out(13.0)
    clock.spend(0, 13.0, in_time=False)
    assert clock.banks == [0.0, 60.0]
    clock.turn(13.0, 0)
    assert clock.left(13.0) == 10.0  # the move time alone, every turn from now on


def test_an_undo_gives_back_the_bank_before_the_placement() -> None:
    clock = MoveClock(move_time=10, deadline=0.0, increment=5.0, banks=[60.0, 60.0])
    clock.turn(0.0, 0)
    left = clock.left(30.0)
    before = clock.spend(0, 30.0, in_time=True)
    assert clock.banks == [45.0, 60.0]
    clock.give_back(0, 50.0, left, before)
    assert clock.banks == [60.0, 60.0] and clock.left(50.0) == 40.0  # as she had it, not a whole turn


def test_a_clock_without_a_bank_is_the_move_clock_it_was() -> None:
    clock = MoveClock.begin(10, 0.0)
    clock.turn(5.0, 1)
    assert clock.left(5.0) == 10.0 and clock.spend(1, 7.0, in_time=True) == 0.0 and clock.banks == []


# -- at a table, without a socket ----------------------------------------------------------------


def banked(players: str = "Ana,Bob,bot:greedy", banks: list[float] | None = None) -> tuple[Table[Guest], HandClock]:
    seats = parse_players(players)
    n = len(seats)
    record = TableRecord(owners=[None] * n, stand_ins=[None] * n, opener=ANA_UID, kept_for=kept_for(seats),
                         move_time=10, time_bank=60, increment=5, banks=banks or [])  # fmt: skip
    now = HandClock()
    session = PlaySession.start(new_game(seats, first_player=0, seed=5), None)
    return Table("t", session, record, now=now), now


def test_a_turn_runs_into_the_bank_before_a_stand_in_plays_it() -> None:
    t, now = banked()
    t.join(Guest(ANA_UID, "ana"), 0)
    presence = t.presence()
    assert (presence.move_left, presence.time_bank, presence.increment, presence.banks) == (70.0, 60, 5, [60.0] * 3)
    now.t += 30
    assert t.tick() is None and t.banks() == [40.0, 60.0, 60.0]  # her move time gone, 20 s of her bank
    now.t += 40
    assert t.tick() == "overdue"
    assert t.bot_to_move() == BotTurn(0, STAND_IN, t.session.hint_seed(0), standing_in=True)
    t.placing(0)
    t.turned()
    assert t.record.banks == [0.0, 60.0, 60.0]  # no increment for the stand-in's placement


def test_a_placement_in_time_earns_the_increment_and_the_record_keeps_it() -> None:
    t, now = banked()
    t.join(Guest(ANA_UID, "ana"), 0)
    now.t += 25
    t.placing(0)
    t.session.place(t.session.game.legal_placements()[0], player=0)
    t.turned()
    assert t.record.banks == [50.0, 60.0, 60.0]  # 15 s of the bank spent, 5 s earned
    assert t.move_left() == 70.0  # Bob's move time and his whole bank
    now.t += 3
    t.session.undo(0)
    t.turned()
    t.undone(0)
    assert t.record.banks == [60.0, 60.0, 60.0] and t.move_left() == 45.0  # as she had them when she placed


def test_a_reopened_table_gives_each_seat_its_kept_bank() -> None:
    t, _ = banked(banks=[12.5, 30.0, 60.0])
    assert t.presence().banks == [12.5, 30.0, 60.0] and t.move_left() == 22.5
    assert record_bank(t.record, 1) == 30.0 and record_bank(t.record, None) == 0.0


def test_a_rematch_fills_every_bank_again() -> None:
    t, _ = banked(banks=[0.0, 30.0, 60.0])
    t.deal(t.session, t.next_record("old.dvr"))
    assert t.presence().banks == [60.0] * 3


def test_an_older_client_is_told_nothing_of_banks() -> None:
    t, _ = banked()
    older = presence_for(t.presence(), frozenset(f for f in FEATURES if f != "bank"))
    assert (older.time_bank, older.increment, older.banks) == (None, 0, None)
    assert presence_for(t.presence(), frozenset(FEATURES)).banks == [60.0] * 3


# -- at a real server ----------------------------------------------------------------------------


class Here:
    """A server in a thread of this process, asked as :class:`Served` is (each ``dvtui ... --server
    DIR`` run in this process too): for the tests whose subject is what the server says, not its
    process (no interpreter start and stop each)."""

    def __init__(self, srv: Server) -> None:
        self.place = srv.place
        self.directory = srv.place.directory

    def dvtui(self, *args: str) -> subprocess.CompletedProcess[str]:
        return in_process(*args, "--server", self.directory)


@pytest.fixture
def here() -> Iterator[Here]:
    with server_in_thread() as srv:
        yield Here(srv)


def _ana_places_first(served: Served, table: str, players: str, seed: int) -> RawClient:
    """Ana, at seat 0 of ``table`` (``players`` dealt with ``seed``, she moves first), sends the
    game's first legal placement; her connection, for what follows."""
    ana = RawClient(str(served.place.socket))
    ana.hello(list(FEATURES))
    ana.send({"type": "join", "table": table, "seat": 0})
    ana.until("presence")
    game = PlaySession.start(new_game(parse_players(players), first_player=0, seed=seed), None).game
    placement = game.legal_placements()[0]
    ana.send({"type": "place", "seq": 1, "card": placement.card, "column": placement.column})
    return ana


def _watched_presence(served: Served | Here, table: str) -> dict[str, Any]:
    """The presence a spectator of ``table`` is sent first."""
    watcher = RawClient(str(served.place.socket))
    watcher.hello(list(FEATURES))
    watcher.send({"type": "watch", "table": table})
    presence = watcher.until("presence")
    watcher.close()
    return presence


def _presence_for_ana(ana: RawClient) -> dict[str, Any]:
    """The next presence whose turn is Ana's (the bots' placements and presences before it skipped)."""
    while True:
        message = ana.receive()
        assert message is not None and message["type"] != "error", message
        if message["type"] == "presence" and message.get("to_move") == 0:
            return message


def test_a_placement_in_time_earns_the_increment_at_a_real_server(here: Here) -> None:
    """The bank on the wire: a clocked table's presences name its bank and increment, and the
    placement Ana makes in time adds the increment to her bank. What follows when a turn spends its
    move time and then its bank (a stand-in plays it, and its seat's bank is empty) is the same
    clock's rule on a hand clock (:func:`test_a_turn_runs_into_the_bank_before_a_stand_in_plays_it`),
    and a real server's stand-in on a clock is test_move_clock's: waiting out both here took four
    seconds of nothing. The server runs in a thread of this process: the wire is the subject, not
    the process."""
    players = "Ana,bot:random,bot:random"
    clock = ["--move-time", "2s", "--time-bank", "1s", "--increment", "1s"]
    opened = here.dvtui(
        "new", "--table", "b", "--players", players, "--seed", "2", "--first", "1", *clock, "--start-now"
    )
    assert opened.returncode == 0, opened.stderr
    ana = RawClient(str(here.place.socket))
    ana.hello(list(FEATURES))
    ana.send({"type": "join", "table": "b", "seat": 0})
    first = _presence_for_ana(ana)
    assert (first["time_bank"], first["increment"], first["banks"]) == (1, 1, [1.0, 1.0, 1.0])
    game = PlaySession.start(new_game(parse_players(players), first_player=0, seed=2), None).game
    placement = game.legal_placements()[0]
    ana.send({"type": "place", "seq": 1, "card": placement.card, "column": placement.column})
    second = _presence_for_ana(ana)  # placed within her move time (2 s): her bank and the increment
    assert second["banks"][0] == 2.0 and second["move_left"] > 2.0, second  # her next turn: its bank behind it
    ana.close()


async def test_the_screen_shows_each_seats_bank_and_the_time_to_move_before_it(in_process: Server) -> None:
    opening = open_table(in_process.place, "t", ["Ana", "Bob", "Cy"], first_player=1, seed=5, move_time=600,
                         wait=False, time_bank=3600, increment=30)  # fmt: skip
    await asyncio.to_thread(lambda: asyncio.run(opening))
    session = await RemoteSession.open(in_process.place, "t", seat=0)
    async with table_app(session).run_test(size=(100, 30)) as pilot:
        bar = pilot.app.screen.query_one(RoundBar)
        shown = r"Bob to play \(free seat.*\) · 9:5\d left · bank 1:00:00"
        await until(pilot, "Bob's clock and bank", lambda: re.search(shown, text(bar)) is not None)
        banner = text(pilot.app.screen.query_one(Banner))
        assert "Ana (you, bank 1:00:00)" in banner, banner


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--time-bank", "10m"], "dvtui: error: --time-bank goes with --move-time DURATION\n"),
        (["--increment", "30s"], "dvtui: error: --increment goes with --move-time DURATION\n"),
        (["--move-time", "1m", "--time-bank", "10x"], "dvtui: error: --time-bank 10x: a move time is a number"),
    ],
)
def test_a_bank_the_command_line_cannot_mean_is_refused_in_one_line(
    tmp_path: Path, flags: list[str], said: str
) -> None:
    refused = dvtui("new", "--table", "t", "--players", "Ana,Bob,Cy", *flags, "--server", str(tmp_path / "srv"))
    assert refused.returncode == 2 and refused.stderr.startswith(said), refused.stderr
    assert not (tmp_path / "srv").exists()  # refused before a server was started


def test_banks_no_server_could_mean_are_refused_before_they_are_drawn() -> None:
    seats = [SeatState(seat=i, name=name, kind="human", state="free") for i, name in enumerate(["Ana", "Bob", "Cy"])]
    check_message(Presence(table="t", seats=seats, move_time=10, move_left=9.5, time_bank=60, banks=[60.0, 5.0, 0.0]))
    for wrong in ([60.0, 5.0], [60.0, 5.0, -1.0], [60.0, 5.0, 1e12]):
        with pytest.raises(BadServer, match=r"presence\.banks"):
            check_message(Presence(table="t", seats=seats, move_time=10, move_left=9.5, time_bank=60, banks=wrong))


def test_the_opener_gives_a_table_without_a_clock_a_bank_and_lowers_it_never_raises_it() -> None:
    t, now = banked()
    t.record.move_time, t.record.time_bank, t.record.increment, t.clock = None, None, 0, None
    t.set_clock(ANA_UID, 10, operator=0, time_bank=60, increment=5)
    assert t.presence().banks == [60.0] * 3 and t.move_left() == 70.0
    now.t += 30
    t.set_clock(ANA_UID, 10, operator=0, time_bank=20)
    assert t.presence().banks == [20.0] * 3 and t.move_left() == 30.0  # the turn under way no longer than that
    for raised in ({"time_bank": 30}, {"increment": 6}):
        with pytest.raises(Refusal, match="may be lowered, not raised"):
            t.set_clock(ANA_UID, 10, operator=0, **raised)
    t.set_clock(ANA_UID, 10, operator=0)  # the move time again: the bank behind it is kept
    assert t.move_left() == 30.0


def test_dvtui_tables_clock_lowers_a_bank_and_refuses_to_raise_it(here: Here) -> None:
    opened = here.dvtui("new", "--table", "c", "--players", "Ana,Bob,Cy", "--move-time", "1h", "--time-bank", "1h",
                        "--start-now")  # fmt: skip
    assert opened.returncode == 0, opened.stderr
    raised = here.dvtui("tables", "clock", "c", "--move-time", "1h", "--time-bank", "2h")
    assert raised.returncode == 1 and "has a time bank of one of 3600 s: it may be lowered, not raised" in raised.stderr
    lowered = here.dvtui("tables", "clock", "c", "--move-time", "1h", "--time-bank", "30m")
    assert lowered.stdout == (
        "table c: each turn may last 1h; then a bot plays it\ntable c: each seat's time bank is 30m at most\n"
    ), lowered.stderr
    presence = _watched_presence(here, "c")
    assert presence["banks"] == [1800.0] * 3 and presence["time_bank"] == 1800, presence


def test_each_bank_survives_a_kill_9_of_the_server(served: Served) -> None:
    players = "Ana,Bob,Cy"
    opened = served.dvtui("new", "--table", "r", "--players", players, "--seed", "4", "--first", "1",
                          "--move-time", "1h", "--time-bank", "1h", "--increment", "1m", "--start-now")  # fmt: skip
    assert opened.returncode == 0, opened.stderr
    ana = _ana_places_first(served, "r", players, seed=4)
    assert ana.until("card_placed")["player"] == 0
    ana.close()
    served.kill9()
    served.start()
    presence = _watched_presence(served, "r")
    assert presence["banks"] == [3660.0, 3600.0, 3600.0], presence  # Ana's increment kept
    assert presence["move_left"] > 3600.0, presence  # Bob's bank behind his move time


def test_the_plain_mode_says_each_seats_bank_at_each_turn(here: Here) -> None:
    opened = here.dvtui("new", "--table", "p", "--players", "Ana,Bob,Cy", "--first", "2", "--move-time", "1h",
                        "--time-bank", "10m", "--start-now")  # fmt: skip
    assert opened.returncode == 0, opened.stderr
    watcher = PlainPlayer("watch", "p", "--plain", "--server", str(here.directory), data=here.directory.parent)
    watcher.expect(r"Time banks \(spent once the move time has run out\): Ana 10:00, Bob 10:00, Cy 10:00\.")
    watcher.send("quit")
    assert watcher.finish() == 0
    no_escape(watcher.said)


def test_the_plain_mode_names_no_bank_for_a_bots_seat(here: Here) -> None:
    opened = here.dvtui("new", "--table", "q", "--players", "Ana,Bob,bot:greedy", "--first", "1", "--move-time",
                        "1h", "--time-bank", "10m", "--start-now")  # fmt: skip
    assert opened.returncode == 0, opened.stderr
    watcher = PlainPlayer("watch", "q", "--plain", "--server", str(here.directory), data=here.directory.parent)
    watcher.expect(r"Time banks \(spent once the move time has run out\): Ana 10:00, Bob 10:00\.\r?\n")
    watcher.send("quit")
    assert watcher.finish() == 0


def test_a_bots_seat_has_no_bank_to_earn_nor_to_show() -> None:
    t, now = banked("Ana,Bob,bot:greedy")
    t.session.place(t.session.game.legal_placements()[0], player=0)
    t.turned()
    t.session.place(t.session.game.legal_placements()[0], player=1)
    t.turned()
    now.t += 20
    t.placing(2)  # the bot's move: no increment for a seat without a clock
    t.session.place(t.session.game.legal_placements()[0], player=2)
    t.turned()
    assert t.record.banks == [60.0, 60.0, 60.0]


async def test_the_line_of_seats_shows_no_bank_for_a_bots_seat(in_process: Server) -> None:
    opening = open_table(in_process.place, "t", ["Ana", "Bob", "bot:greedy"], first_player=1, seed=5, move_time=600,
                         wait=False, time_bank=60)  # fmt: skip
    await asyncio.to_thread(lambda: asyncio.run(opening))
    session = await RemoteSession.open(in_process.place, "t", seat=0)
    async with table_app(session).run_test(size=(100, 30)) as pilot:
        banner = pilot.app.screen.query_one(Banner)
        await until(pilot, "the banks", lambda: "Ana (you, bank 1:00)" in text(banner))
        assert "bank" not in text(banner).split("Bot 1")[1], text(banner)


def test_a_records_banks_are_brought_within_a_clocks_bounds() -> None:
    record = TableRecord(owners=[None] * 3, stand_ins=[None] * 3, move_time=10, time_bank=-4, increment=10**12,
                         banks=[-1.0, 1e12, 5.0])  # fmt: skip
    made = normal_record(record, 3)
    assert (made.time_bank, made.increment, made.banks) == (0, MAX_MOVE_TIME, [0.0, MAX_MOVE_TIME, 5.0])
    short = TableRecord(owners=[None] * 3, stand_ins=[None] * 3, move_time=10, time_bank=60, banks=[1.0])
    assert normal_record(short, 3).banks == []  # not one per seat: every bank full again


def test_dvtui_tables_lists_a_tables_bank_and_increment(here: Here) -> None:
    opened = here.dvtui("new", "--table", "l", "--players", "Ana,Bob,Cy", "--move-time", "1m", "--time-bank", "10m",
                        "--increment", "30s")  # fmt: skip
    assert opened.returncode == 0, opened.stderr
    listed = here.dvtui("tables")
    assert "move time 1m; time bank 10m +30s a move" in listed.stdout, listed.stdout


def test_a_listed_bank_no_server_could_mean_is_refused() -> None:
    seats = [SeatState(seat=i, name=name, kind="human", state="free") for i, name in enumerate(["Ana", "Bob", "Cy"])]
    check_table_info(TableInfo(table="t", seats=seats, round=1, rounds=6, to_move=0, move_time=60, time_bank=600))
    for wrong in ({"time_bank": -1}, {"increment": MAX_MOVE_TIME + 1}):
        info = TableInfo(table="t", seats=seats, round=1, rounds=6, to_move=0, move_time=60, **wrong)  # type: ignore[arg-type]
        with pytest.raises(BadServer, match="time_bank or increment is out of bounds"):
            check_table_info(info)


def test_an_older_client_reads_no_more_time_left_than_a_move_time_may_be() -> None:
    older = frozenset(f for f in FEATURES if f != "bank")
    long = Presence(
        table="t", seats=[], move_time=MAX_MOVE_TIME, move_left=2.0 * MAX_MOVE_TIME, time_bank=MAX_MOVE_TIME
    )
    assert presence_for(long, older).move_left == MAX_MOVE_TIME  # within the bound its checks hold a server to
    assert presence_for(long, frozenset(FEATURES)).move_left == 2.0 * MAX_MOVE_TIME
