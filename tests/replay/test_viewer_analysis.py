"""The analysis in the viewer: the marks of a kept analysis in the log, ``a`` making one (kept beside
the file) and showing the chart, and ``b`` just before a blunder saying "try it again"."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from dvtui import __version__
from dvtui.app.screens.analysis import AnalysisScreen
from dvtui.app.textual_private import notifications
from dvtui.app.widgets.replay_log import ReplayLog
from dvtui.replay.analysis import BUDGET, Analysis, analyse, analysis_path, file_digest, save
from dvtui.store import read_game

from ..support.pilot import text, until
from ..support.replays import REPLAYS, replay_app, viewer


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "game.dvr"
    shutil.copyfile(REPLAYS / "game.dvr", path)
    return path


async def test_a_kept_analysis_shows_its_marks_in_the_log_and_b_before_a_blunder_is_try_it_again(
    tmp_path: Path,
) -> None:
    path = _copy(tmp_path)
    # the searches themselves are tested elsewhere: here one mark, placed by hand
    reviews = [dataclasses.replace(r, mark=None) for r in analyse(read_game(path).events, 20)]
    marked = dataclasses.replace(reviews[4], mark="blunder")
    reviews[4] = marked
    save(analysis_path(path), Analysis(file_digest(path.read_bytes()), BUDGET, __version__, reviews))
    app = replay_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = viewer(app)
        log = screen.query_one(ReplayLog)
        assert log.marks == {marked.moment: "??"}
        assert str(log.entry(marked.moment)).endswith(" ??")
        screen.go(marked.moment - 1)
        await pilot.pause()
        await pilot.press("b")
        await pilot.pause()
        assert any(n.title == "Try it again" for n in notifications(app))


async def test_a_makes_the_analysis_keeps_it_beside_the_file_and_shows_the_chart(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    app = replay_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = viewer(app)
        assert screen.analysis is None
        screen.analysis_budget = 20
        await pilot.press("a")
        await until(pilot, "the analysis", lambda: isinstance(app.screen, AnalysisScreen))
        assert screen.analysis is not None and screen.analysis.budget == 20
        assert analysis_path(path).exists()
        chart = text(app.screen.query_one("#win-chart"))
        assert "│" in chart  # round boundaries
        assert "1 " in chart and "now " in chart
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def test_a_on_the_end_screen_opens_the_game_in_the_viewer_and_analyses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dvtui.app.app import DvtuiApp
    from dvtui.app.config import Pace
    from dvtui.app.screens.end import EndScreen
    from dvtui.app.screens.replay import ReplayScreen
    from dvtui.play.local import LocalSession

    monkeypatch.setattr("dvtui.app.screens.replay.BUDGET", 20)
    path = _copy(tmp_path)
    app = DvtuiApp(LocalSession.resume(read_game(path)), pace=Pace(bot_delay=0.0, step_delay=None))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("a")
        await until(pilot, "the analysis", lambda: isinstance(app.screen, AnalysisScreen))
        assert isinstance(app.screen_stack[-2], ReplayScreen)
        assert analysis_path(path).exists()
