"""A browser tab and a terminal at one shared table: ``dvtui serve``, a player in tmux (``dvtui
join``) and ``dvtui web --table`` in the system's Chromium. The page offers the table's seats with
who is at each, the tab takes the one it chooses, both place cards from the keyboard, each screen
shows the other's move, and the table's file has both placements and verifies."""

from __future__ import annotations

import getpass
from pathlib import Path

import pytest

from dvtui.bots import choose
from dvtui.engine import CardPlaced
from dvtui.store import read_game

from ..support.processes import dvtui
from ..support.servers import SLOW, Served, short_dir, wait_for
from ..support.terminals import Terminals
from ..support.web import Pages, Tab, web_server

pytestmark = [pytest.mark.chromium, pytest.mark.tmux]

COLUMNS = "abcdefg"


def _greedy(server: Served, table: str) -> tuple[str, str]:
    """The keys of a legal placement for the player to move (a greedy bot's choice)."""
    card, column = choose("greedy", server.game(table).copy(), 11)
    return str(card), COLUMNS[column]


def _said(server: Served, table: str, name: str) -> str:
    """The event log's line for ``name``'s latest placement (without the name, which the tab draws
    in a style of its own), once the file has one: picked by seat, not as the file's last, which
    may already be the bot's answer."""
    seat = [p.name for p in server.game(table).created.players].index(name)

    def theirs() -> list[CardPlaced]:
        events = read_game(server.game_file(table)).events
        return [e for e in events if isinstance(e, CardPlaced) and e.player == seat]

    wait_for(f"{name}'s placement", lambda: bool(theirs()), every=SLOW)
    placed = theirs()[-1]
    return f"placed {placed.card} under column {'ABCDEFG'[placed.column]}"


@pytest.mark.long
def test_a_browser_tab_chooses_its_seat_and_plays_with_a_terminal(pages: Pages, tmp_path: Path) -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        srv = str(server.directory)
        opened = server.dvtui("new", "--table", "fri", "--players", "Ana,Bob,bot:greedy", "--first", "1",
                              "--seed", "3", "--start-now")  # fmt: skip
        assert opened.returncode == 0, opened.stderr
        terms = Terminals(d)
        try:
            terms.run("Ana", "join", "fri", "--as", "Ana", "--server", srv, "--no-bell")
            terms.wait("Ana", "Ana at the table", lambda s: "Your turn" in s)
            with web_server(tmp_path / "data", "--table", "fri", "--server", srv) as (_, url):
                page = pages.new()
                tab = Tab(page)
                page.goto(url + "/")
                tab.wait_for("choose your seat")
                tab.wait_for("Ana: here")  # the terminal's player: connected, not to be taken
                tab.wait_for("Bob: free")
                assert page.title() == "Dolce Vita · table fri"
                tab.mark()
                tab.press("Enter")  # the seat the page offers: Bob's, the free one
                tab.wait_for("table fri")
                tab.wait_for(" (you) · ")  # Bob's, in the banner of who is there (each name in its colour)
                tab.wait_for(" (here) · ")  # Ana's
                terms.wait("Ana", "Bob seated", lambda s: f"Bob ({getpass.getuser()}) (here)" in s)  # the tab's account

                tab.mark()
                terms.keys("Ana", *_greedy(server, "fri"), "Enter")  # the terminal's move...
                tab.wait_for(_said(server, "fri", "Ana"))  # ... on the browser's screen
                tab.wait_for("Your turn")  # Bob's, after Ana's
                tab.press(*_greedy(server, "fri"), "Enter")  # the browser's move...
                bob = f"Bob {_said(server, 'fri', 'Bob')}"
                terms.wait("Ana", "Bob's move on the terminal", lambda s: bob in s)  # ... on the terminal's
                pages.close(page)
            placed = [e for e in read_game(server.game_file("fri")).events if isinstance(e, CardPlaced)]
            assert [e.player for e in placed[:2]] == [0, 1]
            verified = dvtui("verify", str(server.game_file("fri")))
            assert verified.returncode == 0, verified.stdout + verified.stderr
        finally:
            terms.close()
