"""The app returns how it ended (``run()``'s result, an :mod:`dvtui.app.exit_state`): the game last
on the table, whether it is over, a branch made in the run, a hang-up, a failed save, or no
game at all. The command line says its lines from that alone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.exit_state import HungUp, NoGameFile, NotSaved, Played, exit_state_of
from dvtui.app.options import AppOptions, Setup, Watch
from dvtui.app.screens.branch import BranchScreen
from dvtui.app.screens.end import EndScreen
from dvtui.app.screens.table import TableScreen
from dvtui.play.local import LocalSession
from dvtui.play.session import PlaySession
from dvtui.store import SaveFailed, read_game

from ..support.apps import new_session, table_app
from ..support.pilot import press, settled
from ..support.replays import REPLAYS


async def test_quitting_a_game_returns_its_file_unfinished(tmp_path: Path) -> None:
    path = tmp_path / "game.dvr"
    app = table_app(new_session(path))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await press(pilot, "q")
    assert app.return_value == Played(path, over=False)


async def test_a_rematch_returns_the_rematch(tmp_path: Path) -> None:
    """The game last on the table is the one told of: after ``r`` on the end screen, the rematch."""
    finished = tmp_path / "done.dvr"
    shutil.copyfile(REPLAYS / "game.dvr", finished)
    app = DvtuiApp(
        LocalSession.resume(read_game(finished)),
        AppOptions(pace=Pace(0.0, None), save_path=lambda created: tmp_path / "rematch.dvr"),
    )
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(50):
            await settled(pilot)
            if isinstance(app.screen, EndScreen):
                break
        assert isinstance(app.screen, EndScreen)
        await press(pilot, "r")
        await settled(pilot)
        assert isinstance(app.screen, TableScreen)
        await press(pilot, "q")
    assert app.return_value == Played(tmp_path / "rematch.dvr", over=False)


async def test_a_branch_made_in_the_viewer_returns_the_branch_and_its_parent(tmp_path: Path) -> None:
    parent = tmp_path / "game.dvr"
    shutil.copyfile(REPLAYS / "game.dvr", parent)
    out = tmp_path / "branch.dvr"
    app = DvtuiApp(Watch(read_game(parent)), AppOptions(pace=Pace(0.0, None), branch_path=lambda created: out))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await press(pilot, "2", "b")
        await settled(pilot)
        assert isinstance(app.screen, BranchScreen)
        await press(pilot, "end", "enter")  # keep the seats
        await settled(pilot)
        assert isinstance(app.screen, TableScreen)
        await press(pilot, "q")
    assert app.return_value == Played(out, over=False, branched_from=str(parent.resolve()))


async def test_a_branch_resumed_is_not_a_branch_of_this_run(tmp_path: Path) -> None:
    """Its file names a parent, but the "Branched from" line is for a branch just made."""
    parent = tmp_path / "game.dvr"
    shutil.copyfile(REPLAYS / "game.dvr", parent)
    out = tmp_path / "branch.dvr"
    viewer = DvtuiApp(Watch(read_game(parent)), AppOptions(pace=Pace(0.0, None), branch_path=lambda created: out))
    async with viewer.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await press(pilot, "2", "b", "end", "enter", "q")
    app = table_app(LocalSession.resume(read_game(out)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await press(pilot, "q")
    assert read_game(out).created.parent == str(parent.resolve())
    assert app.return_value == Played(out, over=False)


async def test_leaving_the_set_up_screen_returns_no_game() -> None:
    app = DvtuiApp(Setup(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None)))
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await press(pilot, "ctrl+c")
    assert app.return_value == NoGameFile(0)


async def test_a_hang_up_returns_its_exit_status(tmp_path: Path) -> None:
    path = tmp_path / "game.dvr"
    session = new_session(path)
    app = table_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        app._hang_up(1)  # what the guard calls on SIGHUP (the signal itself: tests/safety)
        await settled(pilot)
    assert app.return_value == HungUp(129)
    assert session.play.writer is not None and session.play.writer.closed


def test_a_failed_save_is_told_first_whatever_else(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = new_session(tmp_path / "game.dvr")
    failure = SaveFailed("could not save the last move: the disk is full", reason="the disk is full")
    assert session.play.writer is not None
    monkeypatch.setattr(session.play.writer, "failed", failure)
    assert exit_state_of(session, 129, hung_up=True) == NotSaved(failure, 129)
    assert exit_state_of(None) == NoGameFile(0)
    assert exit_state_of(PlaySession.start(session.game.created, None)) == NoGameFile(0)  # a game without a file
