"""The replay's event log: the live table's log (same sentences, same colours) over the whole game,
with the moment on screen marked, what is still to come dimmed, and a click on a line jumping there.

The live :class:`~.panels.EventLog` shows the latest events and scrolls like any list; this one keeps every event and a
cursor, and scrolls so the cursor stays in view with a few of the next events below it. Each
event's lines are wrapped and turned into segments once per width and look (past, current, to
come), so a step of the replay only picks lines: the log is redrawn at every step.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.events import Click, MouseScrollDown, MouseScrollUp
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ...engine import Event, Game
from ..describe import describe_event
from ..theme import FOCUS
from .panels import colour_names

CURRENT = Style(bgcolor="#1b4634", bold=True)
MARKER = Style(color=FOCUS, bold=True)
AHEAD = Style(dim=True)
PAST, HERE, LATER = 0, 1, 2


class ReplayLog(Widget):
    """Every event of the game in words; ``cursor`` is the moment on screen."""

    DEFAULT_CSS = """
    ReplayLog { height: 1fr; width: 1fr; }
    """

    class Jump(Message):
        """A line was clicked: go to the moment of its event."""

        def __init__(self, moment: int) -> None:
            super().__init__()
            self.moment = moment

    def __init__(self) -> None:
        super().__init__(id="log")
        self.entries: list[Text] = []
        self.cursor = 0
        self.scroll: int | None = None
        """First line shown when the wheel moved the log; None follows the cursor."""
        self.events: list[Event] = []
        self._names: list[str] = []
        self._colors: list[str] = []
        self._rounds: int | None = None
        self._width = -1
        self._starts: list[int] = []
        """Index of each entry's first line, for the entries wrapped so far at the current width
        (entries are worded and wrapped only as far as the log has been shown: a quick start)."""
        self._owners: list[int] = []
        """The entry (moment) of each line wrapped so far."""
        self._texts: list[Text] = []
        self._strips: dict[tuple[int, int], Strip] = {}
        """(line, look) -> the line drawn, for the current width and colours."""
        self._base = Style()

    def reset(self, events: Sequence[Event], game: Game, limit: int = 0) -> None:
        """Every event of the game (``limit`` is ignored: a replay keeps them all)."""
        self.events = []
        self.entries = []
        self.add(events, game)

    def add(self, events: Sequence[Event], game: Game) -> None:
        self._names = [s.name for s in game.created.players]
        self._colors = [s.color for s in game.created.players]
        self._rounds = game.rounds
        self.events.extend(events)
        self._width = -1
        self.refresh()

    def entry(self, moment: int) -> Text:
        """The words of one event, as the live log says them."""
        while len(self.entries) <= moment:
            event = self.events[len(self.entries)]
            self.entries.append(
                colour_names(describe_event(event, self._names, self._rounds), self._names, self._colors)
            )
        return self.entries[moment]

    def set_cursor(self, moment: int) -> None:
        if moment != self.cursor or self.scroll is not None:
            self.cursor = moment
            self.scroll = None
            self.refresh()

    def _wrap(self, width: int, upto: int) -> None:
        """Wrap the entries up to ``upto`` (an entry index) for ``width``."""
        if width != self._width:
            self._width, self._starts, self._owners, self._texts = width, [], [], []
            self._strips = {}
        console = self.app.console
        starts, owners, texts = self._starts, self._owners, self._texts
        for moment in range(len(starts), min(upto, len(self.events) - 1) + 1):
            starts.append(len(texts))
            for i, part in enumerate(self.entry(moment).wrap(console, max(1, width - 2))):
                texts.append(Text("▶ " if i == 0 else "  ") + part)
                owners.append(moment)

    def _wrap_lines(self, width: int, lines: int) -> None:
        """Wrap entries until there are ``lines`` lines (or every entry is wrapped)."""
        while len(self._texts) < lines and len(self._starts) < len(self.events):
            self._wrap(width, len(self._starts) + max(1, lines - len(self._texts)))

    def _line(self, index: int, look: int, width: int) -> Strip:
        key = (index, look)
        strip = self._strips.get(key)
        if strip is None:
            text = self._texts[index]
            if look == HERE:
                text = text.copy()
                text.stylize(MARKER, 0, 1)
                text.append(" " * max(0, width - text.cell_len))
                text.stylize(CURRENT)
            else:
                text = Text("  ") + text[2:]
                if look == LATER:
                    text.stylize(AHEAD)
            segments = Segment.apply_style(list(text.render(self.app.console)), self._base)
            strip = Strip(segments, text.cell_len).adjust_cell_length(width)
            self._strips[key] = strip
        return strip

    def _top(self, height: int) -> int:
        """The first line on screen. Following the cursor, a third of the log shows what comes
        next; the entries below the cursor are wrapped as far as the screen needs."""
        width = max(3, self.size.width)
        if self.scroll is not None:
            self._wrap_lines(width, self.scroll + height)
            return max(0, min(self.scroll, len(self._texts) - height))
        cursor = min(self.cursor, len(self.events) - 1)
        self._wrap(width, cursor + height + 1)  # an entry is at least a line: enough below
        total = len(self._texts)
        end = self._starts[cursor + 1] if cursor + 1 < len(self._starts) else total
        top = end + height // 3 - height
        return max(0, min(top, total - height))

    def render_line(self, y: int) -> Strip:
        width, height = max(3, self.size.width), self.size.height
        if not self.events or height <= 0:
            return Strip.blank(self.size.width, self.rich_style)
        if self.rich_style != self._base:  # the narrow and the wide layouts colour the log apart
            self._base = self.rich_style
            self._strips = {}
        top = self._top(height)
        index = top + y
        if index >= len(self._texts):
            return Strip.blank(width, self.rich_style)
        moment = self._owners[index]
        look = HERE if moment == self.cursor else LATER if moment > self.cursor else PAST
        return self._line(index, look, width)

    def on_click(self, event: Click) -> None:
        event.stop()
        offset = event.get_content_offset(self)
        height = self.size.height
        if offset is None or not self.events or not 0 <= offset.y < height:
            return
        index = self._top(height) + offset.y
        if index < len(self._owners):
            self.post_message(self.Jump(self._owners[index]))

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        event.stop()
        self._scroll_by(3)

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        event.stop()
        self._scroll_by(-3)

    def _scroll_by(self, delta: int) -> None:
        height = self.size.height
        top = self._top(height)
        self._wrap_lines(max(3, self.size.width), top + delta + height)
        self.scroll = max(0, min(top + delta, len(self._texts) - height))
        self.refresh()

    def shown(self) -> list[int]:
        """The moment of each line now on screen, top to bottom (for tests and clicks)."""
        height = self.size.height
        if not self.events or height <= 0:
            return []
        top = self._top(height)
        return self._owners[top : top + height]
