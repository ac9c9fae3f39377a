"""No English left on the main screens: under the pseudo-locale every word the app says comes out
accented, so a plain lowercase English word on a screen is one the code never marked."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Setup
from dvtui.app.screens.setup import SetupScreen

from ..support.apps import new_session, table_app
from ..support.pilot import screen_lines, until
from ..support.pseudo import leaks
from ..support.replays import replay_app
from .driver import finished_session, mid_round, open_help, travel_after_a_move

SIZES = [(80, 24), (73, 16), (132, 43)]
"""80x24, the smallest table, and a terminal large enough for the cards' full names."""


async def _setup(pilot: Pilot[int]) -> None:
    await until(pilot, "the set-up screen", lambda: isinstance(pilot.app.screen, SetupScreen))
    await pilot.pause()


async def _viewer(pilot: Pilot[int]) -> None:
    await pilot.pause()
    await pilot.press("right", "right", "right")  # a few events in: the log and the banner speak
    await pilot.pause()


SCREENS: dict[str, tuple[Callable[[], DvtuiApp], Callable[[Pilot[int]], Awaitable[None]]]] = {
    "table": (lambda: table_app(new_session()), mid_round),
    "help": (lambda: table_app(new_session()), open_help),
    "end": (lambda: table_app(finished_session()), lambda pilot: pilot.pause()),
    "set-up": (
        lambda: DvtuiApp(Setup(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None))),
        _setup,
    ),
    "viewer": (replay_app, _viewer),
    "time travel": (lambda: table_app(new_session()), lambda pilot: travel_after_a_move(pilot, pilot.app)),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", SCREENS)
async def test_every_word_on_the_main_screens_comes_from_the_catalogue(
    name: str, size: tuple[int, int], pseudo: None, saves: Path
) -> None:
    make, reach = SCREENS[name]
    app = make()
    async with app.run_test(size=size) as pilot:
        await reach(pilot)
        await pilot.pause()
        assert leaks("\n".join(screen_lines(app))) == []
