"""``dvtui serve``: tables that several people play from their own terminals, over a Unix socket.

One asyncio loop holds every connection and every table; nothing slow runs on it:

- a decision goes to the table's :class:`~dvtui.play.session.PlaySession` (the rules, the file,
  the undo rule) in a thread, which appends it with fsync; only when that returns are its lines
  sent to the table's clients, so no client ever sees a move a crash could take back;
- bots think in a pool of worker processes sized to the cores, one move at a time per table, so a
  bot deep in thought holds one worker and never the loop, nor another table's moves;
- a client that stops reading is dropped once its unsent data passes a bound, so a broadcast never
  waits for anybody.

Who is who comes from the socket (SO_PEERCRED): a seat, once taken, belongs to that uid for the
whole game, kept in the table's record so a restarted server still knows it. A *trusted* account
(the server's own, and those of ``dvtui serve --trust``) may instead speak for a person it vouches
for (``hello.user``: ``dvtui web`` naming the user of a login proxy); that person is then an
identity of its own, owning seats apart from every account, the vouching one included.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import multiprocessing
import os
import resource
import signal
import socket
import struct
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import TypeVar

import msgspec

from ..bots import parse_bot
from ..engine import RuleError, SeatError, new_game, random_seed
from ..play.seats import parse_players
from ..play.session import PlaySession
from ..printable import printable
from ..store import GameFileError, SaveError, user_name
from .protocol import (
    MAX_ERROR_CHARS,
    MAX_LINE_BYTES,
    PROTOCOL_VERSION,
    Bye,
    ClientMessage,
    Error,
    ErrorCode,
    Hello,
    Join,
    Joined,
    ListTables,
    Opened,
    OpenTable,
    Place,
    Presence,
    SeatState,
    StandIn,
    TableInfo,
    Tables,
    Undo,
    Watch,
    Welcome,
    client_decoder,
    encode,
    person_problem,
    shown_person,
)
from .store import FileStore, GameStore, TableExists, TableRecord
from .think import think, watch_server
from .where import ServerPlace, check_socket_path, make_private_dir

T = TypeVar("T")

MAX_BUFFERED = 4 * 1024 * 1024
"""Bytes a client may leave unread before it is dropped (a whole game is ~30 KiB)."""
RATE = 50.0
"""Messages per second a connection may send on average (a person sends a few a minute) ..."""
BURST = 200.0
"""... and at once."""
MAX_LOG_LINES = 20_000
"""A table's log stops taking decisions here (a real game has ~200 lines; a placement undone and
made again forever would otherwise grow it past what a reader accepts)."""
MAX_TABLES = 10_000
CLOSE_GRACE = 2.0

Owner = int | str
"""Who a seat belongs to: a uid, or a person a trusted account vouched for (never equal to a uid)."""


def owner_name(owner: Owner) -> str:
    """An owner as the table shows it: the account's name, or ``web:NAME`` for a vouched person."""
    return shown_person(owner) if isinstance(owner, str) else user_name(owner)


_ANSWERING: contextvars.ContextVar[tuple[Conn, str] | None] = contextvars.ContextVar("answering", default=None)
"""The connection whose message is being handled, and that message's ``type``: an error sent to
that connection meanwhile answers it (``re``). Set where a message is handled, so no ``error`` call
has to say what it answers, and one sent to another connection (a seat taken over) answers nothing."""


class Conn:
    """One client connection: who it is, where it sits, and its budget of messages."""

    def __init__(self, writer: asyncio.StreamWriter, uid: int) -> None:
        self.writer = writer
        self.uid = uid
        self.vouched: str | None = None
        """The person this connection speaks for (its hello's ``user``, from a trusted account)."""
        self.user = user_name(uid)
        """Who it is, as logs and ``welcome`` say it."""
        self.greeted = False
        self.table: Table | None = None
        self.seat: int | None = None
        self.closed = False
        self._tokens = BURST
        self._at = time.monotonic()

    def send(self, data: bytes) -> None:
        """Queue ``data``, never waiting: a client that lets too much pile up is dropped."""
        if self.closed:
            return
        self.writer.write(data)
        if self.writer.transport.get_write_buffer_size() > MAX_BUFFERED:
            self.abort()

    @property
    def identity(self) -> Owner:
        """What a seat it takes belongs to: the vouched person, else the account."""
        return self.uid if self.vouched is None else self.vouched

    @property
    def person(self) -> str:
        """The name a seat is matched against when a join names none."""
        return user_name(self.uid) if self.vouched is None else self.vouched

    def error(self, code: ErrorCode, message: str, seq: int | None = None) -> None:
        answering = _ANSWERING.get()
        answers = answering[1] if answering is not None and answering[0] is self else None
        self.send(encode(Error(code=code, message=printable(message)[:MAX_ERROR_CHARS], seq=seq, re=answers)))

    def fail(self, code: ErrorCode, message: str) -> None:
        """Say why, then close (the error is sent if the client still reads)."""
        self.error(code, message)
        self.close()

    def close(self) -> None:
        """Close once what is queued is sent; a client that does not read it within
        :data:`CLOSE_GRACE` seconds is cut off (a closing transport would otherwise wait forever)."""
        if not self.closed:
            self.closed = True
            self.writer.close()
            transport = self.writer.transport
            if transport.get_write_buffer_size():
                asyncio.get_running_loop().call_later(CLOSE_GRACE, transport.abort)

    def abort(self) -> None:
        self.closed = True
        self.writer.transport.abort()

    def allowed(self) -> bool:
        """One more message within the connection's rate (a token bucket)."""
        now = time.monotonic()
        self._tokens = min(BURST, self._tokens + (now - self._at) * RATE)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class Table:
    """A live table: its game, its record, its lines as written, and who is there."""

    def __init__(self, name: str, session: PlaySession, lines: list[bytes], record: TableRecord) -> None:
        self.name = name
        self.session = session
        self.lines = lines
        self.record = record
        n = session.game.n
        self.seated: list[Conn | None] = [None] * n
        self.spectators: set[Conn] = set()
        self.lock = asyncio.Lock()
        """Held while a decision is checked and saved: one decision at a time per table."""
        self.record_lock = asyncio.Lock()
        """Held while the table's record is saved: two saves at once would share its temporary file."""
        self.bot_task: asyncio.Task[None] | None = None
        self.failed: Error | None = None
        """Why the table takes no more decisions (a failed save, a full log); told to everyone."""

    @property
    def next_seq(self) -> int:
        return len(self.lines)

    @property
    def over(self) -> bool:
        return self.session.game.over

    def conns(self) -> list[Conn]:
        return [c for c in self.seated if c is not None] + list(self.spectators)

    def seat_states(self) -> list[SeatState]:
        out = []
        for i, seat in enumerate(self.session.game.created.players):
            owner = self.record.owners[i]
            if self.session.is_bot(i):
                state = "bot"
            elif self.seated[i] is not None:
                state = "connected"
            else:
                state = "free" if owner is None else "away"
            out.append(
                SeatState(
                    seat=i, name=seat.name, kind=seat.kind, state=state,  # type: ignore[arg-type]
                    user=None if owner is None else owner_name(owner),
                    stand_in=self.record.stand_ins[i] if state in ("free", "away") else None,
                )
            )  # fmt: skip
        return out

    def info(self) -> TableInfo:
        game = self.session.game
        return TableInfo(
            table=self.name, seats=self.seat_states(), round=game.round, rounds=game.rounds,
            to_move=None if game.over else game.to_move, over=game.over, spectators=len(self.spectators),
            hints=self.record.hints,
        )  # fmt: skip

    def presence(self) -> None:
        self.broadcast(encode(Presence(table=self.name, seats=self.seat_states(), spectators=len(self.spectators))))

    def broadcast(self, data: bytes) -> None:
        for conn in self.conns():
            conn.send(data)

    def stop(self, code: ErrorCode, message: str) -> None:
        """No more decisions here: say why to everyone at the table (and to whoever asks later)."""
        self.failed = Error(code=code, message=printable(message)[:MAX_ERROR_CHARS], seq=self.next_seq)
        self.broadcast(encode(self.failed))

    def bot_to_move(self) -> tuple[int, str, int, bool] | None:
        """The seat to move if a bot plays it now: (seat, level, seed, standing in for its owner)."""
        game = self.session.game
        if game.over or self.failed is not None:
            return None
        seat = game.to_move
        bot = self.session.bots[seat]
        if bot is not None:
            return seat, str(bot[0]), bot[1], False
        level = self.record.stand_ins[seat]
        if level is not None and self.seated[seat] is None:
            return seat, level, self.session.hint_seed(seat), True
        return None


class Server:
    """The table server on directory ``place`` (see the module's docstring)."""

    def __init__(
        self, place: ServerPlace, *, idle: float | None = None, store: GameStore | None = None,
        workers: int | None = None, log: Callable[[str], None] | None = None, signals: bool = True,
        trust: Iterable[int] = (),
    ) -> None:  # fmt: skip
        self.place = place
        self.idle = idle
        self.trusted = frozenset({os.geteuid(), *trust})
        """The uids that may vouch for a person: the server's own (a process of its account could
        rewrite the games' files anyway, so trusting it adds nothing) and ``trust``'s."""
        self.signals = signals
        """Stop on SIGTERM / SIGINT / SIGHUP (only a main thread can; a test's server in a thread
        is stopped through :attr:`stopping`)."""
        self.games = place.games
        self.store: GameStore = store if store is not None else FileStore(self.games)
        self.workers = workers or len(os.sched_getaffinity(0))
        self.tables: dict[str, Table] = {}
        self.conns: set[Conn] = set()
        self.stopping = asyncio.Event()
        self.listening = asyncio.Event()
        self._log = log or (lambda line: print(f"dvtui serve: {printable(line)}", file=sys.stderr, flush=True))
        self._io = ThreadPoolExecutor(max_workers=32, thread_name_prefix="dvtui-io")
        self._pool: ProcessPoolExecutor | None = None
        self._opening: set[str] = set()
        self._handlers: set[asyncio.Future[None]] = set()

    # -- life ------------------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve until SIGTERM / SIGINT / SIGHUP, or until idle for ``idle`` seconds."""
        import filelock

        directory = self.place.directory
        make_private_dir(self.games)
        with contextlib.suppress(ValueError, OSError):
            _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        lock = filelock.FileLock(directory / "serve.lock", timeout=0, mode=0o600)
        try:
            lock.acquire()
        except filelock.Timeout:
            raise SaveError(f"{directory}: another 'dvtui serve' already serves this directory") from None
        try:
            self._reopen_all()
            await self._listen()
        finally:
            for table in list(self.tables.values()):
                self.store.close(table.name, table.session)
            self.tables.clear()
            if self._pool is not None:
                self._pool.shutdown(wait=False, cancel_futures=True)
            self._io.shutdown(wait=True)
            lock.release()

    def _reopen_all(self) -> None:
        for name in self.store.unfinished():
            try:
                session, lines, record = self.store.reopen(name)
            except (GameFileError, SaveError, OSError) as e:
                self._log(f"table {name} not reopened: {e}")
                continue
            n = session.game.n
            if record is None or len(record.owners) != n or len(record.stand_ins) != n:
                record = TableRecord(owners=[None] * n, stand_ins=[None] * n)
            self.tables[name] = table = Table(name, session, lines, record)
            for notice in session.notices:
                self._log(notice)
            self._log(f"table {name} reopened at line {table.next_seq}")

    async def _listen(self) -> None:
        loop = asyncio.get_running_loop()
        path = check_socket_path(self.place)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # a socket left by a server that died: ours now (we hold serve.lock)
        server = await asyncio.start_unix_server(self._serve_conn, path=path, limit=MAX_LINE_BYTES)
        # Who may connect is who may enter the directory: its mode (and group) decide, not the socket's.
        os.chmod(path, 0o666)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP) if self.signals else ():
            loop.add_signal_handler(sig, self.stopping.set)
        self._log(f"listening on {path} ({len(self.tables)} unfinished tables)")
        self.listening.set()
        for table in self.tables.values():
            self._wake(table)
        watch = asyncio.create_task(self._watch_idle()) if self.idle is not None else None
        try:
            await self.stopping.wait()
        finally:
            server.close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            for conn in list(self.conns):
                conn.send(encode(Error(code="shutdown", message="the table server is stopping")))
                conn.close()
            if self._handlers:  # each connection ends on its own rather than being cancelled
                await asyncio.wait(list(self._handlers), timeout=5)
            if watch is not None:
                watch.cancel()
            for table in self.tables.values():
                if table.bot_task is not None:
                    table.bot_task.cancel()
            for table in self.tables.values():
                async with table.lock:  # a decision being saved finishes first
                    pass
            self._log("stopped")

    async def _watch_idle(self) -> None:
        assert self.idle is not None
        quiet_since = time.monotonic()
        while True:
            await asyncio.sleep(min(1.0, self.idle / 4))
            busy = self.conns or any(t.bot_task is not None for t in self.tables.values())
            if busy:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= self.idle:
                self._log(f"idle for {self.idle:g} s: leaving (unfinished tables reopen on the next start)")
                self.stopping.set()
                return

    async def _run_io(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._io, fn)

    def _bot_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            ctx = multiprocessing.get_context("forkserver")
            ctx.set_forkserver_preload(["dvtui.tables.think"])
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=ctx, initializer=watch_server, initargs=(os.getpid(),)
            )
        return self._pool

    # -- a connection ----------------------------------------------------------------------------

    async def _serve_conn(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock: socket.socket = writer.get_extra_info("socket")
        _, uid, _ = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
        conn = Conn(writer, uid)
        self.conns.add(conn)
        done = asyncio.get_running_loop().create_future()
        self._handlers.add(done)
        try:
            await self._read(conn, reader)
        except (ConnectionError, OSError):
            pass
        finally:
            self.conns.discard(conn)
            self._leave(conn)
            conn.close()
            done.set_result(None)
            self._handlers.discard(done)

    async def _read(self, conn: Conn, reader: asyncio.StreamReader) -> None:
        while not conn.closed and not self.stopping.is_set():
            try:
                line = await reader.readuntil(b"\n")
            except asyncio.LimitOverrunError:
                conn.fail("too_long", f"a line is at most {MAX_LINE_BYTES} bytes")
                return
            except asyncio.IncompleteReadError:
                return
            if not conn.allowed():
                conn.fail("flood", f"more than {RATE:g} messages a second")
                return
            try:
                message = client_decoder.decode(line)
            except msgspec.DecodeError as e:  # (ValidationError is one)
                conn.error("bad_message", str(e))
                if not conn.greeted:
                    conn.close()
                continue
            if not conn.greeted and not isinstance(message, Hello):
                conn.fail("version", f"say hello first: {{\"type\":\"hello\",\"version\":{PROTOCOL_VERSION}}}")
                return
            answering = _ANSWERING.set((conn, type(message).__struct_config__.tag))  # type: ignore[arg-type]
            try:
                await self._handle(conn, message)
            except Exception as e:  # a bug must cost one connection, never the server
                self._log(f"internal error on a message from {conn.user}: {e!r}\n{traceback.format_exc()}")
                conn.fail("bad_message", "the server could not handle that message")
                return
            finally:
                _ANSWERING.reset(answering)

    async def _handle(self, conn: Conn, message: ClientMessage) -> None:
        if isinstance(message, Hello):
            self._greet(conn, message)
        elif isinstance(message, ListTables):
            infos = [t.info() for _, t in sorted(self.tables.items())]
            conn.send(encode(Tables(tables=infos)))
        elif isinstance(message, OpenTable):
            await self._open(conn, message)
        elif isinstance(message, Join | Watch):
            await self._join(conn, message)
        elif isinstance(message, Place | Undo):
            await self._decide(conn, message)
        elif isinstance(message, StandIn):
            await self._stand_in(conn, message)
        elif isinstance(message, Bye):
            conn.close()

    def _greet(self, conn: Conn, message: Hello) -> None:
        """``welcome``, once the version is this server's and the person vouched for (if any) may be."""
        if message.version != PROTOCOL_VERSION:
            conn.fail("version", f"this server speaks version {PROTOCOL_VERSION}, not {message.version}")
            return
        person = message.user
        problem = None if person is None else person_problem(person)
        if problem is not None:
            conn.error("bad_message", f"hello's user: {problem}")
            if not conn.greeted:
                conn.close()
            return
        if person is not None and conn.uid not in self.trusted:
            conn.fail("not_trusted", f"account {conn.user} may not vouch for a person: this server trusts its own "
                      "account and those named by 'dvtui serve --trust'")  # fmt: skip
            return
        if conn.greeted and person != conn.vouched:
            conn.error("bad_message", "a connection speaks for one person: the one its first hello named")
            return
        conn.vouched = person
        conn.user = owner_name(conn.identity)
        if person is not None and not conn.greeted:
            self._log(f"account {user_name(conn.uid)} vouches for {conn.user}")
        conn.greeted = True
        from .. import __version__

        conn.send(encode(Welcome(version=PROTOCOL_VERSION, server=__version__, user=conn.user)))

    # -- tables ----------------------------------------------------------------------------------

    async def _open(self, conn: Conn, message: OpenTable) -> None:
        name = message.table
        if name in self.tables or name in self._opening:
            conn.error("table_exists", f"table {name} is being played; choose another name")
            return
        if len(self.tables) >= MAX_TABLES:
            conn.error("bad_setup", f"the server holds {MAX_TABLES} tables already")
            return
        if any("," in entry for entry in message.players):
            conn.error("bad_setup", "a seat is one name or bot:LEVEL (no commas)")
            return
        try:
            seats = parse_players(",".join(message.players))
            first = message.first_player or 0
            seed = message.seed if message.seed is not None else random_seed()
            created = new_game(seats, first_player=first, seed=seed)
        except (SeatError, RuleError) as e:
            conn.error("bad_setup", str(e))
            return
        n = len(seats)
        record = TableRecord(hints=message.hints, owners=[None] * n, stand_ins=[None] * n)
        self._opening.add(name)
        try:
            session, lines = await self._run_io(lambda: self.store.create(name, created, record))
        except TableExists as e:
            conn.error("table_exists", str(e))
            return
        except (SaveError, OSError) as e:
            conn.error("server", f"cannot save the new table: {e}")
            return
        finally:
            self._opening.discard(name)
        self.tables[name] = table = Table(name, session, lines, record)
        self._log(f"{conn.user} opened table {name}")
        conn.send(encode(Opened(table=name)))
        self._wake(table)

    def _pick_seat(self, conn: Conn, table: Table) -> int | str:
        """The seat a join without one means, or why there is none: one's own seat left away (a
        drop), else a free seat (the one named like the person first). One whose seat is still
        open on another connection is asked to say which seat: taking it over would push their
        other terminal off the table, taking a free one would keep somebody else's seat for good
        (a frozen session reconnecting must not end up in another person's chair)."""
        humans = table.session.humans
        owners = table.record.owners
        names = table.session.names
        mine = [s for s in humans if owners[s] == conn.identity]
        away = [s for s in mine if table.seated[s] is None]
        if away:
            return away[0]
        free = [s for s in humans if owners[s] is None]
        if mine:
            also = f", or a free seat ({', '.join(names[s] for s in free)})" if free else ""
            return (f"your seat {names[mine[0]]} is open on another connection: name it to take it over "
                    f"here (dvtui join {table.name} --as {names[mine[0]]}){also}")  # fmt: skip
        named = [s for s in free if names[s].casefold() == conn.person.casefold()]
        if named or free:
            return (named or free)[0]
        return "every human seat is taken; watch the table instead"

    async def _join(self, conn: Conn, message: Join | Watch) -> None:
        table = self.tables.get(message.table)
        if table is None:
            conn.error("no_table", f"no table {message.table} (see 'dvtui tables')")
            return
        seat: int | None = None
        if isinstance(message, Join):
            picked = self._pick_seat(conn, table) if message.seat is None else message.seat
            if isinstance(picked, str):
                conn.error("no_seat", picked)
                return
            seat = picked
            if seat >= table.session.game.n or table.session.is_bot(seat):
                conn.error("no_seat", f"seat {seat} is not a human seat of table {table.name}")
                return
            owner = table.record.owners[seat]
            if owner is not None and owner != conn.identity:
                # by its name: people number seats from 1 (``--as 2``), the protocol from 0
                who = table.session.names[seat]
                whose = owner_name(owner) if isinstance(owner, str) else f"user {owner_name(owner)}"
                conn.error("seat_taken", f"{who}'s seat at table {table.name} belongs to {whose}")
                return
        self._leave(conn, drop=conn.table is not table)
        changed = False
        if seat is not None:
            if table.record.owners[seat] is None:
                table.record.owners[seat] = conn.identity
                changed = True
            if table.record.stand_ins[seat] is not None:
                table.record.stand_ins[seat] = None  # its owner is back
                changed = True
            before = table.seated[seat]
            table.seated[seat] = conn
            if before is not None and before is not conn:
                before.table = None
                before.fail("taken_over", "this seat was taken by another connection of the same user")
            self._log(f"{conn.user} sits at {table.name} seat {seat}")
        else:
            table.spectators.add(conn)
        conn.table, conn.seat = table, seat
        since = message.since if message.since <= table.next_seq else 0
        conn.send(encode(Joined(table=table.name, seat=seat, hints=table.record.hints, next_seq=since)))
        conn.send(b"".join(table.lines[since:]))
        if table.failed is not None:
            conn.send(encode(table.failed))
        table.presence()
        if changed:
            await self._save_record(table)
        self._wake(table)

    def _leave(self, conn: Conn, *, drop: bool = True) -> None:
        """``conn`` is no longer at its table: its seat is away, or one spectator fewer. A finished
        table nobody is at any more is let go (``drop``: unless ``conn`` is joining it again)."""
        table, seat = conn.table, conn.seat
        if table is None:
            return
        conn.table = conn.seat = None
        if seat is not None and table.seated[seat] is conn:
            table.seated[seat] = None
            self._log(f"{conn.user} left {table.name} seat {seat}")
        table.spectators.discard(conn)
        table.presence()
        if drop and table.over and not table.conns() and self.tables.get(table.name) is table:
            del self.tables[table.name]
            self.store.close(table.name, table.session)
        else:
            self._wake(table)

    async def _save_record(self, table: Table) -> None:
        async with table.record_lock:  # one at a time, each saving the record as it is by then
            record = msgspec.structs.replace(
                table.record, owners=list(table.record.owners), stand_ins=list(table.record.stand_ins)
            )
            try:
                await self._run_io(lambda: self.store.save_record(table.name, record))
            except OSError as e:
                self._log(f"table {table.name}: cannot save its record: {e}")

    async def _stand_in(self, conn: Conn, message: StandIn) -> None:
        table, seat = conn.table, message.seat
        if table is None or conn.seat is None:
            conn.error("not_seated", "only a player seated at the table may let a bot stand in")
            return
        if seat >= table.session.game.n or table.session.is_bot(seat):
            conn.error("no_seat", f"seat {seat} is not a human seat")
            return
        if table.seated[seat] is not None:
            conn.error("not_away", f"{table.session.names[seat]} is connected")
            return
        level = None
        if message.bot is not None:
            try:
                level = str(parse_bot(message.bot))
            except SeatError as e:
                conn.error("bad_message", str(e))
                return
        table.record.stand_ins[seat] = level
        self._log(f"{conn.user} lets {level or 'no bot'} stand in for {table.name} seat {seat}")
        table.presence()
        await self._save_record(table)
        self._wake(table)

    # -- decisions -------------------------------------------------------------------------------

    async def _decide(self, conn: Conn, message: Place | Undo) -> None:
        table, seat = conn.table, conn.seat
        if table is None or seat is None:
            conn.error("not_seated", "join a table's seat first")
            return
        async with table.lock:
            if table.failed is not None:
                conn.error(table.failed.code, table.failed.message, seq=table.failed.seq)  # answers this decision
                return
            if message.seq != table.next_seq:
                conn.error("stale", f"the table is at line {table.next_seq}, not {message.seq}", seq=table.next_seq)
                return
            if table.over:
                conn.error("game_over", "the game is over")
                return
            session = table.session
            try:
                if isinstance(message, Place):
                    card, column = message.card, message.column
                    await self._commit(table, lambda: session.place(card, column, player=seat))
                else:
                    await self._commit(table, lambda: session.undo(seat))
            except RuleError as e:
                code: ErrorCode = "nothing_to_undo" if isinstance(message, Undo) else "illegal"
                conn.error(code, str(e), seq=table.next_seq)
        self._wake(table)

    async def _commit(self, table: Table, decide: Callable[[], object]) -> None:
        """Run ``decide`` (a session call: checked, appended, fsynced) off the loop, then send the
        lines it wrote to everyone at the table. Called with ``table.lock`` held. A RuleError is
        the caller's to report; a failed save stops the table."""
        store = table.name

        def work() -> list[bytes]:
            decide()
            return self.store.appended(store)

        try:
            lines = await self._run_io(work)
        except (SaveError, OSError) as e:
            table.stop("server", f"table {table.name} has stopped: {e}")
            self._log(f"table {table.name} has stopped: {e}")
            return
        table.lines.extend(lines)
        table.broadcast(b"".join(lines))
        if table.next_seq >= MAX_LOG_LINES and not table.over:
            table.stop("log_full", f"table {table.name} has stopped: its log holds {table.next_seq} lines, "
                       f"as many as a table may")  # fmt: skip

    def _wake(self, table: Table) -> None:
        """Start the bot to move at ``table``, if a bot is to move and none is thinking there."""
        if table.bot_task is not None or self.stopping.is_set():
            return
        mover = table.bot_to_move()
        if mover is not None:
            # in a context of its own: the bot's move answers no client's message
            table.bot_task = asyncio.create_task(self._bot_move(table, mover), context=contextvars.Context())

    async def _bot_move(self, table: Table, mover: tuple[int, str, int, bool]) -> None:
        seat, level, seed, standing_in = mover
        ok = False
        try:
            async with table.lock:
                seq, game = table.next_seq, table.session.game.copy()
            loop = asyncio.get_running_loop()
            card, column = await loop.run_in_executor(self._bot_pool(), think, game, level, seed)
            async with table.lock:
                if table.next_seq == seq and table.bot_to_move() == mover:
                    stand_in = level if standing_in else None
                    session = table.session
                    await self._commit(table, lambda: session.place(card, column, player=seat, stand_in=stand_in))
            ok = True
        except asyncio.CancelledError:
            raise
        except Exception as e:
            table.stop("server", f"table {table.name} has stopped: its bot failed ({e!r})")
            self._log(f"table {table.name} has stopped: its bot failed ({e!r})")
        finally:
            table.bot_task = None
        if ok:
            self._wake(table)


def serve(place: ServerPlace, *, idle: float | None = None, trust: Iterable[int] = ()) -> int:
    """Run the server in the foreground (``dvtui serve``); 0 once stopped. ``trust``: the uids
    besides its own that may vouch for a person."""
    make_private_dir(place.directory)
    asyncio.run(Server(place, idle=idle, trust=trust).run())
    return 0


__all__ = ["Server", "serve"]
