"""``dvtui web`` in a real browser: a game set up and played from the keyboard in a tab, saved as
from a terminal; a reload offers to resume it; a closed tab ends its process and loses nothing."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser

from dvtui.store import read_game

from .support import Tab, descendants, wait_until, web_server

MENU = "New game: choose the seats, then play"
SETUP = "Start the game"
TABLE = "pick a card 1-6"
RESUME = "Resume the latest game"


def saved_game(data: Path) -> Path:
    return wait_until(lambda: next(iter(data.rglob("*.dvr")), None), "the game's file")  # type: ignore[return-value]


def placements(path: Path) -> list[tuple[int, int, int]]:
    """(player, column, card) of every card placed, in the file's lines, which a reader reads whole."""
    loaded = read_game(path)
    assert loaded.torn is None and not loaded.missing_tail
    events = [json.loads(line) for line in path.read_bytes().splitlines()]
    return [(e["player"], e["column"], e["card"]) for e in events if e["type"] == "card_placed"]


def start_and_place(tab: Tab, url: str, data: Path) -> Path:
    """From the start menu: a new game with the set-up's seats (you and two greedy bots), card 1
    placed under column a; returns its file once the placement is in it."""
    tab.page.goto(url + "/")
    tab.wait_for(MENU)
    tab.press("Enter")  # New game
    tab.wait_for(SETUP)
    tab.mark()
    tab.press("Control+s")  # start it, seats as offered
    tab.wait_for(TABLE)
    tab.press("1", "a", "Enter")
    path = saved_game(data)
    wait_until(lambda: (0, 0, 1) in placements(path), "the placement in the file")
    return path


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
        tab.press("ArrowDown", "Enter")  # resume it
        tab.wait_for(TABLE)
        assert placements(path)[0] == (0, 0, 1)
        page.close()


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
        page.keyboard.press("Enter")  # straight to the page, as a person types: New game
        tab.wait_for(SETUP)
        page.close()
