"""The table as drawn: where the board, hand, banner, scoreboard and log go for a terminal size,
the widgets laid out that way, and the words and pace of a resolution's moments (a column resolved,
a round's end, the game's end). The live table and the replay viewer both draw with this view, so
they say the same things and neither screen imports the other for it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from ...describe import amount, column_label, join_names, resolution_parts, short_amount
from ...engine import ColumnResolved, Event, GameEnded, RoundEnded
from ...i18n import _
from ..textual_private import FooterKey
from .board import Board, column_height
from .faces import CHIP, GOLD_BOLD
from .footer import Footer
from .hand import HandBar
from .panels import Banner, RoundBar, colour_names
from .scoreboard import LINE_WIDTH, Scoreboard

WIDE_MIN = (110, 30)
"""From this size (columns, rows) the scoreboard and log move to a side panel."""
COMPACT_MIN_WIDTH = 40
"""The live table plays from this many columns (a phone held upright, in a browser tab), with as
many rows as at its normal width: narrower than the scoreboard's line, it is drawn compact (see
:attr:`TableLayout.compact`)."""


class KeysFooter(Footer):
    """The table's footer, whose keys go without their words when the table is compact (``terse``):
    ``1-6 ←→ a-g ⏎ h ? q`` fits 40 columns, and ``?`` says what each key does.

    It keeps the keys it shows as every footer of the app does (:class:`.footer.Footer`)."""

    terse: reactive[bool] = reactive(False, recompose=True)
    show_command_palette: reactive[bool] = reactive(True, recompose=True)
    """Textual's own, which composes nothing again when it changes: the palette's key came or went
    only at the footer's next change of keys (back at 80x24 from a side panel, it covered "quit")."""

    def __init__(self, *, compact: bool = False, show_command_palette: bool = True, terse: bool = False) -> None:
        super().__init__(compact=compact, show_command_palette=show_command_palette)
        self.set_reactive(KeysFooter.terse, terse)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if self.terse and isinstance(widget, FooterKey):
                widget.description = ""
            yield widget


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
    play_height: int | str = "1fr"
    """Stacked, the rows of the board, the hand and the banner: the scoreboard's lines and the log
    have the rest, so a longer banner takes its rows from the board, never from the scoreboard."""
    compact: bool = False
    """Narrower than the scoreboard's line (from :data:`COMPACT_MIN_WIDTH`): stacked as at 80x24,
    with narrow columns (cards as ``HOL7``), a short scoreboard line per player (hand, goods as
    letters, total) and the footer's keys without their words (``?`` lists them)."""


def minimum_size(players: int, extra_rows: int = 0, *, viewer: bool = False) -> tuple[int, int]:
    """The smallest terminal the table works in: a scoreboard line per player (the three-line
    blocks of narrower ones do not fit below the board), the hand, the banner's line under it
    (the viewer shows the banner in the hand's place), and a board with every player's row under
    at least the three bottom cards of each column."""
    board = 1 + 4 + players + 1  # letters, "▲ +n" and three cards, the players' rows, outcomes
    return LINE_WIDTH + 1, 1 + board + 1 + (not viewer) + players + 1 + extra_rows


def compact_minimum_size(players: int, extra_rows: int = 0) -> tuple[int, int]:
    """The smallest terminal (or browser tab) the live table plays in, compact: as narrow as
    :data:`COMPACT_MIN_WIDTH`, and a row per player taller than :func:`minimum_size`: the hand's
    advice has the row under the cards, and the round's summary, a few lines per player that
    wrap at that width, must be seen whole."""
    return COMPACT_MIN_WIDTH, minimum_size(players, extra_rows)[1] + players


def table_layout(
    width: int, height: int, players: int, extra_rows: int = 0, *, banner_row: bool = True, viewer: bool = False
) -> TableLayout:
    """Where things go for a terminal of ``width`` x ``height``: a side panel when there is room,
    everything stacked at 80x24. ``extra_rows``: lines a screen adds below the table (the replay's
    position bar and notices). ``banner_row``: the live table's banner has a line under the hand
    while people place (several people at one keyboard: whose turn; a shared table: who is
    there); the hand's advice gets a second row when one is spare. The ``viewer`` shows the banner
    in the hand's place, its line beside the hand (what comes next) needs one row, and the log
    (where it moves) gets the rows.

    Stacked, the board takes the rows the scoreboard, the hand and the banner leave: it is the one
    that gives way (its cards go under ``▲ +n``) when the banner needs more lines (a resolution,
    the round's summary), so every player's scoreboard line stays on screen. The log has the rows
    the board's cards do not need."""
    full = minimum_size(players, extra_rows, viewer=viewer)
    compact = not viewer and COMPACT_MIN_WIDTH <= width < full[0]
    # the live table plays compact down to its own width, with a few rows more
    need = full if viewer or width >= full[0] else compact_minimum_size(players, extra_rows)
    too_small = need if width < need[0] or height < need[1] else None
    if width >= WIDE_MIN[0] and height >= WIDE_MIN[1]:
        return TableLayout(True, height >= 34, "1fr", 46 if width >= 150 else 38, too_small=too_small)
    banner = banner_row and not viewer
    fixed = 1 + 1 + 1 + banner + players + extra_rows  # round bar, footer, hand, banner, a line per player
    rows = 1
    for tile in (3, 2):
        if column_height(tile, players) + fixed + 4 <= height:
            rows = tile
            break
    advice_row = compact  # compact, the hand's advice has the row under the cards
    board = min(column_height(rows, players), max(0, height - fixed - advice_row))
    two_rows = (height - fixed - board >= 1 or advice_row) and not viewer
    return TableLayout(
        False,
        False,
        "1fr",
        "1fr",
        two_row_hand=two_rows,
        too_small=too_small,
        play_height=board + 1 + two_rows + banner,
        compact=compact,
    )


def compose_table(
    screen: Screen[None], layout: TableLayout, log: Widget, *, hide_banner: bool = False
) -> ComposeResult:
    """The table's widgets (round bar, board, hand, banner, scores, ``log``), laid out for
    ``layout`` before anything is styled, so nothing is restyled after mounting. The live table
    and the replay viewer both draw with these."""
    _screen_classes(screen, layout, update=False)
    yield RoundBar()
    with Horizontal(id="main"):
        play = Vertical(id="play")
        play.styles.height = layout.play_height
        with play:
            board = Board(id="board")
            board.styles.height = layout.board_height
            yield board
            hand = HandBar(id="hand")
            _hand_classes(hand, layout, update=False)
            yield hand
            banner = Banner()
            if hide_banner:
                banner.display = False
            yield banner
        side = Vertical(id="side")
        side.styles.width = layout.side_width
        with side:
            yield Static(_("PLAYERS"), classes="side-title")
            scores = Scoreboard(id="scores")
            scores.compact = layout.compact
            yield scores
            yield Static(_("LOG"), classes="side-title")
            yield log
    yield TooSmall(layout.too_small, in_browser=_in_browser(screen))


def _screen_classes(screen: Screen[None], layout: TableLayout, *, update: bool) -> None:
    """The screen's classes that say ``layout`` (``update``: False while it is composed), the same
    at composing and after a resize."""
    screen.set_class(layout.wide, "-wide", update=update)
    screen.set_class(not layout.wide, "-narrow", update=update)
    screen.set_class(layout.too_small is not None, "-too-small", update=update)
    screen.set_class(layout.compact, "-compact", update=update)
    # Under 80 columns the footer needs the cells of the pace (and of the palette's key) for its keys' words (French
    # ones are longer): see dvtui.tcss.
    screen.set_class(screen.app.size.width < 80, "-short-footer", update=update)


def _hand_classes(hand: HandBar, layout: TableLayout, *, update: bool) -> None:
    """The hand's classes that say ``layout``: tall, on two rows, compact (its advice under the cards)."""
    hand.set_class(layout.tall_hand, "-tall", update=update)
    hand.set_class(layout.two_row_hand, "-two", update=update)
    hand.set_class(layout.compact, "-compact", update=update)


def _in_browser(screen: Screen[None]) -> bool:
    """The app runs in a browser tab (``dvtui web``), where there is no terminal to enlarge."""
    return bool(getattr(screen.app, "in_browser", False))


class TooSmall(Static):
    """What replaces a table that does not fit (:func:`too_small_text`), shown by the screen's
    ``-too-small`` class; its words are set again only when the size needed changes, since setting
    them lays the screen out again (a resize does it once already)."""

    def __init__(self, need: tuple[int, int] | None, *, in_browser: bool) -> None:
        super().__init__(too_small_text(need, in_browser=in_browser), id="too-small")
        self.need = need
        self.in_browser = in_browser

    def show(self, need: tuple[int, int] | None) -> None:
        if need != self.need:
            self.need = need
            self.update(too_small_text(need, in_browser=self.in_browser))


def too_small_text(need: tuple[int, int] | None, *, in_browser: bool = False) -> Text:
    """What replaces a table that does not fit: the cells it needs, and what to do; in a browser
    tab, the window (or the page's zoom), since a person there sees no terminal."""
    if need is None:
        return Text()
    if in_browser:
        said = _("window too small (needs {columns}×{rows} characters)\nenlarge it or zoom out (Ctrl+-), "
                 "or press q to leave")  # fmt: skip
    else:
        said = _("terminal too small (needs {columns}×{rows})\nenlarge the window, or press q to leave")
    return Text(said.format(columns=need[0], rows=need[1]), style=GOLD_BOLD, justify="center")


def apply_layout(screen: Screen[None], layout: TableLayout) -> None:
    """:func:`compose_table`'s layout again, after a resize. The classes that changed are matched
    against the styles once, not once each (a pass over every widget of the screen): from 80x24 to
    a side panel, ``-wide`` and ``-narrow`` change together."""
    hand = screen.query_one(HandBar)
    before = (set(screen.classes), set(hand.classes))
    _screen_classes(screen, layout, update=False)
    _hand_classes(hand, layout, update=False)
    if set(screen.classes) != before[0]:
        screen.update_node_styles()
    elif set(hand.classes) != before[1]:
        hand.update_node_styles()
    screen.query_one(Scoreboard).set_compact(layout.compact)
    for footer in screen.query(KeysFooter):
        footer.terse = layout.compact
    screen.query_one(TooSmall).show(layout.too_small)
    screen.query_one(Board).styles.height = layout.board_height
    screen.query_one("#side").styles.width = layout.side_width
    screen.query_one("#play").styles.height = layout.play_height


# -- a resolution's moments -------------------------------------------------------------------

Moment = ColumnResolved | RoundEnded | GameEnded
"""What the banner tells (instead of the hand) while it is on screen."""

QUIET = 0.4
"""A column nobody placed under passes quickly (nothing was taken)."""
ROUND_END = 1.6
"""A round's end lingers: the scores changed."""


def linger(event: Event) -> float:
    """How long ``event`` stays on screen, in steps: the live table's ``step_delay`` per column of
    a resolution, the viewer's beat per event in playback (so a replay keeps the game's rhythm).
    The game's end needs none: the table opens the results, the viewer's playback stops there."""
    if isinstance(event, ColumnResolved) and not event.awards and not event.cancelled:
        return QUIET
    if isinstance(event, RoundEnded):
        return ROUND_END
    return 1.0


def moment_status(event: Moment, prefix: str = "") -> Text:
    """The round bar's words for ``event`` (``prefix``: the table's ``"Recap · "``)."""
    if isinstance(event, ColumnResolved):
        return Text(prefix + _("Resolving column {column}").format(column=column_label(event.column)), style=GOLD_BOLD)
    if isinstance(event, RoundEnded):
        return Text(prefix + _("Round {round} is over").format(round=event.round), style=GOLD_BOLD)
    return Text(prefix + _("Game over"), style=Style(bold=True))


def result_words(winners: Sequence[str], best: int) -> str:
    """Who won with what (R8), for a banner or the results' headline: ``Ana wins with 3,400,000``,
    ``Ana and Bo share the victory with 2,900,000 each``."""
    if len(winners) > 1:
        return _("{names} share the victory with {amount} each").format(names=join_names(winners), amount=amount(best))
    return _("{name} wins with {amount}").format(name="".join(winners), amount=amount(best))


def moment_banner(
    event: Moment, names: Sequence[str], colors: Sequence[str], rounds: int, totals: Sequence[int] | None = None
) -> Text:
    """The banner's first line for ``event``, its head on gold: a column, what each player took or
    tied (R5, R6); a round's end, who starts the next round (R7), after ``totals`` (every player's
    score, on this one line) when given: the viewer's; the table shows each player's gains below
    instead. The game's end, who won (R8)."""
    if isinstance(event, ColumnResolved):
        text = Text.assemble((" " + _("Column {column}").format(column=column_label(event.column)) + " ", CHIP), " ")
        text.append_text(colour_names(_("; ").join(resolution_parts(event, names)), names, colors))
        return text
    if isinstance(event, RoundEnded):
        text = Text.assemble((" " + _("Round {round} is over").format(round=event.round) + " ", CHIP))
        then = " "
        if totals is not None:
            text.append(" ")
            text.append_text(
                colour_names("  ".join(f"{names[p]} {short_amount(s)}" for p, s in enumerate(totals)), names, colors)
            )
            then = " · "
        if event.round < rounds:
            nxt = names[event.next_first_player]
            starts = _("{name} starts round {round}").format(name=nxt, round=event.round + 1)
            text.append_text(colour_names(then + starts, names, colors))
        return text
    text = Text.assemble((" " + _("GAME OVER") + " ", CHIP), " ")
    best = event.scores[event.winners[0]] if event.winners else 0
    text.append_text(colour_names(result_words([names[p] for p in event.winners], best), names, colors))
    return text
