"""A game of this machine played line by line (``dvtui new --plain``, ``dvtui resume --plain``).

The game is a :class:`~dvtui.play.session.PlaySession`, played synchronously: a placement is saved
before the next line is read, and the bots play on at once, each decision saved and read out as it
is made. Every event is said in the log's words; a round's end is read out column by column as the
rules resolve it, then each player's totals, and the game's end its standings.
"""

from __future__ import annotations

from ..bots import advise
from ..describe import bot_level_name, describe_event
from ..engine import RuleError, Seat
from ..i18n import _
from ..play.session import PlaySession
from ..printable import printable
from ..rulewords import rule_words
from .commands import Command, Place, Wrong, expected, read
from .console import Console
from .look import LOOKS, help_lines, look
from .words import event_lines, hint_words, placed_count, safe_names, turn_prompt


class LocalPlay:
    """One game of this machine and the lines it is played through."""

    def __init__(self, session: PlaySession, console: Console) -> None:
        self.session = session
        self.console = console
        self.names = safe_names(session.names)
        self.told = len(session.events)
        """How many of the session's events have been read out."""

    def run(self, *, resumed: bool = False) -> int:
        """Play until the game is over or the player leaves (quit, or the end of input); the
        session is closed on the way out. Returns the exit code."""
        try:
            self._start(resumed)
            return self._play()
        finally:
            self.session.close()

    def _start(self, resumed: bool) -> None:
        session, say = self.session, self.console.say
        say(describe_event(session.game.created, self.names))
        bots = [self.names[p] + _(": ") + bot_level_name(printable(seat.bot or ""))
                for p, seat in enumerate(session.game.created.players) if seat.kind == "bot"]  # fmt: skip
        if bots:
            say(_("Bots: {bots}.").format(bots=_(", ").join(bots)))
        for notice in session.notices:
            say(printable(notice))
        if resumed:
            game = session.game
            said = _("Resumed at round {round} of {rounds}, {placed}.")
            say(said.format(round=game.round, rounds=game.rounds, placed=placed_count(game)))
        say(_("Type help for the commands."))

    def _tell_new(self) -> None:
        """Read out every event not yet said, in order."""
        session = self.session
        events = session.events
        lines: list[str] = []
        for event in events[self.told :]:
            lines.extend(event_lines(event, session.game, self.names))
        self.told = len(events)
        if lines:
            self.console.say_all(lines)

    def _bots_play(self) -> None:
        def stop() -> bool:
            self._tell_new()
            return False

        self.session.play_bots(stop)
        self._tell_new()

    def _play(self) -> int:
        session = self.session
        while True:
            self._bots_play()
            game = session.game
            if game.over:
                return self._end()
            player = session.human_to_move()
            if player is None:  # (cannot happen: the bots stop only for a person or the end)
                return self._leave()
            self.console.say(turn_prompt(game, self.names, player))
            if not self._turn(player):
                return self._leave()

    def _turn(self, player: int) -> bool:
        """Read lines until ``player``'s decision (a placement, or an undo) stands: True; False
        when they leave."""
        session, say = self.session, self.console.say
        while True:
            line = self.console.ask()
            if line is None:
                return False
            said = read(line, session.game, player)
            if said is None:
                say(turn_prompt(session.game, self.names, player))
                continue
            if isinstance(said, Wrong):
                say(said.said)
                continue
            if isinstance(said, Place):
                try:
                    session.place(said.placement, player)
                except RuleError as e:
                    say(printable(rule_words(e)), expected(session.game, player))
                    continue
                return True
            assert isinstance(said, Command)
            if said.name == "quit":
                return False
            if said.name == "undo":
                undoer = session.undo_player()
                if undoer is None:
                    say(session.why_no_undo())
                    continue
                session.undo(undoer)
                return True
            if said.name == "hint":
                say(self._hint(player))
            elif said.name in LOOKS:
                self.console.say_all(look(said, session.game, self.names, session.events, player, "play"))
            else:
                say(_("That is not a command of a game in progress."), *help_lines("play")[:1])

    def _hint(self, player: int) -> str:
        return hint_words(advise(self.session.game.copy(), self.session.hint_seed(player)))

    def _end(self) -> int:
        path = self.session.path
        if path is not None:
            self.console.say(_("Game over. Watch it again: dvtui replay {file}").format(file=printable(str(path))))
        return 0

    def _leave(self) -> int:
        path = self.session.path
        if path is not None:
            said = _("Game saved in {file}\nContinue it: dvtui resume {file}")
            self.console.say(said.format(file=printable(str(path))))
        return 0


def ask_players(console: Console, default_name: str) -> list[Seat] | None:
    """The seats of a new game, asked as a line (the set-up screen's plain form); None when input
    ends first. An empty line: ``default_name`` against two greedy bots."""
    from ..play.seats import SeatError, parse_players

    default = f"{default_name},bot:greedy,bot:greedy"
    while True:
        said = _("Who plays? Type the seats clockwise, separated by commas, such as {example}; an empty line plays "
                 "{default}.")  # fmt: skip
        console.say(said.format(example="Ana,Ben,bot:strong", default=default))
        line = console.ask()
        if line is None:
            return None
        try:
            seats = parse_players(line.strip() or default)
        except SeatError as e:
            console.say(printable(str(e)))
            continue
        return seats


__all__ = ["LocalPlay", "ask_players"]
