"""Small read-only panels of the table: the round bar, the resolution banner and the event log."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from rich.cells import cell_len
from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from ...describe import decimal, describe_event, round_first_player
from ...engine import Event, Game
from ...i18n import N_, _
from ..textual_private import resize_contents
from ..theme import ERROR, MUTED, seat_color
from .faces import CHIP, fit_names, styled


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
        first = round_first_player(game)
        round_words = (min(game.round, game.rounds), game.rounds, first, players[first].color)
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
        brand = styled(" DOLCE VITA ", CHIP)
        text = Text(" ")
        status = self.status.copy()
        room = width - 1 - right.cell_len
        if status.cell_len > room:
            status.truncate(max(0, room), overflow="ellipsis")
        text.append_text(status)
        round_, rounds, first, color = self.round_words
        sep = Style(color=MUTED)
        words = Text.assemble(
            ("  ·  ", sep), (_("Round {round} of {rounds}").format(round=round_, rounds=rounds), Style(bold=True))
        )
        first_words = "  ·  " + _("first") + " "
        name_room = room - text.cell_len - words.cell_len - cell_len(first_words)
        if self.names and name_room >= 4:
            name = fit_names(self.names, name_room)[first]
            words.append_text(Text.assemble((first_words, sep), (name, Style(color=seat_color(color), bold=True))))
        if text.cell_len + words.cell_len <= room:
            text.append_text(words)
        if text.cell_len + right.cell_len + 2 + brand.cell_len <= width:
            right = right + Text(" ") + brand
        text.append(" " * max(0, width - text.cell_len - right.cell_len))
        text.append_text(right)
        return text


class Banner(Widget):
    """What the table is saying in words: a resolution step, the round's summary (one line per
    player, class ``-summary``), or whose turn it is when one person hands over to the next.
    A click moves a resolution on."""

    DEFAULT_CSS = """
    Banner { height: auto; max-height: 3; width: 1fr; }
    Banner.-summary { max-height: 16; }  /* a line per player, some wrapping at 80 columns */
    """

    class Clicked(Message):
        pass

    def __init__(self) -> None:
        super().__init__(id="banner")
        self.text = Text()
        self.summary = False

    def show(self, text: Text, *, summary: bool = False) -> None:
        """``summary``: each line of ``text`` is a list (``Ana +600k → 1.2M: JWL 300, HSE 300``),
        wrapped between its items, never inside one."""
        if (text, summary) == (self.text, self.summary):
            return  # (the table is redrawn at each key: the banner is laid out again only when it changes)
        width = self.size.width
        rows = self.get_content_height(self.size, self.size, width) if width and summary == self.summary else None
        self.text = text
        self.summary = summary
        self.set_class(summary, "-summary")
        self.refresh()  # (which forgets the rows measured for the words before)
        if rows is None or self.get_content_height(self.size, self.size, width) != rows:
            self.refresh(layout=True)  # the screen laid out again only when the banner's rows change

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.summary:
            return len(self._summary_lines(width))
        return super().get_content_height(container, viewport, width)

    def render(self) -> Text:
        if self.summary:
            return Text("\n").join(self._summary_lines(self.size.width))
        return self.text

    def _summary_lines(self, width: int) -> list[Text]:
        console = self.app.console
        return [wrapped for line in self.text.split("\n") for wrapped in wrap_items(line, width, console)]

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Clicked())


ITEM_BREAK = re.compile(r"(?<=[,;:]) ")
"""Where a list may go on to the next line: after the space that follows ``,`` ``;`` or ``:``."""


def wrap_items(line: Text, width: int, console: Console, indent: int = 3) -> list[Text]:
    """``line``, a list of items (``Ana +500k → 500k: BOA 300, $$$ 100; returned BOA 300``), in
    lines of at most ``width`` cells broken only between items, the lines after the first indented
    by ``indent``; an item longer than a whole line is wrapped on its own."""
    if width <= indent:
        return [line]
    cuts = [m.end() for m in ITEM_BREAK.finditer(line.plain)]
    lines: list[Text] = []
    current, empty = Text(), True
    for item in line.divide(cuts):
        size = cell_len(item.plain.rstrip())
        if not empty and current.cell_len + size > width:
            current.rstrip()
            lines.append(current)
            current, empty = Text(" " * indent), True
        if current.cell_len + size > width:  # longer than a line by itself: wrapped between words
            *whole, last = item.wrap(console, width - current.cell_len)
            for piece in whole:
                piece.rstrip()
                lines.append(current + piece)
                current = Text(" " * indent)
            item = last
        current.append_text(item)
        empty = False
    current.rstrip()
    lines.append(current)
    return lines


class EventLog(ScrollView, can_focus=True, inherit_bindings=False):
    """The game's events in words, newest at the bottom, following the game unless scrolled
    back: the mouse wheel scrolls it, Tab (or a click) focuses it for the keys, Escape leaves,
    and leaving it (Escape, or the focus going elsewhere) follows the game again."""

    DEFAULT_CSS = """
    EventLog {
        height: 1fr; width: 1fr; overflow-x: hidden;
        scrollbar-size-vertical: 1; scrollbar-background: #0b2219; scrollbar-color: #2f6b50;
        scrollbar-color-hover: #3f8a66; scrollbar-color-active: $gold;
    }
    EventLog:focus { background: #16382b; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_up", N_("scroll"), key_display="↑↓"),
        Binding("down", "scroll_down", show=False),
        Binding("pageup", "page_up", show=False),
        Binding("pagedown", "page_down", show=False),
        Binding("home", "scroll_home", show=False),
        Binding("end", "scroll_end", show=False),
        Binding("escape", "leave", N_("back"), key_display="esc"),
    ]
    LIMIT = 200
    """Entries kept (the whole game is in time travel, ``t``)."""

    def __init__(self) -> None:
        super().__init__(id="log")
        self.entries: list[Text] = []
        self._width = -1
        self._lines: list[Strip] = []
        self._wrapped = 0
        """Entries wrapped into ``_lines`` at ``_width``."""
        self.following = True
        """Showing the newest lines, and so kept there as events come (until scrolled back)."""

    def reset(self, events: Sequence[Event], game: Game, limit: int = LIMIT) -> None:
        self.entries = []
        self._width = -1
        self.add(events[-limit:], game)

    def add(self, events: Sequence[Event], game: Game) -> None:
        names = [s.name for s in game.created.players]
        colors = [s.color for s in game.created.players]
        for event in events:
            self.entries.append(colour_names(describe_event(event, names, game.rounds), names, colors))
        if len(self.entries) > self.LIMIT:
            del self.entries[: -self.LIMIT]
            self._width = -1  # lines of dropped entries go: wrap again
        self._wrap()

    def say(self, speaker: str, text: str, spectator: bool) -> None:
        """A line said at the table: its speaker's name (marked when a spectator said it), then the
        line as plain text, never read as markup."""
        # (the colon as the language writes it: French spaces it, "Ana : Bonjour")
        watching = " " + _("(watching)") if spectator else ""
        self._append(Text.assemble((speaker, "bold"), (watching, MUTED), _(": "), text))

    def note(self, text: str) -> None:
        """A line about the table itself (it has stopped, say), as plain text: it stays in the log
        when the toast that told it is gone."""
        self._append(Text(text, style=Style(color=ERROR, bold=True)))

    def _append(self, entry: Text) -> None:
        self.entries.append(entry)
        if len(self.entries) > self.LIMIT:
            del self.entries[: -self.LIMIT]
            self._width = -1
        self._wrap()

    def _wrap(self) -> None:
        """Wrap the entries not wrapped yet (all of them after a change of width)."""
        width = self.scrollable_content_region.width
        if width <= 0:
            return
        if width != self._width:
            self._width, self._lines, self._wrapped = width, [], 0
        console = self.app.console
        for entry in self.entries[self._wrapped :]:
            for line in entry.wrap(console, width):
                self._lines.append(Strip(list(line.render(console)), line.cell_len).adjust_cell_length(width))
        self._wrapped = len(self.entries)
        size = Size(width, len(self._lines))
        if size != self.virtual_size:  # (a line added lays nothing out: the log's rows are its 1fr)
            resize_contents(self, size)
        if self.following:
            self.scroll_end(animate=False, immediate=False, x_axis=False)
        self.refresh()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self.following = new_value >= self.max_scroll_y  # scrolled back: stay there; to the end: follow

    def on_resize(self) -> None:
        self._wrap()

    def watch_show_vertical_scrollbar(self) -> None:
        """The scrollbar came or went, and the lines' width with it (no resize says so): wrap them
        again now rather than when next drawn, so that the newest line is still the one in view."""
        self._wrap()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if width != self._width:
            self._wrap()
        index = self.scroll_offset.y + y
        if 0 <= index < len(self._lines):
            return self._lines[index].apply_style(self.rich_style)
        return Strip.blank(width, self.rich_style)

    def action_leave(self) -> None:
        """Back to the table's keys (and the log to the newest line: :meth:`on_blur`)."""
        self.screen.set_focus(None)

    def on_blur(self) -> None:
        """Whoever stops reading the log gets it back following the game, not frozen where they
        read while the game goes on."""
        self.follow()

    def follow(self) -> None:
        """Show the newest line, and keep to it as events come."""
        self.following = True
        self.scroll_end(animate=False, immediate=False, x_axis=False)


class PaceLabel(Widget):
    """The pace, always on screen beside the footer's keys: ``+− pace 0.5 s`` (how long a bot
    waits; the resolution's columns follow the same steps)."""

    DEFAULT_CSS = """
    PaceLabel { width: auto; height: 1; padding: 0 1; background: $footer-background; }
    """

    def __init__(self) -> None:
        super().__init__(id="pace")
        self.seconds = 0.0

    def show(self, seconds: float) -> None:
        self.seconds = seconds
        self.refresh(layout=True)

    def render(self) -> Content:
        said = _("pace {seconds} s").format(seconds=decimal(self.seconds, 1))
        return Content.from_markup("[b $footer-key-foreground]+−[/] $said", said=said)
