"""One key table (``app/keys.py``): each thing a key does is defined once, and the table's and the
viewer's bindings, footer, help and palette are read from it; a palette entry does what its key
does."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.keys import SHARED_TABLE, TABLE, VIEWER, KeyMap
from dvtui.app.options import AppOptions
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.screens.table import TableScreen
from dvtui.engine import new_game
from dvtui.play.local import LocalSession
from dvtui.play.seats import parse_players

from ..support.apps import new_session, table_app
from ..support.pilot import settled
from .driver import HUMAN, next_decision, table

SYSTEM = ["Quit", "Keys", "Screenshot"]
"""Textual's own palette entries the app keeps (after the screen's)."""


def palette(app: DvtuiApp) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


async def run_from_palette(pilot: Pilot[int], query: str) -> None:
    """Ctrl+P, type ``query``, wait for the search (a worker of the palette's) to end and its hits
    to be listed, Enter."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*query)
    await settled(pilot)  # the last key's search started
    await pilot.app.workers.wait_for_complete()
    await settled(pilot)  # its hits listed
    await pilot.press("enter")
    await pilot.pause()


def test_each_key_map_lists_every_command_in_each_of_its_orders() -> None:
    def check(keys: KeyMap) -> None:
        assert all(command.keys for command in keys.commands)  # bound, so in the footer's order
        assert {c for c in keys.commands if c.help is not None} <= set(keys.help)  # nothing missing from the help
        assert {c for c in keys.help if c.keys} <= set(keys.commands)  # the help tells no unbound key as bound
        if keys.palette is not None:
            assert set(keys.palette) == {c for c in keys.commands if c.palette is not None}

    check(TABLE)
    check(VIEWER)
    assert (SHARED_TABLE.bindings(), VIEWER.bindings()) == (TableScreen.BINDINGS, ReplayScreen.BINDINGS)


async def test_the_tables_palette_offers_what_its_keys_may_do_now() -> None:
    app = table_app(new_session())
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        assert palette(app) == [
            "Place the chosen card",
            "Hint",
            "Bots faster",
            "Bots slower",
            "Rules and keys",
            "Time travel",
            "See the whole column",
            "Where is this game saved?",
            *SYSTEM,
        ]
        await pilot.press("5", "c", "enter")
        assert await next_decision(pilot, app) == HUMAN
        assert palette(app)[:3] == ["Place the chosen card", "Undo Ana's latest placement", "Hint"]
        session = table(app).session
        placed = len(session.game.placements)
        await run_from_palette(pilot, "undo ana")
        assert len(session.game.placements) < placed  # as u does: Ana's card (and the bots' after it) back
        assert table(app).flow.cursor.card == 5
        assert "Undo Ana's latest placement" not in palette(app)


@pytest.mark.long
async def test_the_viewers_palette_offers_back_first_and_each_round(tmp_path: Path) -> None:
    created = new_game(parse_players("Ana,bot:greedy,bot:greedy"), first_player=0, seed=3)
    app = DvtuiApp(
        LocalSession.start(created, tmp_path / "live.dvr"), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None))
    )
    async with app.run_test(size=(120, 40)) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.press("t")
        await pilot.pause()
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen)
        assert palette(app) == [
            "Back",
            "Play / pause",
            "Start",
            "End",
            "Round 1",
            "Play from here",
            "Keys of the viewer",
            *SYSTEM,
        ]
        await run_from_palette(pilot, "start")
        assert viewer.moment == 0  # as Home does
        await run_from_palette(pilot, "back")
        assert isinstance(app.screen, TableScreen)  # as Escape does
