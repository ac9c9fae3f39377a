"""One column whole (``v`` at the table): at 80x24 and smaller the board keeps a column's bottom
cards and says ``▲ +n`` for the rest; this box lists every card of the chosen column, top to
bottom, who would take which, and the number cards each player placed there this round. Drawn
from the board's own :class:`~dvtui.app.widgets.board.ColumnModel`, so it says what the board
would show if it had the rows."""

from __future__ import annotations

from typing import ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...describe import card_name, column_label
from ...i18n import N_, _, ngettext
from ..theme import MUTED, seat_color
from ..widgets.board import ColumnModel, SeatLooks
from ..widgets.faces import card_style, pad, seat_chip
from ..widgets.footer import Footer
from .dialog import Dialog


def column_text(model: ColumnModel, looks: SeatLooks, names: list[str]) -> Text:
    """The column's lines: its title, each card from the top (the bottom one is taken first) with
    who would take it or gave it back, then each player's number cards placed there and their sum."""
    count = len(model.cards)
    title = ngettext("Column {column} · {n} card", "Column {column} · {n} cards", count)
    lines = [Text(title.format(column=column_label(model.index), n=count), style=Style(bold=True))]
    takers = _takers(model)
    returned = dict(model.returned)
    if not model.cards:
        lines.append(Text(_("empty"), style=Style(color=MUTED, italic=True)))
    width = max((cell_len(card_name(card)) for card in model.cards), default=0) + 2
    for i in range(count - 1, -1, -1):
        card = model.cards[i]
        line = Text("  ")
        line.append(pad(f" {card_name(card)}", width), style=card_style(card))
        if i in takers:
            p = takers[i]
            line.append("  ")
            line.append_text(seat_chip(f" {names[p]} ", looks.colors[p]))
            line.append(" " + (_("took it") if model.resolved else _("would take it")), style=Style(color=MUTED))
        elif model.resolved and card in returned:
            p = returned.pop(card)
            line.append("  " + _("given back by {name}").format(name=names[p]), style=Style(color=MUTED))
        if i == 0 and not model.resolved:
            line.append("  " + _("(next taken)"), style=Style(color=MUTED, italic=True))
        lines.append(line)
    placed = Text(_("Placed here this round:"), style=Style(bold=True))
    for p, cards in enumerate(model.placed):
        placed.append(" · " if p else " ")
        placed.append(names[p], style=Style(color=seat_color(looks.colors[p]), bold=True))
        placed.append(" ")
        for number in cards:
            placed.append_text(seat_chip(f" {number} ", looks.colors[p]))
        if len(cards) > 1:
            placed.append(f" = {sum(cards)}", style=Style(bold=True))
        if not cards:
            placed.append("–", style=Style(color=MUTED))
    lines.append(placed)
    return Text("\n").join(lines)


def _takers(model: ColumnModel) -> dict[int, int]:
    """The index of each card the column's outcome gives, and to whom (as the board tags them)."""
    outcome = model.outcome
    takers: dict[int, int] = {}
    if outcome is None:
        return takers
    for award in outcome.awards:
        for i, card in enumerate(model.cards):
            if i not in takers and card == award.card:
                takers[i] = award.player
                break
    return takers


class ColumnScreen(Dialog[None]):
    """The whole column over the dimmed table; Escape (or ``v`` again) gives the table back."""

    DEFAULT_CSS = """
    #column-box {
        width: 64;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,v", "close", N_("close"), key_display="esc")]

    def __init__(self, model: ColumnModel, looks: SeatLooks, names: list[str]) -> None:
        super().__init__()
        self.model = model
        self.looks = looks
        self.names = names

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="column-box", classes="dialog"):
            yield Static(column_text(self.model, self.looks, self.names), id="column-cards")
        yield Footer(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)


def shown_column(models: list[ColumnModel], cursor: int) -> ColumnModel | None:
    """The column ``v`` opens: the one a resolution is showing, else the chosen one (the
    cursor's, also when it is not this side's turn); None before the board is drawn."""
    chosen = next((m for m in models if m.focus), None) or next((m for m in models if m.selected), None)
    if chosen is not None:
        return chosen
    return models[cursor] if 0 <= cursor < len(models) else None
