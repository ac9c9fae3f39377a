"""What a screen may ask of the app showing it, typed without importing the app (which imports
the screens): a screen names the app as a :class:`GameHost`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..play.face import GameSession
    from ..store import LoadedGame
    from .config import SetupChoice


class GameHost(Protocol):
    """The live app (:class:`dvtui.app.app.DvtuiApp`) as its screens see it."""

    in_browser: bool
    """Served to a browser tab (``dvtui web``): the tab opens its own saved games only."""
    azerty: bool
    """The AZERTY option is on: the top row picks cards too (the help says so)."""

    def use_azerty(self, on: bool) -> None: ...

    def start_game(self, session: GameSession) -> None: ...

    def create_session(self, choice: SetupChoice) -> GameSession: ...

    def rematch(self) -> None: ...

    def new_game_setup(self) -> None: ...

    def open_viewer(self, loaded: LoadedGame, *, from_file: bool = True) -> None: ...

    def back_to_menu(self) -> bool:
        """Leave the shared table on screen for the start menu it was reached from (the seat stays
        one's own); False when no start menu is under it (the table was the command's)."""
        ...
