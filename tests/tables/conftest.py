"""The tables' tests' fixtures."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from dvtui.tables import ServerPlace
from dvtui.tables.server import Server

from .support import short_dir, wait_for


@pytest.fixture
def in_process() -> Iterator[Server]:
    """A server in a thread of this process (its constants can be changed by a test)."""
    with short_dir() as d:
        srv = Server(ServerPlace(d / "srv", personal=False), signals=False, log=lambda line: None)
        loop = asyncio.new_event_loop()
        (d / "srv").mkdir(mode=0o700)
        thread = threading.Thread(target=lambda: loop.run_until_complete(srv.run()), daemon=True)
        thread.start()
        wait_for("the server to listen", lambda: srv.listening.is_set())
        yield srv
        loop.call_soon_threadsafe(srv.stopping.set)
        thread.join(60)
        assert not thread.is_alive()
        loop.close()
