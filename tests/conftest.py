"""Shared fixtures (hand-made positions, a second account on this host, a table server in this
process, a private saves directory, a PostgreSQL cluster), and the suite's needs: a test marked
``root``, ``tmux``, ``sshd``, ``chromium`` or ``postgresql`` needs that (docs/DEVELOPMENT.md). As
root, as CI runs, every test runs and a missing program is a failure; on an ordinary account the
tests it cannot run are deselected, and the run ends with one line saying how many and why.
"""

from __future__ import annotations

import gc
import importlib.util
import os
import pwd
import shutil
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dvtui import i18n
from dvtui.engine import Event, Game, GameCreated
from dvtui.server.main import Server

from .support import postgres
from .support.frames import skip_headless_frames
from .support.positions import build_created, build_game, play_round
from .support.servers import Served, Threaded, server_in_thread, short_dir
from .support.sshd import OTHER, SSHD, unix_account
from .support.web import CHROMIUM


def _missing(*programs: str) -> str | None:
    """Why a test that runs ``programs`` cannot run here (None: it can)."""
    absent = [p for p in programs if shutil.which(p) is None]
    return f"no {', '.join(absent)}" if absent else None


gc.set_threshold(10_000, 10, 10)
"""A test process builds Textual's frames by the thousand, each of many short-lived objects: at
Python's default (a young collection every 700 allocations) the collector took 10 to 15% of the
app tests' CPU, at 10,000 a third of that. Only the test processes: a ``dvtui`` they start keeps
the default."""

skip_headless_frames()
"""A headless app draws no frame nobody sees: the tests draw the screen when they read it
(tests/support/frames.py)."""

os.environ.pop("DVTUI_LANG", None)
os.environ["LANGUAGE"] = "en"
"""The suite speaks English whatever the machine's locale or the developer's own choice: the texts it
pins are English. ``LANGUAGE``, the weakest choice, so that a test may still choose a language with
``--lang``, ``DVTUI_LANG``, the settings, or ``LANGUAGE`` (as a browser tab does)."""


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """The language is the process's: a test that chose another one leaves English behind it."""
    yield
    i18n.set_language(i18n.ENGLISH)


NEEDS: dict[str, Callable[[], str | None]] = {
    "root": lambda: None if os.geteuid() == 0 else "not root",
    "tmux": lambda: _missing("tmux"),
    "sshd": lambda: "not root" if os.geteuid() != 0 else _missing(SSHD, "ssh", "ssh-keygen", "tmux", "unshare"),
    "chromium": lambda: _missing(CHROMIUM),
    "postgresql": postgres.missing,
    "mypyc": lambda: _missing("cc") or (None if importlib.util.find_spec("mypyc") else "no mypyc (pip install mypy)"),
}
"""Each marker's need, as why it is not met on this account (None: met). The markers are registered
in pyproject.toml."""

_DESELECTED = pytest.StashKey[str]()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked ``long`` first; then, on an ordinary account, deselect the tests whose need
    is not met (as root, none).

    On two workers a test of half a minute begun near the end makes the run that much longer:
    begun first, the other worker meanwhile takes the many short ones, and the two end together
    (pyproject.toml's ``--maxschedchunk=1`` hands out the tests one by one, in this order). Before
    the other hooks (tryfirst): tests/web/conftest.py then moves the browser's tests behind all the
    others, keeping this order among them."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)  # (stable: otherwise as collected)
    if os.geteuid() == 0:
        return
    unmet = {name: why for name, need in NEEDS.items() if (why := need()) is not None}
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    reasons: Counter[str] = Counter()
    for item in items:
        needs = [name for name in unmet if item.get_closest_marker(name) is not None]
        (dropped if needs else kept).append(item)
        reasons.update(needs)
    if dropped:
        items[:] = kept
        config.hook.pytest_deselected(items=dropped)
        why = ", ".join(f"{count} {name} ({unmet[name]})" for name, count in reasons.most_common())
        tests = "1 test" if len(dropped) == 1 else f"{len(dropped)} tests"
        line = f"dvtui: deselected {tests} this account cannot run: {why}; as root all run"
        config.stash[_DESELECTED] = line
        if hasattr(config, "workeroutput"):  # a pytest-xdist worker: its controller prints the line
            config.workeroutput["dvtui_deselected"] = line


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: object, error: object) -> None:
    """The line of a pytest-xdist worker (each collects the whole suite: any one says it)."""
    line = getattr(node, "workeroutput", {}).get("dvtui_deselected")
    if line:
        node.config.stash[_DESELECTED] = line  # type: ignore[attr-defined]


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """A pytest-xdist worker ends within the 5 seconds its controller gives it: after its last test,
    pytest collects the garbage five times over (to report what finalizers raised), and a worker
    holding the whole suite's leftovers took longer than that for it, to be interrupted (a
    ``KeyboardInterrupt`` printed in whatever collector callback ran). What is garbage goes in the
    first two collections, as pytest's would (what they free raises there, and is reported); what
    lives on is frozen, so the five look only at what came since."""
    if hasattr(session.config, "workerinput"):
        gc.collect()
        gc.collect()
        gc.freeze()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    line = config.stash.get(_DESELECTED, None)
    if line:
        terminalreporter.write_line(line)


@pytest.fixture
def make_created() -> Callable[..., GameCreated]:
    """Factory fixture: see :func:`tests.support.positions.build_created`."""
    return build_created


@pytest.fixture
def make_game() -> Callable[..., Game]:
    """Factory fixture: see :func:`tests.support.positions.build_game`."""
    return build_game


@pytest.fixture
def play() -> Callable[..., list[Event]]:
    """Plays a whole round around a plan: see :func:`tests.support.positions.play_round`."""
    return play_round


@pytest.fixture(scope="session")
def other_user() -> pwd.struct_passwd:
    """A second account on this host (made once, kept: ``useradd`` is not undone between runs), for
    the tests of what another user may do: they are marked ``root``."""
    return unix_account(OTHER)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[postgres.Cluster]:
    """One PostgreSQL cluster for the test session (tests/support/postgres.py)."""
    cluster = postgres.start_cluster()
    try:
        yield cluster
    finally:
        postgres.remove_cluster(cluster)


@pytest.fixture
def pg_database(pg_cluster: postgres.Cluster) -> str:
    """A database of this test's own in the session's cluster: its connection string."""
    return pg_cluster.new_database()


@pytest.fixture
def in_process() -> Iterator[Server]:
    """A table server in a thread of this process (its constants can be changed by a test)."""
    with server_in_thread() as srv:
        yield srv


@pytest.fixture
def served() -> Iterator[Served]:
    """``dvtui serve`` as a process of its own, stopped cleanly at the end (its exit status 0)."""
    with short_dir() as d, Served(d / "srv") as server:
        server.start()
        yield server
        assert server.stop() == 0, server.log()


@pytest.fixture
def threaded() -> Iterator[Threaded]:
    """:func:`served`'s clients' side (its place, ``dvtui ARGS --server DIR``, players, files) on a
    server in a thread of this process, stopped cleanly at the end: for a test of what the server
    does, not of its process (its start, its signals, its exit)."""
    with short_dir() as d, Threaded(d / "srv") as server:
        server.start()
        yield server
        assert server.stop() == 0, server.log()


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Saves go to a fresh directory; the working directory is the test's own, so relative paths
    (shown on screens) are the same on every machine."""
    data = tmp_path / "data"
    monkeypatch.setenv("DVTUI_DATA_DIR", str(data))
    monkeypatch.chdir(tmp_path)
    yield data
