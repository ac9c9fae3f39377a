"""docs/PLAYING.md's table of the ladder gives the ratings the set-up screen and the rating scale use
(``dvtui/bots/strengths.py``): a new measurement is copied to both or the suite says which is behind."""

from __future__ import annotations

import re
from pathlib import Path

from dvtui.bots import RATINGS, SAME_PLAYER

PAGE = (Path(__file__).resolve().parents[2] / "docs" / "PLAYING.md").read_text()
SECTION = PAGE.split("\n## The ladder\n", 1)[1].split("\n## ", 1)[0]
ROW = re.compile(r"^\| `(\w+)` \| ([−+]?\d+) \| ", re.MULTILINE)


def number(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def test_the_ladders_table_is_the_published_ratings() -> None:
    rows = {level: number(elo) for level, elo in ROW.findall(SECTION)}
    assert rows == {level: elo for level, elo in RATINGS.items() if level not in SAME_PLAYER}
