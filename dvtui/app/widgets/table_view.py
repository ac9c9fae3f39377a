"""The table as drawn: where the board, hand, banner, scoreboard and log go for a terminal size,
and the widgets laid out that way. The live table and the replay viewer both draw with this view,
so neither screen imports the other for it."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from .board import Board, column_height
from .faces import GOLD_BOLD
from .hand import HandBar
from .panels import Banner, RoundBar
from .scoreboard import LINE_WIDTH, Scoreboard

WIDE_MIN = (110, 30)
"""From this size (columns, rows) the scoreboard and log move to a side panel."""


@dataclass(frozen=True, slots=True)
class TableLayout:
    wide: bool
    """Scoreboard and log in a side panel (else below the table)."""
    tall_hand: bool
    """The hand as three-line cards."""
    board_height: int | str
    side_width: int | str
    two_row_hand: bool = False
    """The hand's line of advice may wrap onto a second row (there is a row to spare)."""
    too_small: tuple[int, int] | None = None
    """(columns, rows) the table needs, when the terminal is smaller: a notice instead of the table."""


def minimum_size(players: int, extra_rows: int = 0) -> tuple[int, int]:
    """The smallest terminal the table works in: a scoreboard line per player (the three-line
    blocks of narrower ones do not fit below the board) and a board with every player's row under
    at least the three bottom cards of each column."""
    board = 1 + 4 + players + 1  # letters, "▲ +n" and three cards, the players' rows, outcomes
    return LINE_WIDTH + 1, 1 + board + 1 + players + 1 + extra_rows


def table_layout(width: int, height: int, players: int, extra_rows: int = 0) -> TableLayout:
    """Where things go for a terminal of ``width`` x ``height``: a side panel when there is room,
    everything stacked at 80x24 with the board only as tall as its cards need. ``extra_rows``:
    lines a screen adds below the table (the replay's position bar and notices)."""
    need = minimum_size(players, extra_rows)
    too_small = need if width < need[0] or height < need[1] else None
    if width >= WIDE_MIN[0] and height >= WIDE_MIN[1]:
        return TableLayout(True, height >= 34, "1fr", 46 if width >= 150 else 38, too_small=too_small)
    fixed = 1 + 1 + 1 + players + extra_rows  # round bar, footer, hand, one scoreboard line per player
    rows = 1
    for tile in (3, 2):
        if column_height(tile, players) + fixed + 4 <= height:
            rows = tile
            break
    board = min(column_height(rows, players), max(4, height - fixed))
    return TableLayout(False, False, board, "1fr", two_row_hand=height - fixed - board >= 1, too_small=too_small)


def compose_table(
    screen: Screen[None], layout: TableLayout, log: Widget, *, hide_banner: bool = False
) -> ComposeResult:
    """The table's widgets (round bar, board, hand, banner, scores, ``log``), laid out for
    ``layout`` before anything is styled, so nothing is restyled after mounting. The live table
    and the replay viewer both draw with these."""
    screen.set_class(layout.wide, "-wide", update=False)
    screen.set_class(not layout.wide, "-narrow", update=False)
    screen.set_class(layout.too_small is not None, "-too-small", update=False)
    yield RoundBar()
    with Horizontal(id="main"):
        with Vertical(id="play"):
            board = Board(id="board")
            board.styles.height = layout.board_height
            yield board
            hand = HandBar(id="hand")
            hand.set_class(layout.tall_hand, "-tall", update=False)
            hand.set_class(layout.two_row_hand, "-two", update=False)
            yield hand
            banner = Banner()
            if hide_banner:
                banner.display = False
            yield banner
        side = Vertical(id="side")
        side.styles.width = layout.side_width
        with side:
            yield Static("PLAYERS", classes="side-title")
            yield Scoreboard(id="scores")
            yield Static("LOG", classes="side-title")
            yield log
    yield Static(too_small_text(layout.too_small), id="too-small")


def too_small_text(need: tuple[int, int] | None) -> Text:
    if need is None:
        return Text()
    return Text(f"terminal too small (needs {need[0]}×{need[1]})\nenlarge the window, or press q to leave",
                style=GOLD_BOLD, justify="center")


def apply_layout(screen: Screen[None], layout: TableLayout) -> None:
    """:func:`compose_table`'s layout again, after a resize."""
    screen.set_class(layout.wide, "-wide")
    screen.set_class(not layout.wide, "-narrow")
    screen.set_class(layout.too_small is not None, "-too-small")
    screen.query_one("#too-small", Static).update(too_small_text(layout.too_small))
    screen.query_one(HandBar).set_class(layout.tall_hand, "-tall")
    screen.query_one(HandBar).set_class(layout.two_row_hand, "-two")
    screen.query_one(Board).styles.height = layout.board_height
    screen.query_one("#side").styles.width = layout.side_width
