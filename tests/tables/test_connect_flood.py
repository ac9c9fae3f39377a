"""A co-user's connect/close loop costs its own account, not everyone's connections: the server's
queue of connections waiting to be accepted is deep, an account past its connect rate is refused
at once (with no debt), and a client whose connect finds the queue full tries again rather than
taking the kernel's ``EAGAIN`` for a connection and blaming the server."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import pwd
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui.server.limits import Budgets
from dvtui.tables.connection import Connection

from ..support.servers import Crowd, Served, short_dir


@contextlib.contextmanager
def _stopped(server: Served) -> Iterator[None]:
    """The server's process stopped (SIGSTOP): it accepts nothing, its queue fills."""
    assert server.proc is not None
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)


def _fill(path: str) -> list[socket.socket]:
    """Connections queued at ``path`` until the kernel says its queue is full."""
    queued: list[socket.socket] = []
    while len(queued) < 70_000:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.connect(path)
        except BlockingIOError as e:
            assert e.errno == errno.EAGAIN
            sock.close()
            return queued
        queued.append(sock)
    raise AssertionError("the queue never filled")


async def test_a_client_waits_through_a_full_queue_and_the_queue_is_as_deep_as_the_system_allows() -> None:
    with short_dir() as d, Served(d / "srv") as server:
        server.directory.mkdir(mode=0o700)
        server.start()
        with _stopped(server):
            queued = _fill(str(server.place.socket))
            # the kernel's bound, not 128: a loop of one account cannot keep it full
            assert len(queued) > min(4096, int(Path("/proc/sys/net/core/somaxconn").read_text())) // 2
            opening = asyncio.create_task(Connection.open(server.place, start=False))
            await asyncio.sleep(0)  # its first connect is made, and finds the queue full
            assert not opening.done()
            for sock in queued:
                sock.close()
        conn = await asyncio.wait_for(opening, 60)  # the server empties its queue; the client is in
        try:
            assert conn.welcome.version >= 1
        finally:
            conn.close()
        assert server.stop() == 0


@pytest.mark.root
def test_an_account_that_connects_too_often_is_refused_at_once_and_others_are_served(
    other_user: pwd.struct_passwd,
) -> None:
    with short_dir() as d, Served(d / "srv") as server:
        os.chmod(d, 0o755)
        server.directory.mkdir(mode=0o755)
        server.start("--limit", "connect-burst=5", "--limit", "connect-rate=0.01")
        crowd = Crowd(server.place.socket, {"n": 10, "hello": True, "seconds": 5, "until_closed": 5}, other_user)
        received, closed = crowd.result()
        assert received[:5] == [["welcome"]] * 5
        assert received[5:] == [["error:busy"]] * 5 and all(closed[5:])
        listed = server.dvtui("tables")  # the server's own account meanwhile, not bound per account
        assert listed.returncode == 0, listed.stderr
        assert server.stop() == 0
        assert server.log().count("connections a second") == 1  # five refusals, one line


def test_a_refused_connect_runs_up_no_debt() -> None:
    now = [0.0]
    gate = Budgets(rate=1.0, burst=2.0, clock=lambda: now[0])
    assert gate.take_within("mal", 1.0, 0.0) == 0.0
    assert gate.take_within("mal", 1.0, 0.0) == 0.0
    for _ in range(1000):  # a loop, refused each time
        assert gate.take_within("mal", 1.0, 0.0) is None
    now[0] = 1.0  # one second later: one connection's worth, whatever was asked meanwhile
    assert gate.take_within("mal", 1.0, 0.0) == 0.0
    assert gate.take_within("mal", 1.0, 0.0) is None
    assert gate.take_within("ana", 1.0, 0.0) == 0.0  # each account its own
