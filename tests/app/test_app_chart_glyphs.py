"""The charts that compare players read without colour: each seat's bars are filled with a glyph of
its own, and the legend pairs each name with that glyph, under every colour system and with colours
off (``NO_COLOR``), at 80x24 and at 160x50."""

from __future__ import annotations

from pathlib import Path

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.app.screens.analysis import AnalysisScreen
from dvtui.app.screens.end import EndScreen
from dvtui.app.textual_private import compositor
from dvtui.app.widgets.chart import TotalsChart
from dvtui.app.widgets.patterns import PATTERNS
from dvtui.app.widgets.win_chart import BAND
from dvtui.engine import Outcome
from dvtui.play.autoplay import play_game
from dvtui.play.local import LocalSession
from dvtui.play.seats import parse_players
from dvtui.play.session import PlaySession
from dvtui.replay.analysis import Review

from ..support.apps import table_app
from ..support.colours import terminal
from ..support.pilot import until

TAGS = ["B1", "B2", "B3", "B4", "B5"]
"""The five bots' tags, as the totals chart's legend names them."""
SETTINGS = [("truecolor", True), ("standard", True), ("standard", False), ("256", False)]
"""(colour system, colours off): no colour at all, sixteen colours, and 256."""


@pytest.fixture(params=SETTINGS, ids=lambda p: f"{p[0]}{'-NO_COLOR' if p[1] else ''}")
def colours(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> tuple[str, bool]:
    return terminal(monkeypatch, *request.param)


def screen_lines(app: DvtuiApp) -> list[str]:
    """What is drawn, row by row."""
    return ["".join(segment.text for segment in strip) for strip in compositor(app.screen).render_strips()]


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_each_players_bars_on_the_end_screen_have_a_glyph_of_their_own(
    colours: tuple[str, bool], size: tuple[int, int]
) -> None:
    game, events = play_game(parse_players(",".join(["bot:greedy"] * 5)), seed=7)
    app = table_app(LocalSession(PlaySession(game, None, Path("finished.dvr"), events)))
    async with app.run_test(size=size) as pilot:

        def chart_drawn() -> bool:
            charts = app.screen.query(TotalsChart) if isinstance(app.screen, EndScreen) else []
            return bool(charts) and charts[0].region.height >= 4

        await until(pilot, "the end screen's chart", chart_drawn)
        chart = app.screen.query_one(TotalsChart)
        lines = screen_lines(app)
        region = chart.region
        drawn = [line[region.x : region.right] for line in lines[region.y : region.bottom]]
    # the bottom row of bars: at the last round every total fills its whole cell, and the group
    # reads seat by seat, each seat's cells its own glyph
    assert all(score > 0 for score in game.round_scores[-1])
    last_group = drawn[-3].split()[-1]
    bar = len(last_group) // 5
    assert bar >= 1 and last_group == "".join(PATTERNS[p] * bar for p in range(5))
    legend = next(line for line in drawn if "B1" in line and "B5" in line)
    for p, tag in enumerate(TAGS):
        assert f"{PATTERNS[p] * 2} {tag}" in legend  # each name beside its glyph
    assert len(set(PATTERNS)) == 5


def _reviews(players: int) -> list[Review]:
    """Two rounds of placements, each player's chance rising to near certainty for the first."""
    out = []
    for k in range(12):
        chance = 0.95 if k % players == 0 else 0.05
        out.append(Review(moment=k, round=1 + k // 6, player=k % players, card=1, column=0, best_card=1,
                          best_column=0, before=chance, played=chance, loss=0.0, noise=0.0, mark=None))  # fmt: skip
    return out


async def test_the_analysis_labels_each_band_with_its_glyph_and_fills_it_with_it(colours: tuple[str, bool]) -> None:
    game, events = play_game(parse_players("bot:greedy,bot:greedy,bot:greedy"), seed=3)
    app = table_app(LocalSession(PlaySession(game, None, Path("finished.dvr"), events)))
    names = ["Ana", "Bea", "Cy"]
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, "the end screen", lambda: isinstance(app.screen, EndScreen))
        result = Outcome.of([4_400_000, 4_200_000, 3_000_000])
        app.push_screen(AnalysisScreen(_reviews(3), names, ["red", "blue", "green"], 100, result))
        await until(pilot, "the analysis", lambda: isinstance(app.screen, AnalysisScreen))
        await pilot.pause()
        lines = [line.strip("│ ") for line in screen_lines(app)]
    for p, name in enumerate(names):
        label = f"{PATTERNS[p] * 2} {p + 1} {name}"
        found = [k for k, line in enumerate(lines) if line.startswith(label)]
        assert len(found) == 1, (label, lines)  # the band's label: its glyph, then its name
        band = "".join(lines[found[0] + 1 : found[0] + 1 + BAND])
        full = {c for c in band if c in PATTERNS or c == "█"}
        assert full == {PATTERNS[p]}, (name, band)  # its whole cells in its own glyph, no other
