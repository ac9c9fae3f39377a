"""Small read-only panels of the table: the round bar, the resolution banner and the event log."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from ...engine import Event, Game
from ..describe import describe_event
from ..theme import FOCUS, MUTED, seat_color
from .faces import fit_names, styled


def colour_names(text: str | Text, names: Sequence[str], colors: Sequence[str]) -> Text:
    """Colour each player's name in ``text`` with their seat colour (the words stay readable
    without it)."""
    out = Text(text) if isinstance(text, str) else text.copy()
    for name, color in sorted(zip(names, colors, strict=True), key=lambda nc: -len(nc[0])):
        out.highlight_words([name], style=Style(color=seat_color(color), bold=True), case_sensitive=True)
    return out


class RoundBar(Widget):
    """Top line: what happens now (whose turn) first, then the round (k of n) and who started it,
    the save state at the right, and the game's name when there is room. Whatever does not fit is
    cut from the round's words (``…``), never from whose turn it is."""

    DEFAULT_CSS = """
    RoundBar { height: 1; width: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__(id="round-bar")
        self.status = Text()
        self.right = Text()
        self.names: list[str] = []
        self.round_words: tuple[int, int, int, str] = (0, 0, 0, "")
        """(round, rounds, first player, their colour)."""

    def show(self, game: Game, status: Text | str, right: str = "") -> None:
        players = game.created.players
        status_text = status if isinstance(status, Text) else Text(status)
        round_words = (min(game.round, game.rounds), game.rounds, game.first_player,
                       players[game.first_player].color)
        right_text = Text(right, style=Style(color=MUTED))
        names = [s.name for s in players]
        state = (status_text, right_text, names, round_words)
        if state != (self.status, self.right, self.names, self.round_words):
            self.status, self.right, self.names, self.round_words = state
            self.refresh()

    def render(self) -> Text:
        return self.line(self.size.width)

    def line(self, width: int) -> Text:
        """The bar in ``width`` cells."""
        right = self.right
        brand = styled(" DOLCE VITA ", Style(bold=True, color="#1a1a1a", bgcolor=FOCUS))
        text = Text(" ")
        status = self.status.copy()
        room = width - 1 - right.cell_len
        if status.cell_len > room:
            status.truncate(max(0, room), overflow="ellipsis")
        text.append_text(status)
        round_, rounds, first, color = self.round_words
        sep = Style(color=MUTED)
        words = Text.assemble(("  ·  ", sep), (f"Round {round_} of {rounds}", Style(bold=True)))
        name_room = room - text.cell_len - words.cell_len - len("  ·  first ")
        if self.names and name_room >= 4:
            name = fit_names(self.names, name_room)[first]
            words.append_text(Text.assemble(("  ·  first ", sep), (name, Style(color=seat_color(color), bold=True))))
        if text.cell_len + words.cell_len <= room:
            text.append_text(words)
        if text.cell_len + right.cell_len + 2 + brand.cell_len <= width:
            right = right + Text(" ") + brand
        text.append(" " * max(0, width - text.cell_len - right.cell_len))
        text.append_text(right)
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
