"""What ``dvtui`` says when it cannot play: a directory that takes no file, a read-only file
system, no terminal, a file that already holds a game. One line naming the real cause, exit 1 for
a file, 2 for how it was started; the command it suggests is one that works on that file."""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.cli import main, play
from dvtui.store import GameLock

from ..support.files import write_game
from ..support.processes import dvtui

PLAYERS = "Ana,bot:greedy,bot:greedy"


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> list[DvtuiApp]:
    """As if run in a terminal; apps that would have been shown are recorded, not run."""
    apps: list[DvtuiApp] = []
    monkeypatch.setattr(play, "has_terminal", lambda: True)
    monkeypatch.setattr(DvtuiApp, "run", lambda self, *a, **k: apps.append(self))
    return apps


@contextlib.contextmanager
def read_only_dir(where: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A read-only file system at ``where`` (a tmpfs mounted read-only where the machine allows
    it; else every file made under ``where`` fails as the kernel would say it)."""
    where.mkdir()
    mounted = False
    with contextlib.suppress(OSError):
        mounted = (
            subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=16k,ro", "tmpfs", str(where)], capture_output=True, check=False
            ).returncode
            == 0
        )
    if not mounted:
        real_open, real_mkdir = os.open, os.mkdir

        def refuse(path: object, *args: object, **kwargs: object) -> int:
            if (
                str(path).startswith(str(where) + os.sep)
                and len(args) > 0
                and isinstance(args[0], int)
                and args[0] & os.O_CREAT
            ):
                raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
            return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

        def refuse_dir(path: object, *args: object, **kwargs: object) -> None:
            if str(path).startswith(str(where) + os.sep):
                raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
            real_mkdir(path, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "open", refuse)
        monkeypatch.setattr(os, "mkdir", refuse_dir)
    try:
        yield where
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def _error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dvtui: error: "), err
    assert "internal error" not in err and "being played" not in err and "lock" not in err, err
    return err


def test_a_directory_that_takes_no_file_is_named_as_such(
    terminal: list[DvtuiApp], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["new", "--players", PLAYERS, "-o", "/proc/x.dvr"]) == 1
    assert "/proc/x.dvr: cannot create: the directory /proc is not writable" in _error(capsys)
    assert terminal == []


def test_a_read_only_file_system_is_named_as_such(
    terminal: list[DvtuiApp], capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with read_only_dir(tmp_path / "ro", monkeypatch) as ro:
        assert main(["new", "--players", PLAYERS, "-o", str(ro / "x.dvr")]) == 1
        assert "x.dvr: cannot create: the file system is read-only" in _error(capsys)
        monkeypatch.setenv("DVTUI_DATA_DIR", str(ro))  # the saves directory cannot be made: exit 1, not 3
        assert main(["new", "--players", PLAYERS]) == 1
        assert "cannot make the saves directory: the file system is read-only" in _error(capsys)
    assert terminal == []


def test_an_existing_file_suggests_what_works_on_it(
    terminal: list[DvtuiApp], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    finished, unfinished = tmp_path / "done.dvr", tmp_path / "half.dvr"
    write_game(finished, "bot:greedy,bot:greedy,bot:greedy", seed=1)
    write_game(unfinished, "bot:greedy,bot:greedy,bot:greedy", seed=1, upto=4)
    assert main(["new", "--players", PLAYERS, "-o", str(finished)]) == 2
    err = capsys.readouterr().err
    assert f"(or watch it again: dvtui replay {finished})" in err and "resume" not in err
    assert main(["new", "--players", PLAYERS, "-o", str(unfinished)]) == 2
    assert f"(or continue it: dvtui resume {unfinished})" in capsys.readouterr().err


def test_a_game_played_elsewhere_is_not_offered_as_something_to_watch(
    terminal: list[DvtuiApp], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The viewer shows a file as it was when opened: it does not follow another process's game."""
    path = tmp_path / "half.dvr"
    write_game(path, "bot:greedy,bot:greedy,bot:greedy", seed=1, upto=4)
    with GameLock.acquire(path):
        assert main(["resume", str(path)]) == 1
    err = capsys.readouterr().err
    assert "is being played by" in err and "watch it" not in err and "shows the moves saved so far" in err


def _without_terminal(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return dvtui(*args, data=cwd / "data", cwd=cwd, stdin=subprocess.DEVNULL, timeout=60)


def test_without_a_terminal_the_game_does_not_start(tmp_path: Path) -> None:
    for args in (["new", "--players", PLAYERS, "-o", "x.dvr"], ["new"]):
        run = _without_terminal(*args, cwd=tmp_path)
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr.count("\n") == 1 and run.stderr.startswith("dvtui: error: the game needs a terminal")
    assert not (tmp_path / "x.dvr").exists() and not (tmp_path / "data").exists()  # nothing left behind
    write_game(tmp_path / "half.dvr", "bot:greedy,bot:greedy,bot:greedy", seed=1, upto=4)
    run = _without_terminal("resume", "half.dvr", cwd=tmp_path)
    assert run.returncode == 2 and "needs a terminal" in run.stderr and "\x1b" not in run.stdout
    GameLock.acquire(tmp_path / "half.dvr").release()  # the refused resume let the game go


def test_plain_dvtui_without_a_terminal_prints_the_usage(tmp_path: Path) -> None:
    run = _without_terminal(cwd=tmp_path)
    assert run.returncode == 2 and "usage: dvtui" in run.stdout and "\x1b" not in run.stdout


def _advice(stderr: str) -> list[str]:
    """The command a refusal suggests (after ``dvtui ``), split as a shell would; [] for none."""
    assert stderr.count("\n") == 1, stderr
    _, found, command = stderr.strip().partition(": dvtui ")
    return shlex.split(command) if found else []


def test_without_a_terminal_the_command_suggested_is_one_that_works(tmp_path: Path) -> None:
    """Each refusal suggests only a command that works as it stands: a new game of bots has no
    file to resume yet (a simulation writes one), a person's seat needs a screen, a file of bots
    is finished by its bots, a file with a person's turn ahead is read as text."""
    bots = "bot:greedy,bot:greedy,bot:greedy"
    run = _without_terminal("new", "--players", bots, cwd=tmp_path)
    assert run.returncode == 2 and "resume" not in run.stderr
    suggested = _advice(run.stderr)
    assert suggested[:3] == ["sim", "--players", bots] and suggested[-1] == "DIR"
    done = _without_terminal(*suggested[:-1], "out", cwd=tmp_path)
    assert done.returncode == 0 and len(list((tmp_path / "out").glob("*.dvr"))) == 1
    run = _without_terminal("new", "--players", PLAYERS, cwd=tmp_path)
    assert run.returncode == 2 and _advice(run.stderr) == []  # a person plays on screen or not at all
    write_game(tmp_path / "bots.dvr", bots, seed=1, upto=4)
    write_game(tmp_path / "people.dvr", "Ana,bot:greedy,bot:greedy", seed=1, upto=4)
    for name, expected in (("bots.dvr", ["resume", "bots.dvr", "--headless"]),
                           ("people.dvr", ["replay", "people.dvr", "--text"])):  # fmt: skip
        run = _without_terminal("resume", name, cwd=tmp_path)
        assert run.returncode == 2 and _advice(run.stderr) == expected, run.stderr
        assert _without_terminal(*expected, cwd=tmp_path).returncode == 0
    run = _without_terminal("replay", "people.dvr", cwd=tmp_path)
    assert run.returncode == 2 and _advice(run.stderr) == ["replay", "people.dvr", "--text"]
