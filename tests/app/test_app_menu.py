"""Plain ``dvtui`` in a terminal: the start menu (a new game, the latest unfinished game, a replay)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Menu
from dvtui.app.screens.branch import BranchScreen
from dvtui.app.screens.menu import MenuScreen
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.screens.setup import LeaveSetup, SetupScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.textual_private import FooterKey, notifications
from dvtui.cli import main, play
from dvtui.store import data_dir as saves_dir
from dvtui.tables import SeatState, TableInfo

from ..support.apps import new_session
from ..support.pilot import press, screen_lines, settled, until

REPO = Path(__file__).resolve().parents[2]


def menu_app() -> DvtuiApp:
    return DvtuiApp(
        Menu(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None), seed_source=lambda: 5)
    )


def test_plain_dvtui_in_a_terminal_opens_the_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    apps: list[DvtuiApp] = []
    monkeypatch.setattr(DvtuiApp, "run", lambda self, *a, **k: apps.append(self))
    monkeypatch.setattr(play, "has_terminal", lambda: True)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    assert main([]) == 0
    (app,) = apps
    assert app.menu and app.session is None


async def test_an_app_prepared_ahead_parses_no_style_when_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    """``dvtui web``'s spare builds the app and parses its styles before its tab opens: the start
    then parses none, and the menu is the usual one."""
    import textual.css.stylesheet as stylesheet

    app = menu_app()
    app.prepare_start()
    parsed: list[object] = []
    parse = stylesheet.parse

    def counted(*args: object, **kwargs: object) -> object:
        parsed.append(args[2] if len(args) > 2 else kwargs.get("read_from"))
        return parse(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(stylesheet, "parse", counted)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert app.screen.query_one(OptionList).option_count >= 3
    assert parsed == []


async def _choose(pilot, option: str) -> None:  # type: ignore[no-untyped-def]
    menu = pilot.app.screen
    assert isinstance(menu, MenuScreen)
    choice = menu.query_one(OptionList)
    choice.highlighted = next(i for i in range(choice.option_count) if choice.get_option_at_index(i).id == option)
    await press(pilot, "enter")
    await settled(pilot)


async def test_new_game_from_the_menu_and_back() -> None:
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await _choose(pilot, "new")
        assert isinstance(app.screen, SetupScreen)
        await press(pilot, "escape")
        await settled(pilot)
        assert isinstance(app.screen, LeaveSetup)
        await press(pilot, "y")
        await settled(pilot)
        assert isinstance(app.screen, MenuScreen)
        await _choose(pilot, "new")
        await press(pilot, "ctrl+s")
        await settled(pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.session is not None and app.session.path is not None
        assert app.session.path.parent == saves_dir() and app.session.names[0] == "Ana"


async def test_resume_the_latest_game_from_the_menu() -> None:
    saves_dir().mkdir(parents=True)
    new_session(saves_dir() / "half.dvr").close()
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await _choose(pilot, "resume")
        assert isinstance(app.screen, TableScreen)
        assert app.session is not None and app.session.path == saves_dir() / "half.dvr"


def _offers_back(app: DvtuiApp) -> bool:
    return "back" in [key.action for key in app.screen.query(FooterKey)]


async def test_replay_a_file_from_the_menu(tmp_path: Path) -> None:
    shutil.copy(REPO / "replays" / "game.dvr", tmp_path / "game.dvr")
    app = menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        assert not _offers_back(app)  # the top menu: nothing to go back to
        await _choose(pilot, "replay")
        await settled(pilot)
        assert _offers_back(app)  # from the path, back to the choices
        await press(pilot, "escape")
        await settled(pilot)
        assert not _offers_back(app) and not app.screen.query_one("#replay-path", Input).display
        await _choose(pilot, "replay")
        path = app.screen.query_one("#replay-path", Input)
        path.value = "missing.dvr"
        await press(pilot, "enter")
        await settled(pilot)
        assert isinstance(app.screen, MenuScreen)
        assert "missing.dvr" in str(app.screen.query_one("#menu-error").render())
        path.value = str(tmp_path / "game.dvr")
        await press(pilot, "enter")
        await settled(pilot)
        assert isinstance(app.screen, ReplayScreen) and app.screen.moment == 0


async def test_a_branch_from_the_menus_viewer_is_played_as_from_dvtui_replay(tmp_path: Path) -> None:
    """The viewer opened from the menu branches as ``dvtui replay`` does: the table takes the
    viewer's place, names the new file in a notice, and starts at the moment chosen (at a round's
    start, the next round, not a recap of the resolution just watched)."""
    from dvtui.engine import RoundEnded
    from dvtui.store import read_game

    shutil.copy(REPO / "replays" / "game.dvr", tmp_path / "game.dvr")
    app = menu_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await _choose(pilot, "replay")
        app.screen.query_one("#replay-path", Input).value = str(tmp_path / "game.dvr")
        await press(pilot, "enter")
        await until(pilot, "the viewer", lambda: isinstance(app.screen, ReplayScreen))
        await press(pilot, "3", "b")  # the start of round 3
        await until(pilot, "whose seats", lambda: isinstance(app.screen, BranchScreen))
        await press(pilot, "end", "enter")  # keep the seats
        await until(
            pilot,
            "the table, its resolution on",
            lambda: isinstance(app.screen, TableScreen) and app.screen.flow.resolution is not None,
        )
        table = app.screen
        assert isinstance(table, TableScreen) and not any(isinstance(s, ReplayScreen) for s in app.screen_stack)
        session = table.session
        assert session.path is not None and session.path.parent == saves_dir()
        assert isinstance(read_game(session.path).events[-1], RoundEnded)
        resolution = table.flow.resolution
        assert resolution is not None and not resolution.recap
        assert all(step.event.round == 3 for step in resolution.steps)
        assert any(n.title == "Playing from here" and str(session.path) in n.message for n in notifications(app))
        await press(pilot, "q")
    assert app.return_value is not None and app.return_value.code == 0


def _lobby_tables() -> list[TableInfo]:
    """Ana's tables (two where it is her turn, on a clock) and ten of others'."""

    def info(name: str, to_move: int | None, mine: bool, left: float | None = None) -> TableInfo:
        seats = [
            SeatState(seat=0, name="Ana", kind="human", state="connected", user="ana" if mine else "eve"),
            SeatState(seat=1, name="Bob", kind="human", state="away", user="bob"),
            SeatState(seat=2, name="Bot 1", kind="bot", state="bot"),
        ]
        return TableInfo(table=name, seats=seats, round=2, rounds=6, to_move=to_move, over=to_move is None,
                         move_left=left, spectators=1)  # fmt: skip

    tables = [info("friday", 0, True, 3 * 86400 - 4000), info("blitz", 0, True, 65), info("monday", 1, True, 200)]
    return tables + [info("over", None, True)] + [info(f"open-{i}", 1, False) for i in range(10)]


async def test_a_long_lobby_scrolls_in_its_list_down_to_the_smallest_terminal() -> None:
    app = menu_app()
    async with app.run_test(size=(73, 16)) as pilot:
        await settled(pilot)
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        menu.show_tables("ana", _lobby_tables())
        await settled(pilot)
        lines = screen_lines(app)
        assert any("▶ friday  your turn, 2d 22h left" in line for line in lines), lines
        assert any(line.strip().startswith("↑↓ then ⏎") for line in lines), lines  # the hint stays on screen
        assert "palette" in lines[-1]


def test_start_menu_with_tables_at_80x24(snap_compare) -> None:
    """The menu with a table server's tables: the person's turn first, with the time left; more
    tables than fit scroll within the list, the hint and the footer stay."""
    tables = _lobby_tables()

    async def listed(pilot) -> None:  # type: ignore[no-untyped-def]
        menu = pilot.app.screen
        assert isinstance(menu, MenuScreen)
        menu.show_tables("ana", tables)
        await settled(pilot)

    app = DvtuiApp(Menu(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None)))
    assert snap_compare(app, terminal_size=(80, 24), run_before=listed)


def test_a_new_table_set_up_at_80x24(snap_compare) -> None:
    """The set-up screen opened from the lobby: the seats, and the table's name."""
    from dvtui.app.screens.setup import SetupScreen

    async def never(name: str, choice: object) -> object:
        raise ValueError("not opened here")

    async def shown(pilot) -> None:  # type: ignore[no-untyped-def]
        app = pilot.app
        app.push_screen(SetupScreen(SetupDefaults(default_name="Ana"), app.create_session, app.start_game,
                                    leave=app.pop_screen, open_table=never))  # fmt: skip
        await settled(pilot)

    app = DvtuiApp(Menu(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None)))
    assert snap_compare(app, terminal_size=(80, 24), run_before=shown)


async def test_a_browser_tabs_replay_prompt_opens_only_its_own_saved_games(tmp_path: Path) -> None:
    """In a browser tab the prompt takes the name of one of the person's saved games, never a path
    out of them: not absolute, no ``..``, no symbolic link that leads out."""
    from dvtui.store import saves_dir

    games = saves_dir()
    games.mkdir(parents=True, exist_ok=True, mode=0o700)
    shutil.copy(REPO / "replays" / "game.dvr", games / "mine.dvr")
    shutil.copy(REPO / "replays" / "game.dvr", tmp_path / "theirs.dvr")
    (games / "out.dvr").symlink_to(tmp_path / "theirs.dvr")
    app = DvtuiApp(Menu(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None), in_browser=True))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, "the menu", lambda: bool(app.screen.query(OptionList)))
        await _choose(pilot, "replay")
        path = app.screen.query_one("#replay-path", Input)
        error = app.screen.query_one("#menu-error")
        for typed, said in [
            (str(tmp_path / "theirs.dvr"), "give the name of one, not a path"),
            ("~/theirs.dvr", "give the name of one, not a path"),
            (f"../{tmp_path.name}/theirs.dvr", "a name without .."),
            ("out.dvr", "out.dvr: leads out of your saved games"),
        ]:
            path.value = typed
            await press(pilot, "enter")
            await until(pilot, said, lambda said=said: said in str(error.render()))
            assert isinstance(app.screen, MenuScreen)
        path.value = "mine.dvr"
        await press(pilot, "enter")
        await until(pilot, "the viewer", lambda: isinstance(app.screen, ReplayScreen))
