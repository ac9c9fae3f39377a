"""The set-up screen in a browser tab: Ctrl+N opens a browser window and Ctrl+R reloads the page,
so a tab adds and removes seats with Ctrl+O and Ctrl+L, and its footer says so; a terminal keeps
Ctrl+N and Ctrl+R."""

from __future__ import annotations

from pathlib import Path

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Setup
from dvtui.app.screens.setup import SeatRow, SetupScreen
from dvtui.app.textual_private import FooterKey


@pytest.mark.parametrize(("in_browser", "add", "remove"), [(True, "ctrl+o", "ctrl+l"), (False, "ctrl+n", "ctrl+r")])
async def test_the_seat_keys_are_ones_the_screen_gets(tmp_path: Path, in_browser: bool, add: str, remove: str) -> None:
    app = DvtuiApp(
        Setup(),
        AppOptions(
            setup=SetupDefaults(default_name="Ana"),
            pace=Pace(0.0, None),
            in_browser=in_browser,
            save_path=lambda created: tmp_path / "game.dvr",
        ),
    )
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SetupScreen)
        shown = {key.description: key.key for key in screen.query(FooterKey)}
        assert (shown["add seat"], shown["remove seat"]) == (add, remove)  # the footer's ^o / ^l in a tab
        await pilot.press(add)
        await pilot.pause()
        assert len(screen.query(SeatRow)) == 4
        await pilot.press(remove)
        await pilot.pause()
        assert len(screen.query(SeatRow)) == 3
        if in_browser:  # the browser's own keys do nothing here (a real browser never sends the first)
            await pilot.press("ctrl+n")
            await pilot.pause()
            assert len(screen.query(SeatRow)) == 3
