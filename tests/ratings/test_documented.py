"""docs/RATINGS.md says what the code does: its table of the ladder on the rating scale is the one
the ladder's measured strengths give, and the model's numbers it names are the code's."""

from __future__ import annotations

import re
from pathlib import Path

from dvtui.bots import RATINGS
from dvtui.ratings import BETA, BOT_SIGMA, MU0, NEWCOMER, PROVISIONAL, SIGMA0, STRONG_AT, Z, level_rating

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "RATINGS.md").read_text()
ROW = re.compile(r"^\| `(\w+)`[^|]* \| ([−+]?\d+) \| (\d+) \|$", re.MULTILINE)


def number(text: str) -> int:
    return int(text.replace("−", "-"))


def test_the_ladder_table_is_the_measured_strengths_on_the_scale() -> None:
    rows = {level: (number(elo), int(shown)) for level, elo, shown in ROW.findall(PAGE)}
    expected = {level: (elo, round(level_rating(level) or 0)) for level, elo in RATINGS.items() if level != "expert"}
    assert rows == expected


def test_the_models_numbers_are_the_codes() -> None:
    assert f"`strong` stands at {STRONG_AT}" in PAGE
    assert f"`mu − {Z}·sigma`" in PAGE
    assert f"Provisional** while `sigma` is above {round(PROVISIONAL)}" in PAGE
    assert f"starts at `mu` {round(MU0)}" in PAGE and f"with `sigma` {round(SIGMA0)}" in PAGE
    assert f"they show {NEWCOMER.shown}" in PAGE
    assert f"`beta` = 200/ln 10 ≈ {round(BETA)}" in PAGE
    assert f"an uncertainty of {round(BOT_SIGMA)}" in PAGE
