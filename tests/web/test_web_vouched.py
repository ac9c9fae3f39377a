"""A shared table from browsers behind a login proxy (``dvtui web --table T --user-header H``): every
tab's dvtui runs as the one account of ``dvtui web``, yet each user the proxy names owns their own
seat, because the tab's dvtui vouches for them to the table server (which trusts its own account).
Two pages stand for two people, each sending its proxy header on every request, the
websocket's upgrade included (without it the tab is refused)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ..support.servers import Served, short_dir
from ..support.web import Pages, Tab, wait_until, web_server

pytestmark = pytest.mark.chromium

HEADER = "X-User"


def placements(path: Path) -> list[tuple[int, int]]:
    """(player, card) of every card placed so far."""
    lines = [json.loads(line) for line in path.read_bytes().splitlines()]
    return [(e["player"], e["card"]) for e in lines if e["type"] == "card_placed"]


@pytest.mark.long
def test_each_proxy_user_sits_at_their_own_seat_of_a_shared_table(pages: Pages, tmp_path: Path) -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.directory.mkdir(mode=0o700)
        server.start()
        opened = server.dvtui("new", "--table", "t", "--players", "Ana,Bob,bot:greedy", "--first", "1", "--seed", "7")
        assert opened.returncode == 0, opened.stderr
        game = server.game_file("t")
        args = ("--table", "t", "--server", str(server.directory), "--user-header", HEADER)
        with web_server(tmp_path / "data", *args) as (web, url):
            tabs = {}
            for user in ("bob", "ana"):  # Bob first: the seat he gets is his name's, not the first free one
                tab = tabs[user] = Tab(pages.new({HEADER: user}))
                tab.page.goto(url + "/")
                tab.wait_for("choose your seat")
                tab.wait_for("Ana: ")  # the seats as the table has them: the one named like the person is offered
                tab.mark()
                tab.press("Enter")
                tab.wait_for("table t")
            tabs["ana"].wait_for("Your turn, Ana")
            tabs["ana"].press("1", "a", "Enter")
            wait_until(lambda: placements(game) == [(0, 1)], "Ana's placement in the table's file")
            tabs["bob"].wait_for("Your turn, Bob")
            tabs["bob"].press("2", "b", "Enter")
            wait_until(lambda: placements(game)[1:2] == [(1, 2)], "Bob's placement in the table's file")

            listed = server.dvtui("tables").stdout
            assert "Ana: connected (web:ana); Bob: connected (web:bob)" in listed, listed
            for tab in tabs.values():
                pages.close(tab.page)
            assert web.poll() is None
        assert server.stop() == 0
