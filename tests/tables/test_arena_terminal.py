"""``dvtui tournament join`` in a terminal (tmux): the table the tournament seats one at is the live
table on this terminal, as ``dvtui seek``'s; one who leaves it before its game ends is not seated
again meanwhile, and is told where to go back. Needs ``tmux``."""

from __future__ import annotations

import subprocess

import pytest

from ..support.processes import dvtui, dvtui_cmd, env
from ..support.servers import Threaded, short_dir, wait_for
from ..support.terminals import Terminals

pytestmark = pytest.mark.tmux


def test_a_person_in_a_tournament_plays_its_table_on_the_terminal() -> None:
    with short_dir() as d, Threaded(d / "srv") as server:  # (the terminal's client is the subject)
        server.directory.mkdir(mode=0o700)
        server.start()
        where = str(server.directory)
        assert dvtui("tournament", "new", "cup", "--minutes", "2", "--players", "3", "--server", where).returncode == 0
        bots = [
            subprocess.Popen(dvtui_cmd("tournament", "join", "cup", "--bot", "greedy", "--server", where),
                             env={**env(), "DVTUI_PLAYER": person}, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for person in ("bo", "cy")
        ]  # fmt: skip
        terms = Terminals(d)
        try:
            terms.run("ana", "tournament", "join", "cup", "--server", where)
            terms.wait("ana", "the live table", lambda s: "table play-" in s and "web:bo" in s and "web:cy" in s)
            terms.keys("ana", "q")  # the table is left (the seat stays)
            wait_for("dvtui to end", lambda: terms.dead("ana"), lambda: terms.screen("ana"))
            said = " ".join(terms.screen("ana").split())
            assert "tournament cup seated you at table play-" in said, said
            assert "of tournament cup: finish it first (dvtui join play-" in said  # left before its end
        finally:
            terms.close()
            for bot in bots:
                bot.terminate()
                bot.wait(timeout=60)
        assert server.stop() == 0, server.log()
