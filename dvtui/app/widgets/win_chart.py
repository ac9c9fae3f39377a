"""Every player's win chance over the game, from an analysis: one band of block characters per
player, a column per slice of the game's placements, a bar at each round's start. A finished game
ends on its result: the winner's 100%, the others' 0 (a shared victory split)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from ...engine import Outcome
from ...i18n import _
from ...printable import printable
from ...replay.analysis import Review
from ..theme import MUTED, seat_color, seat_shade
from .patterns import legend_key, seat_pattern

EIGHTHS = " ▁▂▃▄▅▆▇█"
BAND = 3
"""Rows per player: 24 levels of win chance."""


def series(reviews: Sequence[Review], players: int, result: Outcome | None = None) -> list[list[float]]:
    """Per player, their win chance after each placement of the game: their own judgement at
    each of their moves, carried over the others' (a chance is only measured at one's turn); then,
    for a finished game (``result``), one last point that is no judgement but what happened."""
    now = [1.0 / players] * players
    out: list[list[float]] = [[] for _ in range(players)]
    for r in reviews:
        now[r.player] = r.played if r.played is not None else r.before
        for p in range(players):
            out[p].append(now[p])
    if result is not None:
        for p, share in enumerate(result_shares(result, players)):
            out[p].append(share)
    return out


def result_shares(result: Outcome, players: int) -> list[float]:
    """Each player's share of the victory (R8): 1 for the winner, 1/k for k tied winners, 0 otherwise."""
    return [1.0 / len(result.winners) if p in result.winners else 0.0 for p in range(players)]


def picks(total: int, width: int) -> list[int]:
    """The point each of ``width`` columns shows, of ``total``: the last of its slice of the game, so
    the first point and the last are always drawn; wider than the game, each point spans several
    columns and the chart still reaches its end."""
    return [((c + 1) * total - 1) // width for c in range(width)]


def win_chart_lines(
    reviews: Sequence[Review],
    names: Sequence[str],
    colors: Sequence[str],
    width: int,
    result: Outcome | None = None,
) -> list[Text]:
    """The chart in ``width`` cells: for each player a label row then :data:`BAND` rows of bars;
    ``│`` marks where a round starts. Each band is filled with its seat's pattern
    (:func:`~.patterns.seat_pattern`), shown before the name in its label, as in the totals chart.
    ``result``: the game's, when it is over (its last point)."""
    n = len(names)
    if not reviews:
        return [Text(_("no placement to chart"), style=Style(color=MUTED))]
    values = series(reviews, n, result)
    rounds_of = [r.round for r in reviews] + ([reviews[-1].round] if result is not None else [])
    columns = picks(len(rounds_of), max(8, width))
    starts = {c for c in range(1, len(columns)) if rounds_of[columns[c]] != rounds_of[columns[c - 1]]}
    shares = result_shares(result, n) if result is not None else None
    lines: list[Text] = []
    for p in range(n):
        if shares is None:
            said = _("now {percent}%").format(percent=round(100 * values[p][-1]))
        elif shares[p] == 1.0:
            said = _("won")
        elif shares[p] > 0.0:
            said = _("shared the victory")
        else:
            said = _("lost")
        shade = Style(color=seat_shade(colors[p]))
        lines.append(Text.assemble(
            (legend_key(p) + " ", shade),
            (f"{p + 1} {printable(names[p])}", Style(color=seat_color(colors[p]), bold=True)),
            ("  " + said, Style(color=MUTED)),
        ))  # fmt: skip
        rule = Style(color=MUTED)
        for row in range(BAND):
            level_top = (BAND - row) * 8
            text = Text()
            for c, i in enumerate(columns):
                if c in starts:
                    text.append("│", rule)
                    continue
                level = round(values[p][i] * BAND * 8)
                fill = max(0, min(8, level - (level_top - 8)))
                text.append(seat_pattern(p) if fill == 8 else EIGHTHS[fill], shade)
            lines.append(text)
    rounds = sorted(set(rounds_of))
    said = _("rounds {first}–{last}, each starting at a │; 100% at the top of a band")
    lines.append(Text(said.format(first=rounds[0], last=rounds[-1]), style=Style(color=MUTED)))
    return lines
