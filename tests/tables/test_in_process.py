"""The table tests run ``dvtui``'s client in their own process (``Served.dvtui``): what it gives
there is what a process of its own gives, and it leaves the test process as it found it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from dvtui import i18n

from ..support.processes import dvtui, in_process, runs_in_process
from ..support.servers import Served


def test_a_command_run_in_process_gives_what_a_process_gives(served: Served, tmp_path: Path) -> None:
    """Output, errors and exit codes alike, in English and in French, the plain Python errors of a
    file that cannot be written included."""
    where = ("--server", str(served.directory))
    assert served.dvtui("new", "--table", "t", "--players", "Ana,Bob,Cy", "--seed", "2").returncode == 0
    for args in (
        ("tables",),
        ("--lang", "fr", "tables"),
        ("tables",),  # (English again: the French of the run before is not this one's)
        ("fetch", "t", "-o", str(tmp_path / "no-such-dir" / "t.dvr")),
        ("fetch", "nosuch", "-o", str(tmp_path / "x.dvr")),
        ("new", "--table", "m", "--players", "Ana,Bob,Cy", "--wait", "--start-now"),
        ("--lang", "xx", "tables"),
        ("tables", "--help"),
    ):
        real, here = dvtui(*args, *where), in_process(*args, *where)
        assert (here.returncode, here.stdout, here.stderr) == (real.returncode, real.stdout, real.stderr), args


def test_no_traceback_in_process_even_where_the_test_asks_for_them(
    served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process gets no ``DVTUI_DEBUG`` (its error stays one line): neither does a run in process."""
    monkeypatch.setenv("DVTUI_DEBUG", "1")
    assert served.dvtui("new", "--table", "t", "--players", "Ana,Bob,Cy").returncode == 0
    done = in_process("fetch", "t", "-o", str(tmp_path / "no-such-dir" / "t.dvr"), "--server", str(served.directory))
    assert done.returncode == 1 and done.stderr.startswith("dvtui: error: "), done.stderr
    assert "Traceback" not in done.stderr


def test_a_run_in_process_leaves_the_language_it_found() -> None:
    i18n.set_language("fr")
    done = in_process("--lang", "en", "tables", "--server", "/nonexistent")
    assert done.returncode == 1 and done.stderr.startswith("dvtui: error: no table server at"), done.stderr
    assert i18n.language() == "fr"


def test_what_in_process_cannot_run_the_same_runs_as_a_process() -> None:
    """From a running event loop, a foreground server, the seek pool, the plain mode."""
    assert runs_in_process(("tables",))

    async def from_a_loop() -> bool:
        return runs_in_process(("tables",))

    assert not asyncio.run(from_a_loop())
    for args in (("serve", "--dir", "d"), ("seek", "--wait", "1s"), ("join", "t", "--plain")):
        assert not runs_in_process(args), args
