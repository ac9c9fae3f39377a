"""The replay's event log: the live table's log (same sentences, same colours) over the whole game,
with the moment on screen marked, what is still to come dimmed, and a click on a line jumping there.

The live :class:`~.panels.EventLog` shows the latest events and scrolls like any list; this one
holds every event and a cursor, and scrolls so the cursor stays in view with a few of the next
events below it. A game file may hold half a million events, so the log never lays out the whole
game: what is on screen is worked out from the cursor (or, after the wheel, from the top line),
walking entries outwards only as far as the screen's height. Only the events near the screen are
worded and wrapped, and their lines turned into segments once per width and look (past, current,
to come), in bounded caches: a jump anywhere costs the same as a step, and the log is redrawn at
every step.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice

from rich.style import Style
from rich.text import Text
from textual.events import Click, MouseScrollDown, MouseScrollUp
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ...describe import describe_event
from ...engine import Event, Game
from ..theme import GOLD
from .panels import colour_names
from .strips import text_strip

CURRENT = Style(bgcolor="#1b4634", bold=True)
MARKER = Style(color=GOLD, bold=True)
AHEAD = Style(dim=True)
MARK = Style(color="#ff8a65", bold=True)
"""An analysis's sign after a placement (``?!``, ``?``, ``??``)."""
PAST, HERE, LATER = 0, 1, 2
CACHED_ENTRIES = 2048
"""Entries kept worded, and kept wrapped with their lines drawn: many screens' worth, dropped all
at once when full, so a long game costs the log a bounded amount of memory."""

Line = tuple[int, int]
"""A line of the log: (entry, i-th line of that entry's wrapped words)."""


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
        self.cursor = 0
        self.scroll: Line | None = None
        """The top line when the wheel moved the log; None follows the cursor."""
        self.events: list[Event] = []
        self._names: list[str] = []
        self._colors: list[str] = []
        self._rounds: int | None = None
        self._width = -1
        self._words: dict[int, Text] = {}
        """Entry -> its words (independent of the width)."""
        self._wrapped: dict[int, list[Text]] = {}
        """Entry -> its lines at the current width."""
        self._strips: dict[tuple[int, int, int], Strip] = {}
        """(entry, line, look) -> the line drawn, for the current width and colours."""
        self._base = Style()
        self._shown: tuple[tuple[object, ...], list[Line]] = ((), [])
        """The window last worked out, and what it depended on: every line of a frame asks."""
        self.marks: dict[int, str] = {}
        """Moment -> the analysis's sign for that placement (``??`` a blunder), shown after it."""

    def set_marks(self, marks: dict[int, str]) -> None:
        """The analysis's marks, by moment: the words of those entries change."""
        self.marks = dict(marks)
        self._words, self._wrapped, self._strips = {}, {}, {}
        self._width = -1
        self._shown = ((), [])
        self.refresh()

    def reset(self, events: Sequence[Event], game: Game, limit: int = 0) -> None:
        """Every event of the game (``limit`` is ignored: a replay keeps them all)."""
        self.events = []
        self._words = {}
        self.add(events, game)

    def add(self, events: Sequence[Event], game: Game) -> None:
        self._names = [s.name for s in game.created.players]
        self._colors = [s.color for s in game.created.players]
        self._rounds = game.rounds
        self.events.extend(events)
        self._width = -1
        self._shown = ((), [])
        self.refresh()

    def entry(self, moment: int) -> Text:
        """The words of one event, as the live log says them."""
        words = self._words.get(moment)
        if words is None:
            if len(self._words) >= CACHED_ENTRIES:
                self._words = {}
            words = colour_names(
                describe_event(self.events[moment], self._names, self._rounds), self._names, self._colors
            )
            sign = self.marks.get(moment)
            if sign is not None:
                words = words.copy()
                words.append(f" {sign}", MARK)
            self._words[moment] = words
        return words

    def set_cursor(self, moment: int) -> None:
        if moment != self.cursor or self.scroll is not None:
            self.cursor = moment
            self.scroll = None
            self.refresh()

    def _lines(self, moment: int) -> list[Text]:
        """The lines of one entry at the current width (at least one)."""
        width = max(3, self.size.width)
        if width != self._width:
            self._width, self._wrapped, self._strips = width, {}, {}
        lines = self._wrapped.get(moment)
        if lines is None:
            if len(self._wrapped) >= CACHED_ENTRIES:
                self._wrapped, self._strips = {}, {}
            parts = self.entry(moment).wrap(self.app.console, max(1, width - 2)) or [Text()]
            lines = [Text("▶ " if i == 0 else "  ") + part for i, part in enumerate(parts)]
            self._wrapped[moment] = lines
        return lines

    def _after(self, line: Line) -> Iterator[Line]:
        """The lines below ``line``, to the end of the log."""
        moment, i = line
        count = len(self._lines(moment))
        while True:
            i += 1
            if i >= count:
                moment, i = moment + 1, 0
                if moment >= len(self.events):
                    return
                count = len(self._lines(moment))
            yield moment, i

    def _before(self, line: Line) -> Iterator[Line]:
        """The lines above ``line``, to the top of the log."""
        moment, i = line
        while True:
            i -= 1
            if i < 0:
                moment -= 1
                if moment < 0:
                    return
                i = len(self._lines(moment)) - 1
            yield moment, i

    @staticmethod
    def _take(lines: Iterator[Line], count: int) -> list[Line]:
        """The first ``count`` lines (wrapping no entry beyond the last one taken)."""
        return list(islice(lines, max(0, count)))

    def _window(self, height: int) -> list[Line]:
        """The lines on screen, top to bottom. Following the cursor, a third of the log shows what
        comes next below the cursor's entry; at either end of the game, the log is filled from that
        end. After the wheel, the lines from the top line, as far as the end allows."""
        key = (height, max(3, self.size.width), self.cursor, self.scroll, len(self.events))
        if self._shown[0] != key:
            self._shown = (key, self._lay_out(height))
        return self._shown[1]

    def _lay_out(self, height: int) -> list[Line]:
        if self.scroll is not None:
            top = self.scroll
            below = self._take(self._after(top), height - 1)
            above = self._take(self._before(top), height - 1 - len(below))
            return [*reversed(above), top, *below]
        cursor = min(self.cursor, len(self.events) - 1)
        last: Line = (cursor, len(self._lines(cursor)) - 1)
        below = self._take(self._after(last), height // 3)
        above = self._take(self._before(last), height - 1 - len(below))
        if len(above) < height - 1 - len(below):  # the top of the log: fill the screen downwards
            below = self._take(self._after(last), height - 1 - len(above))
        return [*reversed(above), last, *below]

    def _line(self, line: Line, look: int, width: int) -> Strip:
        key = (*line, look)
        strip = self._strips.get(key)
        if strip is None:
            text = self._lines(line[0])[line[1]]
            if look == HERE:
                text = text.copy()
                text.stylize(MARKER, 0, 1)
                text.append(" " * max(0, width - text.cell_len))
                text.stylize(CURRENT)
            else:
                text = Text("  ") + text[2:]
                if look == LATER:
                    text.stylize(AHEAD)
            strip = text_strip(text, self.app.console, self._base, width)
            self._strips[key] = strip
        return strip

    def render_line(self, y: int) -> Strip:
        width, height = max(3, self.size.width), self.size.height
        if not self.events or height <= 0:
            return Strip.blank(self.size.width, self.rich_style)
        if self.rich_style != self._base:  # the narrow and the wide layouts colour the log apart
            self._base = self.rich_style
            self._strips = {}
        window = self._window(height)
        if y >= len(window):
            return Strip.blank(width, self.rich_style)
        line = window[y]
        moment = line[0]
        look = HERE if moment == self.cursor else LATER if moment > self.cursor else PAST
        return self._line(line, look, width)

    def on_click(self, event: Click) -> None:
        event.stop()
        offset = event.get_content_offset(self)
        height = self.size.height
        if offset is None or not self.events or not 0 <= offset.y < height:
            return
        window = self._window(height)
        if offset.y < len(window):
            self.post_message(self.Jump(window[offset.y][0]))

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        event.stop()
        self._scroll_by(3)

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        event.stop()
        self._scroll_by(-3)

    def _scroll_by(self, delta: int) -> None:
        """Move the top line by ``delta`` lines, no further than the ends of the log allow."""
        height = self.size.height
        if not self.events or height <= 0:
            return
        top = self._window(height)[0]
        if delta > 0:
            moved = self._take(self._after(top), delta)
            self.scroll = moved[-1] if moved else top
            self.scroll = self._window(height)[0]  # not past the last screenful
        else:
            moved = self._take(self._before(top), -delta)
            self.scroll = moved[-1] if moved else top
        self.refresh()

    def shown(self) -> list[int]:
        """The moment of each line now on screen, top to bottom (for tests and clicks)."""
        height = self.size.height
        if not self.events or height <= 0:
            return []
        return [moment for moment, _ in self._window(height)]
