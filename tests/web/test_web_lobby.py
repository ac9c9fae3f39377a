"""``dvtui web`` without ``--table`` behind a login proxy: each person's tab opens the start menu.
Its first choice, Play now, seeks a table at the table server as the tab's person (``web:NAME``),
the tab counting down to the bots, and Esc leaves the pool for the menu. The menu's lobby lists
the table server's tables with theirs first; the person chooses their table, takes their seat
there as themselves, and plays a card. The page's title and icon say when it is their turn, and
come back once it has passed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..support.servers import Served, short_dir, wait_for
from ..support.web import MENU, Pages, Tab, wait_until, web_server

pytestmark = pytest.mark.chromium

HEADER = "X-User"


def placements(path: Path) -> list[tuple[int, int]]:
    """(player, card) of every card placed so far."""
    lines = [json.loads(line) for line in path.read_bytes().splitlines()]
    return [(e["player"], e["card"]) for e in lines if e["type"] == "card_placed"]


@pytest.mark.long
def test_a_person_seeks_with_play_now_then_finds_their_table_in_the_lobby(pages: Pages, tmp_path: Path) -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.directory.mkdir(mode=0o700)
        server.start()
        for opening in (("fri", "Ana,Bob,bot:greedy", "--invite", "1=web:ana"), ("other", "Cy,Di,bot:greedy")):
            opened = server.dvtui("new", "--table", *opening[:1], "--players", *opening[1:], "--seed", "7",
                                  "--start-now")  # fmt: skip
            assert opened.returncode == 0, opened.stderr
        with web_server(tmp_path / "data", "--server", str(server.directory), "--user-header", HEADER) as (web, url):
            tab = Tab(pages.new({HEADER: "ana"}))
            tab.page.goto(url + "/")
            tab.wait_for(MENU)
            tab.wait_for("Play now: a table with people of your level")
            tab.mark()
            tab.press("Enter")  # Play now, the first choice, highlighted: a seek as the tab's person
            tab.wait_for("1 person seeks; bots fill the free")
            wait_for("ana to seek", lambda: "web:ana seeks a game (3/4/5 players" in server.log(), server.log)
            tab.mark()
            tab.press("Escape")  # out of the pool, back to the menu, Play now highlighted again
            tab.wait_for(MENU)
            wait_for("ana to leave the pool", lambda: "web:ana left the pool" in server.log(), server.log)
            tab.wait_for("your turn")  # Ana's tables, hers to play first
            tab.wait_for("Other tables")
            tab.mark()
            # past New game, Replay, Your games, Open a new table, Ratings, Tournaments and the heading
            tab.press("ArrowDown", "ArrowDown", "ArrowDown", "ArrowDown", "ArrowDown", "ArrowDown", "ArrowDown",
                      "Enter")  # fmt: skip
            tab.wait_for("table fri: choose your seat")
            tab.wait_for("Ana: free, take this seat")  # kept for web:ana, so hers to take
            tab.mark()
            tab.press("Enter")  # the seat offered: hers
            tab.wait_for("Your turn, Ana")
            page = tab.page
            icon = "document.querySelector(\"link[rel='icon']\").getAttribute('href')"
            wait_until(lambda: page.title() == "▶ Your turn · Dolce Vita", "the page's title to say her turn")
            assert "fill='%23f5d76e'" in page.evaluate(icon)  # the gold card
            tab.press("1", "a", "Enter")
            wait_until(lambda: placements(server.game_file("fri")) == [(0, 1)], "Ana's placement in the table's file")
            wait_until(lambda: page.title() == "Dolce Vita", "the title back once her turn has passed (Bob's now)")
            assert "fill='%230e2a1f'" in page.evaluate(icon)
            listed = server.dvtui("tables").stdout
            assert "Ana: connected (web:ana)" in listed, listed
            pages.close(page)
            assert web.poll() is None
        assert server.stop() == 0
