"""What the app opens on and how it runs, as two values the command line hands
:class:`~dvtui.app.app.DvtuiApp`: the first screen (:data:`First`) and :class:`AppOptions`. No
Textual here: a command builds both before anything draws, and a test names only what it changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from ..engine import GameCreated
from ..play.face import GameSession
from ..store import LoadedGame
from .config import Pace, SetupDefaults

if TYPE_CHECKING:
    from .screens.lobby import Lobby
    from .screens.seats import SeatChoice


@dataclass(frozen=True, slots=True)
class Setup:
    """The set-up screen first (``dvtui new`` without ``--players``)."""


@dataclass(slots=True)
class Menu:
    """The start menu first (plain ``dvtui``), listing the tables of ``lobby``'s server (None:
    none; a browser tab's is known only once its person is, so the command may set it later)."""

    lobby: Lobby | None = None


@dataclass(frozen=True, slots=True)
class Watch:
    """The replay viewer first, on ``game`` (``dvtui replay``)."""

    game: LoadedGame


@dataclass(frozen=True, slots=True)
class ChooseSeat:
    """A shared table whose seat is chosen on screen first (a browser tab's way in)."""

    choice: SeatChoice


First: TypeAlias = "GameSession | Setup | Menu | Watch | ChooseSeat"
"""What the app opens on: a game to play (the table), or one of the screens above."""


@dataclass(frozen=True, slots=True)
class AppOptions:
    """How the app runs, whatever it opens on (each left at its default unless a command or a
    test says otherwise).

    ``setup``: what the set-up screen offers first. ``pace``: the bots' and the resolution's pace
    (None: the person's settings). ``output``: the file a new game is written to (None: as
    ``save_path`` says). ``seed_source``: a new game's seed when none was given. ``save_path``: where
    a new game is saved (None, with no ``output``: nowhere). ``branch_path``: where a branch ("play
    from here") is written (None: a fresh file in the saves directory). ``player_name``: who takes a
    bot's seat in a branch (None: the login name). ``handle_hangup``: a hang-up or SIGTERM closes the
    game and leaves (a command's run; not a test's). ``bell``: at a shared table, ring the terminal's
    bell on the player's turn. ``in_browser``: served to a browser tab (``dvtui web``)."""

    setup: SetupDefaults = field(default_factory=SetupDefaults)
    pace: Pace | None = None
    output: Path | None = None
    seed_source: Callable[[], int] | None = None
    save_path: Callable[[GameCreated], Path | None] | None = None
    branch_path: Callable[[GameCreated], Path] | None = None
    player_name: str | None = None
    handle_hangup: bool = False
    bell: bool = True
    in_browser: bool = False


__all__ = ["AppOptions", "ChooseSeat", "First", "Menu", "Setup", "Watch"]
