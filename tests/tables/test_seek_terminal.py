"""``dvtui seek`` in a terminal (tmux, keys sent as a person types them): the countdown is one line
rewritten in place, ``q`` leaves the pool, and a seek the pool seats shows the live table it
opened. Needs ``tmux``."""

from __future__ import annotations

import pytest

from ..support.servers import Served, short_dir, wait_for
from ..support.terminals import Terminals

pytestmark = pytest.mark.tmux


def test_q_leaves_the_pool_and_a_seat_shows_its_live_table() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.directory.mkdir(mode=0o700)
        server.start()
        terms = Terminals(d)
        try:
            terms.run("ana", "seek", "--server", str(server.directory))
            terms.wait("ana", "the countdown", lambda s: "bots fill the free seats in" in s and "q, Esc or Ctrl+C" in s)
            assert terms.screen("ana").count("seeking a table") == 1  # one line, rewritten each second
            terms.keys("ana", "q")
            terms.wait("ana", "the pool left", lambda s: "you left the pool" in s)
            wait_for("dvtui to end", lambda: terms.dead("ana"), lambda: terms.screen("ana"))
            assert "left the pool" in server.log()

            terms.run("bob", "seek", "--players", "3", "--wait", "1s", "--server", str(server.directory))
            terms.wait("bob", "the live table", lambda s: "table play-" in s and "Bot 1" in s)
            terms.keys("bob", "q")  # the table is left (the seat stays)
            wait_for("dvtui to end", lambda: terms.dead("bob"), lambda: terms.screen("bob"))
        finally:
            terms.close()
        assert server.stop() == 0, server.log()
