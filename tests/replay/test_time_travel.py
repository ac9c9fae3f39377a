"""Time travel in a live game (issue 4): ``t`` on the table opens the replay's timeline over the
game so far, read-only; Escape returns to play, the game and its file as they were."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.screens.table import TableScreen
from dvtui.app.session import PlaySession
from dvtui.app.widgets.replay_log import ReplayLog
from dvtui.engine import new_game
from dvtui.replay import fold_prefix
from dvtui.seats import parse_players
from dvtui.store import read_game

from .support import picture


def live_app(path: Path) -> DvtuiApp:
    created = new_game(parse_players("Ana,bot:greedy,bot:greedy"), first_player=0, seed=3)
    return DvtuiApp(PlaySession.start(created, path), pace=Pace(bot_delay=0.0, step_delay=None))


async def human_turn(pilot: Pilot[int], table: TableScreen) -> None:
    """Wait for the bots until Ana is asked (skipping any resolution on screen)."""
    for _ in range(500):
        if table.steps:
            table.action_skip()
        elif table.session.human_to_move() is not None:
            return
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.005)
    raise AssertionError("Ana is never asked")


async def test_t_opens_the_timeline_and_escape_returns(tmp_path: Path) -> None:
    path = tmp_path / "live.dvr"
    app = live_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        table = app.screen
        assert isinstance(table, TableScreen)
        for move in (("5", "c"), ("3", "e")):
            await human_turn(pilot, table)
            await pilot.press(*move, "enter")
        await human_turn(pilot, table)
        session = table.session
        events = list(session.history)
        size = path.stat().st_size
        await pilot.press("t")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.live
        assert screen.moment == len(events) - 1  # at the game as it stands
        assert picture(screen.game) == picture(session.game)
        assert "TIME TRAVEL" in screen.query_one("#round-bar").right.plain
        await pilot.press("home")
        assert screen.moment == 0 and picture(screen.game) == picture(fold_prefix(events, 0))
        await pilot.press("down", "right")
        assert picture(screen.game) == picture(fold_prefix(events, screen.moment))
        assert screen.query_one(ReplayLog).cursor == screen.moment
        await pilot.press("b")  # no branching from a live game: its own file goes on
        assert app.screen is screen
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is table
        assert session.history == events and path.stat().st_size == size  # read-only
        await pilot.press("2", "g", "enter")  # and play goes on
        await human_turn(pilot, table)
        assert len(session.history) > len(events)
    loaded = read_game(path)
    assert loaded.events[: len(events)] == events


async def test_the_timeline_follows_the_game_as_it_goes_on(tmp_path: Path) -> None:
    app = live_app(tmp_path / "live.dvr")
    async with app.run_test(size=(80, 24)) as pilot:
        table = app.screen
        assert isinstance(table, TableScreen)
        await human_turn(pilot, table)
        await pilot.press("t")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        before = screen.replay.last
        table.action_pick(4)  # the game moves on behind the timeline (a move, the bots' answers)
        table.action_column(1)
        table.action_place()
        await human_turn(pilot, table)
        for _ in range(100):
            await pilot.pause(0.05)
            if screen.replay.last >= before + 3:
                break
        history = table.session.history
        assert screen.replay.last == len(history) - 1 >= before + 3
        assert screen.moment == screen.replay.last  # it was at the end: it follows
        assert picture(screen.game) == picture(table.session.game)
        await pilot.press("escape")
        assert app.screen is table
