"""The tables' tests' fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dvtui.tables.server import Server

from .support import in_thread, short_dir


@pytest.fixture
def in_process() -> Iterator[Server]:
    """A server in a thread of this process (its constants can be changed by a test)."""
    with short_dir() as d:
        (d / "srv").mkdir(mode=0o700)
        with in_thread(d / "srv") as srv:
            yield srv
