"""Fixtures for the app's tests: saves in a temporary data directory, no blinking cursor, and
apps built on fixed seeds with bots that do not wait, so every run (and snapshot) is the same."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Input

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.engine import new_game
from dvtui.play.face import GameSession
from dvtui.play.local import LocalSession
from dvtui.play.seats import parse_players

PLAYERS = "Ana,bot:greedy,bot:greedy"
SEED = 3


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Saves go to a fresh directory; the working directory is the test's own, so relative paths
    (shown on screens) are the same on every machine."""
    data = tmp_path / "data"
    monkeypatch.setenv("DVTUI_DATA_DIR", str(data))
    monkeypatch.chdir(tmp_path)
    yield data


@pytest.fixture(autouse=True)
def no_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text cursor that never blinks: snapshots are taken at an arbitrary instant."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


def new_session(path: Path | None = Path("game.dvr"), players: str = PLAYERS, seed: int = SEED,
                first: int = 0) -> LocalSession:
    created = new_game(parse_players(players), first_player=first, seed=seed)
    return LocalSession.start(created, path)


def table_app(session: GameSession, *, step_delay: float | None = None) -> DvtuiApp:
    """An app on the table; bots answer at once, the resolution waits for a key or a click unless
    ``step_delay`` is given."""
    return DvtuiApp(session, pace=Pace(bot_delay=0.0, step_delay=step_delay))
