"""Small read-only panels of the table: the round bar, the resolution banner and the event log."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from ...engine import Event, Game
from ..describe import describe_event, round_first_player
from ..theme import FOCUS, MUTED, seat_color
from .faces import styled


def colour_names(text: str | Text, names: Sequence[str], colors: Sequence[str]) -> Text:
    """Colour each player's name in ``text`` with their seat colour (the words stay readable
    without it)."""
    out = Text(text) if isinstance(text, str) else text.copy()
    for name, color in sorted(zip(names, colors, strict=True), key=lambda nc: -len(nc[0])):
        out.highlight_words([name], style=Style(color=seat_color(color), bold=True), case_sensitive=True)
    return out


class RoundBar(Widget):
    """Top line: the game, the round (k of n), who started it, and what happens now."""

    DEFAULT_CSS = """
    RoundBar { height: 1; width: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__(id="round-bar")
        self.left = Text()
        self.right = Text()

    def show(self, game: Game, status: Text | str, right: str = "") -> None:
        players = game.created.players
        first = players[round_first_player(game)]
        bar = styled(" DOLCE VITA ", Style(bold=True, color="#1a1a1a", bgcolor=FOCUS))
        round_ = min(game.round, game.rounds)
        bar.append(f"  Round {round_} of {game.rounds}", style=Style(bold=True))
        bar.append("  ·  ", style=Style(color=MUTED))
        bar.append("first ", style=Style(color=MUTED))
        bar.append(first.name, style=Style(color=seat_color(first.color), bold=True))
        bar.append("  ·  ", style=Style(color=MUTED))
        bar.append_text(status if isinstance(status, Text) else Text(status))
        right_text = Text(right, style=Style(color=MUTED))
        if (bar, right_text) != (self.left, self.right):
            self.left = bar
            self.right = right_text
            self.refresh()

    def render(self) -> Text:
        width = self.size.width
        text = self.left.copy()
        room = width - len(text.plain) - len(self.right.plain)
        if room >= 1:
            text.append(" " * room)
            text.append_text(self.right)
        return text


class Banner(Widget):
    """What the resolution is showing, in words, and how to move on. A click moves on."""

    DEFAULT_CSS = """
    Banner { height: auto; max-height: 3; width: 1fr; }
    """

    class Clicked(Message):
        pass

    def __init__(self) -> None:
        super().__init__(id="banner")
        self.text = Text()

    def show(self, text: Text) -> None:
        self.text = text
        self.refresh(layout=True)

    def render(self) -> Text:
        return self.text

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked())


class EventLog(Widget):
    """The game's events in words, newest at the bottom; shows as many as fit."""

    DEFAULT_CSS = """
    EventLog { height: 1fr; width: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__(id="log")
        self.entries: list[Text] = []

    def reset(self, events: Sequence[Event], game: Game, limit: int = 200) -> None:
        self.entries = []
        self.add(events[-limit:], game)

    def add(self, events: Sequence[Event], game: Game) -> None:
        names = [s.name for s in game.created.players]
        colors = [s.color for s in game.created.players]
        for event in events:
            self.entries.append(colour_names(describe_event(event, names, game.rounds), names, colors))
        del self.entries[:-200]
        self.refresh()

    def render(self) -> Text:
        height, width = self.size.height, max(1, self.size.width)
        if height <= 0:
            return Text()
        out: list[Text] = []
        console = self.app.console
        for line in reversed(self.entries):
            wrapped = list(line.wrap(console, width))
            out[:0] = wrapped
            if len(out) >= height:
                break
        return Text("\n").join(out[-height:])
