"""Play now on screen (Pilot, against a server in this process): the start menu's first choice
seeks with the pool's defaults and counts down to the bots; Esc leaves the pool for the menu; a
seek the pool seats is played at the table it opened, at the seat kept for this person."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList, Static

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Menu
from dvtui.app.screens.lobby import Lobby
from dvtui.app.screens.menu import MenuScreen
from dvtui.app.screens.seek import SeekScreen
from dvtui.app.screens.table import TableScreen
from dvtui.server.main import Server
from dvtui.tables import ServerPlace

from ..support.pilot import until


def _menu(lobby: Lobby) -> DvtuiApp:
    app = DvtuiApp(
        Menu(), AppOptions(setup=SetupDefaults(default_name="Cy"), pace=Pace(bot_delay=0.0, step_delay=None))
    )
    app.lobby = lobby
    return app


def _status(screen: SeekScreen) -> str:
    return str(screen.query_one("#seek-status", Static).render())


async def test_play_now_is_the_menus_first_choice_and_esc_leaves_the_pool(in_process: Server, data_dir: Path) -> None:
    app = _menu(Lobby(in_process.place, "Cy", user="cy"))
    async with app.run_test(size=(80, 24)) as pilot:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        options = menu.query_one("#menu-choice", OptionList)
        first = options.get_option_at_index(0)
        assert first.id == "play-now" and str(first.prompt).startswith("Play now")
        assert options.highlighted == 0
        await pilot.press("enter")
        await until(pilot, "the seek screen", lambda: isinstance(app.screen, SeekScreen))
        seek = app.screen
        assert isinstance(seek, SeekScreen)
        await until(pilot, "the countdown", lambda: "bots fill the free seats in" in _status(seek))
        assert "seeking a table of 3-5 players (casual, 1m a move): 1 person seeks" in _status(seek)
        assert len(in_process.seeks.pool) == 1
        await pilot.press("escape")
        await until(pilot, "the menu again", lambda: app.screen is menu)
        await until(pilot, "out of the pool", lambda: len(in_process.seeks.pool) == 0)


async def test_a_seek_the_pool_seats_is_played_at_its_table(in_process: Server, data_dir: Path) -> None:
    app = _menu(Lobby(in_process.place, "Cy", user="cy"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(SeekScreen(Lobby(in_process.place, "Cy", user="cy"), wait=1))
        await until(pilot, "the table", lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        table = app.screen
        assert isinstance(table, TableScreen)
        name = table.session.abilities.table
        assert name is not None and name.startswith("play-")
        seat = table.session.seat
        assert seat is not None and table.session.game.created.players[seat].name == "web:cy"
        assert sum(p.kind == "bot" for p in table.session.game.created.players) == 2


def test_the_start_menu_with_play_now_at_80x24(snap_compare, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """With a table server to ask, Play now comes first (highlighted), before a new game (no saved
    game of the machine's own offered: the saves are the test's)."""
    app = _menu(Lobby(ServerPlace(Path("/nonexistent/dvtui-server"), personal=False), "Ana"))
    assert snap_compare(app, terminal_size=(80, 24))
