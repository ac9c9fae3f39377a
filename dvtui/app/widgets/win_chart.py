"""Every player's win chance over the game, from an analysis: one band of block characters per
player, a column per slice of the game's placements, a bar at each round's start."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from ...i18n import _
from ...printable import printable
from ...replay.analysis import Review
from ..theme import MUTED, seat_color, seat_shade

EIGHTHS = " ▁▂▃▄▅▆▇█"
BAND = 3
"""Rows per player: 24 levels of win chance."""


def series(reviews: Sequence[Review], players: int) -> list[list[float]]:
    """Per player, their win chance after each placement of the game: their own judgement at
    each of their moves, carried over the others' (a chance is only measured at one's turn)."""
    now = [1.0 / players] * players
    out: list[list[float]] = [[] for _ in range(players)]
    for r in reviews:
        now[r.player] = r.played if r.played is not None else r.before
        for p in range(players):
            out[p].append(now[p])
    return out


def win_chart_lines(reviews: Sequence[Review], names: Sequence[str], colors: Sequence[str], width: int) -> list[Text]:
    """The chart in ``width`` cells: for each player a label row then :data:`BAND` rows of bars;
    ``│`` marks where a round starts."""
    n = len(names)
    if not reviews:
        return [Text(_("no placement to chart"), style=Style(color=MUTED))]
    values = series(reviews, n)
    total = len(reviews)
    plot = max(8, width)
    picks = [min(total - 1, c * total // plot) for c in range(min(plot, total))]
    starts = {c for c in range(1, len(picks)) if reviews[picks[c]].round != reviews[picks[c - 1]].round}
    lines: list[Text] = []
    for p in range(n):
        last = values[p][-1]
        lines.append(Text.assemble(
            (f"{p + 1} {printable(names[p])}", Style(color=seat_color(colors[p]), bold=True)),
            ("  " + _("now {percent}%").format(percent=round(100 * last)), Style(color=MUTED)),
        ))  # fmt: skip
        shade = Style(color=seat_shade(colors[p]))
        rule = Style(color=MUTED)
        for row in range(BAND):
            level_top = (BAND - row) * 8
            text = Text()
            for c, i in enumerate(picks):
                if c in starts:
                    text.append("│", rule)
                    continue
                level = round(values[p][i] * BAND * 8)
                fill = max(0, min(8, level - (level_top - 8)))
                text.append(EIGHTHS[fill], shade)
            lines.append(text)
    rounds = sorted({r.round for r in reviews})
    said = _("rounds {first}–{last}, each starting at a │; 100% at the top of a band")
    lines.append(Text(said.format(first=rounds[0], last=rounds[-1]), style=Style(color=MUTED)))
    return lines
