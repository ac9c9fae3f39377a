"""``?``: the rules in brief, how to read the table, and the key map."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from ...describe import CATEGORY_CODES
from ...engine import CATEGORIES
from ...i18n import N_
from ..keys import TABLE, KeyMap
from ..theme import CARD_COLORS, MUTED
from ..widgets.faces import CHIP, GOLD_BOLD, styled
from .dialog import Dialog

RULES = [
    ("The table", "7 columns of goods and money. A column is taken from its bottom, the card nearest "
                  "the players. Everything is face up: there is nothing hidden (R4.4)."),
    ("A round", "Starting with the first player, each of you places one number card (1-6) under any "
                "column, in turn, until everyone holds one card: 5 placements each (R4)."),
    ("Resolution", "Columns resolve left to right (R5). Your total in a column is the sum of your cards "
                   "there. Equal totals cancel, all of them, at any rank. The others, highest first, "
                   "each take the column's bottom card; an empty column gives nothing."),
    ("Nobody there", "A column nobody played under moves its bottom card to the top (R5.5)."),
    ("One of each", "You may own one good per category. Getting a second one is a forced exchange: "
                    "your old one goes at once on top of that column (R6). Money is never exchanged."),
    ("Next round", "Number cards go back to hand; the next player clockwise starts (R7). "
                   "3 players play 6 rounds, 4 play 4, 5 play 5."),
    ("Winning", "The highest value of goods and money wins; equal best scores share the victory (R8)."),
]

MARKS = [
    ("Ana on a card", "the card that player would take if the round ended now"),
    ("5 3  =8", "cards placed under the column by a player (in their colour), and their total"),
    ("✗8", "a total cancelled by a tie"),
    ("⇄ CAR 300", "an exchange: that good would go back on top of the column"),
    ("↻", "nobody has played here: the bottom card would move to the top"),
]


KEY = Style(color="#7fd39a", bold=True)


def _grid() -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style=GOLD_BOLD, no_wrap=True)
    grid.add_column(ratio=1)
    return grid


def key_grid(title: str, subtitle: str, rows: Iterable[tuple[str, str]], grid: Table | None = None) -> Table:
    """A help's keys: ``title`` as a chip and ``subtitle``, a row per key (a key map's
    ``help_rows``), a blank row. Added to ``grid`` when given (the rest of a help shares its
    columns), else in a grid of its own."""
    grid = grid if grid is not None else _grid()
    grid.add_row(styled(f" {title} ", CHIP), Text(subtitle, style=Style(italic=True, color=MUTED)))
    for key, meaning in rows:
        grid.add_row(Text(key, style=KEY), meaning)
    grid.add_row("", "")
    return grid


def help_text(keys: KeyMap | None = TABLE) -> Table:
    """The key map first (what a player pressing ``?`` mid-game wants), then how to read the
    table, then the rules. ``keys`` None: the table and the rules only (a screen whose keys
    are another map lists them above, with :func:`key_grid`)."""
    grid = _grid()
    if keys is not None:
        key_grid("DOLCE VITA", "keys, the table, the rules in brief", keys.help_rows(), grid)
    cards = Text()
    for i, category in enumerate((*CATEGORIES, "money")):
        bg, fg = CARD_COLORS[category]
        if i == 4:
            cards.append("\n")
        code = CATEGORY_CODES.get(category, "$$$")
        cards.append(f" {code} ", style=Style(bgcolor=bg, color=fg, bold=True))
        cards.append(f" {category:<9}")
    grid.add_row("Cards", cards)
    grid.add_row("", Text("values in thousands: HSE 700 is a house worth 700,000", style=Style(color=MUTED)))
    for mark, meaning in MARKS:
        grid.add_row(Text(mark, style=Style(color="#e6e6e6", bold=True)), meaning)
    grid.add_row("", "")
    for head, body in RULES:
        grid.add_row(head, body)
    return grid


class HelpScreen(Dialog[None]):
    """``?``: :func:`help_text` for the screen's key map (``keys``)."""

    DEFAULT_CSS = """
    #help-body {
        width: 100;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", N_("close"), key_display="esc"),

    ]

    def __init__(self, keys: KeyMap = TABLE) -> None:
        super().__init__()
        self.keys = keys

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body", classes="dialog"):
            yield Static(help_text(self.keys), id="help-text")
        yield Footer(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)
