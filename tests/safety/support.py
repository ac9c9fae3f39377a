"""Real games for the safety tests: bot games written by the store's own writer, and the ways to run
dvtui as a separate process (so it can be killed, signalled, locked out)."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import msgspec

from dvtui.engine import Game, GameCreated, Seat, new_game
from dvtui.play.autoplay import play_out
from dvtui.store import GameWriter

REPO = Path(__file__).resolve().parents[2]

BOTS3 = [
    Seat(name="Bot 1", kind="bot", color="red", bot="greedy"),
    Seat(name="Bot 2", kind="bot", color="yellow", bot="random"),
    Seat(name="Bot 3", kind="bot", color="green", bot="greedy"),
]
BOTS4 = [
    Seat(name="Bot 1", kind="bot", color="red", bot="random"),
    Seat(name="Bot 2", kind="bot", color="yellow", bot="greedy"),
    Seat(name="Bot 3", kind="bot", color="green", bot="greedy"),
    Seat(name="Bot 4", kind="bot", color="blue", bot="random"),
]
WITH_HUMAN = [
    Seat(name="Ana", kind="human", color="red"),
    Seat(name="Bot 1", kind="bot", color="yellow", bot="greedy"),
    Seat(name="Bot 2", kind="bot", color="green", bot="greedy"),
]

_AT = re.compile(rb',"at":"[^"\\]*"(?=}\n)')


def strip_at(data: bytes) -> bytes:
    """The file without its ``at`` stamps: what "byte-identical apart from at" compares."""
    return _AT.sub(b"", data)


def created(seats: list[Seat] = BOTS3, seed: int = 11, first: int = 0) -> GameCreated:
    return new_game(seats, first_player=first, seed=seed)


def start_game(path: Path, seats: list[Seat] = BOTS3, seed: int = 11, first: int = 0) -> Path:
    """A new game file holding only ``game_created``, as ``dvtui new`` leaves it before a move."""
    GameWriter.create(path, created(seats, seed, first)).close()
    return path


@functools.cache
def _reference(seats: str, seed: int, first: int) -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "ref.dvr"
        c = created(msgspec.json.decode(seats, type=list[Seat]), seed, first)
        with GameWriter.create(path, c) as writer:
            play_out(Game(c), writer.append)
        return path.read_bytes()


def reference(seats: list[Seat] = BOTS3, seed: int = 11, first: int = 0) -> bytes:
    """The game played in one go by the same writer, never interrupted (stamps included)."""
    return _reference(msgspec.json.encode(seats).decode(), seed, first)


def complete_lines(data: bytes) -> list[bytes]:
    """The lines of ``data`` that end in ``\\n``, each with it."""
    return data.splitlines(keepends=True)[: data.count(b"\n")]


def dvtui_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "dvtui", *args]


def env(tmp_path: Path | None = None) -> dict[str, str]:
    """The environment of a dvtui subprocess: this checkout importable, saves kept in the test's
    directory, no debug tracebacks."""
    e = dict(os.environ)
    e["PYTHONPATH"] = str(REPO) + os.pathsep + e.get("PYTHONPATH", "")
    e.pop("DVTUI_DEBUG", None)
    if tmp_path is not None:
        e["DVTUI_DATA_DIR"] = str(tmp_path / "data")
    return e


def run_dvtui(*args: str, tmp_path: Path | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        dvtui_cmd(*args), capture_output=True, text=True, env=env(tmp_path), timeout=timeout, check=False
    )


def assert_one_line_error(stderr: str, path: str | Path) -> str:
    """Exactly one line on stderr, ``dvtui: error: FILE ...``; returns it."""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"dvtui: error: {path}"), stderr
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    return lines[0]
