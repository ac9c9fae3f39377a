"""The one writer of one game's rows (:class:`RowWriter`): a decision's lines inserted in one
transaction (shared with other tables' decisions of the moment: :mod:`.pggroup`), committed before
they are sent, and only while this server holds the game."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from ...engine import Event
from ...store import SaveError, SaveFailed, encode_line
from ...store import writer as file_writer
from .base import HoldLost, SavesLater
from .pgerrors import DatabaseError
from .pggroup import Append, GroupCommit
from .pgholds import Holds

T = TypeVar("T")


class RowStore(Protocol):
    """What a game's writer needs of the store it writes through (:class:`~.pg.PgStore`): its
    holds, the commits its writers share, and its unlocks."""

    holds: Holds
    group: GroupCommit

    def release(self, game_id: int) -> None: ...


class RowWriter(SavesLater):
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
        self._later: list[asyncio.Future[BaseException | None]] | None = None
        """While :meth:`deciding`: the commits of the appends made, awaited by :meth:`settled`."""

    def append(self, events: Sequence[Event]) -> list[bytes]:
        """Insert ``events`` (a decision and its derived events) in one transaction, committed
        (synchronous commit) before it returns the lines, as the file store's lines are: with
        the other tables' decisions of the moment (:class:`~.pggroup.GroupCommit`), on the
        session that holds the game, written only while it does."""
        if self.failed is not None:
            raise self.failed
        if self._closed:
            raise SaveError(f"table {self.name}: its game is closed")
        if self.store.holds.lost(self.game_id):  # (the server holds it again, reading what was written)
            raise HoldLost(f"table {self.name}: this server's hold on it was lost (its database session ended)")
        at = file_writer.utc_stamp()  # the file writer's clock: the same lines either way
        seq = self.next_seq
        lines = [encode_line(ev, seq + i, at) for i, ev in enumerate(events)]
        if self._later is not None:  # (queued: its table awaits the commit, see deciding)
            self._later.append(_submitted(self.store.group, Append(self.game_id, self.name, seq, lines)))
            self.next_seq = seq + len(events)
            return lines
        try:
            self.store.group.append(Append(self.game_id, self.name, seq, lines))
        except HoldLost:
            # nothing of ours was kept (the hold went, or another server holds the game now and
            # wrote this seq first): the game goes on there and this server holds it again, with
            # that line, before deciding anew
            raise
        except DatabaseError as e:
            raise self._failed(e) from None
        self.next_seq = seq + len(events)
        return lines

    def _failed(self, e: DatabaseError) -> SaveFailed:
        why = str(e)
        self.failed = SaveFailed(
            f"table {self.name}: could not save the last move: {why}. The game has stopped here; "
            "the database keeps every move up to the last one saved",
            None,
            why,
        )
        return self.failed

    def deciding(self, decide: Callable[[], T]) -> tuple[T, list[asyncio.Future[BaseException | None]]]:
        """Run ``decide`` (on the server's loop) with its appends queued for their commit rather
        than waited for: each returns its lines at once. Its value, and the commits to await
        (:meth:`settled`) before anyone hears of the lines."""
        self._later = []
        try:
            return decide(), self._later
        finally:
            self._later = None

    async def settled(self, pending: list[asyncio.Future[BaseException | None]]) -> None:
        """Await the commits of :meth:`deciding`'s appends, in order; raises what the first that
        failed raised (as :meth:`append` would have: HoldLost, or the game stopped for good)."""
        for future in pending:
            error = await future
            if isinstance(error, DatabaseError):
                for rest in pending:  # (the later ones went the same way: nobody waits for them)
                    await rest
                raise self._failed(error) from None
            if error is not None:
                for rest in pending:
                    await rest
                raise error

    def close(self) -> None:
        """Let the game go (its lines are all committed already); the unlock runs off the caller's thread."""
        if not self._closed:
            self._closed = True
            self.store.release(self.game_id)

    @property
    def closed(self) -> bool:
        return self._closed


def _submitted(group: GroupCommit, request: Append) -> asyncio.Future[BaseException | None]:
    """``request`` queued for the next commit; its outcome (its error, or None) a future of the
    running loop, set from whichever thread led the commit."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[BaseException | None] = loop.create_future()

    def done(request: Append) -> None:
        with contextlib.suppress(RuntimeError):  # (the loop has closed: the server stopped, nobody awaits it)
            loop.call_soon_threadsafe(_settle, future, request.error)

    group.submit(request, done)
    return future


def _settle(future: asyncio.Future[BaseException | None], error: BaseException | None) -> None:
    if not future.done():
        future.set_result(error)


__all__ = ["RowStore", "RowWriter"]
