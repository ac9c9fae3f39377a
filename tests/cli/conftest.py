"""Fixtures for the command-line tests: a directory of game files written the way play writes them."""

from __future__ import annotations

import pytest

from ..support.files import DERIVED, PLAYERS, Games, file_bytes, write_game


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Games:
    d = tmp_path_factory.mktemp("games")
    complete = {}
    for n, seed in ((3, 101), (4, 102), (5, 103)):
        path = d / f"{n}p.dvr"
        complete[n] = (path, write_game(path, PLAYERS[n], seed, first=n - 1)[1])
    _, events = write_game(d / "unfinished.dvr", PLAYERS[4], 104, upto=23)
    script_events = complete[3][1]
    script = d / "script.dvr"
    script.write_bytes(file_bytes([ev for ev in script_events if not isinstance(ev, DERIVED)]))
    assert events
    return Games(d, complete, script, script_events, d / "unfinished.dvr")
