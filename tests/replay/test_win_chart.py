"""The win-chance chart: every round drawn at any width, and a finished game ending on its result."""

from __future__ import annotations

import pytest

from dvtui.app.widgets.patterns import PATTERNS
from dvtui.app.widgets.win_chart import BAND, EIGHTHS, series, win_chart_lines
from dvtui.engine import Outcome
from dvtui.replay.analysis import Review

ROUNDS = 6


def _reviews(placements_per_round: int, players: int = 3) -> list[Review]:
    """A game's reviews: each round's chances a level of their own, so a column tells its round."""
    out = []
    for k in range(placements_per_round * ROUNDS):
        rnd = 1 + k // placements_per_round
        chance = rnd / (ROUNDS + 1)
        out.append(Review(moment=k, round=rnd, player=k % players, card=1, column=0, best_card=1,
                          best_column=0, before=chance, played=chance, loss=0.0, noise=0.0, mark=None))  # fmt: skip
    return out


@pytest.mark.parametrize("width", [80, 120, 160])
def test_every_round_is_drawn_at_every_width(width: int) -> None:
    reviews = _reviews(15)  # 90 placements: fewer than the columns at 120 and 160
    lines = win_chart_lines(reviews, ["Ana", "Bea", "Cy"], ["red", "blue", "green"], width)
    for band in range(3):
        rows = [line.plain for line in lines[1 + band * (BAND + 1) : (band + 1) * (BAND + 1)]]
        bottom = rows[-1]
        assert len(bottom) == width
        segments = bottom.split("│")
        assert len(segments) == ROUNDS  # a bar where each of rounds 2..6 starts
        assert all(segments)  # and every round has columns of its own, the last one included
        # the last column is the game's last point (round 6's level), not one from its middle
        last = round(ROUNDS / (ROUNDS + 1) * BAND * 8)
        fills = [max(0, min(8, last - (BAND - 1 - k) * 8)) for k in range(BAND)]
        assert [row[-1] for row in rows] == [PATTERNS[band] if f == 8 else EIGHTHS[f] for f in fills]


def test_a_finished_game_ends_on_its_result() -> None:
    reviews = _reviews(15)
    won = series(reviews, 3, Outcome.of([4_400_000, 4_200_000, 3_000_000]))
    assert [chances[-1] for chances in won] == [1.0, 0.0, 0.0]
    assert [len(chances) for chances in won] == [len(reviews) + 1] * 3
    tied = series(reviews, 3, Outcome.of([4_400_000, 4_400_000, 3_000_000]))
    assert [chances[-1] for chances in tied] == [0.5, 0.5, 0.0]
    lines = [line.plain for line in win_chart_lines(reviews, ["Ana", "Bea", "Cy"], ["red", "blue", "green"], 80,
                                                    Outcome.of([4_400_000, 4_200_000, 3_000_000]))]  # fmt: skip
    assert lines[0] == "██ 1 Ana  won" and lines[BAND + 1] == "▒▒ 2 Bea  lost"
    assert lines[2 * (BAND + 1)] == "▌▌ 3 Cy  lost"
    assert lines[BAND][-1] == "█"  # the winner's last column is full: the result, not a chance
    assert lines[2 * BAND + 1][-1] == " "


def test_a_game_under_way_ends_on_its_last_judgement() -> None:
    reviews = _reviews(15)
    lines = [line.plain for line in win_chart_lines(reviews, ["Ana", "Bea", "Cy"], ["red", "blue", "green"], 80)]
    assert lines[0] == "██ 1 Ana  now 86%"
