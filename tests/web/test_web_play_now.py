"""Play now in a browser tab (``dvtui web`` behind a login proxy): the start menu's first choice
seeks a table at the table server as the tab's person (``web:NAME``), the tab counts down to the
bots, and Esc leaves the pool for the menu."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..support.servers import Served, short_dir, wait_for
from ..support.web import MENU, Pages, Tab, web_server

pytestmark = pytest.mark.chromium

HEADER = "X-User"


def test_play_now_seeks_as_the_tabs_person_and_esc_leaves_the_pool(pages: Pages, tmp_path: Path) -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.directory.mkdir(mode=0o700)
        server.start()
        with web_server(tmp_path / "data", "--server", str(server.directory), "--user-header", HEADER) as (_, url):
            tab = Tab(pages.new({HEADER: "ana"}))
            tab.page.goto(url + "/")
            tab.wait_for(MENU)
            tab.wait_for("Play now: a table with people of your level")
            tab.mark()
            tab.press("Enter")  # the first choice, highlighted
            tab.wait_for("1 person seeks; bots fill the free")
            wait_for("ana to seek", lambda: "web:ana seeks a game (3/4/5 players" in server.log(), server.log)
            tab.mark()
            tab.press("Escape")
            tab.wait_for(MENU)
            wait_for("ana to leave the pool", lambda: "web:ana left the pool" in server.log(), server.log)
            pages.close(tab.page)
        assert server.stop() == 0, server.log()
