"""The shared table's part of the table screen: who is there, what this side may ask of the table
(stand-ins, the start, a line said, resigning, ending it), and calling this side's turn (the bell,
a desktop notification, a browser tab's title).

:class:`SharedTable` is made by :class:`~dvtui.app.screens.table.TableScreen` only for a session
that has a :attr:`~dvtui.play.face.GameSession.table` side: a game of this machine has none, and
none of this runs for it. It sees the screen through :class:`~.table_face.TableFace` (it imports
nothing of the screen's module, which imports it).
"""

from __future__ import annotations

import shlex

from textual.widget import Widget

from ...i18n import _
from ...lookalike import shown_as
from ...play.face import GameSession, Presence, Spoken, TableNews, TableSide
from ...play.presence import seat_to_take
from ..notify import PAGE_TURN, turn_notification
from ..textual_private import tell_page
from ..widgets.panels import EventLog
from .dialog import Confirm, SayLine
from .end import EndScreen
from .table_face import TableFace

STAND_IN_LEVEL = "greedy"
"""The bot a seated player lets play an away seat: the table's own stand-in (the server plays no
other for another person's seat, and only once they have been away a while)."""


class SharedTable:
    """The table side of ``screen``'s session (``table``); ``before``: the part of the game played
    before at this screen, whose seat (a rematch offers it again) and browser tab's title go on."""

    def __init__(self, screen: TableFace, table: TableSide, before: SharedTable | None = None) -> None:
        self.screen = screen
        self.table = table
        self.seat_held: int | None = before.seat_held if before is not None else None
        """The seat this side last held at the table (kept when it resigns it and watches)."""
        self._told_left = False
        self._told_stopped = False
        self._rematch_told: int | None = None
        """The seat whose rematch proposal was told (None: none is proposed)."""
        self._page_turn: bool = before._page_turn if before is not None else False
        """What the browser tab's page was last told: this side's turn or not."""
        self.hold_seat()

    @property
    def session(self) -> GameSession:
        return self.screen.session

    def presence(self) -> Presence:
        return self.table.presence()

    def seat_to_take(self) -> int | None:
        """The seat ``j`` takes back in place: one's own again in the table's rematch after
        resigning it (None: none now)."""
        return seat_to_take(self.presence(), self.session.game, self.seat_held)

    def sit(self) -> None:
        """Take back, in place, the seat this side resigned, in the table's new game (its rematch)."""
        seat = self.seat_to_take()
        if seat is not None:
            self.table.sit(seat)

    def hold_seat(self) -> None:
        """Remember the seat this side holds at the table (a resignation makes it a spectator)."""
        seat = self.presence().seat
        if seat is not None:
            self.seat_held = seat

    def call_turn(self) -> None:
        """Call this side's turn the moment the table asks for it, whatever is on screen (a round's
        summary being read, a dialog, the help, the results): the bell, the desktop notification,
        and a browser tab's title (told whenever it changes)."""
        screen = self.screen
        flow = screen.flow
        if (screen.bell or screen.notify_on_turn) and flow.turn_begins():
            if screen.bell:
                screen.app.bell()
            if screen.notify_on_turn:
                screen.notify_desktop(turn_notification(self.presence().table))
        if screen.in_browser:
            self._tell_page_turn(flow.my_turn())

    def _tell_page_turn(self, turn: bool) -> None:
        """A browser tab's page shows this side's turn in its title and icon (``dvtui web``'s page,
        told through textual-serve), so a person in another tab sees it; told when it changes only."""
        if turn != self._page_turn:
            self._page_turn = turn
            tell_page(self.screen.app, {"type": PAGE_TURN, "turn": turn})

    # -- what the table tells ----------------------------------------------------------------------

    def spoken(self, news: Spoken) -> None:
        """A line said at the table goes to the log; and to a toast when the log is not on screen
        (no room for it at 80x24 with four players or more, or another screen is up), so it is
        not missed until someone thinks of pressing Tab."""
        screen = self.screen
        speaker = news.speaker if news.seat is None else shown_as(self.session.names[news.seat], news.speaker)
        log = screen.query_one(EventLog)
        log.say(speaker, news.text, spectator=news.seat is None)
        panel = log.parent.region if isinstance(log.parent, Widget) else log.region  # (the log's rows past it are cut)
        if not screen.is_active or not log.display or not log.region.intersection(panel).height:
            screen.notify(f"{speaker}: {news.text}", title=_("Said at the table"), timeout=8, markup=False)

    def offer_seat_again(self, session: GameSession) -> None:
        """The table dealt its next game (``session``): a seat this side resigned (watching since)
        or left is theirs again in it, taken by joining."""
        table = session.table
        presence = table.presence() if table is not None else None
        held = self.seat_held
        game = session.game
        if presence is not None and presence.seat is None and held is not None and held < game.n:
            name = game.created.players[held].name
            command = f"dvtui join {presence.table} --as {shlex.quote(name)}"
            offer = _("{name}'s seat is yours again in this game: to play it, leave (q) and sit there again: "
                      "{command}").format(name=name, command=command)  # fmt: skip
            if seat_to_take(presence, game, held) is not None:
                offer = _("{name}'s seat is yours again in this game: j takes it, here.").format(name=name)
            self.screen.notify(offer, title=_("Your seat"), timeout=30, markup=False)

    def table_news(self, news: TableNews) -> None:
        """Who is there, or the connection, changed; or the table said something."""
        screen = self.screen
        self.hold_seat()
        if news.notice is not None:
            screen.notify(news.notice, title=_("The table says"), severity="warning", timeout=8)
        presence = self.presence()
        above = screen.app.screen
        if isinstance(above, EndScreen) and above.session is self.session:
            above.table_changed()
        else:
            self._tell_rematch(presence)
        if presence.left is not None and not self._told_left:
            self._told_left = True
            said = _("{table}: {why}. q leaves; {rejoin} comes back here.")
            screen.notify(
                said.format(table=self.session.abilities.table, why=presence.left, rejoin=presence.rejoin),
                title=_("Left the table"),
                severity="error",
                timeout=30,
            )
        if presence.stopped is not None and not self._told_stopped:
            self._told_stopped = True  # the toast goes; the log keeps who ended the table, and why
            screen.query_one(EventLog).note(_("The table has stopped: {why}").format(why=presence.stopped))

    def _tell_rematch(self, presence: Presence) -> None:
        """Away from the results, say once that somebody proposed a rematch (the results say the rest)."""
        vote = presence.rematch
        proposer = None if vote is None else vote.by
        if proposer is not None and proposer != self._rematch_told and proposer != presence.seat:
            said = (
                _("{name} proposes a rematch at this table (e: the results, where r accepts).")
                if self.session.abilities.table_rematch
                else _("{name} proposes a rematch at this table (e: the results).")
            )
            self.screen.notify(said.format(name=self.session.names[proposer]), title=_("Rematch"), timeout=10,
                               markup=False)  # fmt: skip
        self._rematch_told = proposer

    # -- what this side asks of the table ----------------------------------------------------------

    def stand_in(self) -> None:
        """Let a bot play each seat whose owner is away, until they come back."""
        away = self.presence().away()
        screen = self.screen
        if not away:
            screen.notify(_("Nobody is away."), severity="information")
            return
        for seat in away:
            self.table.stand_in(seat, STAND_IN_LEVEL)
        who = ", ".join(self.session.names[s] for s in away)
        said = _("A greedy bot plays for {names} until they join (once they have been away a little while)."
                 ).format(names=who)  # fmt: skip
        screen.notify(said, title=_("Stand-in"), timeout=5)

    def start(self) -> None:
        """Deal now (the table refuses anyone but its opener)."""
        self.table.start_table()

    def chat(self) -> None:
        """A line to everyone at the table; it shows in the log when the table says it."""
        abilities = self.session.abilities
        if abilities.chat is not None:
            self.screen.app.push_screen(SayLine(abilities.table or "", abilities.chat), self._said)

    def _said(self, text: str | None) -> None:
        if text:
            self.table.say(text)

    def resign(self) -> None:
        """Give one's seat up to a bot for the rest of the game, asked first."""
        presence = self.presence()
        if presence.seat is None:
            return
        name = self.session.names[presence.seat]
        question = Confirm(
            _("Resign {name}'s seat at table {table}?").format(name=name, table=presence.table),
            _("A bot plays the seat to the end of the game, marked as standing in, and nobody takes it back. "
              "You stay at the table, watching."),
            _("resign"),
        )  # fmt: skip
        self.screen.app.push_screen(question, self._resign_answered)

    def _resign_answered(self, resign: bool | None) -> None:
        if resign and self.screen.flow.allowed("resign"):  # (the game may have ended meanwhile)
            self.table.resign()

    def close(self) -> None:
        """End the table for everyone (its opener), asked first."""
        table = self.session.abilities.table or ""
        question = Confirm(
            _("End table {table} for everyone?").format(table=table),
            _("Nobody plays on: its game is kept, unfinished, and the name is free for a new table."),
            _("end the table"),
        )  # fmt: skip
        self.screen.app.push_screen(question, self._close_answered)

    def _close_answered(self, close: bool | None) -> None:
        if close and self.screen.flow.allowed("close_table"):
            self.table.close_table()
