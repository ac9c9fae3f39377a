"""Tables in PostgreSQL: the :class:`~.base.GameStore` the server uses, with rows instead of files.

A game is a row of ``dvtui_games`` (its name: a table's, or a kept game's ``NAME.<time>``; the
table's record) and its lines are rows of ``dvtui_events``, primary key ``(game_id, seq)``. A
decision and its derived events are one transaction, committed with ``synchronous_commit`` on
before :meth:`RowWriter.append` returns, so a line is durable before any client is sent it, as
the fsync makes it with files. The lines are stored as the bytes the file store would write, so a
game read back (``dvtui serve --export``) is byte for byte its ``.dvr``.

One writer per game: the server that plays a table holds an advisory lock on the game (on one
connection of its own, for as long as it plays there), and writes its lines on that connection,
in a statement that writes only the games whose locks that session holds (the decisions of the
moment of every table in one transaction: :mod:`.pggroup`): a hold lost with its session
(terminated, cut by a pooler or a timeout) raises :class:`HoldLost` and nothing is written until
the server holds the game again, with what was written meanwhile (:meth:`~.pgpeers.PgPeers.hold`).
A writer behind the game (another wrote its ``seq`` first) is refused by the primary key: nothing
of its decision is kept, it raises :class:`HoldLost` too, and holds the game again with the other's
line before deciding anew. The game never forks, and never stops for it.

Every method may block on the database: the server calls them off its event loop (:meth:`RowWriter.close`
hands its unlock to a thread of its own, as the server closes a table on its loop).
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import msgspec

from ...engine import Game, GameCreated
from ...play.session import PlaySession
from ...store import GameFileError, GameLocked, LoadedGame, SaveError, encode_line, parse_game
from ...store import writer as file_writer
from ...tables.stamps import last_stamp
from ...tables.wire import KEPT_GAME, TABLE_NAME
from .base import TableExists, TableRecord
from .pgarenas import SCHEMA as ARENAS_SCHEMA
from .pgarenas import PgArenas
from .pgchat import SCHEMA as CHAT_SCHEMA
from .pgchat import PgChat
from .pgclub import SCHEMA as CLUB_SCHEMA
from .pgclub import PgClub
from .pgconn import CHANNEL, Pool, StoreUnavailable, check_conninfo, connect, why
from .pgerrors import DatabaseError, DatabaseLost
from .pggroup import GroupCommit
from .pgholds import Holds
from .pgpresence import SCHEMA as PRESENCE_SCHEMA
from .pgpresence import Presence
from .pgrecords import PgRecords, decoded
from .pgrows import RowWriter

if TYPE_CHECKING:
    import psycopg

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS dvtui_games (
    id bigserial PRIMARY KEY,
    name text NOT NULL UNIQUE,
    record bytea,
    record_at timestamptz NOT NULL DEFAULT now(),
    written_at timestamptz NOT NULL DEFAULT now(),
    record_version bigint NOT NULL DEFAULT 0
);
ALTER TABLE dvtui_games ADD COLUMN IF NOT EXISTS record_version bigint NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS dvtui_events (
    game_id bigint NOT NULL REFERENCES dvtui_games (id) ON DELETE CASCADE,
    seq integer NOT NULL,
    line bytea NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);
"""
    + CLUB_SCHEMA
    + PRESENCE_SCHEMA
    + CHAT_SCHEMA
    + ARENAS_SCHEMA
)
"""The schema, made on first use (``IF NOT EXISTS``, under a transaction lock, so servers starting
together make it once)."""

LOCK_WAIT = 30.0
"""Seconds a server waits for a table another server holds (asked, it lets go once its decision is
made; a server that died lets go with its connection) before it gives up."""

ASK_AGAIN = 0.1
"""Seconds between two ``want`` notifications of a server waiting for a table. A want is answered
once: the holder lets the table go after its decision, but may take it again at once for the next
one (its own bot, its own person) before the waiting server's next try, and then holds it with
nobody asking. Asked again this soon, such a hand-over waits a tenth of a second, not a second (as
it did, several times a game, whenever two servers' people took turns): a notification costs far
less than the stall."""

_SCHEMA_LOCK = -1
"""The advisory lock key under which the schema is made (games' keys are their ids, all positive)."""
POOL_SIZE = 8
"""Connections a store writes and reads through at once (one more holds the tables' locks)."""
PATIENCE = 120.0
"""Seconds a store keeps trying to reach a database it lost (a restart, a failover) before a
save fails and its table stops: meanwhile the decision waits, and nobody is told of it."""
RETRY = 0.25
"""Seconds between two tries."""

SETTLE = 10.0
"""Seconds the store waits, as it closes, for the commits under way to end (their tables' people
are told nothing more: the rows are what a restart reads)."""

_T = TypeVar("_T")
_NAME = re.compile(TABLE_NAME)
_KEPT = re.compile(KEPT_GAME)


class PgStore:
    """Tables in the PostgreSQL database ``conninfo`` (see the module's docstring); their talk is
    kept there too (:mod:`.pgchat`), and who is at them (:mod:`.pgpresence`). ``chats``: the
    server's directory, where a chat file found beside a game is moved aside and removed with it."""

    def __init__(
        self, conninfo: str, chats: Path | None = None, *, pool_size: int = POOL_SIZE, patience: float = PATIENCE,
        log: Callable[[str], None] | None = None,
    ) -> None:  # fmt: skip
        check_conninfo(conninfo)
        self.conninfo = conninfo
        self.patience = patience
        self._log = log or (lambda line: None)
        self.lock_wait = LOCK_WAIT
        self.stopping = threading.Event()
        self.listener: threading.Thread | None = None
        """The thread that follows the other servers (:class:`~.pgpeers.PgPeers`), stopped with the store."""
        self._boards: list[PgArenas] = []
        """The tournaments' boards made (:meth:`arena_board`), closed with the store."""
        self.stirred = threading.Event()
        """Set when the store stops and when the follower's listening connection is lost: what the
        follower's thread sleeps on (so a server stops, or listens again, at once, not at a poll's
        next look)."""
        self._away = threading.Event()
        """Set while the database is away (said once when it goes, once when it is back)."""
        self.chats = chats
        self.pool = Pool(conninfo, pool_size)
        self.holds = Holds(conninfo)
        self.group = GroupCommit(self)
        """The decisions of the moment, of every table, committed together (:mod:`.pggroup`)."""
        self._unlocks = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dvtui-unlock")
        self.records = PgRecords(self.pool, self._patiently)
        """The tables' records, versioned (:mod:`.pgrecords`)."""
        self.club = PgClub(self.pool, self._patiently)
        """The rated games' ends and the tournaments' records (:mod:`.pgclub`)."""
        self._schema()
        self.presence = Presence(lambda: connect(conninfo), CHANNEL)
        """Who is at each table through this server, for the others (:mod:`.pgpresence`)."""

    def talk(self) -> PgChat:
        return PgChat(self, CHANNEL)

    def arena_board(self) -> PgArenas:
        """The tournaments as every server on the database shares them (:mod:`.pgarenas`), closed
        with the store (its connection holds the pairing locks: left open, they would outlive it)."""
        board = PgArenas(self.conninfo, self.pool, lambda: self.presence.id, self._patiently)
        self._boards.append(board)
        return board

    def patiently(self, what: Callable[[], _T]) -> _T:
        """``what()``, tried again while the database is away (see :meth:`_patiently`)."""
        return self._patiently(what)

    def _patiently(self, what: Callable[[], _T]) -> _T:
        """``what()``, tried again while the database is away, for up to :attr:`patience` seconds
        (only for what may be done twice: reads, and writes of a whole value)."""
        deadline = time.monotonic() + self.patience
        while True:
            try:
                done = what()
            except DatabaseLost as e:
                self.wait_for_database(e, deadline)
                continue
            self.database_back()
            return done

    def wait_for_database(self, lost: DatabaseLost, deadline: float) -> None:
        """Wait a little before the next try, or raise ``lost`` once the store's patience is out."""
        if time.monotonic() >= deadline:
            raise lost
        if not self._away.is_set():
            self._away.set()
            self._log(f"the database is away ({lost}): trying again for up to {self.patience:g} seconds")
        time.sleep(RETRY)

    def database_back(self) -> None:
        if self._away.is_set():
            self._away.clear()
            self._log("the database is back")

    def _schema(self) -> None:
        with self.pool.conn() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            conn.execute(SCHEMA)

    def take(self, game_id: int, name: str | None = None) -> bool:
        """Hold game ``game_id``, waiting up to :data:`LOCK_WAIT` seconds for the server that holds
        it to let it go; ``name``: its table, which that server is asked for (``want NAME``)."""
        deadline = time.monotonic() + self.lock_wait
        pause = 0.002
        asked = float("-inf")
        while not self._patiently(lambda: self.holds.take(game_id)):
            now = time.monotonic()
            if now >= deadline:
                return False
            if name is not None and now - asked >= ASK_AGAIN:  # (a notification may be missed)
                self._notify(f"want {name}")
                asked = now
            time.sleep(pause)
            pause = min(2 * pause, 0.05)
        return True

    def _notify(self, payload: str) -> None:
        def send() -> None:
            with self.pool.conn() as conn:
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

        self._patiently(send)

    def lines_since(self, name: str, seq: int, game: int | None = None) -> list[bytes]:
        """Game ``game``'s lines from ``seq`` on, whatever its name now (None: the game named
        ``name`` now); none: no such game, or none yet."""

        def read() -> list[bytes]:
            with self.pool.conn() as conn:
                if game is not None:
                    rows = conn.execute(
                        "SELECT line FROM dvtui_events WHERE game_id = %s AND seq >= %s ORDER BY seq", (game, seq)
                    )
                else:
                    rows = conn.execute(
                        "SELECT e.line FROM dvtui_events e JOIN dvtui_games g ON g.id = e.game_id "
                        "WHERE g.name = %s AND e.seq >= %s ORDER BY e.seq",
                        (name, seq),
                    )
                return [bytes(row[0]) for row in rows]

        return self._patiently(read)

    def lines_since_many(self, since: dict[int, int]) -> dict[int, list[bytes]]:
        """Each game's lines from its ``seq`` on (``since``: game id -> seq), in one query: a
        follower reads every table it was told of meanwhile at once, not one query (and one hop
        to a thread) per table. A game with no line there yet is left out."""

        def read() -> dict[int, list[bytes]]:
            with self.pool.conn() as conn:
                rows = conn.execute(
                    "SELECT w.game_id, e.seq, e.line FROM unnest(%s::bigint[], %s::integer[]) AS w (game_id, seq) "
                    "CROSS JOIN LATERAL (SELECT seq, line FROM dvtui_events "
                    "WHERE game_id = w.game_id AND seq >= w.seq) AS e ORDER BY w.game_id, e.seq",
                    (list(since), list(since.values())),
                )
                found: dict[int, list[bytes]] = {}
                for game, _seq, line in rows:
                    found.setdefault(int(game), []).append(bytes(line))
                return found

        return self._patiently(read) if since else {}

    def game_id(self, session: PlaySession) -> int | None:
        writer = session.writer
        return writer.game_id if isinstance(writer, RowWriter) else None

    def name_of(self, game: int) -> str | None:
        """The name game ``game`` has now (a table's, or a kept game's once put aside; None: gone)."""

        def read() -> str | None:
            with self.pool.conn() as conn:
                row = conn.execute("SELECT name FROM dvtui_games WHERE id = %s", (game,)).fetchone()
            return None if row is None else str(row[0])

        return self._patiently(read)

    def record(self, name: str) -> TableRecord | None:
        """Table ``name``'s record as kept now (None: none, or one that does not read)."""
        return self.records.record(name)

    def keep_rated(self, game: str, data: bytes) -> None:
        self.club.keep_rated(game, data)

    def rated_since(self, seen: int) -> tuple[list[bytes], int]:
        return self.club.rated_since(seen)

    def keep_arena(self, name: str, data: bytes) -> None:
        self.club.keep_arena(name, data)

    def arenas(self) -> list[tuple[str, bytes]]:
        return self.club.arenas()

    def close(self) -> None:
        """Close the store's connections (its holds go with them), and stop following the others."""
        self.group.close(SETTLE)
        self.stopping.set()
        self.stirred.set()
        self.presence.close()
        if self.listener is not None:
            self.listener.join(5)
        self._unlocks.shutdown(wait=True)
        for board in self._boards:
            board.close()
        self.holds.close()
        self.pool.close()

    def release(self, game_id: int) -> None:
        self._unlocks.submit(self.holds.release, game_id)

    def lost_holds(self) -> set[str]:
        """The tables whose hold this server has lost (their database session ended) and not yet
        taken again, as the database says now: the server stops writing them until it holds them
        again, and tells their people."""
        lost = self.holds.check()
        if not lost:
            return set()

        def names() -> set[str]:
            with self.pool.conn() as conn:
                rows = conn.execute("SELECT name FROM dvtui_games WHERE id = ANY(%s)", (sorted(lost),))
                return {str(row[0]) for row in rows}

        return self._patiently(names)

    # -- reading ---------------------------------------------------------------------------------

    def _names(self) -> list[str]:
        def read() -> list[str]:
            with self.pool.conn() as conn:
                return sorted(row[0] for row in conn.execute("SELECT name FROM dvtui_games"))

        return self._patiently(read)

    def names(self) -> list[str]:
        return [name for name in self._names() if _NAME.fullmatch(name)]

    def kept(self) -> list[str]:
        return [name for name in self._names() if _KEPT.fullmatch(name)]

    def _game(self, conn: psycopg.Connection[Any], name: str) -> tuple[int, bytes | None] | None:
        row = conn.execute("SELECT id, record FROM dvtui_games WHERE name = %s", (name,)).fetchone()
        return None if row is None else (row[0], row[1])

    def _lines_of(self, conn: psycopg.Connection[Any], game_id: int) -> list[bytes]:
        rows = conn.execute("SELECT line FROM dvtui_events WHERE game_id = %s ORDER BY seq", (game_id,))
        return [bytes(row[0]) for row in rows]

    def lines(self, name: str) -> list[bytes]:
        """Game ``name``'s lines in ``seq`` order: its ``.dvr`` (raises SaveError when there is none)."""

        def read() -> list[bytes]:
            with self.pool.conn() as conn:
                found = self._game(conn, name)
                if found is None:
                    raise SaveError(f"{name}: no such game in the database")
                return self._lines_of(conn, found[0])

        return self._patiently(read)

    def game_bytes(self, aside: str) -> bytes:
        return b"".join(self.lines(aside.removesuffix(".dvr")))

    def _epoch(self, name: str, column: str) -> float:
        def read() -> float:
            with self.pool.conn() as conn:
                sql = f"SELECT extract(epoch FROM {column}) FROM dvtui_games WHERE name = %s"
                row = conn.execute(sql, (name,)).fetchone()
            return float(row[0]) if row is not None and row[0] is not None else 0.0

        return self._patiently(read)

    def last_active(self, name: str) -> float:
        return self._epoch(name, "greatest(written_at, record_at)")

    def game_written(self, name: str) -> float:
        return self._epoch(name, "written_at")

    def read_kept(self, kept: str) -> tuple[LoadedGame, float]:
        data = b"".join(self.lines(kept))
        return parse_game(data, kept), last_stamp(data) or self.game_written(kept)

    # -- playing ---------------------------------------------------------------------------------

    def create(self, name: str, created: GameCreated, record: TableRecord) -> tuple[PlaySession, list[bytes]]:
        import psycopg

        line = encode_line(created, 0, file_writer.utc_stamp())
        try:
            with self.pool.conn() as conn, conn.transaction():
                before = conn.execute("SELECT id FROM dvtui_games WHERE name = %s FOR UPDATE", (name,)).fetchone()
                if before is not None:
                    data = b"".join(self._lines_of(conn, before[0]))
                    try:
                        over = parse_game(data, name).game.over
                    except GameFileError as e:
                        raise TableExists(f"table {name}'s game cannot be read ({e}); choose another name") from None
                    if not over:
                        raise TableExists(f"table {name} is being played")
                    self._move_aside(conn, name)
                game_id = conn.execute(
                    "INSERT INTO dvtui_games (name, record) VALUES (%s, %s) RETURNING id",
                    (name, msgspec.json.encode(record)),
                ).fetchone()[0]  # type: ignore[index]
                conn.execute("INSERT INTO dvtui_events (game_id, seq, line) VALUES (%s, 0, %s)", (game_id, line))
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"table {name}"))
        except DatabaseError as e:
            if "dvtui_games_name_key" in str(e):  # another server opened it meanwhile
                raise TableExists(f"table {name} is being played") from None
            raise
        except psycopg.Error as e:  # pragma: no cover - the pool turns these into DatabaseError
            raise DatabaseError(why(e)) from None
        if not self.take(game_id):  # (only a session that died and is not yet gone holds a new game's id)
            raise GameLocked(f"table {name}", None, "another server")
        writer = RowWriter(self, name, game_id, 1)
        return PlaySession(
            Game(created), writer, None, [created], rewriter=lambda lines: RowWriter(self, name, game_id, lines)
        ), [line]

    def find(self, name: str) -> tuple[int, bytes | None] | None:
        """Table ``name``'s game id and record, waiting out a lost database."""

        def find() -> tuple[int, bytes | None] | None:
            with self.pool.conn() as conn:
                return self._game(conn, name)

        return self._patiently(find)

    def reopen(self, name: str) -> tuple[PlaySession, list[bytes], TableRecord | None]:
        found = self.find(name)
        if found is None:
            raise SaveError(f"table {name}: no such game in the database")
        game_id, raw = found
        if not self.take(game_id, name):
            raise GameLocked(f"table {name}", None, "another server plays it")
        try:

            def read() -> list[bytes]:
                with self.pool.conn() as conn:
                    return self._lines_of(conn, game_id)

            lines = self._patiently(read)
            loaded = parse_game(b"".join(lines), f"table {name}")
            writer = RowWriter(self, name, game_id, loaded.file_lines)
            if loaded.missing_tail:  # (a game imported from a file cut between lines)
                lines += writer.append(loaded.missing_tail)
                writer.notices.append(f"table {name}: wrote the {len(loaded.missing_tail)} derived events it lacked")
                loaded.missing_tail = []
        except BaseException:
            self.holds.release(game_id)
            raise
        record = decoded(raw)
        session = PlaySession(loaded.game, writer, None, list(loaded.events), [*loaded.notices, *writer.notices],
                              rewriter=lambda lines: RowWriter(self, name, game_id, lines))  # fmt: skip
        return session, lines, record

    def save_record(self, name: str, record: TableRecord) -> None:
        self.records.save(name, record)

    def replace_record(self, name: str, record: TableRecord, version: int, game: int | None = None) -> int:
        """:meth:`.pgrecords.PgRecords.replace` (a compare-and-swap of the record)."""
        return self.records.replace(name, record, version, game)

    def versioned_record(self, name: str, game: int | None = None) -> tuple[TableRecord | None, int]:
        return self.records.versioned(name, game)

    def rest(self, name: str, session: PlaySession) -> None:
        session.close()

    def archive(self, name: str) -> str:
        with self.pool.conn() as conn, conn.transaction():
            aside = self._move_aside(conn, name)
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"table {name}"))
        return aside + ".dvr"

    def forget(self, kept: str) -> None:
        if _KEPT.fullmatch(kept) is None:  # never a table's own game
            raise ValueError(f"{kept!r} is not a kept game's name")

        def delete() -> None:
            with self.pool.conn() as conn:
                conn.execute("DELETE FROM dvtui_games WHERE name = %s", (kept,))

        self._patiently(delete)
        if self.chats is not None:
            with contextlib.suppress(FileNotFoundError):
                (self.chats / f"{kept}.chat").unlink()

    def kept_size(self, kept: str) -> int:
        def read() -> int:
            with self.pool.conn() as conn:
                row = conn.execute(
                    "SELECT coalesce(octet_length(g.record), 0)"
                    " + coalesce((SELECT sum(octet_length(e.line)) FROM dvtui_events e WHERE e.game_id = g.id), 0)"
                    " + coalesce((SELECT sum(octet_length(c.line)) FROM dvtui_chat c WHERE c.game_id = g.id), 0)"
                    " FROM dvtui_games g WHERE g.name = %s",
                    (kept,),
                ).fetchone()
            return 0 if row is None else int(row[0])

        size = self._patiently(read)
        if self.chats is not None:
            with contextlib.suppress(FileNotFoundError):
                size += (self.chats / f"{kept}.chat").lstat().st_size
        return size

    def _move_aside(self, conn: psycopg.Connection[Any], name: str) -> str:
        """Rename game ``name`` to a kept game's name (in the caller's transaction); returns it."""
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H-%M-%S")
        n = 1
        while True:
            aside = f"{name}.{stamp}{'' if n == 1 else f'-{n}'}"
            if conn.execute("SELECT 1 FROM dvtui_games WHERE name = %s", (aside,)).fetchone() is None:
                break
            n += 1
        conn.execute("UPDATE dvtui_games SET name = %s WHERE name = %s", (aside, name))
        if self.chats is not None:  # its talk goes with it (dvtui/server/chat.py)
            with contextlib.suppress(FileNotFoundError):
                (self.chats / f"{name}.chat").rename(self.chats / f"{aside}.chat")
        return aside

    # -- moving a file store in and out ----------------------------------------------------------

    def import_game(self, name: str, data: bytes, record: bytes | None, written: float) -> bool:
        """Add game ``name`` with the lines ``data`` (a ``.dvr``, checked first) and its table's
        ``record``; False: the database has a game of that name already (left as it is)."""
        loaded = parse_game(data, name)  # what does not read as a game is not imported (GameFileError)
        lines = data[: loaded.good_bytes].splitlines(keepends=True)  # a torn last line is no line
        with self.pool.conn() as conn, conn.transaction(), conn.cursor() as cur:
            cur.execute(
                "INSERT INTO dvtui_games (name, record, record_at, written_at) "
                "VALUES (%s, %s, to_timestamp(%s), to_timestamp(%s)) ON CONFLICT (name) DO NOTHING RETURNING id",
                (name, record, written, written),
            )
            row = cur.fetchone()
            if row is None:
                return False
            cur.executemany(
                "INSERT INTO dvtui_events (game_id, seq, line) VALUES (%s, %s, %s)",
                [(row[0], seq, line) for seq, line in enumerate(lines)],
            )
        return True

    def record_bytes(self, name: str) -> bytes | None:
        """Game ``name``'s table record as stored (None: it has none)."""
        return self.records.raw(name)


__all__ = [
    "CHANNEL",
    "RETRY",
    "PgStore",
    "RowWriter",
    "StoreUnavailable",
    "check_conninfo",
    "connect",
]
