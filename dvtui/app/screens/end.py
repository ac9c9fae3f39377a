"""The end of the game: the winner(s), the standings with every player's holdings, and a chart of
the totals after each round."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import ClassVar, cast

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from ...engine import CardPlaced, Game
from ...i18n import N_, _, ngettext
from ...play.face import GameSession, presence_of
from ...printable import printable
from ..host import GameHost
from ..spoken import SpokenScreen, filled
from ..theme import MUTED
from ..widgets.chart import TotalsChart
from ..widgets.faces import CHIP, cell_tags, styled
from ..widgets.footer import Footer
from ..widgets.panels import colour_names
from ..widgets.presence import rematch_words
from ..widgets.scoreboard import Standings
from ..widgets.table_view import result_words


def seat_notes(session: GameSession) -> list[str]:
    """How each seat was played, when not by its own player alone: resigned (a bot played the
    rest), or a bot stood in for some placements while its player was away; empty otherwise. A
    winning total is not read as the player's own play when a bot made part of it."""
    presence = presence_of(session)
    by_bot = Counter(e.player for e in session.events if isinstance(e, CardPlaced) and e.stand_in is not None)
    notes = []
    for p in range(session.game.n):
        seat = presence.of(p) if presence is not None else None
        n = by_bot[p]
        if seat is not None and seat.resigned:
            notes.append(ngettext("resigned · {n} placement by a bot", "resigned · {n} placements by a bot", n)
                         .format(n=n))  # fmt: skip
        elif n:
            notes.append(ngettext("{n} placement by a stand-in", "{n} placements by a stand-in", n).format(n=n))
        else:
            notes.append("")
    return notes


def headline(game: Game) -> Text:
    outcome = game.outcome()
    assert outcome is not None, "the end screen shows a finished game"
    winners = outcome.winners
    players = game.created.players
    text = styled(" " + _("GAME OVER") + " ", CHIP)
    text.append("  ")
    line = result_words([players[p].name for p in winners], outcome.best)
    text.append_text(colour_names(Text(line, style=Style(bold=True)), [players[p].name for p in winners],
                                  [players[p].color for p in winners]))  # fmt: skip
    return text


CHART_ROWS = 4
"""The fewest rows the totals chart draws in: two of bars, the rounds, the legend."""


class EndScreen(SpokenScreen[None]):
    DEFAULT_CSS = """
    #end-headline {
        height: 1;
        margin: 0 0 1 0;
    }

    #end-body {
        height: 1fr;
    }

    #end-left {
        height: auto;
        padding: 0 1;
    }

    #end-right {
        height: 1fr;
        max-height: 20;
        padding: 0 1;
        margin: 1 0 0 0;
    }

    #standings {
        height: auto;
    }

    #end-note, #end-rematch {
        height: auto;
        padding: 0 1;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rematch", N_("rematch")),
        Binding("d", "decline", N_("no rematch")),
        Binding("n", "new_game", N_("new game")),
        Binding("escape,t", "back", N_("table"), key_display="t"),
        Binding("a", "analyse", N_("analyse")),
        Binding("question_mark", "help", N_("help"), key_display="?"),
        Binding("q", "quit", N_("quit")),
    ]

    def __init__(
        self, session: GameSession, *, table: str | None = None, viewer: Callable[[], Screen[None]] | None = None
    ) -> None:
        """``table``: the shared table the game was played at. The table server keeps its game
        and its seats: no new game here, and a rematch is the table's to deal (when it does,
        ``r`` asks it, and the table screen under this one plays the game it deals). ``viewer``:
        the replay viewer ``a`` opens over a game that is no file of this machine (a shared
        table's, made by the table so that ``b`` there plays on as its time travel does); its
        analysis is made here and kept nowhere. No id: a game's results may open while an
        earlier game's are still being taken down."""
        super().__init__()
        self.session = session
        self.table = table
        self.viewer = viewer

    def compose(self) -> ComposeResult:
        game = self.session.game
        players = game.created.players
        yield Static(headline(game), id="end-headline")
        with Vertical(id="end-body"):
            with Vertical(id="end-left"):
                yield Static(_("STANDINGS AND HOLDINGS"), classes="side-title")
                yield Standings(game, notes=seat_notes(self.session), id="standings")
            with Vertical(id="end-right"):
                yield Static(_("TOTALS AFTER EACH ROUND"), classes="side-title")
                yield TotalsChart(
                    game.round_scores, [s.color for s in players], cell_tags([s.name for s in players]), id="chart"
                )
        path = self.session.path
        if path is not None:
            shown = printable(str(path))
            command = f"dvtui replay {shown}"
            note = filled(
                _("Saved in {path} · watch it again: {command}"),
                Style(color=MUTED),
                path=shown,
                command=Text(command, style=Style(bold=True)),
            )
            yield Static(note, id="end-note")
        elif self.table is not None:
            note = Text(
                _("The table server keeps this game · t: the table (t again: time travel)"), style=Style(color=MUTED)
            )
            yield Static(note, id="end-note")
        if self.table is not None:
            yield Static(self._rematch_text(), id="end-rematch")
        yield Footer(compact=True)

    def _rematch_text(self) -> Text:
        """The rematch proposed at the table, who has accepted and who is awaited (for a spectator
        too), and what ``r`` and ``d`` do for a player."""
        presence = presence_of(self.session)
        words = None if presence is None else rematch_words(presence, self.session.names)
        may = self.session.abilities.table_rematch
        if words is None:
            offer = _("r: propose a rematch at the same table (everyone there is asked)") if may else ""
            return Text(offer, style=Style(color=MUTED))
        text = Text(words, style=Style(bold=True))
        if may:
            text.append("  " + _("r: accept · d: turn it down"), style=Style(color=MUTED))
        return text

    def table_changed(self) -> None:
        """Who is at the table, or the rematch proposed, changed: say it again."""
        for line in self.query("#end-rematch").results(Static):  # none yet: composing says it as it is now
            line.update(self._rematch_text())
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch":
            return self.table is None or self.session.abilities.table_rematch
        if action == "decline":
            presence = presence_of(self.session)
            return self.session.abilities.table_rematch and presence is not None and presence.rematch is not None
        if action == "new_game":
            return self.table is None
        if action == "analyse":  # the analysis is kept beside the game's file (a table's: nowhere)
            return self.session.path is not None or self.viewer is not None
        return True

    def on_mount(self) -> None:
        self._relayout()

    def on_resize(self) -> None:
        self._relayout()

    def _relayout(self) -> None:
        width, height = self.app.size
        n = self.session.game.n
        for standings in self.query(Standings).results(Standings):  # none: taken down before it was drawn
            standings.set_compact(width < 70 or height < 16 + 3 * n)
        for right in self.query("#end-right"):  # shown again (its gap above only on a tall screen), then measured
            right.display = True
            right.styles.margin = (1 if height >= 24 else 0, 0, 0, 0)
        self.call_after_refresh(self._fit_chart)

    def _fit_chart(self) -> None:
        """The chart and its heading only where the whole chart fits under it (:data:`CHART_ROWS`):
        a screen too short for it (five players at 73x20) showed the heading over a chart cut away."""
        for right in self.query("#end-right"):
            right.display = right.size.height >= 1 + CHART_ROWS

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_rematch(self) -> None:
        """The same seats, the next deal, a new file."""
        cast(GameHost, self.app).rematch()

    def action_decline(self) -> None:
        """Turn the rematch proposed down (or withdraw one's acceptance): the proposal is gone."""
        table = self.session.table
        if table is not None:
            table.rematch(False)

    def action_new_game(self) -> None:
        """The set-up screen, filled in with these seats."""
        cast(GameHost, self.app).new_game_setup()

    def action_analyse(self) -> None:
        """The game in the replay viewer, its analysis on the way (``a`` there)."""
        from .replay import ReplayScreen

        if self.session.path is None and self.viewer is not None:
            self.app.push_screen(self.viewer())
        else:
            cast(GameHost, self.app).open_viewer(self.session.as_file())
        viewer = self.app.screen
        if isinstance(viewer, ReplayScreen):
            viewer.call_after_refresh(viewer.action_analyse)

    def action_help(self) -> None:
        from .help import HelpScreen

        self.app.push_screen(HelpScreen())

    def action_quit(self) -> None:
        """``q``: as the table's (a shared table reached from the start menu, or from a tournament
        that seats its person again, is left for it); anything else leaves dvtui."""
        if self.table is not None and cast(GameHost, self.app).back_to_menu():
            return
        self.app.exit()
