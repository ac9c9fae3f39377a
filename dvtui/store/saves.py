"""Where games are saved: the user data directory (platformdirs), and what is in it."""

from __future__ import annotations

import errno
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from ..engine import GameCreated
from .errors import GameFileError, SaveError
from .reader import LoadedGame, read_game


def data_dir() -> Path:
    """``$DVTUI_DATA_DIR`` if set (tests, portable installs), else the platform's user data dir."""
    env = os.environ.get("DVTUI_DATA_DIR")
    base = Path(env) if env else platformdirs.user_data_path("dvtui", appauthor=False)
    return base / "games"


def ensure_data_dir() -> Path:
    """The saves directory, made if missing; :class:`SaveError` (a player's words) when it cannot be."""
    d = data_dir()
    try:
        d.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as e:
        why = "the file system is read-only" if e.errno == errno.EROFS else e.strerror or str(e)
        raise SaveError(f"{d}: cannot make the saves directory: {why} (set DVTUI_DATA_DIR, or use -o FILE)") from None
    return d


def new_save_path(created: GameCreated, now: datetime | None = None) -> Path:
    """A fresh, readable file name: ``2026-11-21_19-40-02_ana-ben-bot.dvr``."""
    now = now or datetime.now(UTC)
    names = "-".join(_slug(s.name) for s in created.players)[:60] or "game"
    stem = f"{now:%Y-%m-%d_%H-%M-%S}_{names}"
    d = ensure_data_dir()
    path = d / f"{stem}.dvr"
    n = 2
    while path.exists():
        path = d / f"{stem}_{n}.dvr"
        n += 1
    return path


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass(slots=True)
class SavedGame:
    path: Path
    loaded: LoadedGame
    modified: float

    @property
    def finished(self) -> bool:
        return self.loaded.game.over

    def describe(self) -> str:
        g = self.loaded.game
        names = ", ".join(s.name for s in g.created.players)
        when = datetime.fromtimestamp(self.modified).strftime("%Y-%m-%d %H:%M")
        state = "finished" if g.over else f"round {g.round} of {g.rounds}"
        return f"{self.path}  {names}  {state}  last move {when}"


def list_games(directory: Path | None = None) -> tuple[list[SavedGame], list[GameFileError]]:
    """Every readable game in the saves directory, newest first, and the files that are not."""
    d = directory or data_dir()
    games: list[SavedGame] = []
    bad: list[GameFileError] = []
    if not d.is_dir():
        return games, bad
    for path in d.glob("*.dvr"):
        try:
            loaded = read_game(path)
            games.append(SavedGame(path, loaded, path.stat().st_mtime))
        except GameFileError as e:
            bad.append(e)
        except OSError:
            continue
    games.sort(key=lambda g: g.modified, reverse=True)
    return games, bad


def latest_unfinished(directory: Path | None = None) -> SavedGame | None:
    games, _ = list_games(directory)
    return next((g for g in games if not g.finished), None)
