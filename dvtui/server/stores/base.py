"""Where the server keeps its tables: behind :class:`GameStore`, files in ``DIR/games``
(:mod:`.files`) or PostgreSQL (:mod:`.pg`).

A table is a game (an ordinary ``.dvr``, written by :class:`~dvtui.play.session.PlaySession`'s
writer: fsync, lock, torn-tail repair) and a small record beside it (who owns which seat, the
table's settings, the bots standing in). The server asks the store for nothing else, so the store on
PostgreSQL (:mod:`~.pg`, docs/TABLES_AT_SCALE.md) implements these few methods and leaves the server as it is.
What several servers on one database need of each other is not storage: it is the server's
:class:`~dvtui.server.peers.Peers`.

Every method may block (file system calls, fsync): the server calls them off its event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import NamedTuple, Protocol, TypeVar

import msgspec

from ...engine import GameCreated
from ...play.session import PlaySession
from ...store import LoadedGame, SaveError
from ...tables.clock import MAX_MOVE_TIME
from ..chat import Talk

T = TypeVar("T")

MAX_RECORD_BYTES = 4096
MAX_HISTORY = 20
"""The most earlier games a table's record names (its rematches' finished games): the oldest
beyond it stay in the games directory, no longer offered by the table."""
MAX_RELEASED = 32
"""The most people a table's record keeps released (the oldest beyond it may sit again)."""


class TableRecord(msgspec.Struct, kw_only=True):
    """What a table keeps beside its game, so a restarted server gives every seat back to its owner."""

    hints: bool = True
    owners: list[int | str | None]
    """Each seat's owner: a uid, or the name of a person a trusted account vouched for (None:
    free, or a bot seat). The two never compare equal, so a vouched person owns apart from every
    account, the vouching one included."""
    stand_ins: list[str | None]
    """The bot level playing each seat while its owner is away (None: nobody stands in)."""
    opener: int | str | None = None
    """Who opened the table (an owner as in ``owners``): it counts against their quota, and they
    may release its seats. None: nobody (a record that was missing or did not fit the game)."""
    kept_for: list[int | str | None] = msgspec.field(default_factory=list)
    """Whom each free seat is kept for (an owner as in ``owners``; None: anybody), as
    :func:`~dvtui.server.registry.kept_for` decided at opening; empty: nobody's."""
    move_time: int | None = None
    """Seconds each turn (and the waiting room) may last before a stand-in plays it (None: no clock)."""
    time_bank: int | None = None
    """Seconds each seat's time bank holds at the start of a game, spent once a turn's move time
    has run out (None: no bank; :mod:`dvtui.tables.clock`)."""
    increment: int = 0
    """Seconds a placement made in time adds to its seat's bank."""
    banks: list[float] = msgspec.field(default_factory=list)
    """Each seat's bank as the current turn began (empty: no bank, or none spent yet)."""
    started: bool = True
    """The first placement may be made: every human seat has been taken once, or the opener
    started the table (False: a waiting room; a record without the key is a table that started)."""
    resigned: list[bool] = msgspec.field(default_factory=list)
    """Each seat whose owner resigned: its stand-in plays it to the end, and nobody takes it back
    (empty: nobody resigned)."""
    game: int = 1
    """The number of the table's current game: 1, and one more at each rematch."""
    history: list[str] = msgspec.field(default_factory=list)
    """The files the table's earlier games were put aside as (``NAME.<time>.dvr``, in the games
    directory), oldest first: games ``game - len(history)`` to ``game - 1``."""
    declined: int = 0
    """How many times a rematch of the current game was turned down: an acceptance made before
    the last of them counts no more, whichever server it was made through (0 at each new game)."""
    released: list[int | str] = msgspec.field(default_factory=list)
    """Who the opener released from a seat of the current game (owners as in ``owners``, the
    latest :data:`MAX_RELEASED`): they take no seat of it again unless the opener hands them one,
    so a release sticks (empty again at each new game)."""
    stand_in_by: list[int | str | None] = msgspec.field(default_factory=list)
    """Who asked for each seat's stand-in, when a co-player did (None: the table's own: its clock,
    its start, a resignation, the opener's handing the seat to a bot); empty: nobody."""


class Here(NamedTuple):
    """One person (or bot client) at a table through a server: ``seat`` (None: watching),
    ``bot``, the level of a bot client (None: a person), ``accepts``: they proposed or accepted a
    rematch of the finished game, after the record's ``declined``-th time one was turned down."""

    seat: int | None
    bot: str | None
    accepts: bool = False
    declined: int = 0


class TableExists(Exception):
    """A table of that name is being played (or its file cannot be read to say it is over)."""


class HoldLost(SaveError):
    """A shared store's server no longer holds the game it was to write (the database session its
    hold was on ended): nothing was written. The server holds it again (:meth:`GameStore.hold`),
    with what another server wrote meanwhile, before it writes there."""


class RecordChanged(Exception):
    """The table's record was changed through another server since the version a change was made
    on: here it is as kept now (``record``, ``version``), for the change to be made again on it."""

    def __init__(self, record: TableRecord | None, version: int) -> None:
        super().__init__(f"the record is at version {version}")
        self.record = record
        self.version = version


def normal_record(record: TableRecord | None, n: int) -> TableRecord:
    """``record`` made whole for a game of ``n`` seats (a record that does not fit is no record:
    every seat free, kept for nobody)."""
    if record is None or len(record.owners) != n or len(record.stand_ins) != n:
        return TableRecord(owners=[None] * n, stand_ins=[None] * n)
    if len(record.kept_for) != n:
        record.kept_for = [None] * n
    if len(record.resigned) != n:
        record.resigned = [False] * n
    if len(record.stand_in_by) != n:
        record.stand_in_by = [None] * n
    record.banks = [_within(bank) for bank in record.banks] if len(record.banks) == n else []
    record.time_bank = None if record.time_bank is None else int(_within(record.time_bank))
    record.increment = int(_within(record.increment))
    return record


def record_copy(record: TableRecord) -> TableRecord:
    """``record`` with lists of its own: what a save reads off the event loop while the loop may
    change the table's record in place (a seat taken, a stand-in set). Every list is copied, so a
    list the record gains is never shared by mistake."""
    lists = {name: list(value) for name in record.__struct_fields__ if isinstance(value := getattr(record, name), list)}
    return msgspec.structs.replace(record, **lists)


def _within(seconds: float) -> float:
    """A bank's seconds as a record may hold them, brought within a clock's bounds (a record
    written by hand, or damaged, draws no negative nor endless clock)."""
    return min(max(0.0, float(seconds)), float(MAX_MOVE_TIME))


class SavesLater:
    """A game's writer whose saves a table may decide on its loop and await (a database's
    :class:`~.pgrows.RowWriter`): during :meth:`deciding`, an append queues the decision's lines
    for their commit and returns them at once, and :meth:`settled` awaits those commits, raising
    what the append would have raised. No thread waits for a commit; a writer that is not one
    (the file store's, which fsyncs) is called off the loop. A base class, not a protocol: the
    table asks at every decision, and a protocol's ``isinstance`` costs tens of microseconds."""

    def deciding(self, decide: Callable[[], T]) -> tuple[T, list[asyncio.Future[BaseException | None]]]:
        raise NotImplementedError

    async def settled(self, pending: list[asyncio.Future[BaseException | None]]) -> None:
        raise NotImplementedError


class GameStore(Protocol):
    """The server's storage of tables (see the module's docstring)."""

    def names(self) -> list[str]:
        """The names of the tables kept, over or not (to load at start)."""
        ...

    def create(self, name: str, created: GameCreated, record: TableRecord) -> tuple[PlaySession, list[bytes]]:
        """A new table's game, durable, and its lines; :class:`TableExists` if the name is taken."""
        ...

    def reopen(self, name: str) -> tuple[PlaySession, list[bytes], TableRecord | None]:
        """A table's game, locked for play, with its lines and its record."""
        ...

    def last_active(self, name: str) -> float:
        """When the table's game or record was last written (seconds since the epoch)."""
        ...

    def game_written(self, name: str) -> float:
        """When the table's game was last written (seconds since the epoch): when its turn began."""
        ...

    def archive(self, name: str) -> str:
        """Put the table aside: its name is free, its game kept under another (returned)."""
        ...

    def save_record(self, name: str, record: TableRecord) -> None:
        """Keep ``record`` durably (it replaces the previous one whole)."""
        ...

    def replace_record(self, name: str, record: TableRecord, version: int, game: int | None = None) -> int:
        """Keep ``record`` in place of version ``version`` of the table's record; its new version.
        A shared store raises :class:`RecordChanged` when the record kept is another version (a
        change made through another server meanwhile is never overwritten); one server's store
        has nobody else changing it, and keeps ``record`` as :meth:`save_record` does. ``game``:
        the game the record is changed for (:meth:`game_id`): a shared store changes that game's
        record only, never another game's that was given the table's name meanwhile."""
        ...

    def versioned_record(self, name: str, game: int | None = None) -> tuple[TableRecord | None, int]:
        """Table ``name``'s record as kept now, and its version (``game``: that game's, as for
        :meth:`lines_since`)."""
        ...

    def game_id(self, session: PlaySession) -> int | None:
        """The store's own identity of the game ``session`` plays (a shared store's row), which
        the other servers' news names it by and a follower reads it by: a table's name may be
        given to another game (its game put aside, a new table opened at its name) while a server
        still holds the first. None: the store knows games by name alone (one server on its files)."""
        ...

    def talk(self) -> Talk:
        """Where the tables' talk is kept (chat files beside the games, or the shared database)."""
        ...

    def rest(self, name: str, session: PlaySession) -> None:
        """The table's files are closed (its game's lock released) until :meth:`reopen`."""
        ...

    def kept(self) -> list[str]:
        """The names of the games kept after their tables (:data:`~dvtui.tables.wire.KEPT_GAME`)."""
        ...

    def read_kept(self, kept: str) -> tuple[LoadedGame, float]:
        """A kept game, and when its last line was written (seconds since the epoch): its line's
        time stamp, else its file's time. Raises GameFileError, OSError, SaveError (a shared store
        that has no such game)."""
        ...

    def forget(self, kept: str) -> None:
        """Remove a kept game and what was kept beside it."""
        ...

    def kept_size(self, kept: str) -> int:
        """The bytes a kept game takes with what was kept beside it (its record, its talk)."""
        ...

    def game_bytes(self, aside: str) -> bytes:
        """The ``.dvr`` of a game put aside (``NAME.<time>.dvr``, as a table's history names it).
        Raises OSError."""
        ...

    def lines_since(self, name: str, seq: int, game: int | None = None) -> list[bytes]:
        """Table ``name``'s game's lines from ``seq`` on; ``game`` (:meth:`game_id`): that game's,
        whatever name it has now (None: the game at ``name`` now)."""
        ...

    def record(self, name: str) -> TableRecord | None:
        """Table ``name``'s record as kept now."""
        ...

    def keep_rated(self, game: str, data: bytes) -> None:
        """Keep a rated game's end, its record ``data`` (one JSON line, ``\n`` excluded) under its id
        ``game``, durably; a record kept under that id already stays as it is."""
        ...

    def rated_since(self, seen: int) -> tuple[list[bytes], int]:
        """The rated games' records kept after the first ``seen`` (0: all of them), in the order kept,
        and how many there are now (what to pass next time). A record torn by a crash is left out."""
        ...

    def keep_arena(self, name: str, data: bytes) -> None:
        """Keep tournament ``name``'s record ``data`` (JSON), durably, in place of the one kept."""
        ...

    def arenas(self) -> list[tuple[str, bytes]]:
        """Every tournament kept: its name and its record (the server reads them as it starts)."""
        ...

    def close(self) -> None:
        """The store is done with (the server has stopped): its connections closed, its threads
        stopped. Called once, when the server it was handed to stops."""
        ...
