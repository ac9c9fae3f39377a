"""``dvtui replay FILE``: the dvtui app opened on the replay viewer instead of the set-up screen.

Everything else is the live app's (:class:`~dvtui.app.app.DvtuiApp`): the stylesheet, quitting,
hang-up handling, the palette. A branch ("play from here") writes a new game file and hands it to
the live table in this same app, which from then on is an ordinary game (its session closed on
exit, "Game saved in ..." printed by the launcher).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.screen import Screen

from ..engine import GameCreated
from ..replay import Replay
from ..store import LoadedGame
from .app import DvtuiApp
from .config import Pace
from .screens.replay import ReplayScreen

if TYPE_CHECKING:
    from ..play.session import PlaySession


class ReplayApp(DvtuiApp):
    """The viewer over ``loaded``; ``branch_path`` names a branch's new file (default: a fresh
    file in the saves directory); ``player_name`` is who takes a bot's seat in a branch."""

    asks_setup = False

    def __init__(
        self,
        loaded: LoadedGame,
        *,
        pace: Pace | None = None,
        branch_path: Callable[[GameCreated], Path] | None = None,
        player_name: str | None = None,
        handle_hangup: bool = False,
    ) -> None:
        super().__init__(None, pace=pace, branch_path=branch_path, player_name=player_name,
                         handle_hangup=handle_hangup)
        self.loaded = loaded
        self.replay = Replay.of(loaded)

    def get_default_screen(self) -> Screen:
        """The viewer itself: no blank screen drawn first (as the live table does)."""
        return ReplayScreen(self.replay, notices=self.loaded.notices, branch=self.branch, start=0)

    def branch(self, moment: int, take: int | None = None) -> None:
        """Play from ``moment`` (a decision moment, as the viewer hands it over; see
        :meth:`DvtuiApp.open_branch`) on a table over the viewer."""
        session = self.open_branch(self.loaded, self.replay, moment, take)
        if session is None:
            return
        self.notify(f"A new game from moment {moment}: {session.path}", title="Playing from here", timeout=6)
        self.start_game(session)

    def start_game(self, session: PlaySession) -> None:
        """The branch's table goes on top of the viewer, which is the app's base screen (a base
        screen cannot be switched away); the table is then the game, as in ``dvtui resume``, but
        with no recap: the resolution a branch starts after was just watched in the viewer."""
        from .screens.table import TableScreen

        self.session = session
        self.push_screen(TableScreen(session, self.pace, recap=False))
