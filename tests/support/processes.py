"""dvtui as a separate process, run as a user types it: real exit codes, real stderr, and a process
that can be killed, signalled or locked out."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import io
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable, Iterator
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


def in_a_fresh_interpreter(scenario: Callable[[], object], timeout: float = 60) -> None:
    """``scenario`` (a function of a module this checkout's ``tests`` package holds, taking nothing)
    run in a fresh interpreter, asserted to end well: what it asserts fails the test with its
    traceback. For what the test process's own state would make slow or untrue: a full garbage
    collection in a test process walks every object the tests before left in it (millions, seconds
    of CPU a collection), in a fresh one the few thousand of its imports. Whatever the test
    process's ``PYTHONOPTIMIZE`` (-O), the scenario's asserts run and its end is checked: stripped,
    they would pass anything (hence a ``raise`` here, not an ``assert``: pytest rewrites only the
    test modules' asserts)."""
    module, name = scenario.__module__, scenario.__qualname__
    if not module.startswith("tests.") or "." in name or "<" in name:
        raise ValueError(f"{module}.{name}: not a function a fresh interpreter can import")
    variables = env()
    variables.pop("PYTHONOPTIMIZE", None)
    run = subprocess.run(
        [sys.executable, "-c", f"from {module} import {name}; {name}()"],
        capture_output=True, text=True, env=variables, cwd=REPO, timeout=timeout, check=False,
    )  # fmt: skip
    if run.returncode != 0:
        raise AssertionError(f"{module}.{name} ended with {run.returncode}:\n{run.stdout}{run.stderr}")


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


BY_ITSELF = frozenset({"serve", "web", "seek", "--plain"})
"""Words of a command line that :func:`in_process` cannot run as a process would: a server in the
foreground (it runs until signalled), the seek pool (its keys and Ctrl-C come from the terminal), and
the plain mode (it reads its lines from stdin)."""


def runs_in_process(args: tuple[str, ...]) -> bool:
    """Whether ``dvtui ARGS`` run by :func:`in_process` is the same as in a process of its own: not
    from a running event loop (the command runs its own with ``asyncio.run``), not from another
    thread than the main one (the output is taken from ``sys.stdout``, which all threads share),
    and not a command that takes the terminal or stdin (:data:`BY_ITSELF`, or the plain mode
    asked by its variable)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    from dvtui.cli.terminal import PLAIN_ENV

    return not (BY_ITSELF.intersection(args) or os.environ.get(PLAIN_ENV))


@contextlib.contextmanager
def _as_a_process() -> Iterator[tuple[io.BytesIO, io.BytesIO]]:
    """What the command sees while it runs: :func:`env`'s variables that matter to it (no
    ``DVTUI_DEBUG``: an error stays one line), no stdin (as ``subprocess.DEVNULL``), stdout and
    stderr written to memory (returned as bytes, to be read as a text-mode pipe is); then the
    process as it was, the language spoken before included."""
    from dvtui import i18n

    debug = os.environ.pop("DVTUI_DEBUG", None)
    spoken = i18n.language()
    out, err = io.BytesIO(), io.BytesIO()
    streams = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True)
    try:
        yield out, err
    finally:
        for wrapper in (sys.stdin, sys.stdout, sys.stderr):
            wrapper.detach()  # (flushed; a wrapper collected would close its buffer, before it is read)
        sys.stdin, sys.stdout, sys.stderr = streams
        i18n.set_language(spoken)
        if debug is not None:
            os.environ["DVTUI_DEBUG"] = debug


def _text(data: bytes) -> str:
    """Bytes read as ``subprocess.run(text=True)`` reads a pipe: UTF-8, universal newlines."""
    return data.decode().replace("\r\n", "\n").replace("\r", "\n")


def in_process(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """``dvtui ARGS`` run by :func:`dvtui.cli.main` in this process, without a fixture: the exit
    code, stdout and stderr a process would give (argparse's ``SystemExit`` as the interpreter ends
    with it; an exception that escapes ``main`` as exit 1 and its traceback on stderr), without the
    half second of Python start-up and imports a process costs. Only where
    :func:`runs_in_process` says it is the same."""
    from dvtui.cli import main

    argv = [os.fspath(a) for a in args]
    with _as_a_process() as (out, err):
        try:
            code = main(argv)
        except SystemExit as ended:
            if ended.code is None or isinstance(ended.code, int):
                code = ended.code or 0
            else:
                print(ended.code, file=sys.stderr)
                code = 1
        except Exception:
            traceback.print_exc()
            code = 1
    return subprocess.CompletedProcess(["dvtui", *argv], code, _text(out.getvalue()), _text(err.getvalue()))
