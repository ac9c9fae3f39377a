"""``?``: the rules in brief, how to read the table, and the key map."""

from __future__ import annotations

from collections.abc import Iterable
from importlib.resources import files
from typing import ClassVar, cast

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...describe import amount, category_code
from ...engine import CATEGORIES
from ...i18n import N_, _
from ..host import GameHost
from ..keys import TABLE, KeyMap
from ..theme import CARD_COLORS, MUTED
from ..widgets.faces import CHIP, GOLD_BOLD, good_name, styled
from ..widgets.footer import Footer
from .dialog import Dialog

RULES = [
    (
        N_("The table"),
        N_(
            "7 columns of goods and money. A column is taken from its bottom, the card nearest the "
            "players. Everything is face up: there is nothing hidden (R4.4)."
        ),
    ),
    (
        N_("A round"),
        N_(
            "Starting with the first player, each of you places one number card (1-6) under any column, "
            "in turn, until everyone holds one card: 5 placements each (R4)."
        ),
    ),
    (
        N_("Resolution"),
        N_(
            "Columns resolve left to right (R5). Your total in a column is the sum of your cards there. "
            "Equal totals cancel, all of them, at any rank. The others, highest first, each take the "
            "column's bottom card; an empty column gives nothing."
        ),
    ),
    (N_("Nobody there"), N_("A column nobody played under moves its bottom card to the top (R5.5).")),
    (
        N_("One of each"),
        N_(
            "You may own one good per category. Getting a second one is a forced exchange: your old "
            "one goes at once on top of that column (R6). Money is never exchanged."
        ),
    ),
    (
        N_("Next round"),
        N_(
            "Number cards go back to hand; the next player clockwise starts (R7). 3 players play 6 "
            "rounds, 4 play 4, 5 play 5."
        ),
    ),
    (N_("Winning"), N_("The highest value of goods and money wins; equal best scores share the victory (R8).")),
]
"""(heading, rule), marked for the catalogue: translated where shown."""


def marks() -> list[tuple[str, str]]:
    """How to read the board: (mark, meaning), in the language spoken now (the exchange's card
    code is the language's)."""
    return [
        (_("Ana on a card"), _("the card that player would take if the round ended now")),
        ("5 3  =8", _("cards placed under the column by a player (in their colour), and their total")),
        ("✗8", _("a total cancelled by a tie")),
        (f"⇄ {category_code('car')} 300", _("an exchange: that good would go back on top of the column")),
        ("↻", _("nobody has played here: the bottom card would move to the top")),
    ]


ORIGINAL_RULES = "dolce-vita-fr.txt"
"""The original rules' text, beside this package's modules (docs/ links to it)."""

KEY = Style(color="#7fd39a", bold=True)
HEADING_WIDTH = 20
"""The widest the first column (keys, marks, the rules' headings) grows: a longer heading, as a
language may have one (« Un seul bien par catégorie »), wraps within it rather than narrowing
the text beside it, which at 80 columns would leave the card legend no room."""


def _grid() -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style=GOLD_BOLD, max_width=HEADING_WIDTH)
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


class CardLegend:
    """Each category's code on its colours and its name: four to a line (two lines), or as many
    as the column holds, so that a longer language's names (« vacances ») never cut an entry
    apart at 80 columns."""

    PER_LINE = 4

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        categories = (*CATEGORIES, "money")
        names = [good_name(category) for category in categories]
        longest = max(map(cell_len, names))
        width = 5 + 1 + max(9, longest + 1)  # " MAI " + " " + a name and a gap
        # as many entries as fit, the last one's gap aside (it may hang past the edge, blank)
        per_line = max(1, min(self.PER_LINE, (options.max_width - 6 - longest) // width + 1))
        legend = Text()
        for i, category in enumerate(categories):
            if i:
                legend.append("\n" if i % per_line == 0 else "")
            bg, fg = CARD_COLORS[category]
            legend.append(f" {category_code(category)} ", style=Style(bgcolor=bg, color=fg, bold=True))
            legend.append(" " + names[i] + " " * (width - 5 - 1 - cell_len(names[i])))
        yield legend

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)


def help_text(keys: KeyMap | None = TABLE, *, azerty: bool = False) -> Table:
    """The key map first (what a player pressing ``?`` mid-game wants), then how to read the
    table, then the rules. ``keys`` None: the table and the rules only (a screen whose keys
    are another map lists them above, with :func:`key_grid`)."""
    grid = _grid()
    if keys is not None:
        key_grid("DOLCE VITA", _("keys, the table, the rules in brief"), keys.help_rows(azerty=azerty), grid)
    grid.add_row(_("Cards"), CardLegend())
    worth = _("values in thousands: {code} 700 is a house worth {amount}")
    grid.add_row("", Text(worth.format(code=category_code("house"), amount=amount(700_000)), style=Style(color=MUTED)))
    for mark, meaning in marks():
        grid.add_row(Text(mark, style=Style(color="#e6e6e6", bold=True)), meaning)
    grid.add_row("", "")
    for head, body in RULES:
        grid.add_row(_(head), _(body))
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
        Binding("o", "original", N_("the original rules (French)")),
    ]

    def __init__(self, keys: KeyMap = TABLE) -> None:
        super().__init__()
        self.keys = keys

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body", classes="dialog"):
            yield Static(help_text(self.keys, azerty=cast(GameHost, self.app).azerty), id="help-text")
        yield Footer(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_original(self) -> None:
        self.app.push_screen(OriginalRules())


def original_rules() -> str:
    """The rules as Hans im Glück printed them, in French: the text this game follows (the
    rules in brief cite its sections), shipped with the package."""
    return reflowed(files("dvtui.app").joinpath(ORIGINAL_RULES).read_text(encoding="utf-8"))


def reflowed(text: str) -> str:
    """``text`` with its printed line breaks taken out of its paragraphs: a line that goes on in
    lowercase continues the line before it, so the screen wraps each paragraph at its own width
    (the leaflet's breaks, kept, leave single words stranded at 80 columns). Headings, items and
    blank lines keep their own lines."""
    lines: list[str] = []
    for line in text.split("\n"):
        if lines and lines[-1].strip() and line[:1].islower():
            lines[-1] = lines[-1].rstrip() + " " + line.lstrip()
        else:
            lines.append(line.rstrip())
    return "\n".join(lines)


class OriginalRules(Dialog[None]):
    """``o`` in the help: the original French rules, to scroll through."""

    DEFAULT_CSS = """
    #rules-body {
        width: 100;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,o,q", "close", N_("close"), key_display="esc"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules-body", classes="dialog"):
            yield Static(Text(original_rules()), id="rules-text")  # plain text: never read as markup
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#rules-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)
