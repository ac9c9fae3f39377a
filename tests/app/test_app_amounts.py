"""An amount written the French way (``3 400 000``, narrow no-break spaces) is never cut across two
lines: left alone, Rich and Textual wrap at any whitespace, the no-break spaces included; the app
makes them wrap at breakable spaces only (measured here in a narrow Static, the widget the table's
lines are drawn in, and in Rich's own wrapping)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from dvtui import i18n
from dvtui.app import app as _app  # noqa: F401  (importing the app sets how every screen wraps)
from dvtui.describe import AMOUNT_SPACE, amount, short_amount

from ..support.pilot import screen_lines, until

WIDTH = 14
"""Narrow enough that ``Ana a 3 400 000 points`` must wrap, and the amount straddles the edge."""


@pytest.fixture
def french() -> Iterator[None]:
    i18n.set_language("fr")
    try:
        yield
    finally:
        i18n.set_language(i18n.ENGLISH)


class Narrow(App[None]):
    CSS = f"Static {{ width: {WIDTH}; height: auto; }}"

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        for line in self.lines:
            yield Static(Text(line))


def sentence(space: str) -> str:
    return f"Ana a 3{space}400{space}000 points"


async def drawn(lines: list[str]) -> list[str]:
    app = Narrow(lines)
    async with app.run_test(size=(40, 20)) as pilot:
        last = lines[-1].split()[-1]
        await until(pilot, "the lines drawn", lambda: any(last in line for line in screen_lines(app)))
        return [line.rstrip() for line in screen_lines(app) if line.strip()]


@pytest.mark.parametrize("space", ["\u00a0", "\u202f", "\u2007"], ids=["nbsp", "nnbsp", "figure"])
async def test_a_line_is_never_cut_at_a_no_break_space(space: str) -> None:
    assert await drawn([sentence(space)]) == ["Ana a", sentence(space)[6:-7], "points"]
    rich = [line.plain.rstrip() for line in Text(sentence(space)).wrap(Console(width=WIDTH), WIDTH)]
    assert rich == ["Ana a", sentence(space)[6:-7], "points"]


async def test_a_line_is_still_cut_at_a_breakable_space() -> None:
    thin = "\u2009"
    assert await drawn([sentence(thin)]) == ["Ana a 3" + thin + "400", "000 points"]


async def test_the_amount_space_keeps_an_amount_whole_in_a_narrow_static(french: None) -> None:
    said = amount(3_400_000)
    assert said == "3" + AMOUNT_SPACE + "400" + AMOUNT_SPACE + "000"
    assert AMOUNT_SPACE == "\u202f"
    assert await drawn([f"Ana a {said} points"]) == ["Ana a", said, "points"]
    short = short_amount(3_400_000)
    assert short == "3,4" + AMOUNT_SPACE + "M"
    assert await drawn([f"Ana a gagné {short}"]) == ["Ana a gagné", short]
    rich = [line.plain.rstrip() for line in Text(f"Ana a {said} points").wrap(Console(width=WIDTH), WIDTH)]
    assert rich == ["Ana a", said, "points"]


def test_amounts_in_each_language(french: None) -> None:
    n = "\u202f"
    assert [amount(v) for v in (0, 950, 700_000, 12_300_000)] == ["0", "950", f"700{n}000", f"12{n}300{n}000"]
    assert [short_amount(v) for v in (0, 700_000, 1_000_000, 2_350_000)] == ["0", f"700{n}k", f"1{n}M", f"2,35{n}M"]
    i18n.set_language(i18n.ENGLISH)
    assert (amount(3_400_000), short_amount(3_400_000), short_amount(700_000)) == ("3,400,000", "3.4M", "700k")
