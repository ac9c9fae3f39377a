"""Choosing one's seat on screen (a browser tab's way in to a shared table; Pilot, against a server
in this process): the list says who is at each seat, a connected or a bot's seat cannot be taken,
the seat named like the person is offered first, Enter sits there, a table that is not there says
so, and the screen follows the table as the server pushes who is there (it never asks again)."""

from __future__ import annotations

import asyncio
import contextlib
import getpass

from textual.widgets import OptionList, Static

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions, ChooseSeat
from dvtui.app.screens.seats import SeatChoice, SeatScreen, seat_label
from dvtui.app.screens.table import TableScreen
from dvtui.app.widgets.panels import Banner
from dvtui.server.main import Server
from dvtui.tables import RemoteSession, SeatState, TableInfo, open_table
from dvtui.tables.protocol import Hello

from ..support.pilot import text, until
from ..support.servers import in_thread, short_dir


def test_each_seat_says_who_is_there_and_whether_it_can_be_taken() -> None:
    me = getpass.getuser()
    seats = [
        SeatState(seat=0, name="Ana", kind="human", state="connected", user="ana"),
        SeatState(seat=1, name="Bob", kind="human", state="free"),
        SeatState(seat=2, name="Cy", kind="human", state="away", user=me),
        SeatState(seat=3, name="Di", kind="human", state="away", user="di"),
        SeatState(seat=4, name="Bot 1", kind="bot", state="bot"),
        SeatState(seat=5, name="Eve", kind="human", state="connected", user="eve", bot="greedy"),
    ]
    info = TableInfo(table="t", seats=seats, round=1, rounds=4, to_move=0)
    assert [seat_label(info, s, me) for s in range(6)] == [
        ("Ana: here (ana), playing", False),
        ("Bob: free, take this seat", True),
        ("Cy: away, take it back", True),
        ("Di: away, the seat of di", False),
        ("Bot 1: a bot plays it", False),
        ("Eve: here (eve), a greedy bot client playing", False),
    ]


def test_a_seat_kept_for_somebody_else_cannot_be_chosen_and_ones_own_can() -> None:
    me = getpass.getuser()
    seats = [
        SeatState(seat=0, name="Di", kind="human", state="free", kept_for="di"),
        SeatState(seat=1, name=me.title(), kind="human", state="free", kept_for=me),
        SeatState(seat=2, name="web:ana", kind="human", state="free", kept_for="web:ana"),
    ]
    info = TableInfo(table="t", seats=seats, round=1, rounds=4, to_move=0)
    assert [seat_label(info, s, me) for s in range(3)] == [
        ("Di: kept for di", False),
        (f"{me.title()}: free, take this seat", True),
        ("web:ana: kept for web:ana", False),
    ]
    assert seat_label(info, 2, "web:ana") == ("web:ana: free, take this seat", True)


async def test_the_seat_named_like_the_person_is_offered_and_enter_sits_there(in_process: Server) -> None:
    players = ["Ana", "Bob", "Cy", "bot:greedy"]
    await asyncio.to_thread(lambda: asyncio.run(open_table(in_process.place, "t", players, first_player=0, seed=5)))
    ana = await RemoteSession.open(in_process.place, "t", seat=0)
    app = DvtuiApp(
        ChooseSeat(SeatChoice(in_process.place, "t", "cy")), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None))
    )
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            screen = app.screen
            assert isinstance(screen, SeatScreen)
            options = screen.query_one(OptionList)
            await until(pilot, "the table's seats", lambda: options.option_count == 5)
            shown = [str(options.get_option_at_index(i).prompt) for i in range(5)]
            assert shown[0].startswith("Ana: here") and options.get_option_at_index(0).disabled
            assert shown[1:] == ["Bob: free, take this seat", "Cy: free, take this seat", "Bot 1: a bot plays it",
                                 "Watch the table"]  # fmt: skip
            summary = text(screen.query_one("#seats-table", Static))
            assert summary == "waiting room, for Bob, Cy"  # nobody plays yet: no round, nobody to play
            assert options.highlighted == 2  # Cy's, the person's
            await pilot.press("up", "enter")  # Bob's, chosen instead
            await until(pilot, "the table", lambda: isinstance(app.screen, TableScreen))
            table = app.screen
            assert isinstance(table, TableScreen)
            assert table.session.seat == 1
            await until(
                pilot,
                "who sits where",  # the table is composed after it is pushed
                lambda: any(
                    f"Ana ({getpass.getuser()}) (here) · Bob (you) · Cy (free)" in text(b) for b in table.query(Banner)
                ),
            )
    finally:
        ana.close()


async def test_a_table_that_is_not_there_says_so(in_process: Server) -> None:
    app = DvtuiApp(ChooseSeat(SeatChoice(in_process.place, "nowhere", "ana")))
    async with app.run_test(size=(100, 30)) as pilot:
        status = app.screen.query_one("#seats-table", Static)
        await until(pilot, "its absence said", lambda: "table nowhere is not at the table server" in text(status))
        assert "asking" not in text(status)  # said in place of the question, not under it
        assert app.screen.query_one(OptionList).option_count == 0  # nothing to take
        await pilot.press("q")
    assert app.return_code == 0


async def test_the_seats_of_one_table_among_hundreds_are_shown() -> None:
    """300 tables make a list longer than a line of the protocol: the screen asks for its table alone."""
    from ..support.servers import LONG, tables_on_disk

    with short_dir() as d:
        (d / "srv").mkdir(mode=0o700)
        tables_on_disk(d / "srv" / "games", 300)
        with in_thread(d / "srv") as server:
            app = DvtuiApp(ChooseSeat(SeatChoice(server.place, "table-299", "ana")))
            async with app.run_test(size=(100, 30)) as pilot:
                options = app.screen.query_one(OptionList)
                await until(pilot, "the seats", lambda: options.option_count == 6)
                assert str(options.get_option_at_index(1).prompt) == f"{LONG[1]}: free, take this seat"
                assert text(app.screen.query_one("#seats-error", Static)) == ""
                await pilot.press("q")


async def test_a_seat_taken_elsewhere_appears_without_a_new_connection(in_process: Server) -> None:
    """The screen watches the table: the server pushes who is there, and the screen asks nothing
    again (the only hello the server hears meanwhile is the newcomer's)."""
    await asyncio.to_thread(
        lambda: asyncio.run(open_table(in_process.place, "g", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5))
    )
    hellos: list[Hello] = []
    greet = in_process.gateway.handle[Hello]

    async def counted(conn: object, message: Hello) -> None:
        hellos.append(message)
        await greet(conn, message)

    in_process.gateway.handle[Hello] = counted
    app = DvtuiApp(ChooseSeat(SeatChoice(in_process.place, "g", "ana")))
    async with app.run_test(size=(100, 30)) as pilot:
        options = app.screen.query_one(OptionList)
        status = app.screen.query_one("#seats-table", Static)
        await until(pilot, "the table's seats", lambda: options.option_count == 4)
        assert len(hellos) == 1 and "watching" not in text(status)  # the screen's own, not counted
        bob = await RemoteSession.open(in_process.place, "g", seat=1)
        try:
            await until(pilot, "Bob here", lambda: str(options.get_option_at_index(1).prompt).startswith("Bob: here"))
            assert len(hellos) == 2  # Bob's: the screen made no new connection to see him
            assert options.get_option_at_index(1).disabled
        finally:
            bob.close()
        await until(pilot, "Bob away", lambda: str(options.get_option_at_index(1).prompt) == "Bob: away, take it back")
        assert len(hellos) == 2
        await pilot.press("q")


async def test_a_seat_this_account_left_is_offered_back_before_a_free_one(in_process: Server) -> None:
    """A reloaded tab: its seat is away (the old tab's connection gone), and offered first, even
    before the free seat named like the person (the order ``dvtui join`` picks in)."""
    await asyncio.to_thread(
        lambda: asyncio.run(open_table(in_process.place, "r", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5))
    )
    bob = await RemoteSession.open(in_process.place, "r", seat=1)
    bob.close()
    app = DvtuiApp(ChooseSeat(SeatChoice(in_process.place, "r", "ana")))
    async with app.run_test(size=(100, 30)) as pilot:
        options = app.screen.query_one(OptionList)

        def offered() -> bool:
            option = options.highlighted_option
            return option is not None and str(option.prompt) == "Bob: away, take it back"

        await until(pilot, "Bob's seat offered back", offered)
        assert str(options.get_option_at_index(0).prompt) == "Ana: free, take this seat"


async def test_a_table_server_that_restarts_is_said_and_the_seats_come_back() -> None:
    """A server restarting drops the screen's watching: the screen says so in place of the seats,
    stays, and shows them again once the server is back (the client reconnects by itself)."""
    with short_dir() as d, contextlib.ExitStack() as first:
        (d / "srv").mkdir(mode=0o700)
        place = first.enter_context(in_thread(d / "srv")).place
        await asyncio.to_thread(
            lambda: asyncio.run(open_table(place, "r", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5))
        )
        app = DvtuiApp(ChooseSeat(SeatChoice(place, "r", "ana")))
        async with app.run_test(size=(100, 30)) as pilot:
            options = app.screen.query_one(OptionList)
            status = app.screen.query_one("#seats-table", Static)
            await until(pilot, "the table's seats", lambda: options.option_count == 4)
            first.close()  # the server stops
            await until(pilot, "its going said", lambda: "went away: reconnecting" in text(status))
            assert options.option_count == 0 and app.is_running and isinstance(app.screen, SeatScreen)
            with in_thread(d / "srv"):  # and starts again on the same directory
                await until(pilot, "the seats back", lambda: options.option_count == 4)
                assert text(status) == "waiting room, for Ana, Bob"
                await pilot.press("q")
