"""``dvtui web`` in a real browser: a game set up and played from the keyboard in a tab, saved as
from a terminal; a reload offers to resume it; a closed tab ends its process and loses nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from dvtui.store import read_game

from ..support.web import (
    MENU,
    RESUME,
    SETUP,
    TABLE,
    Tab,
    descendants,
    placements,
    start_and_place,
    wait_until,
    web_server,
)

pytestmark = pytest.mark.chromium


@pytest.mark.long
def test_a_game_in_a_tab_is_saved_and_a_reload_offers_to_resume_it(browser: Browser, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with web_server(data) as (_, url):
        page = browser.new_page(viewport={"width": 1100, "height": 700})
        tab = Tab(page)
        path = start_and_place(tab, url, data)
        assert page.title() == "Dolce Vita"
        assert "data:image/svg+xml" in page.get_attribute("link[rel=icon]", "href")
        created = read_game(path).game.created
        assert [p.kind for p in created.players] == ["human", "bot", "bot"]
        assert placements(path)[0] == (0, 0, 1)

        tab.mark()
        page.reload()  # a new process for the tab; the old one quits with its game saved
        tab.wait_for(RESUME)
        tab.mark()
        tab.press("ArrowDown", "ArrowDown", "Enter")  # resume it (after Play now and New game)
        tab.wait_for(TABLE)
        assert placements(path)[0] == (0, 0, 1)
        page.close()


@pytest.mark.long
def test_a_closed_tab_ends_its_process_and_loses_nothing(browser: Browser, tmp_path: Path) -> None:
    data = tmp_path / "data"
    with web_server(data) as (server, url):
        spare = set(wait_until(lambda: descendants(server.pid), "the spare dvtui"))  # type: ignore[arg-type]
        page = browser.new_page(viewport={"width": 1100, "height": 700})
        tab = Tab(page)
        path = start_and_place(tab, url, data)
        before = placements(path)
        page.close()
        # the spare became the tab's dvtui (an unused one would stay), and it ends with the tab
        wait_until(lambda: not spare & set(descendants(server.pid)), "the tab's process to end")
        assert server.poll() is None  # the server serves on
        assert placements(path) == before


def test_a_key_typed_right_after_the_page_loads_reaches_the_app(browser: Browser, tmp_path: Path) -> None:
    """No click on the page first: the terminal has the keyboard from the start."""
    with web_server(tmp_path / "data") as (_, url):
        page = browser.new_page(viewport={"width": 1100, "height": 700})
        tab = Tab(page)
        page.goto(url + "/")
        tab.wait_for(MENU)
        assert page.evaluate("document.activeElement.className") == "xterm-helper-textarea"
        tab.mark()
        page.keyboard.press("ArrowDown")  # straight to the page, as a person types: past Play now,
        page.keyboard.press("Enter")  # New game
        tab.wait_for(SETUP)
        page.close()
