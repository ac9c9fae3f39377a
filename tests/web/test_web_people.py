"""Behind a login proxy (``dvtui web --user-header``), in the system's Chromium: each person the
proxy names has a data directory of their own under the web account's, so one person's start menu
never offers another's game, and its replay prompt asks for the name of one of that person's own
saved games (what it refuses when typed is tested in tests/app/test_app_menu.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from dvtui.store.saves import PEOPLE, person_dir_name

from ..support.web import MENU, RESUME, Tab, placements, start_and_place, web_server

pytestmark = pytest.mark.chromium

HEADER = "X-User"
REPLAY = "Replay a game file"


def person_tab(browser: Browser, user: str) -> Tab:
    """A page of a browser context of its own, whose every request names ``user`` (as the proxy would)."""
    context = browser.new_context(viewport={"width": 1100, "height": 700}, extra_http_headers={HEADER: user})
    return Tab(context.new_page())


@pytest.mark.long
def test_each_person_sees_and_opens_only_their_own_games(browser: Browser, tmp_path: Path) -> None:
    data = tmp_path / "data"
    people = data / PEOPLE
    with web_server(data, "--user-header", HEADER) as (_, url):
        ana = person_tab(browser, "ana")
        path = start_and_place(ana, url, people)
        assert path.parent == people / person_dir_name("ana") / "games"  # under the web account's data dir
        assert (people / person_dir_name("ana")).stat().st_mode & 0o077 == 0  # private to that account
        ana.page.context.close()

        bob = person_tab(browser, "bob")
        bob.page.goto(url + "/")
        bob.wait_for(REPLAY)  # the menu's options, in order: no "Resume" of Ana's game before this one
        assert RESUME not in bob.shown()
        bob.press("ArrowDown", "ArrowDown", "Enter")  # Replay a game file (after Play now and New game)
        bob.wait_for("name of a saved game")  # never a path: what it refuses, tests/app/test_app_menu.py
        bob.page.context.close()

        ana = person_tab(browser, "ana")
        ana.page.goto(url + "/")
        ana.wait_for(MENU)
        ana.wait_for(RESUME)  # her own game, still hers
        ana.mark()
        ana.press("ArrowDown", "ArrowDown", "Enter")  # Resume (after Play now and New game)
        ana.wait_for("pick a card 1-6")
        assert placements(path)[0] == (0, 0, 1)
        ana.page.context.close()
