"""A seat at a shared table, or watching one, line by line (``dvtui join NAME --plain``,
``dvtui watch NAME --plain``, ``dvtui new --table NAME --plain``).

The table's session (:class:`~dvtui.tables.RemoteSession`) reads the server on the running loop
and tells its news there; typed lines come from a thread that reads stdin and hands each line to
the loop. Every piece of news is said as whole lines (the decisions in the log's words, who came
and went, a line said at the table, the clock of a turn) and the turn's prompt is said again after
them when it is still this seat's turn: a line typed meanwhile is never cut by another. On this
seat's turn the bell rings (BEL, unless ``--no-bell``) just before the prompt.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import TextIO

from ..bots import advise
from ..describe import describe_event, join_names
from ..engine import RuleError
from ..i18n import _, ngettext
from ..play.face import Decided, GameSession, News, Presence, Redealt, Refused, Spoken, TableNews, presence_of
from ..play.presence import seat_name, seat_to_take, seat_words
from ..printable import printable
from ..rulewords import rule_words
from ..tables.clock import duration_words
from .commands import Command, Place, Wrong, expected, read
from .console import Console
from .look import LOOKS, help_lines, look
from .words import event_lines, hint_words, safe_names, turn_prompt


class PlainTable:
    """One seat's (or a spectator's) lines at a shared table."""

    def __init__(self, session: GameSession, console: Console, *, bell: bool = True) -> None:
        self.session = session
        self.console = console
        self.bell = bell
        self.names = safe_names(session.names)
        self.code: int | None = None
        """How the run ends, once it does."""
        self._lines: asyncio.Queue[str | None] = asyncio.Queue()
        """Typed lines, from the thread that reads them; None: stop reading."""
        self._seen: dict[int, str] = {}
        """What each seat was last said to be (here, away, ...): only a change is said."""
        self._prompted: int | None = None
        """The number of events when this seat's turn was last announced (the bell rings once a turn)."""
        self._clock: tuple[int, int] | None = None
        self._status = "connected"
        """The connection's state last said."""
        self._held: int | None = None
        """The seat this side last sat at (kept once it resigns it and watches): ``sit`` takes it again."""

    @property
    def seat(self) -> int | None:
        presence = presence_of(self.session)
        return None if presence is None else presence.seat

    async def run(self, into: TextIO | None = None) -> int:
        """Play (or watch) until the game is over, the table is lost, or the person leaves."""
        loop = asyncio.get_running_loop()
        lines = self._lines
        source = into if into is not None else sys.stdin

        def read_lines() -> None:
            for line in iter(source.readline, ""):
                if not handed(loop, lines, line.rstrip("\r\n")):
                    return
            handed(loop, lines, None)

        threading.Thread(target=read_lines, name="plain stdin", daemon=True).start()
        self._start()
        self.session.attach(self._news)
        self._turn_news()
        while self.code is None:
            line = await lines.get()
            if line is None:  # the end of input, or the end of the table (:meth:`_finish`)
                break
            await self._line(line)
        return self.code or 0

    def _finish(self, code: int) -> None:
        """Stop reading: the game is over (0) or this side has left the table (1)."""
        if self.code is None:
            self.code = code
            self._lines.put_nowait(None)

    # -- what the table says ---------------------------------------------------------------------

    def _start(self) -> None:
        session, say = self.session, self.console.say
        presence = presence_of(session)
        say(describe_event(session.game.created, self.names))
        if presence is not None:
            table = printable(presence.table)
            if presence.seat is None:
                say(_("You are watching table {table}.").format(table=table))
            else:
                self._held = presence.seat
                say(_("You sit at table {table} as {name}.").format(table=table, name=self.names[presence.seat]))
            if session.game.created.rated:
                say(_("The table is rated: its game's end moves the ratings of the people at it."))
            self.console.say_all(self._who(presence))
            self._seen = {s.seat: seat_words(presence, s) for s in presence.seats}
        if session.game.over:
            self._game_over()
            return
        say(_("Type help for the commands."))

    def _who(self, presence: Presence) -> list[str]:
        lines = [_("{name}: {state}.").format(name=seat_name(presence, s), state=seat_words(presence, s))
                 for s in presence.seats]  # fmt: skip
        awaited = presence.awaited()
        if awaited:
            lines.append(
                _("The table waits for {names} to sit.").format(names=join_names([printable(n) for n in awaited]))
            )
        if presence.spectators:
            said = ngettext("{n} person watching.", "{n} people watching.", presence.spectators)
            lines.append(said.format(n=presence.spectators))
        return lines

    def _news(self, news: News) -> None:
        say = self.console.say
        if isinstance(news, Decided):
            move = news.move
            lines = [line for event in move.events for line in event_lines(event, move.after, self.names)]
            self.console.say_all(lines)
            if self.session.game.over:
                self._game_over()
                return
            self._turn_news()
        elif isinstance(news, Refused):
            say(printable(news.reason))
            self._prompted = None
            self._turn_news()
        elif isinstance(news, Spoken):
            if news.seat is None:  # a spectator: the name the table knows them by
                said = _("{name}, watching, says: {text}").format(
                    name=printable(news.speaker), text=printable(news.text)
                )
            else:
                said = _("{name} says: {text}").format(name=self.names[news.seat], text=printable(news.text))
            say(said)
        elif isinstance(news, TableNews):
            if news.notice:
                say(printable(news.notice))
            self._presence_news()
        elif isinstance(news, Redealt):
            self.session = news.session
            self.names = safe_names(news.session.names)
            self._prompted = None
            say(_("The table has dealt its next game."))
            news.session.attach(self._news)
            self._turn_news()

    def _presence_news(self) -> None:
        presence = presence_of(self.session)
        if presence is None:
            return
        if presence.seat is not None:
            self._held = presence.seat
        if presence.stopped is not None:  # closed, or it cannot save: nothing more happens here (said above)
            self._finish(0)
            return
        if presence.left is not None:
            self.console.say(_("You have left the table: {why}. Back: {command}").format(
                why=printable(presence.left), command=printable(presence.rejoin)))  # fmt: skip
            self._finish(1)
            return
        if presence.status != self._status:  # said once per change
            if presence.status == "reconnecting":
                self.console.say(_("The connection to the table was lost; reconnecting."))
            elif presence.status == "connected":
                self.console.say(_("Connected to the table again."))
            self._status = presence.status
        changed = []
        for s in presence.seats:
            words = seat_words(presence, s)
            if self._seen.get(s.seat) != words:
                changed.append(_("{name}: {state}.").format(name=self.names[s.seat], state=words))
                self._seen[s.seat] = words
        self.console.say_all(changed)
        self._turn_news()

    def _turn_news(self) -> None:
        """Say whose turn it is once per turn: this seat's prompt with the bell, or the clock of
        another's when one runs."""
        session = self.session
        game = session.game
        if game.over:
            return
        presence = presence_of(session)
        mine = session.human_to_move()
        told = len(session.events)
        if mine is not None and self._prompted != told:
            self._prompted = told
            if self.bell:
                self.console.ring()
            self.console.say(turn_prompt(game, self.names, mine))
        if presence is not None and presence.move_left is not None:
            left = presence.move_left[0]
            clock = (told, int(left))
            if self._clock is None or self._clock[0] != told:
                self._clock = clock
                said = _("{name} has {time} to move.").format(name=self.names[game.to_move], time=duration_words(left))
                self.console.say(said)
                banks = [
                    f"{self.names[seat]} {duration_words(bank)}"
                    for seat, player in enumerate(game.created.players)
                    if player.kind == "human" and (bank := presence.bank_left(seat)) is not None
                ]  # a bot's seat has no clock, nor a bank
                if banks:
                    said = _("Time banks (spent once the move time has run out): {banks}.")
                    self.console.say(said.format(banks=", ".join(banks)))

    def _game_over(self) -> None:
        self.console.say(_("The game at this table is over."))
        self._finish(0)

    # -- what is typed ---------------------------------------------------------------------------

    async def _line(self, line: str) -> None:
        session, say = self.session, self.console.say
        seat = self.seat
        mine = session.human_to_move()
        said = read(line, session.game, mine)
        if said is None:
            if mine is not None:
                say(turn_prompt(session.game, self.names, mine))
            else:
                say(self._whose_turn())
            return
        if isinstance(said, Wrong):
            if mine is None and line.strip()[:1].isdigit():  # a placement, out of turn
                mover = self.names[session.game.to_move]
                if seat is None:
                    say(_("You are watching: you cannot play."))
                else:
                    say(_("It is not your turn: {name} is to play.").format(name=mover))
            else:
                say(said.said)
            return
        if isinstance(said, Place):
            assert mine is not None
            try:
                session.place(said.placement, mine)
            except RuleError as e:
                say(printable(rule_words(e)), expected(session.game, mine))
            return
        assert isinstance(said, Command)
        kind = "watch" if seat is None else "table"
        match said.name:
            case "quit":
                self._finish(0)
            case "undo":
                player = session.undo_player()
                if player is None:
                    say(printable(session.why_no_undo()))
                    return
                try:
                    session.undo(player)
                except RuleError as e:
                    say(printable(rule_words(e)))
            case "hint":
                await self._hint(mine)
            case "sit":
                self._sit(said.rest)
            case "who":
                presence = presence_of(session)
                if presence is not None:
                    self.console.say_all(self._who(presence))
            case "say":
                table = session.table
                if session.abilities.chat is None or table is None:
                    say(_("You cannot speak at this table."))
                elif not said.rest:
                    say(_("Say what? Type say and your line, such as say hello."))
                else:
                    try:
                        table.say(line.strip().partition(" ")[2])
                    except RuleError as e:
                        say(printable(rule_words(e)))
            case name if name in LOOKS:
                self.console.say_all(look(said, session.game, self.names, session.events, seat, kind))
            case _:
                say(_("That is not a command at a table."), *help_lines(kind)[:1])

    def _sit(self, named: str) -> None:
        """``sit``: watching, take back in place the seat this side sat at (its own again in the
        table's rematch after resigning it), as ``j`` on the table's screen; ``sit NAME`` (or its
        number) names the seat, for a spectator who never sat here (the table says whose it is)."""
        session = self.session
        held = self._held if not named else self._seat_named(named)
        side = session.table
        seat = None if side is None else seat_to_take(side.presence(), session.game, held)
        if side is None or seat is None:
            self.console.say(_("You have no seat here to take back now."))
            return
        self.console.say(_("Taking your seat, {name}, again.").format(name=self.names[seat]))
        side.sit(seat)

    def _seat_named(self, named: str) -> int | None:
        """The seat ``named`` by its name (case aside) or its number, counted from 1."""
        names = [name.casefold() for name in self.session.names]
        if named.casefold() in names:
            return names.index(named.casefold())
        return int(named) - 1 if named.isdigit() and 1 <= int(named) <= len(names) else None

    def _whose_turn(self) -> str:
        game = self.session.game
        return _("{name} is to play.").format(name=self.names[game.to_move])

    async def _hint(self, player: int | None) -> None:
        session, say = self.session, self.console.say
        why = session.abilities.hints
        if why is not None:
            say(printable(why))
            return
        if player is None:
            say(_("A hint is for your turn."))
            return
        suggestion = await asyncio.to_thread(advise, session.game.copy(), session.hint_seed(player))
        say(hint_words(suggestion))


def handed(loop: asyncio.AbstractEventLoop, lines: asyncio.Queue[str | None], line: str | None) -> bool:
    """``line`` handed to the run's loop from the thread that reads what is typed; False once the
    loop is closed (the run is over and nobody reads: a line typed as the table ended printed the
    thread's traceback)."""
    try:
        loop.call_soon_threadsafe(lines.put_nowait, line)
    except RuntimeError:
        return False
    return True


__all__ = ["PlainTable", "handed"]
