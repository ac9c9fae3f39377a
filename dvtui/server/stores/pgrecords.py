"""The tables' records in the database (:class:`PgRecords`): who sits where, the rematch, the
clocks' banks, kept in each game's row beside its lines, versioned so that two servers changing one
record at once never lose either change (a compare-and-swap), each change notified to the others."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from .base import RecordChanged, TableRecord
from .pgconn import CHANNEL, Pool

_T = TypeVar("_T")
_decoder = msgspec.json.Decoder(TableRecord)


def decoded(raw: bytes | None) -> TableRecord | None:
    """A record as stored (None: none, or one that does not read)."""
    with contextlib.suppress(msgspec.DecodeError):
        return None if raw is None else _decoder.decode(bytes(raw))
    return None


class PgRecords:
    """The records of the games in ``pool``'s database; ``patiently`` tries a read or a whole write
    again while the database is away (:meth:`~.pg.PgStore.patiently`)."""

    def __init__(self, pool: Pool, patiently: Callable[[Callable[[], Any]], Any]) -> None:
        self.pool = pool
        self.patiently = patiently

    def raw(self, name: str) -> bytes | None:
        """Table ``name``'s record as stored (None: it has none), read once."""
        with self.pool.conn() as conn:
            row = conn.execute("SELECT record FROM dvtui_games WHERE name = %s", (name,)).fetchone()
        return None if row is None or row[0] is None else bytes(row[0])

    def record(self, name: str) -> TableRecord | None:
        """Table ``name``'s record as kept now (None: none, or one that does not read)."""
        return decoded(self.patiently(lambda: self.raw(name)))

    def save(self, name: str, record: TableRecord) -> None:
        data = msgspec.json.encode(record)

        def write() -> None:
            with self.pool.conn() as conn, conn.transaction():
                row = conn.execute(
                    "UPDATE dvtui_games SET record = %s, record_at = now(), record_version = record_version + 1 "
                    "WHERE name = %s RETURNING id",
                    (data, name),
                ).fetchone()
                if row is not None:
                    conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"record {name} {row[0]}"))

        self.patiently(write)

    def replace(self, name: str, record: TableRecord, version: int, game: int | None = None) -> int:
        """Keep ``record`` if the record kept is still version ``version`` (a compare-and-swap: two
        servers seating two people at once never lose either seat); else :class:`RecordChanged`.
        A commit whose answer was lost and is tried again finds its own version moved on, and
        the caller makes its change again on what is kept: the same change, found made. ``game``:
        only that game's record, while it is the table's (another game given the name meanwhile
        keeps its own)."""
        data = msgspec.json.encode(record)
        which, keys = _which(name, game)

        def write() -> int:
            with self.pool.conn() as conn, conn.transaction():
                row = conn.execute(
                    "UPDATE dvtui_games SET record = %s, record_at = now(), record_version = record_version + 1 "
                    f"WHERE {which} AND record_version = %s RETURNING id, record_version",
                    (data, *keys, version),
                ).fetchone()
                if row is not None:
                    conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"record {name} {row[0]}"))
                    return int(row[1])
                kept = conn.execute(f"SELECT record, record_version FROM dvtui_games WHERE {which}", keys).fetchone()
            if kept is None:  # (the table is gone: put aside meanwhile)
                return version
            raise RecordChanged(decoded(kept[0]), int(kept[1]))

        result: int = self.patiently(write)
        return result

    def versioned(self, name: str, game: int | None = None) -> tuple[TableRecord | None, int]:
        which, keys = _which(name, game)

        def read() -> tuple[TableRecord | None, int]:
            with self.pool.conn() as conn:
                row = conn.execute(f"SELECT record, record_version FROM dvtui_games WHERE {which}", keys).fetchone()
            return (None, -1) if row is None else (decoded(row[0]), int(row[1]))

        result: tuple[TableRecord | None, int] = self.patiently(read)
        return result


def _which(name: str, game: int | None) -> tuple[str, tuple[object, ...]]:
    """The condition naming table ``name``'s row (and only game ``game``'s, when given), and its keys."""
    return ("name = %s", (name,)) if game is None else ("name = %s AND id = %s", (name, game))


__all__ = ["PgRecords", "decoded"]
