"""A game file followed line by line (``dvtui replay FILE --plain``): ``next`` (or an empty line)
reads the next event, ``back`` goes one event back, ``round N`` to the start of a round, and the
commands that read the board out answer about the moment reached. The file is only read."""

from __future__ import annotations

from ..describe import describe_event
from ..i18n import _
from ..replay import Replay
from .commands import Command, Wrong, read
from .console import Console
from .look import LOOKS, help_lines, look
from .words import event_lines, safe_names


class PlainReplay:
    """The moment reached in a replay: ``moment`` 0 is the deal, ``replay.last`` the file's end."""

    def __init__(self, replay: Replay, console: Console) -> None:
        self.replay = replay
        self.console = console
        self.names = safe_names(replay.names)
        self.moment = 0

    def run(self) -> int:
        say = self.console.say
        say(describe_event(self.replay.created, self.names))
        say(_("Type next, or just Enter, to hear each event; back, round N, board, help, quit."))
        while True:
            line = self.console.ask()
            if line is None:
                return 0
            said = read(line, None, None)
            if said is None:
                said = Command("next")
            if isinstance(said, Wrong):
                say(said.said)
                continue
            assert isinstance(said, Command)
            if said.name == "quit":
                return 0
            self._answer(said)

    def _answer(self, command: Command) -> None:
        replay, say = self.replay, self.console.say
        game = replay.state_at(self.moment)
        if command.name == "next":
            if self.moment >= replay.last:
                say(_("That was the last event; back or round N to hear the game again, quit to leave."))
                return
            self.moment += 1
            self._read_moment()
        elif command.name == "back":
            if self.moment == 0:
                say(_("This is the deal: nothing before it."))
                return
            self.moment -= 1
            if self.moment == 0:
                say(_("Back at the deal."))
            else:
                say(_("Back to: {event}").format(event=describe_event(replay.events[self.moment], self.names,
                                                                      replay.rounds)))  # fmt: skip
        elif command.name == "round":
            self._go_to_round(command.rest)
        elif command.name in LOOKS:
            self.console.say_all(look(command, game, self.names, replay.events[: self.moment + 1], None, "replay"))
        else:
            say(_("That is not a command of a replay."), *help_lines("replay")[:1])

    def _read_moment(self) -> None:
        replay = self.replay
        event = replay.events[self.moment]
        self.console.say_all(event_lines(event, replay.state_at(self.moment), self.names))

    def _go_to_round(self, rest: str) -> None:
        replay, say = self.replay, self.console.say
        text = rest.strip()
        start = replay.round_start(int(text)) if text.isdigit() and len(text) < 4 else None
        if start is None:
            said = _("Which round? Type round and a number from 1 to {rounds}, such as round 2.")
            say(said.format(rounds=replay.rounds))
            return
        self.moment = start
        say(_("Round {round} begins.").format(round=int(text)))


__all__ = ["PlainReplay"]
