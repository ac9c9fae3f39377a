"""What the table screen's parts ask of the screen that holds them: its face.

:class:`~dvtui.app.screens.shared_table.SharedTable` is held by the table screen and works through
it (its session, its turn's flow, its toasts and log, the terminal it calls a turn on). It is typed
by this protocol, not by the screen's class, so the shared table's part imports nothing of the
screen: only the screen's module imports its parts, and they never import it back.
"""

from __future__ import annotations

from typing import Any, Protocol

from textual.app import App
from textual.css.query import QueryType
from textual.notifications import SeverityLevel

from ...play.face import GameSession
from ..flow import TableFlow


class TableFace(Protocol):
    """The table screen, as its parts see it: what it plays, how it calls a turn, and its widgets."""

    @property
    def session(self) -> GameSession: ...

    @property
    def flow(self) -> TableFlow: ...

    @property
    def app(self) -> App[Any]: ...

    @property
    def is_active(self) -> bool:
        """The screen is the one on top (no dialog, help or results over it)."""
        ...

    @property
    def bell(self) -> bool:
        """Ring the terminal's bell when this side's turn comes."""
        ...

    @property
    def notify_on_turn(self) -> bool:
        """Ask the terminal for a desktop notification when this side's turn comes."""
        ...

    @property
    def in_browser(self) -> bool:
        """The screen is in a browser tab (``dvtui web``)."""
        ...

    def notify_desktop(self, sequence: str) -> None:
        """Write a desktop notification's escape sequence to the terminal."""
        ...

    def notify(
        self, message: str, *, title: str = "", severity: SeverityLevel = "information", timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...  # fmt: skip

    def query_one(self, selector: type[QueryType]) -> QueryType: ...
