"""Every player at a glance: hand (placed cards shown as gone), goods by category, money, total.

One line per player when the scoreboard spans the table (80 columns are enough), a small block per
player in the side panel of a larger terminal. Drawn from any game state.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from ...describe import after_last_round, amount, bot_level_name, card_value_label, category_code, short_amount
from ...engine import CATEGORIES, NUMBER_CARDS, VALUE_OF, Game, Phase, Seat
from ...i18n import _, ngettext
from ..theme import GOLD, MUTED, seat_color
from .faces import card_chip, card_style, fit_names, pad, seat_chip

LINE_WIDTH = 72
"""At least this wide: one line per player."""


def goods_cells(game: Game, p: int, *, wide: bool = False) -> Text:
    """The seven category slots in CATEGORIES order: owned goods on their colour, gaps dimmed."""
    text = Text()
    for k, category in enumerate(CATEGORIES):
        if k:
            text.append(" ")
        good = game.goods[p][k]
        code = category_code(category)
        if good is None:
            text.append(f"{code}{' ---' if wide else '-'}", style=Style(color="#3d5f50"))
        else:
            value = card_value_label(good)
            text.append(f"{code}{' ' + value if wide else value[0]}", style=card_style(good))
    return text


def hand_cells(game: Game, p: int) -> Text:
    """1 to 6, the ones already placed this round shown as gone (``·``); none once the game is
    played out."""
    color = game.created.players[p].color
    held = () if after_last_round(game) else game.hands[p]
    text = Text()
    for i, card in enumerate(NUMBER_CARDS):
        if i:
            text.append(" ")
        if card in held:
            text.append(str(card), style=Style(color=seat_color(color), bold=True))
        else:
            text.append("·", style=Style(color=MUTED))
    return text


def seat_labels(seats: Sequence[Seat], room: int) -> list[str]:
    """Every seat's name in at most ``room`` cells, the players still told apart
    (:func:`fit_names`), and a bot's level after its name (``Bot 1 (greedy)``, or ``Bot 1 (g)``
    when short of room): which bot is which is part of reading the table."""
    labels = fit_names([s.name for s in seats], room)
    for i, seat in enumerate(seats):
        if seat.kind != "bot" or not seat.bot or labels[i] != seat.name:
            continue
        level = bot_level_name(seat.bot.split("@")[0])
        labels[i] = next(
            (
                seat.name + tag
                for tag in (f" ({level})", f" ({level[:1]})")
                if cell_len(seat.name) + cell_len(tag) <= room
            ),
            seat.name,
        )
    return labels


def money_total(game: Game, p: int) -> int:
    return sum(VALUE_OF[c] for c in game.money[p])


LINE_REST = 2 + 1 + 11 + 2 + 34 + 7 + 1 + 5
"""What a player's line holds besides the name: the turn marker, a space, the hand's six cells, two
spaces, the seven goods, the money, a space and the longest total (``12.3M``). Counted exactly: one
cell more cost a 73-column table its bots' levels (``Bot 1 (n)`` needs 9)."""


SHORT_REST = 2 + 1 + 11 + 1 + 7 + 1 + 5
"""A compact line besides the name: the marker, the hand, the seven goods in a cell each, the total."""


def _shown(game: Game, turn: int | None) -> tuple[object, ...]:
    """Everything of ``game`` the scoreboard draws (the game changes in place, so a copy): the
    seats, whose turn, the hands (played out once the last round has ended), goods, money, totals."""
    return (
        game.created,
        turn,
        after_last_round(game),
        tuple(map(tuple, game.hands)),
        tuple(map(tuple, game.goods)),
        tuple(map(tuple, game.money)),
        tuple(game.worth),
    )


class Scoreboard(Widget):
    """The players' holdings; ``show(game)`` redraws it."""

    DEFAULT_CSS = """
    Scoreboard { height: auto; width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.game: Game | None = None
        self.turn: int | None = None
        self._rendered: tuple[int, Text] | None = None
        self._shown: tuple[object, ...] | None = None
        """What the lines drawn are made of (see :func:`_shown`), to draw them again only when it changes."""
        self.compact = False
        """A short line per player, for a table narrower than :data:`LINE_WIDTH` (a phone's tab)."""

    def set_compact(self, compact: bool) -> None:
        if compact != self.compact:
            self.compact = compact
            self._rendered = None
            self.refresh(layout=True)

    def show(self, game: Game, *, turn: int | None = None) -> None:
        """``turn``: the seat to mark as moving (defaults to the player to move, if placing).

        The screen is laid out again only when the number of players changes: the lines drawn
        depend on it, the width and :attr:`compact` alone (a line or a block per player), not on
        what the players hold, and a layout of the whole screen at every move is most of a move's
        cost to draw."""
        players = None if self.game is None else self.game.n
        self.game = game
        self.turn = turn if turn is not None else (game.to_move if game.phase == Phase.PLACEMENT else None)
        shown = _shown(game, self.turn)
        if shown == self._shown:
            return  # (a card or a column chosen: the table is redrawn, the holdings are the same)
        self._shown = shown
        self._rendered = None
        self.refresh(layout=game.n != players)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """The lines drawn at ``width`` (a line or a block per player): measured at the width
        offered, not the widget's current one, or a resize leaves the panel cut off."""
        return len(self._text(width or LINE_WIDTH).split())

    def render(self) -> Text:
        return self._text(self.size.width or LINE_WIDTH)

    def _text(self, width: int) -> Text:
        """Drawn once per change and width (Textual asks twice: to measure, then to draw)."""
        if self._rendered is None or self._rendered[0] != width:
            self._rendered = (width, self._draw(width))
        return self._rendered[1]

    def _draw(self, width: int) -> Text:
        game = self.game
        if game is None:
            return Text()
        if width >= LINE_WIDTH:
            return Text("\n").join(self._line(game, p, width) for p in range(game.n))
        if self.compact:
            return Text("\n").join(self._short_line(game, p, width) for p in range(game.n))
        blocks = [self._block(game, p, width) for p in range(game.n)]
        return Text("\n").join(blocks)

    def _marker(self, p: int) -> Text:
        if p == self.turn:
            color = self.game.created.players[p].color if self.game else "red"
            return seat_chip("▶", color) + Text(" ")
        return Text("  ")

    def _line(self, game: Game, p: int, width: int) -> Text:
        seat = game.created.players[p]
        seats = game.created.players
        room = max(4, width - LINE_REST)
        name_w = max(4, min(max(map(cell_len, seat_labels(seats, max(room, 10)))), room))
        line = self._marker(p)
        line.append(pad(seat_labels(seats, name_w)[p], name_w), style=Style(color=seat_color(seat.color), bold=True))
        line.append(" ")
        line.append_text(hand_cells(game, p))
        line.append("  ")
        line.append_text(goods_cells(game, p))
        money = money_total(game, p)
        cash = _("${amount}").format(amount=short_amount(money))
        line.append(f"  {cash:>5}", style=Style(color="#7fd39a") if money else Style(color=MUTED))
        total = short_amount(game.score(p))
        line.append(" " * max(1, width - line.cell_len - len(total)))
        line.append(total, style=Style(bold=True))
        return line

    def _short_line(self, game: Game, p: int, width: int) -> Text:
        """``▶ Ana  1 2 · 4 5 6  5··3···  1.2M``: the hand, each category's good as its value's
        first digit on its colour (``·``: none yet), the total."""
        seat = game.created.players[p]
        total = short_amount(game.score(p))
        room = max(3, width - SHORT_REST)
        line = self._marker(p)
        name = seat_labels(game.created.players, room)[p]
        line.append(pad(name, room), style=Style(color=seat_color(seat.color), bold=True))
        line.append(" ")
        line.append_text(hand_cells(game, p))
        line.append(" ")
        for k in range(len(CATEGORIES)):
            good = game.goods[p][k]
            if good is None:
                line.append("·", style=Style(color="#3d5f50"))
            else:
                line.append(card_value_label(good)[0], style=card_style(good))
        line.append(" " * max(1, width - line.cell_len - len(total)))
        line.append(total, style=Style(bold=True))
        return line

    def _block(self, game: Game, p: int, width: int) -> Text:
        seat = game.created.players[p]
        head = self._marker(p)
        total = amount(game.score(p))
        name = seat_labels(game.created.players, max(1, width - len(total) - 3))[p]
        head.append(name, style=Style(color=seat_color(seat.color), bold=True))
        head.append(" " * max(1, width - head.cell_len - len(total)))
        head.append(total, style=Style(bold=True))
        hand = Text("  " + _("hand") + " ", style=Style(color=MUTED))
        hand.append_text(hand_cells(game, p))
        money = game.money[p]
        cash = _("$ {amount}").format(amount=short_amount(money_total(game, p)))
        hand.append(" " * max(1, width - len(hand.plain) - len(cash)))
        hand.append(cash, style=Style(color="#7fd39a") if money else Style(color=MUTED))
        lines = [head, hand]
        wide = width >= 2 + 4 * 8 - 1
        cells = goods_cells(game, p, wide=wide)
        step = 8 if wide else 5
        if 2 + 7 * step - 1 <= width:
            lines.append(Text("  ") + cells)
        else:  # two lines: house car boat horse / jewel watch holiday
            lines.append(Text("  ") + cells[: 4 * step - 1])
            lines.append(Text("  ") + cells[4 * step :])
        return Text("\n").join(lines)


def chip_lines(chips: list[Text], width: int, indent: int = 3) -> list[Text]:
    """Lay chips out in lines of at most ``width`` cells, never splitting a chip."""
    lines: list[Text] = []
    line = Text(" " * indent)
    for chip in chips:
        if len(line.plain) > indent and len(line.plain) + 1 + len(chip.plain) > width:
            lines.append(line)
            line = Text(" " * indent)
        if len(line.plain) > indent:
            line.append(" ")
        line.append_text(chip)
    if len(line.plain) > indent:
        lines.append(line)
    return lines


def holdings(game: Game, p: int, width: int) -> list[Text]:
    """Every card a player owns: goods then money, as chips, or in one short line when narrow."""
    if width < 70:
        line = Text("   ") + goods_cells(game, p)
        money = money_total(game, p)
        count = len(game.money[p])
        said = _("${amount}").format(amount=short_amount(money))
        line.append(f"  {said}", style=Style(color="#7fd39a") if money else Style(color=MUTED))
        if count:
            line.append(" " + ngettext("in {n} card", "in {n} cards", count).format(n=count), style=Style(color=MUTED))
        return [line]
    chips = [card_chip(good) for good in game.goods[p] if good is not None]
    lines = chip_lines(chips, width) if chips else [Text("   " + _("no goods"), style=Style(color=MUTED))]
    cash = [card_chip(c) for c in sorted(game.money[p], key=lambda c: -VALUE_OF[c])]
    return lines + chip_lines(cash, width)


class Standings(Widget):
    """The final ranking, each player with their holdings (the end screen)."""

    DEFAULT_CSS = """
    Standings { height: auto; width: 1fr; }
    """

    def __init__(self, game: Game, *, notes: Sequence[str] = (), id: str | None = None) -> None:
        """``notes``: a few words per seat after its total (how a shared table's seat was played:
        resigned, a bot standing in), empty for none."""
        super().__init__(id=id)
        self.game = game
        self.notes = notes
        self.compact = False
        """One line of holdings per player (goods as HSE7 ...), to leave room for the chart."""

    def set_compact(self, compact: bool) -> None:
        if compact != self.compact:
            self.compact = compact
            self.refresh(layout=True)

    def render(self) -> Text:
        game = self.game
        width = self.size.width or 80
        players = game.created.players
        order = sorted(range(game.n), key=lambda p: (-game.score(p), p))
        outcome = game.outcome()
        winners = outcome.winners if outcome is not None else ()
        labels = seat_labels(players, max(map(cell_len, (s.name for s in players))) + 20)  # with each bot's level
        name_w = min(max(map(cell_len, labels)), max(4, width - 30))
        fitted = seat_labels(players, name_w)
        lines: list[Text] = []
        rank = 0
        last: int | None = None
        for i, p in enumerate(order):
            score = game.score(p)
            if score != last:
                rank, last = i + 1, score
            line = Text()
            line.append(f"{rank}. ", style=Style(bold=True, color=GOLD if p in winners else MUTED))
            line.append(pad(fitted[p], name_w), style=Style(bold=True, color=seat_color(players[p].color)))
            line.append(f"  {amount(score):>9}", style=Style(bold=True))
            if p in winners:
                line.append("  ★ " + _("winner"), style=Style(bold=True, color=GOLD))
            if p < len(self.notes) and self.notes[p]:
                line.append("  " + self.notes[p], style=Style(color=MUTED))
            lines.append(line)
            lines.extend(holdings(game, p, 60 if self.compact else width))
        return Text("\n").join(lines)
