"""Play now, on screen: the start menu's first choice (and a browser tab's). It seeks a table with
the pool's defaults (any size, casual, a minute a move, bots after a minute), shows where the seek
stands as the server says it each second (the countdown to the bots, how many seek alike), and
once seated plays the table as the seat chooser does; Esc leaves the pool for the menu."""

from __future__ import annotations

import asyncio
from typing import ClassVar, cast

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Static

from ...i18n import N_, _
from ...printable import printable
from ...tables import Diverged, Dropped, Refused, RemoteSession, Unreachable
from ...tables.clubwire import SEEK_WAIT, Seeking
from ...tables.seeking import NoSeeking, seek, status_line
from ..host import GameHost
from ..spoken import SpokenScreen
from ..theme import ERROR, MUTED
from ..widgets.faces import CHIP, styled
from ..widgets.footer import Footer
from .lobby import Lobby


class SeekScreen(SpokenScreen[None]):
    """Waiting in the table server's pool (see the module's docstring)."""

    DEFAULT_CSS = """
    #seek-body {
        padding: 1 2;
        height: auto;
    }

    #seek-status {
        height: auto;
        margin: 1 0;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", N_("leave the pool"), key_display="esc"),
        Binding("q", "leave", N_("leave the pool"), show=False),
    ]

    def __init__(self, lobby: Lobby, *, wait: int = SEEK_WAIT) -> None:
        super().__init__(id="seek")
        self.lobby = lobby
        self.wait = wait
        """Seconds to wait for people before bots fill the free seats (the pool's default)."""
        self.leaving = asyncio.Event()
        self.seated = False
        self.failed = False
        """The seek ended in an error, said on screen: Esc goes back."""

    def compose(self) -> ComposeResult:
        title = styled(" DOLCE VITA ", CHIP)
        title.append("  " + _("play now"), style=Style(bold=True))
        with Vertical(id="seek-body"):
            yield Static(title)
            yield Static(Text(_("asking the table server for a table…"), style=Style(color=MUTED)), id="seek-status")
            yield Static(
                Text(
                    _("people near your level are seated together; bots fill the free seats after the wait · the same "
                      "as: dvtui seek"),
                    style=Style(color=MUTED),
                )
            )  # fmt: skip
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.wait_in_pool()

    @work(exclusive=True, group="seek")
    async def wait_in_pool(self) -> None:
        """Seek, and play the table the pool seats this person at (the screen goes back to the
        menu once the pool is left)."""
        lobby = self.lobby
        try:
            matched = await seek(lobby.place, user=lobby.user, wait=self.wait, told=self._told, leave=self.leaving)
            if matched is None:
                self.app.pop_screen()
                return
            self.seated = True
            said = _("seated at table {table}: joining…").format(table=printable(matched.table))
            self._status(Text(said, style=Style(color=MUTED)))
            session = await RemoteSession.open(lobby.place, matched.table, seat=matched.seat, user=lobby.user)
        except (Unreachable, Refused, Dropped, Diverged, NoSeeking) as e:
            said = _("{error} (esc goes back)").format(error=e)
            self._status(Text(f"✗ {printable(said)}", style=Style(color=ERROR, bold=True)))
            self.failed = True
            return
        cast(GameHost, self.app).start_game(session)

    def _told(self, status: Seeking) -> None:
        self._status(Text(status_line(status)))

    def _status(self, text: Text) -> None:
        self.query_one("#seek-status", Static).update(text)

    def action_leave(self) -> None:
        """Leave the pool (the seek then ends, and the screen with it); once out of it, go back."""
        if self.failed:
            self.app.pop_screen()
        elif not self.seated and not self.leaving.is_set():
            self.leaving.set()
            self._status(Text(_("leaving the pool…"), style=Style(color=MUTED)))
