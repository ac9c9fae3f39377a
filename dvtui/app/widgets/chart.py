"""A bar chart of every player's total after each round (``Game.round_scores``), grouped by round."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from ...describe import short_amount
from ...i18n import _
from ..theme import MUTED, seat_color, seat_shade
from .patterns import legend_key, seat_pattern

EIGHTHS = " ▁▂▃▄▅▆▇█"


def chart_lines(
    round_scores: Sequence[Sequence[int]], colors: Sequence[str], tags: Sequence[str], width: int, height: int
) -> list[Text]:
    """The chart in ``width`` x ``height`` cells: y labels, one group of bars per round, round
    labels and a legend of tags. Each seat's bars are filled with its own pattern
    (:func:`~.patterns.seat_pattern`), shown before its tag in the legend, so the bars are told
    apart without colour too."""
    n = len(colors)
    rounds = len(round_scores)
    if not rounds or height < 4 or width < 12:
        return [Text(_("no round finished yet"), style=Style(color=MUTED))]
    top = max(max(row) for row in round_scores) or 1
    label_w = max(len(short_amount(top)), len(short_amount(top // 2))) + 1
    plot_h = height - 2  # x labels + legend
    room = width - label_w
    group = max(n + 1, min(room // rounds, 3 * n + 2))
    bar = max(1, (group - 1) // n)
    lines: list[Text] = []
    for row in range(plot_h):
        level_top = (plot_h - row) * 8  # this row covers eighths (level_top-8, level_top]
        if row == 0:
            label = short_amount(top)
        elif row == plot_h - 1:
            label = "0"
        elif row == plot_h // 2:
            label = short_amount(top // 2)
        else:
            label = ""
        line = Text(label.rjust(label_w - 1) + "┤", style=Style(color=MUTED))
        for scores in round_scores:
            for p in range(n):
                eighths = round(scores[p] / top * plot_h * 8)
                fill = max(0, min(8, eighths - (level_top - 8)))
                glyph = seat_pattern(p) if fill == 8 else EIGHTHS[fill]
                line.append(glyph * bar, style=Style(color=seat_shade(colors[p])))
            line.append(" " * (group - bar * n))
        lines.append(line)
    axis = Text(" " * label_w, style=Style(color=MUTED))
    for r in range(rounds):
        axis.append(_("R{round}").format(round=r + 1).ljust(group)[:group], style=Style(color=MUTED))
    lines.append(axis)
    legend = Text(" " * label_w)
    for p in range(n):
        legend.append(legend_key(p) + " ", style=Style(color=seat_shade(colors[p])))
        legend.append(f"{tags[p]}  ", style=Style(color=seat_color(colors[p]), bold=True))
    lines.append(legend)
    return [line[:width] for line in lines]


class TotalsChart(Widget):
    DEFAULT_CSS = """
    TotalsChart { height: 1fr; width: 1fr; min-height: 4; }
    """

    def __init__(
        self,
        round_scores: Sequence[Sequence[int]],
        colors: Sequence[str],
        tags: Sequence[str],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.round_scores = [list(h) for h in round_scores]
        self.seat_colors = list(colors)
        self.tags = list(tags)

    def render(self) -> Text:
        lines = chart_lines(self.round_scores, self.seat_colors, self.tags, self.size.width, self.size.height)
        return Text("\n").join(lines)
