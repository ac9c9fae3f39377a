"""Fixtures for the viewer's tests: branches are saved in a temporary data directory, and the
working directory is the test's own (relative paths on screen are the same on every machine)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.store import read_game

from .support import REPLAYS


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    data = tmp_path / "data"
    monkeypatch.setenv("DVTUI_DATA_DIR", str(data))
    monkeypatch.chdir(tmp_path)
    yield data


def replay_app(path: Path | str = REPLAYS / "game.dvr", **kwargs: object) -> DvtuiApp:
    """The app opened on the viewer over ``path`` (as ``dvtui replay``); a branch plays on with
    bots that do not wait and a resolution that waits for a key."""
    return DvtuiApp(watch=read_game(path, checkpoints=True), pace=Pace(bot_delay=0.0, step_delay=None), **kwargs)  # type: ignore[arg-type]
