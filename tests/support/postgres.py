"""A real PostgreSQL for the tests marked ``postgresql``: one cluster per test session, made with
``initdb`` and run with ``pg_ctl`` in a temporary directory, listening only on a Unix socket there
(``listen_addresses = ''``), with fsync and synchronous commit on, as durability is what is tested.
PostgreSQL refuses to run as root: as root the cluster is made and run as the ``postgres`` account
(``setpriv``); on an ordinary account, as that account. Each test gets a database of its own."""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PG_BINS = (Path("/usr/lib/postgresql/15/bin"), *sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True))
"""Where Debian puts the server's programs (``initdb`` and ``pg_ctl`` are not on its PATH)."""


def pg_program(name: str) -> str | None:
    """The path of PostgreSQL's program ``name`` (None: not installed)."""
    for directory in PG_BINS:
        if (directory / name).is_file():
            return str(directory / name)
    return shutil.which(name)


def missing() -> str | None:
    """Why the PostgreSQL tests cannot run on this account (None: they can)."""
    absent = [p for p in ("initdb", "pg_ctl", "postgres") if pg_program(p) is None]
    if absent:
        return f"no {', '.join(absent)} (PostgreSQL)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "no psycopg (pip install -e '.[test]')"
    return None


@dataclass
class Cluster:
    """A running PostgreSQL cluster: its data directory and the directory of its socket."""

    data: Path
    socket_dir: Path
    as_postgres: bool
    _numbers: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _ahead: Future[str] | None = None
    """The next test's database, being made meanwhile (:meth:`new_database`)."""

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        cmd = list(argv)
        if self.as_postgres:
            account = pwd.getpwnam("postgres")
            cmd = ["setpriv", f"--reuid={account.pw_uid}", f"--regid={account.pw_gid}", "--init-groups", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=120, cwd="/")

    def conninfo(self, dbname: str = "postgres") -> str:
        user = "postgres" if self.as_postgres else pwd.getpwuid(os.geteuid()).pw_name
        return f"host={self.socket_dir} dbname={dbname} user={user}"

    def start(self) -> None:
        log = str(self.data / "log")
        self._run(str(pg_program("pg_ctl")), "-D", str(self.data), "-w", "-t", "60", "-l", log, "start")

    def stop(self, mode: str = "fast") -> None:
        """``mode``: ``fast``, or ``immediate`` (as a crash: no checkpoint, recovery at the next start)."""
        self._run(str(pg_program("pg_ctl")), "-D", str(self.data), "-w", "-t", "60", "-m", mode, "stop", check=False)

    def new_database(self) -> str:
        """A fresh database's connection string: one made while the test before ran (a ``CREATE
        DATABASE`` copies its template and syncs it, a tenth to a third of a second the tests would
        otherwise wait each), and the next one begun now, in a thread of its own. One that could
        not be made ahead (a test had stopped the cluster meanwhile) is made now."""
        ahead, self._ahead = self._ahead, None
        made = None
        if ahead is not None:
            with contextlib.suppress(Exception):
                made = ahead.result(timeout=120)
        if made is None:
            made = self._create()
        self._ahead = _BACKGROUND.submit(self._create)
        return made

    def _create(self) -> str:
        import psycopg

        name = f"t{os.getpid()}_{next(self._numbers)}"
        with psycopg.connect(self.conninfo(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.conninfo(name)

    def settle(self) -> None:
        """The database being made ahead finished (or failed), before the cluster stops."""
        if self._ahead is not None:
            with contextlib.suppress(Exception):
                self._ahead.result(timeout=120)
            self._ahead = None


_BACKGROUND = ThreadPoolExecutor(1, thread_name_prefix="dvtui-tests-pg")
"""Where the databases are made ahead: one at a time, as the tests ask for them one at a time."""


def start_cluster() -> Cluster:
    """A new cluster in a new temporary directory, started (see the module's docstring)."""
    as_postgres = os.geteuid() == 0
    top = Path(tempfile.mkdtemp(prefix="dvtui-pg-", dir="/tmp"))
    top.chmod(0o755)
    data, sock = top / "data", top / "sock"
    cluster = Cluster(data, sock, as_postgres)
    sock.mkdir()
    if as_postgres:
        account = pwd.getpwnam("postgres")
        for path in (top, sock):
            os.chown(path, account.pw_uid, account.pw_gid)
    user = "postgres" if as_postgres else pwd.getpwuid(os.geteuid()).pw_name
    cluster._run(str(pg_program("initdb")), "-D", str(data), "-U", user, "--auth=trust", "-E", "UTF8", "--no-sync")
    with (data / "postgresql.conf").open("a") as conf:
        conf.write(
            f"listen_addresses = ''\nunix_socket_directories = '{sock}'\nfsync = on\nsynchronous_commit = on\n"
            "max_connections = 200\nshared_buffers = 32MB\n"
        )
    cluster.start()
    return cluster


def remove_cluster(cluster: Cluster) -> None:
    cluster.settle()
    cluster.stop("immediate")
    shutil.rmtree(cluster.data.parent, ignore_errors=True)


def db_lines(conninfo: str, name: str) -> list[bytes]:
    """Game ``name``'s lines as the database holds them now, in ``seq`` order (none: no such game)."""
    import psycopg

    with psycopg.connect(conninfo, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT e.line FROM dvtui_events e JOIN dvtui_games g ON g.id = e.game_id WHERE g.name = %s ORDER BY e.seq",
            (name,),
        ).fetchall()
    return [bytes(row[0]) for row in rows]


TOLD_ALL = "dvtui_tests_told_all"
"""A channel of the tests' own, notified last by :func:`told_so_far`."""


def told_so_far(listener: Any) -> list[str]:
    """The payloads of the notifications ``listener`` (a connection in autocommit that LISTENs
    ``dvtui``) was sent for all that was committed before this call, without waiting for a silence:
    PostgreSQL delivers notifications in the order their transactions committed, so a notification
    sent now on :data:`TOLD_ALL` comes after every one of them, and ends the reading."""
    listener.execute(f"LISTEN {TOLD_ALL}")
    listener.execute(f"NOTIFY {TOLD_ALL}")
    told: list[str] = []
    for notify in listener.notifies(timeout=120.0):
        if notify.channel == TOLD_ALL:
            break
        told.append(notify.payload)
    else:
        raise AssertionError("the database never told the listener its own notification")
    listener.execute(f"UNLISTEN {TOLD_ALL}")  # (once out of notifies(), which holds the connection)
    return told


def on_database(conninfo: str, games: Path) -> dict[str, Any]:
    """A server's options to keep its tables in the database ``conninfo`` and follow the other
    servers there (its store and its peers), as ``dvtui serve --store`` gives them."""
    from dvtui.server.stores.pg import PgStore
    from dvtui.server.stores.pgpeers import PgPeers

    store = PgStore(conninfo, games)
    return {"store": store, "peers": PgPeers(store)}
