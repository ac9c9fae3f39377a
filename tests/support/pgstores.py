"""Two servers' stores on one PostgreSQL database, for the tests that follow one from the other
without a socket."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

from dvtui.server.stores.pg import PgStore

S = TypeVar("S", bound=PgStore)


@contextlib.contextmanager
def two_stores(database: str, tmp_path: Path, second: type[S]) -> Iterator[tuple[PgStore, S]]:
    """Server ``a``'s store and server ``b``'s (of kind ``second``: one that counts its reads, say),
    each with its own directory, closed after."""
    a, b = PgStore(database, tmp_path / "a"), second(database, tmp_path / "b")
    try:
        yield a, b
    finally:
        a.close()
        b.close()
