"""dvtui as a separate process, run as a user types it: real exit codes, real stderr, and a process
that can be killed, signalled or locked out."""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only run_main's annotation: the processes this module starts need no pytest
    import pytest

REPO = Path(__file__).resolve().parents[2]


@functools.cache
def bytecode_cache() -> str:
    """A directory of this test process's own (mode 0700, removed at its exit) where the dvtui
    processes it starts keep the modules they compiled: each would otherwise compile dvtui's
    source again (a tenth of a second a process) where no bytecode may be written beside it."""
    made = tempfile.mkdtemp(prefix="dvtui-tests-pyc-")
    atexit.register(shutil.rmtree, made, ignore_errors=True)
    return made


def dvtui_cmd(*args: str | bytes | Path) -> list[str | bytes]:
    """The command line of ``dvtui ARGS`` run by this interpreter (an argument in bytes stays bytes:
    a file name need not be UTF-8)."""
    return [sys.executable, "-m", "dvtui", *map(os.fspath, args)]


def env(data: Path | None = None) -> dict[str, str]:
    """The environment of a dvtui subprocess: this checkout importable, no debug tracebacks (an
    error stays one line), its bytecode kept in :func:`bytecode_cache`, and saves in ``data`` when
    given (``DVTUI_DATA_DIR``)."""
    e = dict(os.environ)
    e["PYTHONPATH"] = str(REPO) + os.pathsep + e.get("PYTHONPATH", "")
    e.pop("DVTUI_DEBUG", None)
    e.pop("PYTHONDONTWRITEBYTECODE", None)
    e["PYTHONPYCACHEPREFIX"] = bytecode_cache()
    if data is not None:
        e["DVTUI_DATA_DIR"] = str(data)
    return e


def dvtui(
    *args: str | bytes | Path,
    data: Path | None = None,
    cwd: Path = REPO,
    stdin: int | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """``dvtui ARGS`` in a fresh interpreter, to its end (``stdin``: ``subprocess.DEVNULL`` for a
    run without a terminal; by default the test's own)."""
    return subprocess.run(
        dvtui_cmd(*args), capture_output=True, text=True, env=env(data), cwd=cwd, stdin=stdin, timeout=timeout,
        check=False,
    )  # fmt: skip


def one_error_line(stderr: str, about: str | Path | None = None) -> str:
    """``stderr`` asserted to be exactly one ``dvtui: error: ...`` line (about ``about`` when given:
    the line names it first), no traceback, no internal error; returns what follows ``dvtui: error: ``."""
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    prefix = "dvtui: error: " + ("" if about is None else str(about))
    assert lines[0].startswith(prefix), stderr
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    return lines[0][len("dvtui: error: ") :]


def run_main(capsys: pytest.CaptureFixture[str], *args: str | Path) -> subprocess.CompletedProcess[str]:
    """``dvtui ARGS`` run by :func:`dvtui.cli.main` in this process, its output taken from
    ``capsys``: the exit code, stdout and stderr a real process would give (argparse's refusals
    end in ``SystemExit``, whose code is the exit code), without a Python start-up a run. For what
    only a real process shows (a traceback that escapes ``main``, the interpreter's own exit, a
    terminal), :func:`dvtui`."""
    from dvtui.cli import main

    capsys.readouterr()  # what came before is not this run's
    try:
        code = main([os.fspath(a) for a in args])
    except SystemExit as ended:
        code = ended.code if isinstance(ended.code, int) else 1
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["dvtui", *map(os.fspath, args)], code, out, err)
