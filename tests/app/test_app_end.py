"""The end of a game on the table: what the table says after the last round, and what the end
screen offers next (a rematch, a new game)."""

from __future__ import annotations

import shutil
from pathlib import Path

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.screens.end import EndScreen
from dvtui.app.session import PlaySession
from dvtui.app.widgets.hand import HandBar
from dvtui.app.widgets.panels import RoundBar
from dvtui.app.widgets.scoreboard import Scoreboard
from dvtui.store import read_game

REPO = Path(__file__).resolve().parents[2]


def finished_app(tmp_path: Path) -> DvtuiApp:
    """The app on replays/game.dvr (round 6 was started by Bot 3), its game over."""
    path = tmp_path / "done.dvr"
    shutil.copy(REPO / "replays" / "game.dvr", path)
    return DvtuiApp(PlaySession.resume(read_game(path)), pace=Pace(bot_delay=0.0, step_delay=None))


async def test_after_the_game_the_table_names_the_last_rounds_first_player(tmp_path: Path) -> None:
    app = finished_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("t")
        await pilot.pause()
        bar = app.screen.query_one(RoundBar).render().plain
        assert "Round 6 of 6  ·  first Bot 3  ·  Game over" in bar
        scores = app.screen.query_one(Scoreboard).render().plain
        hand = app.screen.query_one(HandBar).render().plain
        for name in ("Bot 1", "Bot 2", "Bot 3"):  # every hand played out, as on the hand bar
            assert f"{name} · · · · · ·" in scores
        assert "Bot 1    ·   ·   ·   ·   ·   ·   Game over" in hand
