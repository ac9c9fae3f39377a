"""The one writer of one game's rows (:class:`RowWriter`): a decision's lines inserted in one
transaction, committed before they are sent, and only while this server holds the game."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Protocol

from ...engine import Event
from ...store import SaveError, SaveFailed, encode_line
from ...store import writer as file_writer
from .base import HoldLost
from .pgconn import CHANNEL, Pool
from .pgerrors import DatabaseConflict, DatabaseError, DatabaseLost
from .pgholds import Holds


class RowStore(Protocol):
    """What a game's writer needs of the store it writes through (:class:`~.pg.PgStore`): its
    connections, its holds, and its patience with a database that went away."""

    pool: Pool
    holds: Holds
    patience: float

    def database_back(self) -> None: ...

    def wait_for_database(self, lost: DatabaseLost, deadline: float) -> None: ...

    def release(self, game_id: int) -> None: ...


class RowWriter:
    """The one writer of one game in the database (what :class:`~dvtui.store.GameWriter` is to a file)."""

    def __init__(self, store: RowStore, name: str, game_id: int, next_seq: int) -> None:
        self.store = store
        self.name = name
        self.game_id = game_id
        self.next_seq = next_seq
        self.failed: SaveFailed | None = None
        """Set when a save failed: the game has stopped here, every later append raises it again."""
        self.notices: list[str] = []
        self._closed = False

    def append(self, events: Sequence[Event]) -> list[bytes]:
        """Insert ``events`` (a decision and its derived events) in one transaction, committed
        (synchronous commit) before it returns the lines, as the file store's lines are."""
        if self.failed is not None:
            raise self.failed
        if self._closed:
            raise SaveError(f"table {self.name}: its game is closed")
        if not self.store.holds.holding(self.game_id):
            raise HoldLost(f"table {self.name}: this server's hold on it was lost (its database session ended)")
        at = file_writer.utc_stamp()  # the file writer's clock: the same lines either way
        seq = self.next_seq
        lines = [encode_line(ev, seq + i, at) for i, ev in enumerate(events)]
        try:
            self._insert(seq, lines)
        except DatabaseConflict:
            # another server holds the game now and wrote this seq first (this one's hold went
            # between its check and its insert): nothing of ours was kept, so the game goes on
            # there and this server holds it again, with that line, before deciding anew
            self.store.holds.mark_lost(self.game_id)
            raise HoldLost(f"table {self.name}: another server wrote its next line first") from None
        except DatabaseError as e:
            why = str(e)
            self.failed = SaveFailed(
                f"table {self.name}: could not save the last move: {why}. The game has stopped here; "
                "the database keeps every move up to the last one saved",
                None,
                why,
            )
            raise self.failed from None
        self.next_seq = seq + len(events)
        return lines

    def _insert(self, seq: int, lines: list[bytes]) -> None:
        """Commit ``lines`` from ``seq`` on. A connection lost meanwhile is tried again until the
        store's patience is out: the lines found there already (committed just before the loss)
        are done; anything else there is another writer's: :class:`DatabaseConflict`."""
        store = self.store
        deadline = time.monotonic() + store.patience
        while True:
            try:
                if store.holds.lost(self.game_id):  # (the server holds it again, reading what was written)
                    raise HoldLost(f"table {self.name}: this server's hold on it was lost while the database was away")
                with store.pool.conn() as conn, conn.transaction(), conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO dvtui_events (game_id, seq, line) VALUES (%s, %s, %s)",
                        [(self.game_id, seq + i, line) for i, line in enumerate(lines)],
                    )
                    cur.execute("UPDATE dvtui_games SET written_at = now() WHERE id = %s", (self.game_id,))
                    cur.execute(
                        "SELECT pg_notify(%s, %s)", (CHANNEL, f"lines {self.name} {self.game_id} {seq + len(lines)}")
                    )
                store.database_back()
                return
            except DatabaseLost as e:
                store.wait_for_database(e, deadline)
            try:
                store.holds.renew()
                with store.pool.conn() as conn:
                    there = [bytes(row[0]) for row in conn.execute(
                        "SELECT line FROM dvtui_events WHERE game_id = %s AND seq >= %s ORDER BY seq",
                        (self.game_id, seq),
                    )]  # fmt: skip
            except DatabaseLost:
                continue
            store.database_back()
            if there == lines:
                return
            if there:
                raise DatabaseConflict("another server wrote the table's next line")

    def close(self) -> None:
        """Let the game go (its lines are all committed already); the unlock runs off the caller's thread."""
        if not self._closed:
            self._closed = True
            self.store.release(self.game_id)

    @property
    def closed(self) -> bool:
        return self._closed


__all__ = ["RowStore", "RowWriter"]
