"""The live table at a shared table: the same table, played through a :class:`RemoteSession`.

The server owns the game: this screen decides only for its own seat (or for nobody, watching), and
never runs a bot (the server's bots think on the server). What the others do arrives as
:class:`~dvtui.app.messages.TableEvents`, posted by the table client's thread, and is shown move by
move as the table shows a bot's move, resolution included. The header says whose turn it is (the
bell rings once when it becomes yours) and the banner who is there: connected, away, a bot standing
in, and "reconnecting…" while the client finds the server again.

Time travel (``t``) and "play from here" (``b`` there) work as at a table of one's own, and never
change the shared table: the branch is written from the lines this side holds, and played here
after this side leaves the table (a seated player is asked first, :class:`LeaveForBranch`).
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static

from ...engine import Game, PlacementUndone, fold
from ...play.session import GameSession
from ...tables import RemoteSession
from ..config import Pace
from ..keys import SHARED_TABLE
from ..messages import BranchRequested, TableEvents
from ..theme import MUTED, seat_color
from ..widgets.faces import seat_emphasis
from ..widgets.panels import Banner, EventLog, RoundBar, colour_names
from ..widgets.table_view import TableLayout, table_layout
from .dialog import Dialog
from .table import TableScreen, _strong_available

NO_BRANCH_IN_BROWSER = ("No play from here in a browser tab at a shared table: the branch would be a file of "
                        "the web server's account, which no page of the table can open.")
STAND_IN_LEVEL = "strong"
"""The bot a seated player lets play an away seat (the one the hints use)."""


class RemoteTableScreen(TableScreen):
    """The table for one seat (or a spectator) of a shared table. ``bell``: ring the terminal's
    bell once when it becomes this seat's turn. ``in_browser``: in a browser tab (``dvtui web``),
    where ``b`` in time travel is refused: a branch would be saved in the web server's account,
    shared by every browser user, and a table's page has no start menu to resume it from."""

    KEYS = SHARED_TABLE
    BINDINGS: list[BindingType] = SHARED_TABLE.bindings()
    SCREEN_ID = "shared-table"  # a branch's table may open over it: two screens never share an id

    def __init__(
        self, session: RemoteSession, pace: Pace | None = None, *, bell: bool = True, in_browser: bool = False,
    ) -> None:  # fmt: skip
        super().__init__(session, pace, recap=False)
        self.remote = session
        self.ring = bell
        self.in_browser = in_browser
        self._rung_at: int | None = None
        """The position (number of events) the bell last rang for."""
        self._told_failure = False

    def _layout(self, width: int, height: int) -> TableLayout:
        """The banner always has a line under the hand: it says who is at the table."""
        return table_layout(width, height, self.session.game.n)

    def on_mount(self) -> None:
        self.remote.wake = self._wake
        super().on_mount()
        self.call_after_refresh(self._table_events)  # anything that came before the wake was set

    def _wake(self) -> None:
        """From the client's thread: something arrived (post_message is safe from any thread)."""
        self.post_message(TableEvents())

    @on(TableEvents)
    def _table_events(self) -> None:
        session = self.remote
        for error in session.take_errors():
            self.notify(error.message, title="The table says", severity="warning", timeout=8)
        failure = session.failure
        if failure is not None and not self._told_failure:
            self._told_failure = True
            self.notify(f"{failure}. q leaves; 'dvtui join {session.table}' comes back.",
                        title="Left the table", severity="error", timeout=30)  # fmt: skip
        if self.steps:
            self._show_round_bar(self._step_status(), self.steps[self.step_index].game)
            return  # the moves that came are shown once this resolution is
        if not self._take_moves():
            self.refresh_view()

    def _step_status(self) -> Text:
        from ..widgets.table_view import moment_status

        return moment_status(self.steps[self.step_index].event, "")

    # -- the others' moves -----------------------------------------------------------------------

    def advance(self) -> None:
        if self.steps:
            return
        if self._take_moves():
            return
        super().advance()  # the results once it is over; nothing to start otherwise (no bot here)

    def _take_moves(self) -> bool:
        """Show the next move that arrived, if one did (its resolution is played out on screen,
        and the next one is taken after it). False when none has."""
        move = self.remote.take_move()
        if move is None:
            return False
        self.turn_token += 1
        self._stop_thinking()  # a hint for the position gone
        self.hint = None
        self._tell_time_travel(move.events)
        if isinstance(move.events[0], PlacementUndone):
            self.query_one(EventLog).add(move.events, self.session.game)
            self.refresh_view()
            self.advance()
        else:
            self._after_move(move)
        return True

    # -- play from here ------------------------------------------------------------------------------

    def _can_branch(self) -> bool:
        """A branch is made from the lines this side holds: the table's file stays the server's."""
        return True

    def _branch_refused(self) -> str | None:
        return NO_BRANCH_IN_BROWSER if self.in_browser else None

    def _branch_from(self, moment: int, take: int | None) -> None:
        """``b`` in time travel: a game of one's own from ``moment``, played here; the table is
        left, never changed (the app makes the branch). A seated player is asked first: their
        seat is away while they play it."""
        session = self.remote
        if session.seat is None or fold(session.events[: moment + 1]).game.over:
            super()._branch_from(moment, take)  # nothing to leave, or no branch to leave for (the app says why)
            return

        def answered(leave: bool | None) -> None:
            if leave:
                self.app.post_message(BranchRequested(self, moment, take))

        self.app.push_screen(LeaveForBranch(session.table, session.names[session.seat]), answered)

    def adopt(self, session: GameSession) -> None:
        """A shared table plays its one game: there is no branch or rematch to adopt here."""
        self.notify("A shared table plays its own game: start another with 'dvtui new --table NAME'.",
                    severity="warning")  # fmt: skip

    # -- drawing -----------------------------------------------------------------------------------

    def refresh_view(self) -> None:
        super().refresh_view()
        session = self.remote
        if session.human_to_move() is None or self.steps:
            return
        n = len(session.events)
        last = session.events[-1]
        if self._rung_at != n and not (isinstance(last, PlacementUndone) and last.player == session.seat):
            self._rung_at = n
            if self.ring:
                self.app.bell()

    def _waiting_line(self, game: Game) -> Text:
        """Whom the table waits for: a bot on the server, or a person at their own terminal."""
        if self.remote.is_bot(game.to_move):
            return super()._waiting_line(game)
        text = self._whose_turn(game)
        text.stylize(Style(italic=True))
        return text

    def _show_handover(self, human: int | None) -> None:
        """Who is at the table: each seat connected, away, a bot's, or a bot standing in."""
        session = self.remote
        seats, spectators = session.presence()
        names = session.names
        words = []
        for s in seats:
            if s.seat == session.seat:
                what = "you"
            elif s.state == "bot":
                what = "bot"
            elif s.stand_in is not None:
                what = f"away, {s.stand_in} bot standing in"
            elif s.state == "connected":
                what = "here"
            else:
                what = s.state  # away, free
            words.append(f"{s.name} ({what})")
        line = " · ".join(words)
        if spectators:
            line += f" · {spectators} watching"
        banner = self.query_one(Banner)
        banner.display = True
        banner.show(colour_names(line, names, [p.color for p in session.game.created.players]))

    def _show_round_bar(self, status: Text | None = None, game: Game | None = None) -> None:
        game = game or self.session.game
        if status is None:
            status = self._whose_turn(game)
        session = self.remote
        connection = session.status
        if session.failure is not None:
            right = "left the table "
        elif connection == "reconnecting":
            right = "reconnecting… "
        else:
            right = f"table {session.table} " if session.seat is not None else f"watching {session.table} "
        self.query_one(RoundBar).show(game, status, right)

    def _whose_turn(self, game: Game) -> Text:
        session = self.remote
        if game.over:
            return Text("Game over", style=Style(bold=True))
        seat = game.created.players[game.to_move]
        if session.human_to_move() is not None:
            return Text(f"▶ Your turn, {seat.name}", style=seat_emphasis(seat.color))
        if session.is_bot(game.to_move):
            return Text(f"{seat.name} is thinking…", style=Style(color=seat_color(seat.color)))
        seats, _ = session.presence()
        state = next((s for s in seats if s.seat == game.to_move), None)
        away = ""
        if state is not None and state.stand_in is not None:
            away = f" ({state.stand_in} bot standing in)"
        elif state is not None and state.state in ("away", "free"):
            away = " (away: a bot can stand in, key a)" if session.seat is not None else " (away)"
        style = Style(color=seat_color(seat.color))
        return Text(f"{seat.name} to play{away}", style=style if not away else Style(color=MUTED))

    # -- keys ----------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hint":
            return self.remote.hints and super().check_action(action, parameters)
        if action == "stand_in":
            return self.remote.seat is not None and bool(self._away())
        return super().check_action(action, parameters)

    def _holds_summary(self) -> bool:
        """A seated player reads the round's summary in their own time; a spectator's goes on."""
        return self.pace.hold_round_end and self.remote.seat is not None

    def _away(self) -> list[int]:
        seats, _ = self.remote.presence()
        return [s.seat for s in seats if s.state in ("away", "free") and s.kind == "human" and s.stand_in is None]

    def action_stand_in(self) -> None:
        """``a``: let a bot play each seat whose owner is away, until they come back."""
        away = self._away()
        if not away:
            self.notify("Nobody is away.", severity="information")
            return
        level = STAND_IN_LEVEL if _strong_available() else "greedy"
        for seat in away:
            self.remote.stand_in(seat, level)
        who = ", ".join(self.remote.names[s] for s in away)
        self.notify(f"A {level} bot plays for {who} until they return.", title="Stand-in", timeout=5)

    def action_hint(self) -> None:
        if not self.remote.hints:
            self.notify("This table gives no hints.", severity="information")
            return
        super().action_hint()


class LeaveForBranch(Dialog[bool]):
    """``b`` at a shared table's seat: play from here means leaving the table (the branch is a
    game of one's own); ``y`` leaves, ``n`` or Escape stays."""

    DEFAULT_CSS = """
    #leave-box {
        width: 64;
    }
    """
    BINDINGS: list[BindingType] = [  # noqa: RUF012
        Binding("y", "answer(True)", "leave and play from here", key_display="y"),
        Binding("n,escape", "answer(False)", "stay", key_display="n/esc"),
    ]

    def __init__(self, table: str, seat: str) -> None:
        super().__init__()
        self.table = table
        self.seat = seat

    def compose(self) -> ComposeResult:
        with Vertical(id="leave-box", classes="dialog"):
            yield Static(Text(f"Leave table {self.table} to play from here?", style=Style(bold=True)))
            yield Static(Text(
                f"The branch is a game of your own, in a new file: the table is not changed. {self.seat}'s "
                f"seat stays yours, away meanwhile (the others may let a bot stand in for it)."
            ))  # fmt: skip
            back = (f"dvtui join {self.table}", Style(bold=True))
            yield Static(Text.assemble(back, " brings you back where the game is."))
            yield Static(Text("y: leave and play from here · n or esc: stay", style=Style(color=MUTED)))
        yield Footer(compact=True)

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
