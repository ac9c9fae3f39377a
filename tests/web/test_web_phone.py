"""A browser tab as narrow as a phone held upright: the table plays compact (no "window too
small"), and a card is placed from it, by keys as by touch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import ViewportSize

from ..support.web import MENU, SETUP, Pages, Tab, placements, saved_game, wait_until, web_server

pytestmark = pytest.mark.chromium

PHONE: ViewportSize = {"width": 430, "height": 900}
"""A phone's screen held upright, in CSS pixels: some 45 characters by 45 rows in the tab."""


class Sizes:
    """The sizes the tab's terminal tells its dvtui (``["resize", {"width": W, ...}]`` frames)."""

    def __init__(self, page: object) -> None:
        self.widths: list[int] = []
        page.on("websocket", lambda ws: ws.on("framesent", self._sent))  # type: ignore[attr-defined]

    def _sent(self, payload: bytes | str) -> None:
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
        self.widths += [int(width) for width in re.findall(r'"resize",\s*\{"width":\s*(\d+)', text)]


def test_a_tab_as_narrow_as_a_phone_plays_a_card(pages: Pages, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with web_server(data) as (_, url):
        page = pages.new(viewport=PHONE)
        sizes = Sizes(page)
        tab = Tab(page)
        page.goto(url + "/")
        tab.wait_for(MENU)
        tab.press("ArrowDown", "Enter")  # New game (after Play now)
        tab.wait_for(SETUP)
        tab.mark()
        tab.press("Control+s")  # you and two greedy bots
        tab.wait_for("pick a card 1-6")  # the table, and its hand's advice (under the cards)
        assert sizes.widths and 40 <= sizes.widths[-1] < 73, sizes.widths
        assert "too small" not in tab.shown()
        tab.press("1", "a", "Enter")
        path = saved_game(data)
        wait_until(lambda: (0, 0, 1) in placements(path), "the placement in the file")
        pages.close(page)
