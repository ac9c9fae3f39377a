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

import shlex
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...engine import Game, PlacementUndone, fold
from ...play.session import GameSession
from ...printable import printable
from ...tables import RemoteSession, SeatState
from ...tables.remote import TAKEN_OVER
from ..config import Pace
from ..keys import SHARED_TABLE
from ..messages import BranchRequested, TableEvents
from ..theme import ERROR, MUTED, seat_color
from ..widgets.faces import seat_emphasis
from ..widgets.hand import hint_text
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
    BINDINGS: ClassVar[list[BindingType]] = SHARED_TABLE.bindings()
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
        # Textual then runs TableScreen's on_mount itself (a handler of each class, down the MRO):
        # calling it here too would draw the table twice and open a finished game's results twice
        self.remote.wake = self._wake
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
            self.notify(f"{failure}. q leaves; {self._rejoin_command()} comes back here.",
                        title="Left the table", severity="error", timeout=30)  # fmt: skip
        if self.state.steps:
            self._show_round_bar(self._step_status(), self.state.steps[self.state.step_index].game)
            self._bindings_changed()  # who is there may have changed what the footer offers
            return  # the moves that came are shown once this resolution is
        if not self._take_moves():
            self.refresh_view()

    def _step_status(self) -> Text:
        from ..widgets.table_view import moment_status

        return moment_status(self.state.steps[self.state.step_index].event, "")

    # -- the others' moves -----------------------------------------------------------------------

    def advance(self) -> None:
        if self.state.steps:
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
        self.state.hint = None
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

    def _end_screen(self) -> Screen[None]:
        """The results without a rematch or a new game: the table server keeps this game."""
        from .end import EndScreen

        return EndScreen(self.session, table=self.remote.table)

    # -- drawing -----------------------------------------------------------------------------------

    def refresh_view(self) -> None:
        super().refresh_view()
        session = self.remote
        if session.human_to_move() is None or self.state.steps:
            return
        n = len(session.events)
        last = session.events[-1]
        if self._rung_at != n and not (isinstance(last, PlacementUndone) and last.player == session.seat):
            self._rung_at = n
            if self.ring:
                self.app.bell()

    def _waiting_line(self, game: Game) -> Text:
        """Beside the hand of a seat this side does not play: why this side plays no more (it left
        the table), a bot of the server thinking, or the seat's state in a few words (the name is
        at the hand's left: the line fits beside the cards at 80 columns)."""
        session = self.remote
        if session.failure is not None and not game.over:
            return Text(f"back here: {self._rejoin_command()}", style=Style(color=ERROR, italic=True))
        if session.is_bot(game.to_move):
            return super()._waiting_line(game)
        state = self._seat_state(game.to_move)
        name = game.created.players[game.to_move].name
        words = self._waiting_words(state) if state is not None else None
        return hint_text(words or f"{name}'s turn")

    def _rejoin_command(self) -> str:
        """The command that brings a side that left the table back (the footer has ``q``). A seat
        taken over elsewhere is named: a plain join is refused while it is open there."""
        session = self.remote
        if session.seat is None:
            return f"dvtui watch {session.table}"
        if session.left_why() == TAKEN_OVER:
            return f"dvtui join {session.table} --as {shlex.quote(session.names[session.seat])}"
        return f"dvtui join {session.table}"

    def _seat_state(self, seat: int) -> SeatState | None:
        seats, _ = self.remote.presence()
        return next((s for s in seats if s.seat == seat), None)

    def _waiting_words(self, state: SeatState) -> str | None:
        """The state of the seat the table waits for, when it is not a person at their terminal:
        a bot client, a bot standing in, away, free (never taken); and whether ``a`` may help."""
        if state.stand_in is not None:
            return f"{'free' if state.state == 'free' else 'away'} · {state.stand_in} bot standing in"
        if state.state == "connected":
            return f"bot {printable(state.bot)} thinking…" if state.bot is not None else None
        if state.state not in ("away", "free"):
            return None
        words = "free seat" if state.state == "free" else "away"
        return words + (" · key a: a bot stands in" if self._may_stand_in() else "")

    def _show_handover(self, human: int | None) -> None:
        """Who is at the table: each seat connected (a person, or a bot client), away, free (never
        taken), a bot's, or a bot standing in."""
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
                what = f"{s.state}, {s.stand_in} bot standing in"
            elif s.state == "connected":
                what = f"bot {printable(s.bot)}, here" if s.bot is not None else "here"  # the server's words
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
        if session.status == "reconnecting" and session.failure is None:
            right = "reconnecting… "
        else:
            right = f"table {session.table} " if session.seat is not None else f"watching {session.table} "
        self.query_one(RoundBar).show(game, status, right)

    def _whose_turn(self, game: Game) -> Text:
        session = self.remote
        if game.over:
            return Text("Game over", style=Style(bold=True))
        why = session.left_why()
        if why is not None:
            return Text(f"Left the table: {why}", style=Style(color=ERROR, bold=True))
        seat = game.created.players[game.to_move]
        if session.human_to_move() is not None:
            return Text(f"▶ Your turn, {seat.name}", style=seat_emphasis(seat.color))
        if session.is_bot(game.to_move):
            return Text(f"{seat.name} is thinking…", style=Style(color=seat_color(seat.color)))
        state = self._seat_state(game.to_move)
        words = self._waiting_words(state) if state is not None else None
        if words is None:
            return Text(f"{seat.name} to play", style=Style(color=seat_color(seat.color)))
        return Text(f"{seat.name} to play ({words})", style=Style(color=MUTED))

    # -- keys ----------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stand_in":
            return self._may_stand_in() and bool(self._away())
        return super().check_action(action, parameters)

    def _may_stand_in(self) -> bool:
        """Only a player still seated here may let a bot stand in, and only while there are turns to play."""
        return self.remote.seat is not None and self.remote.failure is None and not self.remote.game.over

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
        self.notify(f"A {level} bot plays for {who} until they join.", title="Stand-in", timeout=5)

    def _hints_refused(self) -> str | None:
        return "Hints are off at this table." if not self.remote.hints else super()._hints_refused()


class LeaveForBranch(Dialog[bool]):
    """``b`` at a shared table's seat: play from here means leaving the table (the branch is a
    game of one's own); ``y`` leaves, ``n`` or Escape stays."""

    DEFAULT_CSS = """
    #leave-box {
        width: 64;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
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
