"""Game files for the command-line tests, written the way play writes them, and a runner for
``python -m dvtui`` as a user types it (a separate process: real exit codes, real stderr)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from dvtui.engine import ColumnResolved, Event, GameCreated, GameEnded, RoundEnded
from dvtui.play.autoplay import play_game
from dvtui.play.seats import parse_players
from dvtui.store import GameWriter, encode_line

REPO = Path(__file__).resolve().parents[2]
DERIVED = (ColumnResolved, RoundEnded, GameEnded)
AT = re.compile(rb',"at":"[^"]*"}\n')

PLAYERS = {
    3: "bot:random,bot:greedy,bot:greedy",
    4: "bot:greedy,bot:random,bot:greedy,bot:random",
    5: "bot:random,bot:random,bot:greedy,bot:greedy,bot:random",
}


@dataclass
class Run:
    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        return self.err.splitlines()


def dvtui(*args: str | Path) -> Run:
    """``python -m dvtui ARGS`` in a fresh interpreter; DVTUI_DEBUG unset so errors stay one line."""
    env = {k: v for k, v in os.environ.items() if k != "DVTUI_DEBUG"}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-m", "dvtui", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=120,
    )
    return Run(proc.returncode, proc.stdout, proc.stderr)


def one_error_line(run: Run) -> str:
    """The run's stderr, asserted to be exactly one ``dvtui: error: ...`` line, no traceback."""
    assert "Traceback" not in run.err
    assert len(run.err_lines) == 1, run.err
    line = run.err_lines[0]
    assert line.startswith("dvtui: error: "), line
    assert "internal error" not in line, line
    return line[len("dvtui: error: ") :]


def strip_at(data: bytes) -> bytes:
    return AT.sub(b"}\n", data)


def write_game(path: Path, players: str, seed: int, first: int = 0, *, upto: int | None = None) -> list[Event]:
    """Play a bot game, saving it event by event as play does (stamped); ``upto`` stops after that
    many decisions. Returns every event of the whole game."""
    writer: list[GameWriter] = []
    decisions = 0

    def sink(events: list[Event]) -> None:
        nonlocal decisions
        decisions += 1
        if upto is not None and decisions > upto:
            return
        if not writer:
            assert isinstance(events[0], GameCreated)
            writer.append(GameWriter.create(path, events[0], stamp=True))
            events = events[1:]
        if events:
            writer[0].append(events)

    try:
        _, events = play_game(parse_players(players), seed, first, sink)
    finally:
        if writer:
            writer[0].close()
    return events


def engine_file(events: list[Event]) -> bytes:
    return b"".join(encode_line(ev, i) for i, ev in enumerate(events))


@dataclass
class Games:
    """A directory of consistent game files, and what each holds."""

    dir: Path
    complete: dict[int, tuple[Path, list[Event]]]
    """Players -> a complete game of that many bots."""
    script: Path
    script_events: list[Event]
    unfinished: Path


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Games:
    d = tmp_path_factory.mktemp("games")
    complete = {}
    for n, seed in ((3, 101), (4, 102), (5, 103)):
        path = d / f"{n}p.dvr"
        complete[n] = (path, write_game(path, PLAYERS[n], seed, first=n - 1))
    events = write_game(d / "unfinished.dvr", PLAYERS[4], 104, upto=23)
    script_events = complete[3][1]
    script = d / "script.dvr"
    script.write_bytes(engine_file([ev for ev in script_events if not isinstance(ev, DERIVED)]))
    assert events
    return Games(d, complete, script, script_events, d / "unfinished.dvr")
