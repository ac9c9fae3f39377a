"""Five players on a small terminal: the scoreboard keeps each bot's level beside its name whenever a
line has room for it (its short form, ``Bot 1 (n)``, where the whole word does not fit, as at 73
columns), and the end screen shows its chart of totals whole or not at all."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions
from dvtui.app.screens.end import EndScreen
from dvtui.app.widgets.scoreboard import Scoreboard
from dvtui.play.local import LocalSession
from dvtui.store import read_game

from ..support.apps import new_session, table_app
from ..support.files import write_game
from ..support.pilot import screen_lines, until
from .driver import HUMAN, next_decision, table

LEVELS = ["novice", "casual", "club", "master"]
FIVE = "Ana," + ",".join(f"bot:{level}" for level in LEVELS)


@pytest.mark.parametrize("size", [(73, 20), (80, 24)])
async def test_the_bots_levels_are_on_the_scoreboard(size: tuple[int, int]) -> None:
    app = table_app(new_session(None, players=FIVE))
    async with app.run_test(size=size) as pilot:
        assert await next_decision(pilot, app) == HUMAN
        await pilot.pause()
        rows = table(app).query_one(Scoreboard).render().plain.splitlines()
        assert len(rows) == 5  # one line a player
        for seat, (row, level) in enumerate(zip(rows[1:], LEVELS, strict=True), start=1):
            said = re.match(rf"Bot {seat} \((\w+)\) ", row[2:])
            assert said is not None, row
            assert said[1] in (level, level[0])  # the level, or its first letter when short of room


@pytest.mark.parametrize("height", [18, 19, 20, 21, 22, 24])
async def test_the_end_screens_chart_is_whole_or_not_there(
    tmp_path: Path, height: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a short "Saved in" line: a long path takes the chart's rows (rightly)
    path = Path("five.dvr")
    write_game(path, "bot:greedy,bot:random,bot:greedy,bot:random,bot:greedy", 7)
    app = DvtuiApp(LocalSession.resume(read_game(path)), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    async with app.run_test(size=(73, height)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        drawn = lambda: any("█ B1" in line for line in screen_lines(app)) or not any(  # noqa: E731
            "TOTALS AFTER EACH ROUND" in line for line in screen_lines(app))  # fmt: skip
        await until(pilot, "the chart drawn (or left out)", drawn)  # (its bars come once the screen has its size)
        lines = screen_lines(app)
        heading = [i for i, line in enumerate(lines) if "TOTALS AFTER EACH ROUND" in line]
        legend = [i for i, line in enumerate(lines) if "█ B1" in line]  # the chart's last row
        rounds = [i for i, line in enumerate(lines) if " R1 " in line]
        if heading or height >= 24:  # all of it: the heading over its bars, the rounds and the legend
            whole = len(heading) == len(rounds) == len(legend) == 1 and heading[0] + 3 <= rounds[0] < legend[0]
            assert whole, "\n".join(lines)
        else:  # no room: no heading over nothing
            assert rounds == legend == []
