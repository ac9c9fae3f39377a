"""The analysis in the viewer: the marks of a kept analysis in the log, ``a`` making one (kept beside
the file) and showing the chart, and ``b`` just before a blunder saying "try it again"."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions
from dvtui.app.screens.analysis import AnalysisScreen
from dvtui.app.screens.replay import ReplayScreen
from dvtui.app.textual_private import notifications
from dvtui.app.widgets.replay_log import ReplayLog
from dvtui.play.local import LocalSession
from dvtui.replay.analysis import BUDGET, Analysis, analyse, analysis_path, file_digest, made_by, save
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
    save(analysis_path(path), Analysis(file_digest(path.read_bytes()), BUDGET, made_by(), reviews))
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
        await until(pilot, "the chart drawn", lambda: bool(app.screen.query("#win-chart")))
        chart = text(app.screen.query_one("#win-chart"))
        assert "│" in chart  # round boundaries
        assert "1 " in chart and ("  won" in chart or "  shared the victory" in chart)  # a finished game: its result
        assert "now " not in chart
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
    app = DvtuiApp(LocalSession.resume(read_game(path)), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EndScreen)
        await pilot.press("a")
        await until(pilot, "the analysis", lambda: isinstance(app.screen, AnalysisScreen))
        assert isinstance(app.screen_stack[-2], ReplayScreen)
        assert analysis_path(path).exists()


async def test_b_in_the_viewer_opened_from_the_end_screen_plays_the_branch_on_the_same_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    """End screen, ``a``, back to the viewer, ``b``: the table under the end screen plays the
    branch (one table: a second one would take the first's id and stop the app)."""
    from dvtui.app.app import DvtuiApp
    from dvtui.app.config import Pace
    from dvtui.app.screens.branch import BranchScreen
    from dvtui.app.screens.end import EndScreen
    from dvtui.app.screens.replay import ReplayScreen
    from dvtui.app.screens.table import TableScreen

    monkeypatch.setattr("dvtui.app.screens.replay.BUDGET", 20)
    path = _copy(tmp_path)
    before = path.read_bytes()
    app = DvtuiApp(LocalSession.resume(read_game(path)), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, "the end screen", lambda: isinstance(app.screen, EndScreen))
        first_table = app.screen_stack[-2]
        assert isinstance(first_table, TableScreen)
        await pilot.press("a")
        await until(pilot, "the analysis", lambda: isinstance(app.screen, AnalysisScreen))
        await pilot.press("escape")
        await until(pilot, "the viewer", lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        screen.go(12)
        await pilot.press("b")
        await until(pilot, "whose seat", lambda: isinstance(app.screen, BranchScreen))
        await pilot.press("enter")
        await until(pilot, "the branch on the table", lambda: app.screen is first_table)
        assert [type(s) for s in app.screen_stack].count(TableScreen) == 1
        session = app.session
        assert session is not None and session.path is not None and session.path != path
        assert session.path.parent == data_dir / "games" and not session.game.over
    assert app.return_code in (None, 0)
    assert path.read_bytes() == before  # the game branched from is as it was


async def test_leaving_the_viewer_while_it_analyses_stops_the_analysis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The analysis belongs to its viewer: once the viewer is left, its search stops at the next
    placement (a thread cannot be killed), nothing is kept, and no chart opens later over whatever
    screen is up then."""
    from dvtui.app.screens import replay as viewer_module
    from dvtui.app.screens.end import EndScreen

    ended: list[str] = []
    real_kept = viewer_module.kept

    def watched_kept(*args: object, **kwargs: object) -> object:
        try:
            result = real_kept(*args, **kwargs)  # type: ignore[arg-type]
        except BaseException as e:
            ended.append(type(e).__name__)
            raise
        ended.append("finished")
        return result

    monkeypatch.setattr(viewer_module, "kept", watched_kept)
    path = _copy(tmp_path)
    app = DvtuiApp(LocalSession.resume(read_game(path)), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, "the end screen", lambda: isinstance(app.screen, EndScreen))
        await pilot.press("a")  # the default budget: many seconds of work
        await until(pilot, "the viewer", lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        await until(pilot, "the analysis under way", lambda: (screen.analysing or (0, 0))[0] >= 1)
        await pilot.press("escape")
        await until(pilot, "the end screen again", lambda: isinstance(app.screen, EndScreen))
        await until(pilot, "the analysis ended", lambda: bool(ended))
        await pilot.pause()
        assert ended == ["_Abandoned"]
        assert isinstance(app.screen, EndScreen)
    assert not analysis_path(path).exists()
