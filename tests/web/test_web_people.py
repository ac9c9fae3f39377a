"""Behind a login proxy (``dvtui web --user-header``), in the system's Chromium: each person the
proxy names has a data directory of their own under the web account's, so one person's start menu
never offers another's game, and its replay prompt asks for the name of one of that person's own
saved games (what it refuses when typed is tested in tests/app/test_app_menu.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dvtui.store.saves import PEOPLE, person_dir_name

from ..support.web import MENU, RESUME, Pages, Tab, placements, start_and_place, web_server

pytestmark = pytest.mark.chromium

HEADER = "X-User"
REPLAY = "Replay a game file"


@pytest.mark.long
def test_each_person_sees_and_opens_only_their_own_games(pages: Pages, tmp_path: Path) -> None:
    """One page, whose every request names the person (as the proxy would) until the next person
    takes it: each navigation is a new tab, the last one's dvtui ending with it."""
    data = tmp_path / "data"
    people = data / PEOPLE
    with web_server(data, "--user-header", HEADER) as (_, url):
        page = pages.new({HEADER: "ana"})
        tab = Tab(page)
        path = start_and_place(tab, url, people)
        assert path.parent == people / person_dir_name("ana") / "games"  # under the web account's data dir
        assert (people / person_dir_name("ana")).stat().st_mode & 0o077 == 0  # private to that account

        page.set_extra_http_headers({HEADER: "bob"})
        tab.mark()
        page.goto(url + "/")
        tab.wait_for(REPLAY)  # the menu's options, in order: no "Resume" of Ana's game before this one
        assert RESUME not in tab.shown()
        tab.press("ArrowDown", "ArrowDown", "Enter")  # Replay a game file (after Play now and New game)
        # its placeholder, never a path (what it refuses: tests/app/test_app_menu.py), as first
        # drawn: the input's cursor on its n (in one piece only once the cursor blinks)
        tab.wait_for("ame of a saved game")

        page.set_extra_http_headers({HEADER: "ana"})
        tab.mark()
        page.goto(url + "/")
        tab.wait_for(MENU)
        tab.wait_for(RESUME)  # her own game, still hers
        tab.mark()
        tab.press("ArrowDown", "ArrowDown", "Enter")  # Resume (after Play now and New game)
        tab.wait_for("pick a card 1-6")
        assert placements(path)[0] == (0, 0, 1)
        pages.close(page)
