"""The club's rows on PostgreSQL (:class:`PgClub`): each rated game's end (``dvtui_ratings``) and
each tournament's record (``dvtui_arenas``), kept apart from the tables' games and read by every
server on the database, as the file store keeps them in files of their own beside the games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from .pgconn import Pool

SCHEMA = """
CREATE TABLE IF NOT EXISTS dvtui_ratings (
    n bigserial PRIMARY KEY,
    game text NOT NULL UNIQUE,
    record bytea NOT NULL
);
CREATE TABLE IF NOT EXISTS dvtui_arenas (
    name text PRIMARY KEY,
    record bytea NOT NULL
);
"""
"""Made with the store's schema (:data:`~.pg.SCHEMA` runs it), before the tournaments' own
(:data:`~.pgarenas.SCHEMA`, which adds to ``dvtui_arenas``)."""

RATED_AGAIN = 64
"""How many rows of ``dvtui_ratings`` before the last one read a server reads again each time."""

_T = TypeVar("_T")


class Patient(Protocol):
    """The store's patience (:meth:`~.pg.PgStore.patiently`): ``what()``, tried again while the
    database is away."""

    def __call__(self, what: Callable[[], _T]) -> _T: ...


class PgClub:
    """The rated games' ends and the tournaments' records, through the store's connections
    (``pool``) and its patience with a database away (``patiently``: a read or write tried again
    while the database is away)."""

    def __init__(self, pool: Pool, patiently: Patient) -> None:
        self.pool = pool
        self.patiently = patiently

    def keep_rated(self, game: str, data: bytes) -> None:
        """One row per game id (a second server keeping the same game's end adds nothing)."""

        def write() -> None:
            with self.pool.conn() as conn:
                conn.execute(
                    "INSERT INTO dvtui_ratings (game, record) VALUES (%s, %s) ON CONFLICT (game) DO NOTHING",
                    (game, data),
                )

        self.patiently(write)

    def rated_since(self, seen: int) -> tuple[list[bytes], int]:
        """The rows after row number ``seen`` (the cursor is the last row's ``n``), and the
        :data:`RATED_AGAIN` rows before it again: a row whose number was drawn before another's may be
        committed after it, by another server (the ratings count a record given twice once)."""

        def read() -> tuple[list[bytes], int]:
            with self.pool.conn() as conn:
                rows = conn.execute(
                    "SELECT n, record FROM dvtui_ratings WHERE n > %s ORDER BY n", (max(seen - RATED_AGAIN, 0),)
                ).fetchall()
            return [bytes(row[1]) for row in rows], max([seen, *(int(row[0]) for row in rows)])

        return self.patiently(read)

    def keep_arena(self, name: str, data: bytes) -> None:
        """One row per tournament, replaced at each change."""

        def write() -> None:
            with self.pool.conn() as conn:
                conn.execute(
                    "INSERT INTO dvtui_arenas (name, record) VALUES (%s, %s) "
                    "ON CONFLICT (name) DO UPDATE SET record = EXCLUDED.record",
                    (name, data),
                )

        self.patiently(write)

    def arenas(self) -> list[tuple[str, bytes]]:
        """Every tournament's record, by name."""

        def read() -> list[tuple[str, bytes]]:
            with self.pool.conn() as conn:
                rows = conn.execute("SELECT name, record FROM dvtui_arenas ORDER BY name").fetchall()
            return [(str(row[0]), bytes(row[1])) for row in rows]

        return self.patiently(read)


__all__ = ["RATED_AGAIN", "SCHEMA", "Patient", "PgClub"]
