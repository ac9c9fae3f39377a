"""The start menu's "Tournaments": the table server's tournaments, running first, then the latest
over (``dvtui tournament list``'s lines). Enter on one takes part in it as ``dvtui tournament
join`` does (:func:`dvtui.tables.arena.wait_seat`): the standings, live, while waiting; each table
the tournament seats this person at is played over this screen, and leaving it comes back here to
be seated again, until the tournament is over (its final standings shown, as for one already
over). Escape leaves the wait (the points stay), as leaving the command does."""

from __future__ import annotations

from typing import ClassVar, cast

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...i18n import N_, _
from ...printable import printable
from ...tables import Diverged, Dropped, Refused, RemoteSession, Unreachable
from ...tables.arena import NoArena, listing, standings_lines, summary_line, wait_seat
from ...tables.clubwire import ArenaStandings, ArenaSummary
from ..host import GameHost
from ..spoken import SpokenScreen
from ..theme import ERROR, MUTED
from ..widgets.faces import CHIP, styled
from ..widgets.footer import Footer
from .lobby import Lobby

FAILURES = (Unreachable, Refused, Dropped, Diverged, NoArena, OSError)
"""What asking the table server can end in, said on screen in one line."""


def _title(words: str) -> Text:
    title = styled(" DOLCE VITA ", CHIP)
    title.append("  " + words, style=Style(bold=True))
    return title


def _failed(error: Exception) -> Text:
    return Text(f"✗ {printable(str(error))}", style=Style(color=ERROR, bold=True))


class ArenasScreen(SpokenScreen[None]):
    """The tournaments' list, read again each time the screen is shown (see the module's docstring)."""

    DEFAULT_CSS = """
    #arenas-body {
        padding: 1 2;
        height: auto;
    }

    #arenas-list {
        height: auto;
        max-height: 14;
        border: none;
        margin: 1 0;
    }

    #arenas-status {
        height: auto;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", N_("back"), key_display="esc"),
    ]

    def __init__(self, lobby: Lobby) -> None:
        super().__init__(id="arenas")
        self.lobby = lobby
        self.arenas: list[ArenaSummary] = []
        """The tournaments listed, in the order shown."""

    def compose(self) -> ComposeResult:
        with Vertical(id="arenas-body"):
            yield Static(_title(_("tournaments")))
            yield OptionList(id="arenas-list")
            yield Static(Text(_("Asking the table server for its tournaments…"), style=Style(color=MUTED)),
                         id="arenas-status")  # fmt: skip
            yield Static(Text(_("⏎ on a running one: take part · on one over: its standings · the same as: dvtui "
                                "tournament list, dvtui tournament join NAME"), style=Style(color=MUTED)))  # fmt: skip
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        """The list as it is now (also on coming back from a tournament: its state has changed)."""
        self.read_arenas()

    @work(exclusive=True, group="arenas")
    async def read_arenas(self) -> None:
        """The tournaments in ``dvtui tournament list``'s words (names checked by the server, shown
        as plain text all the same)."""
        status = self.query_one("#arenas-status", Static)
        try:
            found = await listing(self.lobby.place, user=self.lobby.user)
        except FAILURES as e:
            status.update(_failed(e))
            return
        self.arenas = found.arenas
        shown = self.query_one("#arenas-list", OptionList)
        kept = shown.highlighted
        shown.clear_options()
        shown.add_options([Option(Text(printable(summary_line(arena))), id=f"arena-{i}")
                           for i, arena in enumerate(found.arenas)])  # fmt: skip
        if found.arenas:
            shown.highlighted = min(kept or 0, len(found.arenas) - 1)
        words = _("No tournaments at this table server yet: dvtui tournament new NAME opens one.")
        status.update(Text(words if not found.arenas else "", style=Style(color=MUTED)))

    @on(OptionList.OptionSelected, "#arenas-list")
    def _chosen(self, message: OptionList.OptionSelected) -> None:
        self.app.push_screen(ArenaScreen(self.lobby, self.arenas[message.option_index].name))

    def action_back(self) -> None:
        self.app.pop_screen()


class ArenaScreen(SpokenScreen[None]):
    """One tournament: waiting to be seated in it (its standings, live), or its final standings.
    The tables it seats this person at are pushed over this screen (see
    :meth:`dvtui.app.app.DvtuiApp.start_game`), and leaving one comes back here."""

    DEFAULT_CSS = """
    #arena-body {
        padding: 1 2 0 2;
    }

    #arena-status, #arena-standings, #arena-hint {
        margin: 1 0 0 0;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave", N_("back"), key_display="esc"),
    ]

    def __init__(self, lobby: Lobby, name: str) -> None:
        super().__init__(id="arena")
        self.lobby = lobby
        self.arena = name
        self.playing = False
        """A table of the tournament is over this screen: coming back to it waits again."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="arena-body"):
            yield Static(_title(_("tournament {name}").format(name=printable(self.arena))))
            yield Static(Text(_("asking the table server to seat you…"), style=Style(color=MUTED)), id="arena-status")
            yield Static(id="arena-standings")
            yield Static(Text(_("esc: leave the wait, your points stay · the same as: dvtui tournament join NAME"),
                              style=Style(color=MUTED)), id="arena-hint")  # fmt: skip
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.take_part()

    def on_screen_resume(self) -> None:
        """Back from a table of the tournament: free to be seated again."""
        if self.playing:
            self.playing = False
            self._status(Text(_("waiting to be seated again…"), style=Style(color=MUTED)))
            self.take_part()

    @work(exclusive=True, group="arena")
    async def take_part(self) -> None:
        """Wait to be seated (the standings shown each time they change) and play the table the
        tournament seats this person at; or, once it is over, its final standings."""
        lobby = self.lobby
        try:
            got = await wait_seat(lobby.place, self.arena, user=lobby.user, told=self._standings)
            if isinstance(got, ArenaStandings):
                self._standings(got)
                self._status(Text(_("the tournament is over (esc goes back)"), style=Style(color=MUTED)))
                said = _("esc: back to the list · the same as: dvtui tournament show NAME")
                self.query_one("#arena-hint", Static).update(Text(said, style=Style(color=MUTED)))
                return
            said = _("seated at table {table}: joining…").format(table=printable(got.table))
            self._status(Text(said, style=Style(color=MUTED)))
            session = await RemoteSession.open(lobby.place, got.table, seat=got.seat, user=lobby.user)
        except FAILURES as e:
            self._status(_failed(e))
            return
        self.playing = True
        cast(GameHost, self.app).start_game(session)

    def _standings(self, standings: ArenaStandings) -> None:
        if standings.state != "over":
            self._status(Text(_("waiting to be seated (esc leaves the wait)"), style=Style(color=MUTED)))
        lines = [printable(line) for line in standings_lines(standings)]
        self.query_one("#arena-standings", Static).update(Text("\n".join(lines)))

    def _status(self, text: Text) -> None:
        self.query_one("#arena-status", Static).update(text)

    def action_leave(self) -> None:
        """Out of the wait (its connection closed with the worker), back to the list."""
        self.workers.cancel_group(self, "arena")
        self.app.pop_screen()


__all__ = ["ArenaScreen", "ArenasScreen"]
