"""The table's colours, as plain hex strings (no Textual, no Rich), so every view agrees on them.

Seats use the colours of their number cards (R1.3). Goods are coloured by category, but a card
always also shows its category in letters: colour helps, it never carries meaning alone.
"""

from __future__ import annotations

import os

SEAT_COLORS: dict[str, str] = {
    "red": "#e5484d",
    "yellow": "#f2c94c",
    "green": "#45c055",
    "blue": "#3e8ee8",
    "purple": "#b05fe0",
}
"""Foreground/background of each seat colour. Each is nearest to a different one of the 16 basic
terminal colours, so seats stay apart with ``TEXTUAL_COLOR_SYSTEM=standard`` too."""

SEAT_INK: dict[str, str] = {
    "red": "#ffffff",
    "yellow": "#1a1a1a",
    "green": "#0d1a0f",
    "blue": "#ffffff",
    "purple": "#ffffff",
}
"""Text drawn on a seat-coloured chip (readable on it)."""

CARD_COLORS: dict[str, tuple[str, str]] = {
    "house": ("#c07a40", "#1a1a1a"),
    "car": ("#b01c1c", "#ffffff"),
    "boat": ("#1c44b8", "#ffffff"),
    "horse": ("#2e9a2e", "#0d1a0f"),
    "jewel": ("#9b2fae", "#ffffff"),
    "watch": ("#5d6d7e", "#ffffff"),
    "holiday": ("#e8c23a", "#1a1a1a"),
    "money": ("#5fd38a", "#10261a"),
}
"""Category -> (background, text) of a card face. The backgrounds fall on eight different basic
colours when a terminal has only 16, and the text stays readable on both the colour and the basic
colour it becomes there (house and horse turn yellow and green: dark text); tests check both. The
letters are there regardless."""

FELT = "#0e2a1f"
"""The table's cloth."""
FELT_LIGHT = "#163b2c"
"""A column chosen for the next placement."""
GOLD = "#f5d76e"
"""The house's one accent: what the resolution is showing now, titles and labels, the leader and
the winner, a dialog's border. The stylesheets name it ``$gold`` (the app defines the variable)."""
MUTED = "#7f9c8e"
ERROR = "#ff6b6b"
"""What went wrong (a save that failed, a form to fix)."""


TEXT = "#e8efe9"
"""The table's words (the stylesheet's ``Screen { color }``)."""
DARK_INK = "#1a1a1a"
"""Words on a light face (a gold chip, a chosen card)."""


def seat_color(color: str) -> str:
    """A seat's colour, for its name and its chips. Without colours (``NO_COLOR``) every seat's is
    the table's text colour: a colour turned grey is as dark as the felt (red reads at 2.9:1), and
    the names and tags say whose is whose anyway."""
    if no_color():
        return TEXT
    return SEAT_COLORS.get(color, "#cccccc")


def seat_shade(color: str) -> str:
    """A seat's colour for a block of colour with no words on it (a chart's bars): kept without
    colours too, where its grey level still tells the bars of the seats apart."""
    return SEAT_COLORS.get(color, "#cccccc")


def seat_ink(color: str) -> str:
    """Words on a seat-coloured chip: dark on the light chip of :func:`seat_color` without colours."""
    if no_color():
        return DARK_INK
    return SEAT_INK.get(color, "#000000")


def no_color() -> bool:
    """Colours are turned off (``NO_COLOR``, as Textual reads it): emphasis must not rely on them."""
    return "NO_COLOR" in os.environ
