"""docs/PLAIN.md's commands run exactly as the page gives them, and its example session says what
the page says it does."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

from dvtui.engine import Game, new_game
from dvtui.plain.commands import Wrong, read
from dvtui.play.seats import parse_players

from ..support.files import PLAYERS, write_game
from ..support.plain import no_escape
from ..support.processes import REPO, dvtui_cmd, env
from ..support.servers import Served, short_dir

PAGE = REPO / "docs" / "PLAIN.md"


def _blocks(kind: str) -> list[list[str]]:
    return [block.strip("\n").splitlines() for block in re.findall(rf"```{kind}\n(.*?)```", PAGE.read_text(), re.S)]


def _run(command: str, typed: str, cwd: Path, environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    words = shlex.split(command)
    assert words[0] == "dvtui"
    return subprocess.run(dvtui_cmd(*words[1:]), input=typed, capture_output=True, text=True, cwd=cwd,
                          env=environment, timeout=120, check=False)  # fmt: skip


def test_every_command_of_the_page_runs_as_written(tmp_path: Path) -> None:
    """Through a pipe (the plain mode needs no terminal), each answered with an empty line, then quit."""
    commands = _blocks("sh")[0]
    assert len(commands) == 7
    write_game(tmp_path / "game.dvr", PLAYERS[3], 5)
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        opened = server.dvtui("new", "--table", "friday", "--players", "Ana,Bob,bot:greedy", "--start-now")
        assert opened.returncode == 0, opened.stderr
        environment = {**env(tmp_path / "data"), "DVTUI_SERVER_DIR": str(server.directory)}
        for command in commands:
            done = _run(command, "\nquit\n", tmp_path, environment)
            assert done.returncode == 0, (command, done.stdout, done.stderr)
            assert done.stderr == "", (command, done.stderr)
            no_escape(done.stdout)
            assert done.stdout.count("\n") >= 2, (command, done.stdout)


def test_the_example_session_says_what_the_page_shows(tmp_path: Path) -> None:
    example = next(block for block in _blocks("text") if block[0].startswith("$ dvtui"))
    command = example[0][2:]
    seats = parse_players("Ana,bot:greedy,bot:greedy")
    game = Game(new_game(seats, first_player=0, seed=42))
    # what dvtui says starts with a capital; what the person types is lower case, and is a command
    typed = [line for line in example[1:] if not line[:1].isupper() and line != "…"]
    assert [isinstance(read(line, game, 0), Wrong) for line in typed] == [False] * len(typed)
    assert typed == ["column c", "3 c", "awards", "quit"]
    done = _run(command, "".join(f"{line}\n" for line in typed), tmp_path, env(tmp_path / "data"))
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    shown = [line for line in example[1:-2] if line not in typed and line != "…"]
    at = 0
    for line in shown:  # in the order the page shows them
        assert line in said[at:], line
        at = said.index(line, at) + 1
    assert said[-2].startswith("Game saved in ") and said[-1].startswith("Continue it: dvtui resume ")
