"""The app on a table for the tests: built on fixed seeds with bots that do not wait, so every run
(and snapshot) is the same."""

from __future__ import annotations

from pathlib import Path

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace
from dvtui.app.options import AppOptions
from dvtui.engine import new_game
from dvtui.play.face import GameSession
from dvtui.play.local import LocalSession
from dvtui.play.seats import parse_players

PLAYERS = "Ana,bot:greedy,bot:greedy"
SEED = 3


def new_session(
    path: Path | None = Path("game.dvr"), players: str = PLAYERS, seed: int = SEED, first: int = 0
) -> LocalSession:
    created = new_game(parse_players(players), first_player=first, seed=seed)
    return LocalSession.start(created, path)


def table_app(session: GameSession, *, step_delay: float | None = None) -> DvtuiApp:
    """An app on the table; bots answer at once, the resolution waits for a key or a click unless
    ``step_delay`` is given."""
    return DvtuiApp(session, AppOptions(pace=Pace(bot_delay=0.0, step_delay=step_delay)))
