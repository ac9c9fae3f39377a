"""Choosing one's seat on screen (a browser tab's way in to a shared table; Pilot, against a server
in this process): the list says who is at each seat, a connected or a bot's seat cannot be taken,
the seat named like the person is offered first, Enter sits there, and a table that is not there
says so."""

from __future__ import annotations

import asyncio
import getpass

import pytest
from textual.widgets import OptionList, Static

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.screens.seats import SeatChoice, SeatScreen, seat_label
from dvtui.app.screens.table import TableScreen
from dvtui.app.widgets.panels import Banner
from dvtui.tables import Dropped, RemoteSession, SeatState, TableInfo, open_table
from dvtui.tables.server import Server

from .support import in_thread, short_dir
from .test_remote_screen import text, until


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
    await open_table(in_process.place, "t", players, first_player=0, seed=5)
    ana = await RemoteSession.open(in_process.place, "t", seat=0)
    app = DvtuiApp(choose_seat=SeatChoice(in_process.place, "t", "cy"), pace=Pace(bot_delay=0.0, step_delay=None))
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
            assert "round 1 of" in text(screen.query_one("#seats-table", Static)) and "Ana to play" in text(
                screen.query_one("#seats-table", Static))
            assert options.highlighted == 2  # Cy's, the person's
            await pilot.press("up", "enter")  # Bob's, chosen instead
            await until(pilot, "the table", lambda: isinstance(app.screen, TableScreen))
            table = app.screen
            assert isinstance(table, TableScreen) and isinstance(table.session, RemoteSession)
            assert table.session.seat == 1
            assert "Ana (here) · Bob (you) · Cy (free)" in text(table.query_one(Banner))
    finally:
        ana.close()


async def test_a_table_that_is_not_there_says_so(in_process: Server) -> None:
    app = DvtuiApp(choose_seat=SeatChoice(in_process.place, "nowhere", "ana"))
    async with app.run_test(size=(100, 30)) as pilot:
        status = app.screen.query_one("#seats-table", Static)
        await until(pilot, "its absence said", lambda: "table nowhere is not at the table server" in text(status))
        assert "asking" not in text(status)  # said in place of the question, not under it
        assert app.screen.query_one(OptionList).option_count == 0  # nothing to take
        await pilot.press("q")
    assert app.return_code == 0


async def test_the_seats_of_one_table_among_hundreds_are_shown() -> None:
    """300 tables make a list longer than a line of the protocol: the screen asks for its table alone."""
    from .test_table_life import LONG, _tables_on_disk

    with short_dir() as d:
        (d / "srv").mkdir(mode=0o700)
        _tables_on_disk(d / "srv" / "games", 300)
        with in_thread(d / "srv") as server:
            app = DvtuiApp(choose_seat=SeatChoice(server.place, "table-299", "ana"))
            async with app.run_test(size=(100, 30)) as pilot:
                options = app.screen.query_one(OptionList)
                await until(pilot, "the seats", lambda: options.option_count == 6)
                assert str(options.get_option_at_index(1).prompt) == f"{LONG[1]}: free, take this seat"
                assert text(app.screen.query_one("#seats-error", Static)) == ""
                await pilot.press("q")


async def test_a_table_that_goes_away_while_one_chooses_is_said_in_place_of_its_seats(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dvtui.app.screens import seats

    await asyncio.to_thread(
        lambda: asyncio.run(open_table(in_process.place, "g", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5))
    )
    app = DvtuiApp(choose_seat=SeatChoice(in_process.place, "g", "ana"))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        options = screen.query_one(OptionList)
        status = screen.query_one("#seats-table", Static)
        await until(pilot, "the table's seats", lambda: options.option_count == 4)

        async def no_table(place: object, name: str) -> TableInfo | None:
            return None

        monkeypatch.setattr(seats, "table_info", no_table)  # the table is gone from the server's list
        await until(pilot, "its absence said", lambda: "table g is not at the table server" in text(status))
        assert "round" not in text(status)  # its summary is gone with it, and so are its seats
        assert options.option_count == 0
        await pilot.press("enter")  # nothing to sit at
        assert app.screen is screen


async def test_a_seat_this_account_left_is_offered_back_before_a_free_one(in_process: Server) -> None:
    """A reloaded tab: its seat is away (the old tab's connection gone), and offered first, even
    before the free seat named like the person (the order ``dvtui join`` picks in)."""
    await asyncio.to_thread(
        lambda: asyncio.run(open_table(in_process.place, "r", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5))
    )
    bob = await RemoteSession.open(in_process.place, "r", seat=1)
    bob.close()
    app = DvtuiApp(choose_seat=SeatChoice(in_process.place, "r", "ana"))
    async with app.run_test(size=(100, 30)) as pilot:
        options = app.screen.query_one(OptionList)

        def offered() -> bool:
            option = options.highlighted_option
            return option is not None and str(option.prompt) == "Bob: away, take it back"

        await until(pilot, "Bob's seat offered back", offered)
        assert str(options.get_option_at_index(0).prompt) == "Ana: free, take this seat"


async def test_a_table_server_that_drops_a_reading_is_said_and_the_screen_stays(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server restarting closes a reading half-way (``Dropped``): the screen says so and reads
    again a second later, instead of the tab's dvtui ending on an unhandled error."""
    from dvtui.app.screens import seats

    async def dropped(place: object, name: str) -> TableInfo | None:
        raise Dropped("the table server closed the connection")

    monkeypatch.setattr(seats, "table_info", dropped)
    app = DvtuiApp(choose_seat=SeatChoice(in_process.place, "t", "ana"))
    async with app.run_test(size=(100, 30)) as pilot:
        status = app.screen.query_one("#seats-table", Static)
        await until(pilot, "the error said", lambda: "closed the connection" in text(status))
        assert "asking again every second" in text(status)
        await pilot.pause(1.2 * seats.REFRESH)  # a second reading fails the same way
        assert app.is_running and isinstance(app.screen, SeatScreen)
