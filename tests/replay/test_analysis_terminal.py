"""The viewer's analysis in a real terminal: its searches run on a process pool, whose helper
processes multiprocessing starts with the caller's ``sys.stderr``; under Textual that is an object
with no file behind it (``fileno()`` is -1), which a Pilot test never meets. Needs ``tmux``."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..support.replays import REPLAYS
from ..support.servers import short_dir
from ..support.terminals import Terminals

pytestmark = pytest.mark.tmux


@pytest.mark.long
def test_a_in_the_viewer_analyses_on_processes_and_shows_the_chart() -> None:
    with short_dir() as d:
        game = d / "game.dvr"
        lines = (REPLAYS / "game.dvr").read_bytes().splitlines(keepends=True)
        ended = next(i for i, line in enumerate(lines) if b'"type":"round_ended"' in line)
        game.write_bytes(b"".join(lines[: ended + 1]))  # its first round: the searches take seconds, not a minute
        terminals = Terminals(d)
        try:
            terminals.run("viewer", "replay", str(game))
            terminals.wait("viewer", "the viewer", lambda s: "REPLAY" in s)
            terminals.keys("viewer", "a")
            terminals.wait("viewer", "the chart", lambda s: "Analysis (" in s or "Traceback" in s or "Error" in s)
            screen = terminals.screen("viewer")
            assert "Analysis (" in screen and "inaccurac" in screen, screen
            assert Path(f"{game}.analysis.json").is_file()
            terminals.keys("viewer", "Escape")
            terminals.wait("viewer", "the viewer again", lambda s: "Analysis (" not in s)
            terminals.keys("viewer", "q")
            terminals.wait("viewer", "the end", lambda s: terminals.dead("viewer"))
        finally:
            terminals.close()
