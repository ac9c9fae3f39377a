"""The analysis of a game over the viewer: every player's win chance through the game, their marks,
and what the win chance is (a model of the bots' play). Escape or ``a`` closes it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...describe import amount
from ...engine import Outcome
from ...i18n import N_, _
from ...printable import printable
from ...replay.analysis import Review, mark_counts
from ..theme import MUTED
from ..widgets.footer import Footer
from ..widgets.win_chart import win_chart_lines
from .dialog import Dialog

MEANING = N_(
    "Win chance: what the strong bot's judgement makes of a player's chance to win if everyone played on "
    "as the bots do, calibrated on who won bot games (a model, not a certainty; like the strong bot, it counts "
    "the places below first a little). "
    "A mark means the placement lost that much against the best one, both weighed as the hint weighs them, by "
    "more than twice the search's own noise: inaccuracy 5 points, mistake 10, blunder 15. "
    "In the log: ?! inaccuracy, ? mistake, ?? blunder. b just before a blunder: try it again."
)  # fmt: skip


class AnalysisScreen(Dialog[None]):
    DEFAULT_CSS = """
    #analysis-box {
        width: 100%;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,a", "close", N_("close"), key_display="esc")]

    def __init__(
        self,
        reviews: Sequence[Review],
        names: Sequence[str],
        colors: Sequence[str],
        budget: int,
        result: Outcome | None = None,
    ) -> None:
        """``result``: the game's, when it is over (the chart ends on it)."""
        super().__init__()
        self.result = result
        self.reviews = list(reviews)
        self.names = list(names)
        self.seat_colors = list(colors)
        self.budget = budget

    def compose(self) -> ComposeResult:
        width = max(20, self.app.size.width - 6)
        with VerticalScroll(id="analysis-box", classes="dialog"):
            said = _("Analysis ({n} iterations a placement)").format(n=amount(self.budget))
            yield Static(Text(said, style=Style(bold=True)))
            yield Static(Text("\n").join(win_chart_lines(self.reviews, self.names, self.seat_colors, width,
                                                         self.result)), id="win-chart")  # fmt: skip
            said = _("{seat} {name}: {marks}")
            counts = [said.format(seat=p + 1, name=printable(name), marks=mark_counts(self.reviews, p))
                      for p, name in enumerate(self.names)]  # fmt: skip
            yield Static(Text("\n".join(counts)), id="analysis-marks")
            yield Static(Text(_(MEANING), style=Style(color=MUTED)))
        yield Footer(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)
