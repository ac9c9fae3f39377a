"""Tournaments on screen (Pilot, against a server in this process): the start menu's entry after
Ratings lists the server's tournaments (running first, then those over, as ``dvtui tournament
list``); Enter on one over shows its final standings; Enter on a running one waits to be seated,
then plays the table the tournament seats this person at, and leaving it comes back to the wait."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Menu
from dvtui.app.screens.arenas import ArenaScreen, ArenasScreen
from dvtui.app.screens.end import EndScreen
from dvtui.app.screens.lobby import Lobby
from dvtui.app.screens.menu import MenuScreen
from dvtui.app.screens.table import TableScreen
from dvtui.server.arenas import ArenaRecord, Participant
from dvtui.server.main import Server
from dvtui.server.pool import MaxBudget
from dvtui.tables.arena import wait_seat

from ..support.pilot import press, until
from ..support.servers import server_in_thread


@pytest.fixture
def in_process() -> Iterator[Server]:
    """A table server in a thread of this process whose bots may not search (``dvtui serve
    --max-budget 100``: no level of the ladder is within it, so a tournament's bots are greedy):
    these tests are about the screens, and a resigned seat's game is played out by its bots."""
    with server_in_thread(budget=MaxBudget(iterations=100)) as srv:
        yield srv


def _menu(lobby: Lobby, pace: Pace | None = None) -> DvtuiApp:
    pace = pace or Pace(bot_delay=0.0, step_delay=None)
    app = DvtuiApp(Menu(), AppOptions(setup=SetupDefaults(default_name="Cy"), pace=pace))
    app.lobby = lobby
    return app


def _two_tournaments(server: Server) -> None:
    """``cup`` running (nobody in it yet), ``spring`` over (won by ana)."""
    now = time.time()
    people = [Participant(account="ana", points=10, games=1, since=1), Participant(account="bo", points=4, games=1,
                                                                                  since=2)]  # fmt: skip
    over = ArenaRecord(name="spring", opener="ana", started=now - 600, ends=now - 300, players=[3],
                       participants=people, ended=now - 300)  # fmt: skip
    running = ArenaRecord(name="cup", opener="ana", started=now, ends=now + 3600, players=[3])
    server.arenas.records.update({"spring": over, "cup": running})


def _lines(screen: ArenasScreen) -> list[str]:
    options = screen.query_one("#arenas-list", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def _said(screen: ArenaScreen) -> str:
    return "\n".join(str(screen.query_one(f"#arena-{part}", Static).render()) for part in ("status", "standings"))


async def _listed(pilot: Pilot[object], app: DvtuiApp) -> ArenasScreen:
    """From the start menu, the entry after Ratings, chosen: the list, once read."""
    menu = app.screen
    assert isinstance(menu, MenuScreen)
    options = menu.query_one("#menu-choice", OptionList)

    def shown() -> list[str | None]:
        return [options.get_option_at_index(i).id for i in range(options.option_count)]

    await until(pilot, "the table server's entries", lambda: "ratings" in shown())
    ids = shown()
    assert ids[ids.index("ratings") + 1] == "tournaments"
    assert str(options.get_option("tournaments").prompt).startswith("Tournaments: ")
    options.highlighted = ids.index("tournaments")
    await pilot.press("enter")
    await until(pilot, "the list", lambda: isinstance(app.screen, ArenasScreen) and bool(_lines(app.screen)))
    screen = app.screen
    assert isinstance(screen, ArenasScreen)
    return screen


async def test_the_list_shows_running_then_over_and_an_over_ones_final_standings(
    in_process: Server, data_dir: Path
) -> None:
    _two_tournaments(in_process)
    app = _menu(Lobby(in_process.place, "Cy", user="cy"))
    async with app.run_test(size=(80, 24)) as pilot:
        arenas = await _listed(pilot, app)
        assert _lines(arenas) == ["cup: running, 0 people", "spring: over, 2 people, led by ana"]
        await pilot.press("down", "enter")
        await until(pilot, "the tournament", lambda: isinstance(app.screen, ArenaScreen))
        over = app.screen
        assert isinstance(over, ArenaScreen)
        await until(pilot, "its final standings", lambda: "over, final standings" in _said(over))
        assert "1. ana  10 pts, 1 game" in _said(over)
        assert [p.account for p in in_process.arenas.records["spring"].participants] == ["ana", "bo"]
        await pilot.press("escape")
        await until(pilot, "the list again", lambda: app.screen is arenas)


async def test_joining_seats_the_person_at_a_table_and_leaving_it_comes_back_to_the_wait(
    in_process: Server, data_dir: Path
) -> None:
    _two_tournaments(in_process)
    in_process.arenas.bot_wait = 0.0  # alone: bots fill the table at once
    app = _menu(Lobby(in_process.place, "Cy", user="cy"))
    async with app.run_test(size=(80, 24)) as pilot:
        arenas = await _listed(pilot, app)
        await pilot.press("enter")  # cup, running
        await until(pilot, "the table", lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        table = app.screen
        assert isinstance(table, TableScreen)
        name = table.session.abilities.table
        assert name is not None and name in in_process.arenas.records["cup"].tables
        seat = table.session.seat
        assert seat is not None and table.session.game.created.players[seat].name == "web:cy"
        await pilot.press("q")  # leave the table: back to the tournament's wait, not to the menu
        await until(pilot, "the wait again", lambda: isinstance(app.screen, ArenaScreen))
        wait = app.screen
        assert isinstance(wait, ArenaScreen) and wait in app.screen_stack
        await until(pilot, "asked again", lambda: "finish it first" in _said(wait) or "tournament cup" in _said(wait))
        await pilot.press("escape")
        await until(pilot, "the list again", lambda: app.screen is arenas)
        await until(pilot, "out of the wait", lambda: not in_process.arenas.waiting.get("cup"))


def test_the_tournaments_at_80x24(snap_compare, in_process: Server, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """One running, one over: each with its state, people and leader; the hint under them."""
    _two_tournaments(in_process)
    app = _menu(Lobby(in_process.place, "Cy", user="cy"))

    async def listed(pilot: Pilot[object]) -> None:
        await _listed(pilot, app)

    assert snap_compare(app, terminal_size=(80, 24), run_before=listed)


def test_an_over_tournaments_final_standings_at_80x24(snap_compare, in_process: Server, data_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """Enter on one over: its rules, state and a line per person, under the tournament's name."""
    _two_tournaments(in_process)
    app = _menu(Lobby(in_process.place, "Cy", user="cy"))

    async def shown(pilot: Pilot[object]) -> None:
        await _listed(pilot, app)
        await pilot.press("down", "enter")
        await until(pilot, "the standings", lambda: isinstance(app.screen, ArenaScreen) and "over" in _said(app.screen))

    assert snap_compare(app, terminal_size=(80, 24), run_before=shown)


@pytest.mark.long
async def test_after_a_game_the_person_is_seated_again_from_the_wait(in_process: Server, data_dir: Path) -> None:
    """Resigned (bots play the game out), the end screen's ``q`` comes back to the wait, not out of
    dvtui, and the tournament seats the person at a new table."""
    _two_tournaments(in_process)
    in_process.arenas.bot_wait = 0.0
    app = _menu(Lobby(in_process.place, "Cy", user="cy"), Pace(bot_delay=0.0, step_delay=0.01, hold_round_end=False))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ArenaScreen(Lobby(in_process.place, "Cy", user="cy"), "cup"))
        await until(pilot, "the table", lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        first = app.screen
        assert isinstance(first, TableScreen)
        name = first.session.abilities.table
        await pilot.press("r", "y")  # resign: bots play the game to its end
        await until(pilot, "the end screen", lambda: isinstance(app.screen, EndScreen))
        await pilot.press("q")
        await until(pilot, "a new table", lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)
        again = app.screen
        assert isinstance(again, TableScreen) and again.session.abilities.table != name
        assert isinstance(app.screen_stack[-2], ArenaScreen)
        assert in_process.arenas.records["cup"].participants[0].games == 1


async def test_the_wait_shows_the_standings_live_and_esc_leaves_it(in_process: Server, data_dir: Path) -> None:
    """Someone else joining while this person waits is on screen at once (the server pushes it)."""
    _two_tournaments(in_process)
    app = _menu(Lobby(in_process.place, "Cy", user="cy"))
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ArenaScreen(Lobby(in_process.place, "Cy", user="cy"), "cup"))
        await until(
            pilot,
            "the wait",
            lambda: isinstance(app.screen, ArenaScreen) and app.screen.is_mounted and "cy" in _said(app.screen),
        )
        wait = app.screen
        assert isinstance(wait, ArenaScreen)
        assert "waiting to be seated" in _said(wait) and "bo" not in _said(wait)
        other = asyncio.ensure_future(wait_seat(in_process.place, "cup", user="bo"))
        try:
            await until(pilot, "bo in the standings", lambda: "bo  0 pts" in _said(wait))
        finally:
            other.cancel()
        await press(pilot, "escape")  # (handled before this returns, however busy the machine)
        assert app.screen is not wait
        await until(pilot, "out of the wait", lambda: "cy" not in in_process.arenas.waiting.get("cup", {}))
