"""The start menu's tables (the lobby; Pilot, against a server in this process): this person's
tables first, their turn first of all, with the time left on a clock; Enter on a table opens the
seat chooser (Esc comes back) and a seat taken there is played; no server, no lobby and no server
started for it."""

from __future__ import annotations

import asyncio
import getpass
import re
from pathlib import Path

import msgspec
import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, OptionList, Select, Static

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Menu
from dvtui.app.screens import menu as menu_module
from dvtui.app.screens.lobby import Lobby, read_lobby, table_label
from dvtui.app.screens.menu import MenuScreen
from dvtui.app.screens.ratings import RatingsScreen
from dvtui.app.screens.seats import SeatScreen
from dvtui.app.screens.setup import SetupScreen
from dvtui.app.screens.table import TableScreen
from dvtui.play.face import presence_of
from dvtui.ratings import BotSeat, FinishedGame, Person
from dvtui.server import gateway as gateway_module
from dvtui.server.main import Server
from dvtui.server.stores.files import RATED_FILE
from dvtui.tables import SeatState, ServerPlace, TableInfo, open_table, table_info
from dvtui.tables.listing import lobby_order

from ..support.pilot import text, until

ME = getpass.getuser()


def _info(name: str, to_move: int | None, *seats: SeatState, move_left: float | None = None) -> TableInfo:
    return TableInfo(table=name, seats=list(seats), round=1, rounds=6, to_move=to_move, over=to_move is None,
                     move_left=move_left)  # fmt: skip


def test_ones_tables_first_ones_turn_first_of_all_then_the_others_unfinished_first() -> None:
    mine = SeatState(seat=0, name="Me", kind="human", state="connected", user="me")
    other = SeatState(seat=1, name="Bob", kind="human", state="away", user="bob")
    infos = [
        _info("a-others-over", None, other),
        _info("b-others", 1, other),
        _info("c-mine-over", None, mine, other),
        _info("d-mine-waiting", 1, mine, other),
        _info("e-my-turn", 0, mine, other),
    ]
    order = [info.table for info in lobby_order(infos, "me")]
    assert order == ["e-my-turn", "d-mine-waiting", "c-mine-over", "b-others", "a-others-over"]


def test_a_tables_line_says_whose_turn_and_the_time_left() -> None:
    mine = SeatState(seat=0, name="Me", kind="human", state="connected", user="me")
    bob = SeatState(seat=1, name="Bob", kind="human", state="free")
    clocked = _info("t", 0, mine, bob, move_left=65.0)
    assert str(table_label(clocked, "me")) == "▶ t  your turn, 1:05 left · round 1 of 6"
    assert str(table_label(_info("t", 1, mine, bob), "me")) == "  t  Bob to play · round 1 of 6"
    assert str(table_label(_info("t", None, mine, bob, move_left=3.0), "me")) == "  t  the game is over"
    hostile = _info("t\x1b]0;x\x07", 1, SeatState(seat=0, name="[b]x", kind="human", state="free"),
                    SeatState(seat=1, name="[red]B\x1b[2J", kind="human", state="free"))  # fmt: skip
    line = str(table_label(hostile, "me"))
    assert "\x1b" not in line and "\x07" not in line and "[red]B" in line  # shown, never obeyed


async def test_no_server_no_lobby_and_no_personal_server_started(tmp_path: Path) -> None:
    personal = tmp_path / "personal"
    personal.mkdir(mode=0o700)
    assert await read_lobby(Lobby(ServerPlace(personal, personal=True), "ana")) is None
    assert await read_lobby(Lobby(ServerPlace(tmp_path / "none", personal=False), "ana")) is None
    assert sorted(p.name for p in personal.iterdir()) == []  # no server was started there


def _menu(lobby: Lobby) -> DvtuiApp:
    app = DvtuiApp(
        Menu(), AppOptions(setup=SetupDefaults(default_name="Cy"), pace=Pace(bot_delay=0.0, step_delay=None))
    )
    app.lobby = lobby
    return app


def _prompts(options: OptionList) -> list[str]:
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def _menu_read(pilot: Pilot[object], app: DvtuiApp) -> OptionList:
    """The list of the menu on ``app``'s screen, once the lobby has been read."""
    menu = app.screen
    assert isinstance(menu, MenuScreen)
    options = menu.query_one("#menu-choice", OptionList)
    await until(pilot, "the lobby read", lambda: menu.reachable)
    return options


async def _enter_on(pilot: Pilot[object], options: OptionList, start: str) -> None:
    """Enter on the option that starts with ``start``, once the list has it (the list is read
    again meanwhile: it keeps the highlighted table highlighted)."""

    def index() -> int | None:
        return next((i for i, prompt in enumerate(_prompts(options)) if prompt.startswith(start)), None)

    await until(pilot, f"{start.strip()} listed", lambda: index() is not None)
    options.highlighted = index()
    await until(pilot, f"{start.strip()} highlighted", lambda: options.highlighted == index())
    await pilot.press("enter")


async def test_the_menu_lists_the_tables_and_enter_chooses_a_seat_there(in_process: Server, data_dir: Path) -> None:
    place = in_process.place
    you = ME.title()

    def opened() -> None:
        asyncio.run(open_table(place, "others", ["Ana", "Bob", "bot:greedy"], first_player=0, seed=5, wait=False))
        asyncio.run(open_table(place, "yours", [you, "bot:greedy", "bot:greedy"], seed=5, move_time=3600, wait=False))

    await asyncio.to_thread(opened)
    app = _menu(Lobby(place, "Bob"))
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        options = menu.query_one("#menu-choice", OptionList)
        await until(pilot, "the tables listed", lambda: any("others" in p for p in _prompts(options)))
        prompts = _prompts(options)
        first = prompts.index("Your tables") + 1
        assert re.fullmatch(r"▶ yours  your turn, (\d:)?\d\d:\d\d left · round 1 of \d", prompts[first]), prompts
        assert prompts[first + 1].startswith("Other tables")
        assert prompts[first + 2].startswith("  others  Ana to play · round 1 of") and prompts[-1] == "Quit"
        await _enter_on(pilot, options, "  others  ")
        await until(pilot, "the seat chooser", lambda: isinstance(app.screen, SeatScreen))
        await pilot.press("escape")  # back to the menu
        await until(pilot, "the menu again", lambda: app.screen is menu)
        await _enter_on(pilot, options, "  others  ")
        await until(pilot, "the seat chooser", lambda: isinstance(app.screen, SeatScreen))
        seats = app.screen.query_one(OptionList)
        await until(pilot, "Bob's seat offered", lambda: seats.highlighted == 1 and seats.option_count == 4)
        await pilot.press("enter")
        # mounted, not just pushed: a test that ended meanwhile would take the screen down under its on_mount
        await until(pilot, "the table", lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        table = app.screen
        assert isinstance(table, TableScreen)
        assert table.session.abilities.table == "others" and table.session.seat == 1
        await pilot.press("q")  # a table reached from the menu is left for the menu, not dvtui
        await until(pilot, "the menu again", lambda: app.screen is menu)
        assert app.is_running and app.session is None
        info = await table_info(place, "others")
        assert info is not None and info.seats[1].state == "away"  # left; the seat stays Bob's to take back
        await until(pilot, "the tables listed again", lambda: any("others" in p for p in _prompts(options)))


async def test_a_new_table_opened_from_the_menu_is_played_there(in_process: Server, data_dir: Path) -> None:
    app = _menu(Lobby(in_process.place, "Cy"))
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        options = menu.query_one("#menu-choice", OptionList)
        await _enter_on(pilot, options, "Open a new table at the table server")
        await until(pilot, "the set-up screen", lambda: isinstance(app.screen, SetupScreen))
        setup = app.screen
        setup.query_one("#table-name", Input).value = "-bad"
        await pilot.press("ctrl+s")
        error = setup.query_one("#setup-error", Static)
        await until(pilot, "the name refused", lambda: "a table's name is 1 to 32 letters" in text(error))
        setup.query_one("#table-name", Input).value = "newt"
        await pilot.press("ctrl+s")
        # mounted, not just pushed: a test that ended meanwhile would take the screen down under its on_mount
        await until(pilot, "the table", lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        table = app.screen
        assert isinstance(table, TableScreen)
        assert table.session.abilities.table == "newt" and table.session.seat == 0  # Cy's, the set-up's first seat
        assert table.session.game.created.players[0].name == "Cy"


async def test_the_new_table_screen_starts_on_the_tables_name_and_a_fixed_error_goes(
    in_process: Server, data_dir: Path
) -> None:
    """The table's name is the first field, above the seats: typing goes there, not into one's
    seat; Tab then goes through each seat as it reads, who sits there before the colour; an error
    (two seats of one colour) goes as soon as it is fixed, not at the next try."""
    app = _menu(Lobby(in_process.place, "Cy"))
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await _enter_on(pilot, menu.query_one("#menu-choice", OptionList), "Open a new table at the table server")
        await until(pilot, "the set-up screen", lambda: isinstance(app.screen, SetupScreen))
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        await pilot.pause()
        assert app.focused is setup.query_one("#table-name", Input)
        await pilot.press(*"monday")
        rows = setup.rows()
        assert setup.query_one("#table-name", Input).value == "monday" and rows[0].name_input.value == "Cy"
        order = []
        for _ in range(4):  # Tab: each seat's who (human or bot, the name) before its colour; no bot's name
            await pilot.press("tab")
            order.append(app.focused)
        first, second = rows[0], rows[1]
        assert order == [first.query_one(".seat-kind", Select), first.name_input,
                         first.query_one(".seat-color", Select), second.query_one(".seat-kind", Select)]  # fmt: skip
        colour = rows[1].query_one(".seat-color", Select)
        own = colour.value
        colour.value = rows[0].color  # two seats of one colour
        await pilot.press("ctrl+s")
        error = setup.query_one("#setup-error", Static)
        await until(pilot, "the error", lambda: "two seats are" in text(error))
        colour.value = own  # fixed
        await until(pilot, "the error gone", lambda: text(error) == "")
        assert isinstance(app.screen, SetupScreen)  # nothing opened meanwhile: fixing is not trying


async def test_the_new_table_screen_offers_what_the_command_line_does(in_process: Server, data_dir: Path) -> None:
    """Move time, invitations (``SEAT=USER``), hints off and start now, as ``dvtui new --table``
    takes them: the table opened has them; a wrong one is said in one line."""
    app = _menu(Lobby(in_process.place, "Cy"))
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await _enter_on(pilot, menu.query_one("#menu-choice", OptionList), "Open a new table at the table server")
        await until(pilot, "the set-up screen", lambda: isinstance(app.screen, SetupScreen))
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#table-name", Input).value = "opts"
        bob = setup.rows()[1]
        bob.query_one(".seat-kind", Select).value = "human"
        await pilot.pause()
        bob.name_input.value = "Bob"
        setup.query_one("#time-bank", Input).value = "10m"
        error = setup.query_one("#setup-error", Static)
        await pilot.press("ctrl+s")
        await until(pilot, "the bank refused", lambda: "a time bank is spent after the move time" in text(error))
        setup.query_one("#move-time", Input).value = "45s"
        setup.query_one("#increment", Input).value = "30s"
        setup.query_one("#invite", Input).value = "3=bob"  # a bot's seat
        await pilot.press("ctrl+s")
        await until(pilot, "the invitation refused", lambda: "invitation 3=bob: Bot 1 is a bot's seat" in text(error))
        setup.query_one("#invite", Input).value = "Bob=web:bob"
        setup.query_one("#hints", Checkbox).value = False
        setup.query_one("#start-now", Checkbox).value = True
        await pilot.press("ctrl+s")
        await until(pilot, "the table", lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        info = await table_info(in_process.place, "opts")
        assert info is not None and info.move_time == 45 and not info.hints and not info.waiting
        assert info.seats[1].kept_for == "web:bob"
        table = app.screen
        assert isinstance(table, TableScreen)
        await until(pilot, "the banks", lambda: (presence := presence_of(table.session)) is not None
                    and presence.banks == [600.0] * 3)  # fmt: skip


async def test_the_menu_shows_a_table_opened_as_the_server_pushes_it_without_reading_the_list_again(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The menu follows the list over one connection: a new table shows up though the menu would
    not read the list again for an hour."""
    monkeypatch.setattr(menu_module, "POLL", 3600.0)
    place = in_process.place
    app = _menu(Lobby(place, "Bob"))
    async with app.run_test(size=(80, 24)) as pilot:
        options = await _menu_read(pilot, app)
        assert not any("pushed" in p for p in _prompts(options))
        await open_table(place, "pushed", ["Ana", "Bob", "bot:greedy"], seed=5, wait=True)
        await until(pilot, "the new table listed", lambda: any("pushed" in p for p in _prompts(options)))


async def test_against_a_server_that_pushes_no_changes_the_menu_reads_the_list_again(
    in_process: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(gateway_module, "FEATURES", tuple(f for f in gateway_module.FEATURES if f != "follow"))
    monkeypatch.setattr(menu_module, "POLL", 0.1)
    place = in_process.place
    app = _menu(Lobby(place, "Bob"))
    async with app.run_test(size=(80, 24)) as pilot:
        options = await _menu_read(pilot, app)
        await open_table(place, "polled", ["Ana", "Bob", "bot:greedy"], seed=5, wait=True)
        await until(pilot, "the new table listed", lambda: any("polled" in p for p in _prompts(options)))
        assert not in_process.followers  # nobody followed: the list was read again


async def test_a_list_read_as_the_app_closes_is_dropped_without_an_error(in_process: Server) -> None:
    """The menu's list is read in a worker, and an app that closes takes the screen's widgets away
    before it stops the screen's workers: a read ending then has nowhere to show and is dropped
    (it raised, and the app ended on that error)."""
    app = _menu(Lobby(in_process.place, "Bob"))
    async with app.run_test(size=(80, 24)) as pilot:
        await _menu_read(pilot, app)
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await menu.query_one("#menu-choice", OptionList).remove()
        menu.show_tables("Bob", [])
        assert menu.reachable


def test_a_rated_tables_line_says_it_is_rated() -> None:
    bob = SeatState(seat=1, name="Bob", kind="human", state="free")
    rated = TableInfo(table="t", seats=[bob], round=1, rounds=6, to_move=0, rated=True)
    assert str(table_label(rated, "me")) == "  t  rated  Bob to play · round 1 of 6"


async def test_the_menus_ratings_show_the_leaderboard_and_ones_own_rating(in_process: Server, data_dir: Path) -> None:
    record = FinishedGame(game="t/1/0", ended=1, seats=(Person(ME), BotSeat("club"), BotSeat("novice")),
                          scores=(90, 50, 10))  # fmt: skip
    with open(in_process.place.games / RATED_FILE, "ab") as kept:  # as the server keeps a rated game's end
        kept.write(msgspec.json.encode(record) + b"\n")
    app = _menu(Lobby(in_process.place, "Cy"))
    async with app.run_test(size=(100, 40)) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await _enter_on(pilot, menu.query_one("#menu-choice", OptionList), "Ratings: the leaderboard and yours")
        await until(pilot, "the ratings", lambda: isinstance(app.screen, RatingsScreen))
        shown = app.screen.query_one("#ratings-text", Static)
        await until(pilot, "the ratings read", lambda: "Your rating" in text(shown))
        said = text(shown)
        assert re.search(rf"  1  {ME}  +\d+\?  1 game", said), said
        assert f"{ME}: rating" in said and "table t game 1: place 1 of 3" in said and " |*" in said
        await pilot.press("escape")
        await until(pilot, "the menu again", lambda: app.screen is menu)


async def test_a_rated_table_opened_from_the_menu_is_rated(in_process: Server, data_dir: Path) -> None:
    app = _menu(Lobby(in_process.place, "Cy"))
    async with app.run_test(size=(80, 30)) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        await _enter_on(pilot, menu.query_one("#menu-choice", OptionList), "Open a new table at the table server")
        await until(pilot, "the set-up screen", lambda: isinstance(app.screen, SetupScreen))
        setup = app.screen
        setup.query_one("#table-name", Input).value = "ranked"
        setup.query_one("#rated", Checkbox).value = True
        await pilot.press("ctrl+s")
        await until(pilot, "the table", lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        table = app.screen
        assert isinstance(table, TableScreen) and table.session.game.created.rated
        info = await table_info(in_process.place, "ranked")
        assert info is not None and info.rated
