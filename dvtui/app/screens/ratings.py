"""The start menu's "Ratings": the table server's leaderboard, then this person's profile (their
rating, places, history as a chart of text and latest rated games), in the words of ``dvtui
ratings`` and ``dvtui profile`` (:mod:`dvtui.tables.ratingwords`). Escape goes back."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...i18n import N_, _
from ...printable import printable
from ...tables import Diverged, Dropped, Refused, Unreachable
from ...tables.ratings import NoRatings, leaderboard, profile
from ...tables.ratingwords import leaderboard_lines, profile_lines
from ..spoken import SpokenScreen
from ..theme import ERROR, MUTED
from ..widgets.faces import CHIP, styled
from ..widgets.footer import Footer
from .lobby import Lobby

TOP = 20
"""The leaderboard's lines shown (as ``dvtui ratings``)."""


class RatingsScreen(SpokenScreen[None]):
    """The leaderboard and this person's profile, asked of the lobby's table server."""

    DEFAULT_CSS = """
    #ratings-body {
        padding: 1 2 0 2;
    }

    #ratings-text {
        margin: 1 0 0 0;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("back"), key_display="esc"),
    ]

    def __init__(self, lobby: Lobby) -> None:
        super().__init__(id="ratings")
        self.lobby = lobby

    def compose(self) -> ComposeResult:
        title = styled(" DOLCE VITA ", CHIP)
        title.append("  " + _("ratings"), style=Style(bold=True))
        with VerticalScroll(id="ratings-body"):
            yield Static(title)
            yield Static(
                Text(_("Asking the table server for its ratings…"), style=Style(color=MUTED)), id="ratings-text"
            )
            yield Static(Text(_("esc: back to the menu · the same as: dvtui ratings, dvtui profile"),
                              style=Style(color=MUTED)))  # fmt: skip
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.read_ratings()

    @work(exclusive=True, group="ratings")
    async def read_ratings(self) -> None:
        """The leaderboard, then this person's profile, as plain text (never markup)."""
        shown = self.query_one("#ratings-text", Static)
        try:
            board = await leaderboard(self.lobby.place, TOP, user=self.lobby.user)
            mine = await profile(self.lobby.place, None, user=self.lobby.user)
        except (Unreachable, Refused, Dropped, Diverged, NoRatings, OSError) as e:
            shown.update(Text(f"✗ {printable(str(e))}", style=Style(color=ERROR, bold=True)))
            return
        lines = leaderboard_lines(board) or [_("No rated games at this table server yet.")]
        text = Text("\n".join([_("The leaderboard"), "", *lines, "", _("Your rating"), "", *profile_lines(mine)]))
        shown.update(text)

    def action_back(self) -> None:
        self.app.pop_screen()


__all__ = ["RatingsScreen"]
