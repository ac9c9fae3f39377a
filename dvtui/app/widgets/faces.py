"""Card faces and seat chips as Rich text: how every widget draws a card or a player.

A good shows its category in letters (``HSE``, or the full name when there is room) on its
category colour, and its value; money shows ``$$$``. Nothing here depends on colour alone.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from ..describe import card_category, card_code, card_value_label
from ..theme import CARD_COLORS, MUTED, seat_color, seat_ink

FULL_NAMES = len("holiday 700")
"""Cards show their category's full name only where the longest one fits."""


def styled(text: str, style: Style) -> Text:
    """``text`` in ``style`` as a span, not as the base style: text appended later keeps its own."""
    return Text.assemble((text, style))


def card_style(card: str, *, dim: bool = False, bold: bool = False) -> Style:
    bg, fg = CARD_COLORS[card_category(card)]
    return Style(bgcolor=bg, color=fg, bold=bold, dim=dim)


def card_label(card: str, width: int) -> str:
    """The card's words in ``width`` cells: ``"holiday 700"`` when every card's name fits (so a
    column never mixes the two forms), else ``"HOL 700"``, or ``"HOL7"`` when very tight."""
    name = card_category(card)
    value = card_value_label(card)
    for text in (f"{name} {value}" if width >= FULL_NAMES else "", f"{card_code(card)} {value}",
                 f"{card_code(card)}{value[0]}"):
        if text and len(text) <= width:
            return text
    return card_code(card)[:width]


def card_face(card: str, width: int, *, bold: bool = False, pad: bool = True) -> Text:
    """A one-line card, ``width`` cells wide, label left-aligned on the category colour
    (after one space when ``pad``)."""
    lead = " " if pad else ""
    label = card_label(card, max(1, width - len(lead)))
    return styled(f"{lead}{label}".ljust(width)[:width], card_style(card, bold=bold))


def card_tile(card: str, width: int, rows: int, tag: Text | None = None) -> list[Text]:
    """A card ``rows`` lines tall, ending in a half-line edge (``▀``) so stacked cards stay apart
    even when two of one colour touch. Two lines: ``holiday 700`` and the edge; three: name, value
    at the right, edge. ``tag`` (who would take it) hangs at the right of the edge."""
    if rows <= 1:
        return [card_face(card, width)]
    style = card_style(card)
    bg, _ = CARD_COLORS[card_category(card)]
    lines: list[Text] = []
    if rows == 2:
        lines.append(card_face(card, width))
    else:
        name = card_category(card)
        top = name if len(name) <= width - 1 else card_code(card)
        lines.append(styled(f" {top}".ljust(width)[:width], style + Style(bold=True)))
        for _ in range(rows - 3):
            lines.append(styled(" " * width, style))
        lines.append(styled(f"{card_value_label(card)} ".rjust(width)[:width], style))
    edge = styled("▀" * width, Style(color=bg))
    if tag is not None:
        tag = tag[: max(1, width - 2)]
        edge = edge[: width - len(tag.plain)]
        edge.append_text(tag)
    lines.append(edge)
    return lines


def card_chip(card: str) -> Text:
    """An inline card for sentences and holdings: ``HSE 700`` on its colour."""
    return styled(f" {card_code(card)} {card_value_label(card)} ", card_style(card))


def seat_name(name: str, color: str, *, bold: bool = True) -> Text:
    return styled(name, Style(color=seat_color(color), bold=bold))


def seat_chip(text: str, color: str, *, dim: bool = False) -> Text:
    """Text on the seat's colour: a number card, a tag."""
    return styled(text, Style(bgcolor=seat_color(color), color=seat_ink(color), bold=True, dim=dim))


def muted(text: str) -> Text:
    return styled(text, Style(color=MUTED))
