"""Move clocks: the rules as pure functions and on the :class:`Table` value (a clock given to it, no
sleep, no socket; a whole game where Bob never comes among them), then a real server: a table where
Bob never comes, reopened a few of his turns before its end, is played to the end by Ana's bot
client and stand-ins for Bob's turns, and a turn's time survives a ``kill -9`` of the server
(neither reset nor charged with the time the server was down)."""

from __future__ import annotations

import asyncio
import re
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from dvtui import i18n
from dvtui.app.widgets.panels import RoundBar
from dvtui.bots import choose
from dvtui.engine import CardPlaced, Placement, new_game
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.server import clocks
from dvtui.server.clocks import SOONEST, AliveStamp, next_look
from dvtui.server.main import Server
from dvtui.server.registry import kept_for
from dvtui.server.stores.base import TableRecord
from dvtui.server.table import STAND_IN, BotTurn, Table
from dvtui.store import read_game
from dvtui.tables import RemoteSession, open_table
from dvtui.tables.clock import (
    TICK,
    WAITING_ROOM_TIME,
    MoveClock,
    duration_words,
    loop_gap,
    move_time_words,
    parse_duration,
    resumed_left,
    waiting_time,
)
from dvtui.tables.protocol import FEATURES, Presence
from dvtui.tables.received import BadServer, check_message
from dvtui.tables.tableinfo import SeatState

from ..support.apps import table_app
from ..support.guests import Guest, HandClock
from ..support.pilot import text, until
from ..support.processes import in_process
from ..support.raw import RawClient
from ..support.servers import Served, in_thread, short_dir, table_on_disk, wait_for

ANA_UID = 70001


@pytest.mark.parametrize(
    ("text", "seconds"), [("45s", 45), ("2m", 120), ("1h", 3600), ("3d", 259200), ("30d", 2592000)]
)
def test_a_move_time_is_a_number_and_a_unit(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds
    assert parse_duration(move_time_words(seconds)) == seconds


def test_days_may_be_typed_in_french() -> None:
    """``3j`` (jours) as well as ``3d``: the French screen writes a day ``j``."""
    assert parse_duration("3j") == parse_duration("3d") == 259200
    assert move_time_words(parse_duration("3j")) == "3d"  # what the table's file and --help keep
    with pytest.raises(ValueError):
        parse_duration("31j")


@pytest.mark.parametrize("text", ["0s", "31d", "45", "2x", "1.5m", "-3s", "", "1m30s"])
def test_anything_else_is_refused_with_the_rule(text: str) -> None:
    with pytest.raises(ValueError, match="45s, 2m, 1h or 3d"):
        parse_duration(text)


def test_a_clock_reads_as_people_read_one() -> None:
    assert [duration_words(s) for s in (0, 0.2, 59.5, 65, 3723, 3 * 86400 + 4 * 3600)] == [
        "0:00", "0:01", "1:00", "1:05", "1:02:03", "3d 4h",
    ]  # fmt: skip
    i18n.set_language("fr")  # days and hours in the language's own letters
    assert duration_words(3 * 86400 + 4 * 3600) == "3 j 4 h"


def test_a_restart_keeps_what_was_used_while_the_server_ran_and_charges_nobody_for_the_rest() -> None:
    # the turn began at 1000; the server last ran at 1030; it starts again at 5000
    assert resumed_left(120, turn_began=1000, alive=1030, now=5000) == 90
    assert resumed_left(120, turn_began=1000, alive=1200, now=5000) == 0  # ran out while it ran
    assert resumed_left(120, turn_began=1000, alive=None, now=1010) == 110  # no stamp: all of it counts
    assert resumed_left(120, turn_began=1000, alive=990, now=5000) == 120  # stamped before the turn began


def test_a_late_tick_is_a_stopped_server_and_its_time_counts_for_nobody() -> None:
    assert loop_gap(100.0, 101.2) == 0.0  # a tick a little late: the server ran
    assert loop_gap(100.0, 131.0) == 31.0  # stopped: the whole time since the last tick is given back
    clock = MoveClock.begin(10, now=100.0)
    clock.lag(loop_gap(100.0, 131.0))
    assert not clock.out(131.0) and clock.left(131.0) == 10.0


def clocked(
    players: str = "Ana,Bob,bot:greedy", first: int = 0, *, started: bool = True
) -> tuple[Table[Guest], HandClock]:
    seats = parse_players(players)
    n = len(seats)
    record = TableRecord(owners=[None] * n, stand_ins=[None] * n, opener=ANA_UID, kept_for=kept_for(seats),
                         move_time=10, started=started)  # fmt: skip
    now = HandClock()
    session = PlaySession.start(new_game(seats, first_player=first, seed=5), None)
    return Table("t", session, record, now=now), now


def test_a_turn_that_runs_out_is_played_by_a_stand_in_and_the_person_keeps_the_seat() -> None:
    t, now = clocked()
    t.join(Guest(ANA_UID, "ana"), 0)
    assert t.bot_to_move() is None and t.presence().move_left == 10.0 and t.presence().move_time == 10
    now.t += 9.5
    assert t.tick() is None and t.move_left() == 0.5
    now.t += 0.5
    assert t.tick() == "overdue"
    assert t.bot_to_move() == BotTurn(0, STAND_IN, t.session.hint_seed(0), standing_in=True)
    assert t.seat_states()[0].state == "connected" and t.record.owners[0] == ANA_UID  # still hers
    assert t.tick() is None  # told once
    t.turned()  # the stand-in's placement was written: the next turn has its whole time
    assert not t.overdue and t.move_left() == 10.0


def test_a_bots_turn_has_no_clock() -> None:
    t, now = clocked(first=2)
    t.join(Guest(ANA_UID, "ana"), 0)
    assert t.move_left() is None
    now.t += 60
    assert t.tick() is None and not t.overdue


def test_a_stopped_server_makes_nobody_lose_on_time() -> None:
    t, now = clocked()
    now.t += 9
    t.lag(30)  # the server did not run for 30 s of what passed
    now.t += 30
    assert t.tick() is None and t.move_left() == 1.0


def test_the_clock_loop_wakes_when_a_turn_runs_out_not_at_its_next_whole_tick() -> None:
    """A turn with less than a tick left is looked at when it runs out: a stand-in plays on time,
    and a one-second move time is one second, not two."""
    t, now = clocked()
    t.join(Guest(ANA_UID, "ana"), 0)
    assert t.due_in() == 10.0 and next_look([t]) == TICK  # (a whole tick first)
    now.t += 9.7
    assert t.due_in() == pytest.approx(0.3) and next_look([t]) == pytest.approx(0.3)
    now.t += 0.3
    assert next_look([t]) == SOONEST and t.tick() == "overdue"
    assert t.due_in() is None and next_look([t]) == TICK  # the stand-in plays: nothing to wait for
    bots, _ = clocked(first=2)
    assert bots.due_in() is None and next_look([bots]) == next_look([]) == TICK  # a bot's turn has no clock


async def test_the_server_clock_loop_sleeps_until_the_turn_runs_out(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The loop itself (not only :func:`next_look`): with 0.3 s left on Ana's turn, it sleeps 0.3 s."""
    t, now = clocked()
    t.join(Guest(ANA_UID, "ana"), 0)
    now.t += 9.7
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        raise asyncio.CancelledError  # one turn of the loop is enough

    monkeypatch.setattr(clocks.asyncio, "sleep", sleep)
    with pytest.raises(asyncio.CancelledError):
        await clocks.run_clocks(lambda: [t], clocks.AliveStamp(tmp_path), lambda line: None, lambda table: None)  # type: ignore[list-item]
    assert slept == [pytest.approx(0.3)]


def test_a_clocked_waiting_room_waits_longer_than_a_move() -> None:
    """Friends need longer to come than a player needs for a move: ten minutes at least."""
    assert (waiting_time(10), waiting_time(3600)) == (WAITING_ROOM_TIME, 3600) and WAITING_ROOM_TIME == 600
    t, now = clocked(started=False)
    t.join(Guest(ANA_UID, "ana"), 0)
    assert t.waiting and t.move_left() == 600.0
    now.t += 599
    assert t.tick() is None
    now.t += 1
    assert t.tick() == "started"
    assert not t.waiting and t.record.stand_ins == [None, STAND_IN, None] and t.move_left() == 10.0


def test_the_first_turn_has_its_whole_time_whatever_the_waiting_room_took() -> None:
    t, now = clocked(started=False)
    t.join(Guest(ANA_UID, "ana"), 0)
    now.t += 8
    t.start(ANA_UID, operator=0)
    assert t.move_left() == 10.0
    t, now = clocked(started=False)
    t.join(Guest(ANA_UID, "ana"), 0)
    now.t += 8
    t.join(Guest(70002, "bob"), 1)  # the last person sits: the game begins now
    assert not t.waiting and t.move_left() == 10.0


def test_an_undo_gives_back_the_time_left_when_one_placed_never_a_whole_turn() -> None:
    t, now = clocked("Ana,bot:greedy,bot:greedy")
    t.join(Guest(ANA_UID, "ana"), 0)
    now.t += 4
    t.placing(0)  # Ana places with 6 s left; the bots answer (their lines: whole times, no clock shown)
    t.turned()
    now.t += 3
    t.undone(0)
    assert t.move_left() == 6.0
    now.t += 6
    assert t.tick() == "overdue"
    t.placing(0)  # her time ran out: the stand-in places
    t.turned()
    t.undone(0)  # taken back: nothing to give back, the stand-in plays again
    assert t.move_left() == 0.0 and t.tick() == "overdue"


def test_an_undo_never_takes_a_turn_begun_from_another_person() -> None:
    t, _ = clocked("Ana,Bob,bot:greedy")
    t.join(Guest(ANA_UID, "ana"), 0)
    assert t.turn_begun(0) is None  # her own turn
    t.session.place(Placement(3, 2), player=0)
    assert t.turn_begun(0) == 1  # Bob's clock runs: Ana's placement stands
    t.join(Guest(70002, "bob"), 1)
    assert t.turn_begun(1) is None
    unclocked, _ = clocked("Ana,Bob,bot:greedy")
    unclocked.clock = None
    unclocked.session.place(Placement(3, 2), player=0)
    assert unclocked.turn_begun(0) is None  # without a clock, the rule is the table's usual one


def test_a_server_gives_no_fresh_clock_to_an_undo_after_a_timeout() -> None:
    with short_dir() as d, in_thread(d) as server:
        ana = RawClient(str(server.place.socket))
        ana.send({"type": "hello", "version": 1, "features": list(FEATURES)})
        ana.until("welcome")
        opened = {"type": "open_table", "table": "t", "players": ["Ana", "bot:random", "bot:random"], "seed": 2,
                  "first_player": 0, "move_time": 1}  # fmt: skip
        assert ana.send(opened) is None and ana.until("opened")["type"] == "opened"
        ana.send({"type": "join", "table": "t", "seat": 0})
        lines = 0
        while True:  # her first turn runs out: the stand-in places for her, then the bots
            message = ana.receive()
            assert message is not None and message["type"] != "error", message
            if message["type"] == "presence" and message.get("to_move") == 0 and lines == 4:
                break
            lines += "seq" in message
        ana.send({"type": "undo", "seq": lines})
        told = [ana.receive() for _ in range(4)]  # the bots' placements and hers taken back, then presence
        assert [m["type"] for m in told if m is not None] == ["placement_undone"] * 3 + ["presence"], told
        assert told[-1] is not None and told[-1]["move_left"] == 0.0  # no fresh clock: the stand-in plays again
        again = ana.receive()
        assert again is not None and (again["type"], again.get("stand_in")) == ("card_placed", STAND_IN), again


def test_a_seat_nobody_takes_is_played_to_the_end_by_its_stand_in() -> None:
    """A whole game of a clocked table where Bob never comes, as the server plays it (each bot turn
    the table names is made and written) but on a hand clock: each of his turns waits its whole move
    time and is then the stand-in's, to the game's end; nobody else's turn is ever stood in for."""
    t, now = clocked("Ana,Bob,bot:greedy,bot:greedy")
    t.join(Guest(ANA_UID, "ana"), 0)
    bobs = 0
    placed: list[CardPlaced] = []
    while not t.session.game.over:
        seat = t.session.game.to_move
        if seat == 1:
            assert t.bot_to_move() is None and t.tick() is None and t.move_left() == 10.0  # his whole time
            now.t += 9.9
            assert t.tick() is None and t.bot_to_move() is None  # not a moment before it runs out
            now.t += 0.1
            assert t.tick() == "overdue"
            bobs += 1
        turn = t.bot_to_move()
        if seat == 0:
            assert turn is None  # Ana's own turn: she places
            placement, level = choose("greedy", t.session.game.copy(), 1), None
        else:
            assert turn is not None and turn.seat == seat and turn.standing_in == (seat == 1), turn
            placement, level = choose(turn.level, t.session.game.copy(), turn.seed), turn.level if seat == 1 else None
        t.placing(seat)
        played = t.session.place(placement, player=seat, stand_in=level)
        placed += [e for e in played.events if isinstance(e, CardPlaced)]
        t.turned()
    assert bobs == len([e for e in placed if e.player == 1]) > 5
    assert all((e.stand_in == STAND_IN) == (e.player == 1) for e in placed)
    assert t.record.owners[1] is None and t.tick() is None and t.bot_to_move() is None  # over: no clock runs


# -- a real server -------------------------------------------------------------------------------


BOBS_LEFT = 2
"""Bob's turns left in the game the server reopens: more than one, so that his clock runs again
after a stand-in's placement, and few, so that the game's end comes a second or two later."""


def _bobs_turn(lines: list[dict[str, Any]]) -> int:
    """Where Bob has :data:`BOBS_LEFT` turns left."""
    return [i for i, line in enumerate(lines) if line["type"] == "card_placed" and line["player"] == 1][-BOBS_LEFT]


@pytest.mark.long
def test_a_table_where_bob_never_comes_is_played_to_the_end_by_stand_ins_on_his_clock() -> None:
    """Every turn of Bob's goes to a stand-in once his second runs out, until the game ends and Ana's
    bot client leaves with it. The table is reopened a few turns before its end: each turn of his
    costs a real second (the shortest move time), and the rule is the same at each (a whole game of
    it, on a hand clock: :func:`test_a_seat_nobody_takes_is_played_to_the_end_by_its_stand_in`)."""
    players = "Ana,Bob,bot:greedy,bot:greedy"
    with short_dir() as d, Served(d / "srv") as served:
        d.joinpath("srv").mkdir(mode=0o700)
        before = table_on_disk(served.directory / "games", "t", players, 3, _bobs_turn, move_time=1, started=True)
        served.start()
        assert "; move time 1s" in served.dvtui("tables").stdout
        code, _out, err = served.player("t", "Ana").finish()
        assert code == 0, err
        path = served.game_file("t")
        placed = [e for e in read_game(path).events[before:] if isinstance(e, CardPlaced)]
        bobs = [e for e in placed if e.player == 1]
        assert len(bobs) == BOBS_LEFT and all(e.stand_in == STAND_IN for e in bobs)  # each on his clock
        assert all(e.stand_in is None for e in placed if e.player != 1)
        verified = in_process("verify", str(path))
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert served.log().count("ran out of time; a stand-in plays the turn") == BOBS_LEFT
        assert served.stop() == 0, served.log()


USED = 0.3
"""Seconds of Ana's turn the killed server is seen to have run (its alive stamp) at least: more
than the slack of the bounds on what her turn was charged, so that a clock reset shows."""


def _move_left(served: Served, table: str) -> float:
    watcher = RawClient(str(served.place.socket))
    watcher.hello()
    watcher.send({"type": "watch", "table": table})
    presence = watcher.until("presence")
    watcher.close()
    assert presence["type"] == "presence", presence
    left: float = presence["move_left"]
    return left


@pytest.mark.long
def test_the_clock_survives_a_kill_9_of_the_server(served: Served) -> None:
    """The turn's time used while the server ran stays used; the time it was down is nobody's."""
    asked = time.time()
    opened = served.dvtui("new", "--table", "k", "--players", "Ana,Bob,Cy", "--move-time", "1m", "--start-now")
    assert opened.returncode == 0, opened.stderr
    began = time.time()  # Ana's turn began between the two
    alive = AliveStamp(served.directory)
    # some of Ana's minute goes: the server's stamp, touched each second, says it ran past USED of it
    wait_for("some of Ana's turn", lambda: (alive.last() or 0.0) >= began + USED)
    served.kill9()
    last = alive.last() or 0.0  # when the killed server last ran
    # down: this counts for nobody. Longer than her turn may have begun before ``began`` (the slack
    # of the lower bound below), by half a second: a server that charged it would be seen to.
    time.sleep(began - asked + 0.5)
    restarted = time.time()
    served.start()
    left = _move_left(served, "k")
    ran = last - asked + time.time() - restarted  # at most this of her turn passed while a server ran
    assert last - began >= USED
    assert left <= 60 - (last - began) + 0.1  # not reset: all of what its stamp says was used is gone ...
    assert left >= 60 - ran - 0.1  # ... and no more: not the seconds the server was down


async def test_the_round_bar_shows_the_time_left_to_the_player_to_move(in_process: Server) -> None:
    opening = open_table(in_process.place, "t", ["Ana", "Bob", "Cy"], first_player=1, seed=5, move_time=600, wait=False)
    await asyncio.to_thread(lambda: asyncio.run(opening))
    session = await RemoteSession.open(in_process.place, "t", seat=0)
    async with table_app(session).run_test(size=(80, 24)) as pilot:
        bar = pilot.app.screen.query_one(RoundBar)
        await until(
            pilot, "Bob's clock", lambda: re.search(r"Bob to play \(free seat.*\) · 9:5\d left", text(bar)) is not None
        )
        presence = session.presence()
        assert presence is not None and presence.move_left is not None
        shown = presence.time_left(time.monotonic())
        assert shown is not None and shown < 600  # counted down here, from the server's figure


@pytest.mark.long
def test_a_stopped_server_never_makes_anyone_lose_on_time(served: Served) -> None:
    """SIGSTOP longer than Ana's move time: once the server runs again, her turn has the time it
    had when it stopped (the loop's lag says how long it did not run), not a stand-in's move."""
    opened = served.dvtui("new", "--table", "s", "--players", "Ana,Bob,Cy", "--move-time", "2s", "--start-now")
    assert opened.returncode == 0, opened.stderr
    bob = RawClient(str(served.place.socket))
    bob.hello()
    bob.send({"type": "join", "table": "s", "seat": 1})  # somebody is at the table: its stand-ins would play
    assert bob.until("presence")["type"] == "presence"
    assert served.proc is not None
    served.proc.send_signal(signal.SIGSTOP)
    time.sleep(2.5)  # longer than her move time (2 s: the stop must also be a tick's lag, past LAG)
    served.proc.send_signal(signal.SIGCONT)
    wait_for("the server to see it was stopped", lambda: "the server did not run for" in served.log(), served.log)
    watcher = RawClient(str(served.place.socket))
    watcher.hello()
    watcher.send({"type": "watch", "table": "s"})
    seen = []
    while (message := watcher.receive()) is not None and message["type"] != "presence":
        seen.append(message["type"])
    assert message is not None and seen == ["joined", "game_created"]  # nobody has placed for Ana
    assert message["move_left"] > 0.5  # her turn has what it had when the server stopped
    watcher.close()
    bob.close()


@pytest.mark.parametrize(("move_time", "left"), [(0, None), (10, -1.0), (10, 1e12)])
def test_a_clock_no_server_could_mean_is_refused_before_it_is_drawn(move_time: int, left: float | None) -> None:
    seats = [SeatState(seat=i, name=name, kind="human", state="free") for i, name in enumerate(["Ana", "Bob", "Cy"])]
    check_message(Presence(table="t", seats=seats, move_time=10, move_left=9.5))  # a sound one
    presence = Presence(table="t", seats=seats, move_time=move_time, move_left=left)
    with pytest.raises(BadServer, match=r"presence\.move_"):
        check_message(presence)
