"""``b`` in a replay with a bot at the table: whose seats play on from here.

"What if I had played the 6 there?" needs someone to play it. With a person at the table the
branch keeps the seats first, or that person plays a bot's seat too (it keeps its name: hot-seat);
in a game of bots (a tournament's file, a bot's game you want to try yourself) the viewer offers
each bot's seat, the player to move at that moment first, to be played under the person's name.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...describe import bot_level_name, join_names
from ...engine import Seat
from ...i18n import N_, _, ngettext
from ..spoken import filled
from ..theme import MUTED, seat_color
from ..widgets.footer import Footer
from .dialog import Dialog

KEEP = -1
"""The result "keep the seats as they were" (a seat number is "take this seat")."""


class BranchScreen(Dialog[int | None]):
    """Dismissed with :data:`KEEP`, a bot's seat to take, or None (Escape: no branch). It sits at
    the bottom over a lightly dimmed table: the position being branched from stays in sight."""

    DEFAULT_CSS = """
    BranchScreen {
        align: center bottom;
    }

    #branch-box {
        width: 64;
    }

    #branch-box OptionList {
        height: auto;
        max-height: 12;
        border: none;
        background: #0b2219;
        padding: 0;
    }

    #branch-title {
        color: $gold;
        text-style: bold;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("cancel"), key_display="esc"),
    ]

    def __init__(self, players: list[Seat], moment: int, round_: int, to_move: int) -> None:
        super().__init__()
        self.players = players
        self.moment = moment
        self.round = round_
        self.to_move = to_move

    def compose(self) -> ComposeResult:
        bots = [i for i, seat in enumerate(self.players) if seat.kind == "bot"]
        people = [seat.name for seat in self.players if seat.kind == "human"]
        options: list[Option] = []
        for i in sorted(bots, key=lambda i: (i != self.to_move, i)):  # the player to move first
            seat = self.players[i]
            said = (
                _("Play {name}'s seat too ({level})")
                if people
                # with a person here: hot-seat
                else _("Take {name}'s seat ({level})")
            )
            name = Text(seat.name, style=f"bold {seat_color(seat.color)}")
            label = filled(said, name=name, level=bot_level_name(seat.bot or ""))
            if i == self.to_move:
                label.append("  · " + _("to move"), style=MUTED)
            options.append(Option(label, id=f"seat-{i}"))
        if people:
            keep = ngettext("Keep the seats: {names} plays on", "Keep the seats: {names} play on", len(people)).format(
                names=join_names(people)
            )
        else:
            keep = _("Keep the seats: the bots play on")
        options.append(Option(Text(keep), id="keep"))  # Text: the names are never markup
        if people:  # a person is at the table: keeping the seats is what is usually meant
            options.insert(0, options.pop())
        with Vertical(id="branch-box", classes="dialog"):
            said = _("Play from here: moment {moment}, round {round}, in a new file")
            yield Static(Text(said.format(moment=self.moment, round=self.round)), id="branch-title")
            yield OptionList(*options, id="branch-choice")
            yield Static(Text(_("↑↓ ⏎ choose · esc: no branch · the original stays as it is"), style=MUTED))
        yield Footer(compact=True)

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        option_id = message.option.id or "keep"
        self.dismiss(KEEP if option_id == "keep" else int(option_id.removeprefix("seat-")))

    def action_cancel(self) -> None:
        self.dismiss(None)
