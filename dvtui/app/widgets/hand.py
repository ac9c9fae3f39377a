"""The hand of the player to move: six number cards to click (or press 1-6), and a line that says
what to do next, what the chosen placement would bring, or who is thinking.

One widget draws it all (cards found by where a click lands): fewer widgets make a quicker start
and a quicker redraw.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.events import Click
from textual.message import Message
from textual.widget import Widget

from ...engine import NUMBER_CARDS
from ..theme import MUTED, seat_color, seat_ink
from .faces import ELLIPSIS, fit_names, pad, seat_emphasis, styled

WHO_WIDTH = 10
"""Cells for "▶ Name" before the cards."""
CARD_WIDTH = {1: 3, 3: 5}
"""A card's width when the bar is one line high, or three (tiles)."""
CARD_GAP = 1
SELECTED_CARD = "#f4f1e8"


def card_spans(height: int) -> list[tuple[int, int]]:
    """(x, width) of the six cards in a bar ``height`` lines high."""
    w = CARD_WIDTH[3 if height >= 3 else 1]
    return [(WHO_WIDTH + i * (w + CARD_GAP), w) for i in range(len(NUMBER_CARDS))]


def card_face_lines(card: int, color: str, available: bool, selected: bool, width: int, height: int) -> list[Text]:
    """One card of the hand: `` 5 `` on the seat colour, a tile when three lines high; a card
    already on the table is a faint dot; the chosen one is dark on light (with ▲ on a tile)."""
    if not available:
        faint = Style(color="#3d5f50")
        if height < 3:
            return [styled("·".center(width), faint)]
        lines = [" " * width] * height
        lines[height // 2] = "·".center(width)
        return [styled(line, faint) for line in lines]
    face = Style(bgcolor=seat_color(color), color=seat_ink(color), bold=True)
    if selected:  # dark on light whatever the seat: a yellow digit on cream would not read
        face = Style(bgcolor=SELECTED_CARD, color="#1a1a1a", bold=True)
    if height >= 3:
        bottom = ("▲" if selected else " ").center(width)
        return [styled(" " * width, face), styled(str(card).center(width), face), styled(bottom, face)]
    return [styled(f"▸{card}◂" if selected else f" {card} ", face)]


class HandBar(Widget):
    """Who is to move, their cards, and the line of advice beside them."""

    DEFAULT_CSS = """
    HandBar { height: 1; width: 1fr; }
    HandBar.-two { height: 2; }
    HandBar.-tall { height: 3; }
    """

    class CardClicked(Message):
        def __init__(self, card: int) -> None:
            super().__init__()
            self.card = card

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.who = Text()
        self.color = "red"
        self.hand: list[int] = []
        self.selected: int | None = None
        self.active = False
        self.info: Text = Text()

    def show(
        self,
        name: str,
        color: str,
        hand: list[int],
        selected: int | None,
        info: Text | str,
        *,
        active: bool = True,
        names: Sequence[str] = (),
    ) -> None:
        """``active`` False: someone else (a bot) holds these cards; they are shown, not offered.
        ``names``: every player's, so that a long name cut to fit still differs from the others."""
        names = list(names) if name in names else [name]
        fitted = fit_names(names, WHO_WIDTH - 3)[names.index(name)]
        style = seat_emphasis(color) if active else Style(color=seat_color(color), bold=True)
        who = Text.assemble(("▶ " if active else "  ", Style(color=seat_color(color), bold=True)), (fitted, style))
        info_text = info if isinstance(info, Text) else Text(info)
        state = (who, color, list(hand), selected if active else None, active, info_text)
        if state != (self.who, self.color, self.hand, self.selected, self.active, self.info):
            self.who, self.color, self.hand, self.selected, self.active, self.info = state
            self.refresh()

    def card_offset(self, card: int) -> tuple[int, int]:
        """A point on ``card`` (relative to the bar), e.g. for a test's click."""
        x, w = card_spans(self.size.height)[NUMBER_CARDS.index(card)]
        return self.styles.padding.left + x + w // 2, 1 if self.size.height >= 3 else 0

    def card_at(self, x: int) -> int | None:
        for card, (left, w) in zip(NUMBER_CARDS, card_spans(self.size.height), strict=True):
            if left <= x < left + w:
                return card
        return None

    def render(self) -> Text:
        height = max(1, self.size.height)
        width = self.size.width
        rows = [Text() for _ in range(height)]
        middle = 1 if height >= 3 else 0  # the row of the name (and of one-line cards)
        for y in range(height):
            rows[y].append_text(self.who if y == middle else Text(""))
            rows[y].append(" " * (WHO_WIDTH - (self.who.cell_len if y == middle else 0)))
        for card, (_, w) in zip(NUMBER_CARDS, card_spans(height), strict=True):
            face = card_face_lines(card, self.color, card in self.hand, card == self.selected, w, height)
            for y in range(height):
                rows[y].append_text(face[y] if y < len(face) else Text(" " * w))
                rows[y].append(" " * CARD_GAP)
        left = rows[middle].cell_len + 1
        if self.has_class("-compact") and height - middle >= 2:  # a compact table's: the advice on the rows below
            for y, line in enumerate(advice_lines(self.info, self.app.console, width - 1, height - middle - 1)):
                rows[middle + 1 + y] = Text(" ") + line
            return Text("\n").join(rows)
        for y, line in enumerate(advice_lines(self.info, self.app.console, width - left, height - middle)):
            rows[middle + y].append(" " if y == 0 else pad("", left - rows[middle + y].cell_len))
            rows[middle + y].append_text(line)
        return Text("\n").join(rows)

    def on_click(self, event: Click) -> None:
        event.stop()
        offset = event.get_content_offset(self)
        card = None if offset is None else self.card_at(offset.x)
        if card is not None and self.active and card in self.hand:
            self.post_message(self.CardClicked(card))


def advice_lines(info: Text, console: Console, width: int, rows: int) -> list[Text]:
    """``info`` wrapped to ``width`` cells over at most ``rows`` lines; what does not fit ends in
    ``…`` (the words are never cut silently)."""
    if width <= 0 or rows <= 0:
        return []
    lines = list(info.wrap(console, width))
    if len(lines) <= rows:
        return lines
    last = lines[rows - 1].copy()
    last.rstrip()
    last.truncate(width - 1)
    last.append(ELLIPSIS, style=Style(color=MUTED))
    return [*lines[: rows - 1], last]


def hint_text(text: str) -> Text:
    return styled(text, Style(italic=True, color=MUTED))
