"""``dvtui serve``: tables that several people play from their own terminals, over a Unix socket.

:class:`Server` wires the wing together and runs it: the lock on its directory, listening and
stopping, the background tasks (idle, sweep, clocks: :mod:`.clocks`), and each message's handler,
which checks what the message asks and hands it on; what the other servers wrote is followed by
:class:`~.following.Following` (:mod:`.peers`). A new table is :class:`~.newtable.NewTables`'
to open; the ratings, the pool and the tournaments are the :class:`~.club.Club`'s (whose ratings
are folded in the background while the server already serves). The connections are the
:class:`~.gateway.Gateway`'s (accept, read, greet, dispatch: a :class:`~.table.Refusal` a handler
raises is the ``error`` answering the message), the tables by name the :class:`~.hall.Hall`'s, one
table's decisions, record and talk its :class:`~.live.LiveTable`'s, whose verbs (:mod:`.verbs`)
return what the server does of its connections, and the rules over who is there
:class:`~.table.Table`'s, over identities. One asyncio loop holds every connection and
every table; nothing slow runs on it:

- a decision goes to the table's :class:`~dvtui.play.session.PlaySession` (the rules, the file,
  the undo rule) in a thread, which appends it with fsync; the lines its writer wrote are then
  sent to the table's clients, so no client ever sees a move a crash could take back;
- bots think in a pool of worker processes sized to the cores (:mod:`.pool`), one move at a time
  per table and only while somebody is at it, the workers shared fairly between the people at the
  tables, so a bot deep in thought holds one worker and never the loop;
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
import os
import resource
import signal
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from ..i18n import ENGLISH, N_, language, set_language
from ..printable import printable
from ..store import GameFileError, SaveError
from ..tables.protocol import (
    MAX_CHAT_CHARS,
    Bye,
    Closed,
    CloseTable,
    FetchGame,
    FollowTables,
    GameLines,
    Hello,
    Join,
    ListTables,
    Opened,
    OpenTable,
    Place,
    Release,
    Rematch,
    Resign,
    Say,
    SetClock,
    StandIn,
    Start,
    Undo,
    Watch,
)
from ..tables.tableinfo import ListedTable
from ..tables.where import ServerPlace, check_socket_path, make_private_dir
from ..tables.wire import Error, encode
from . import AlreadyServed, verbs
from .clocks import AliveStamp, background, run_clocks
from .club import Club
from .followers import Followers
from .following import Following
from .gateway import Gateway
from .hall import Hall
from .holdwatch import watch_holds
from .keptroom import KeptRoom
from .limits import Acceptor, Budgets, Limits, Output, Throttled
from .live import Backing, Conn, LiveTable, seat_said
from .newtable import NewTables
from .operator import said, speak_to_operator
from .pauses import FrozenAfterFull
from .peers import NoPeers, Peers
from .pool import BotMoves, BotPool, MaxBudget
from .registry import (
    TableLimits,
    owner_named,
)
from .stores.base import GameStore
from .stores.files import FileStore
from .table import Refusal
from .watching import Watching

T = TypeVar("T")


class Server:
    """The table server on directory ``place`` (see the module's docstring)."""

    def __init__(
        self, place: ServerPlace, *, idle: float | None = None, store: GameStore | None = None,
        peers: Peers | None = None, workers: int | None = None, log: Callable[[str], None] | None = None,
        signals: bool = True,
        trust: Iterable[int] = (), limits: Limits | None = None, table_limits: TableLimits | None = None,
        budget: MaxBudget | None = None, rating_of: Callable[[str], int | None] | None = None,
    ) -> None:  # fmt: skip
        self.place = place
        self.limits = limits or Limits()
        self.table_limits = table_limits or TableLimits()
        self.idle = idle
        self.trusted = frozenset({os.geteuid(), *trust})
        """The uids that may vouch for a person: the server's own (a process of its account could
        rewrite the games' files anyway, so trusting it adds nothing) and ``trust``'s."""
        self.signals = signals
        """Stop on SIGTERM / SIGINT / SIGHUP (only a main thread can; a test's server in a thread
        is stopped through :attr:`stopping`)."""
        self.games = place.games
        self.store: GameStore = store if store is not None else FileStore(self.games)
        self.peers: Peers = peers if peers is not None else NoPeers()
        """The other servers on the store (none: a games directory is one server's)."""
        self._io = ThreadPoolExecutor(max_workers=32, thread_name_prefix="dvtui-io")
        self._log = log or (lambda line: print(f"dvtui serve: {printable(line)}", file=sys.stderr, flush=True))
        self.backing = Backing(self.store, self.peers, self._run_io, lambda line: self._log(line), self._ended)
        """What every table stands on (the log as it is when a line is said: a test may replace it)."""
        self.workers = workers or len(os.sched_getaffinity(0))
        self.alive = AliveStamp(place.directory)
        """When the server last ran here: touched each tick, read at the start (a turn's time
        meanwhile counts for nobody)."""
        self.stopping = asyncio.Event()
        self.listening = asyncio.Event()
        self.bots = BotPool(self.workers, budget)
        """The bots' worker processes; ``budget``: the most a bot may think here."""
        self.moves = BotMoves[LiveTable](self.bots, play=verbs.play_bot, failed=self._bot_failed, then=self._wake)
        self._limited = Throttled(self._log)
        """The log for what may happen many times a second (limits reached, failures of a peer)."""
        self.followers = Followers(lambda name, kept: self.hall.listed_info(name, kept), self.limits.presence_tick)
        """The connections that follow the list of tables, told what changes in it."""
        self.gateway: Gateway[LiveTable] = Gateway(
            self.limits, self.trusted, self.followers, self.stopping, lambda line: self._log(line), self._limited,
            left=self._gone,
        )  # fmt: skip
        """The connections: accepted, read, each message handed to its handler."""
        self.gateway.handle = {
            Hello: self.gateway.greet, ListTables: self._list, OpenTable: self._open, Join: self._join,
            Watch: self._watch,
            Place: self._decide, Undo: self._decide, StandIn: self._stand_in, Release: self._release_seat,
            Say: self._say, CloseTable: self._close_table, Resign: self._resign,
            Rematch: self._rematch, FetchGame: self._fetch_game,
            Bye: self.gateway.bye,
            Start: self._start,
            SetClock: self._set_clock,
            FollowTables: self._follow_list,
        }  # fmt: skip
        """Each client message's handler: it answers, or raises a :class:`~.table.Refusal`."""
        self._dealing: set[asyncio.Task[None]] = set()
        """Rematches being dealt because the person the others waited for left."""
        self.chats = self.store.talk()
        self._chat_per_conn = Budgets(self.limits.chat_rate, self.limits.chat_burst)
        self._chat_per_account = Budgets(self.limits.chat_account_rate, self.limits.chat_account_burst)
        self.watching = Watching(self.gateway.budget_key, self.limits.spectators_per_account)
        """The connections watching a table, per account."""
        self.hall = Hall(self.backing, self.chats, self.followers, self.alive, self.limits, self.table_limits)
        """The tables by name and the games kept after them."""
        self.following = Following(
            self.hall, self.backing, self.chats, self.followers, self.stopping, self._limited, wake=self._wake,
            deal_soon=self._deal_soon, dealt=self._tell_dealt, let_go=self.watching.discard,
        )  # fmt: skip
        """What the other servers on the store wrote, followed here."""
        self.new_tables = NewTables(
            self.hall, self.store, self.bots.budget, self.table_limits, self.followers,
            self.limits.presence_tick, self._run_io, lambda line: self._log(line), self._wake,
        )  # fmt: skip
        """How a table is opened (``open_table``, and the pool's and the tournaments' tables)."""
        self.club = Club(
            self.store, self.hall, self.bots, self.new_tables.open, self._run_io, lambda line: self._log(line),
            rating_of=rating_of,
        )  # fmt: skip
        """The ratings, the pool that seats strangers and the tournaments (:mod:`.club`)."""
        self.rater, self.seeks, self.arenas = self.club.rater, self.club.seeks, self.club.arenas
        self.following.arena = self.arenas.heard
        self.following.reads.looking = self._counted_at_its_end
        self.gateway.handle.update(self.club.handlers())
        self.gateway.handle = {
            kind: self.following.reads.caught_up(handle) for kind, handle in self.gateway.handle.items()
        }
        """(Each with the tables it names read first, up to what the other servers wrote there.)"""

    @property
    def conns(self) -> set[Conn]:
        return self.gateway.conns

    @property
    def output(self) -> Output:
        return self.gateway.output

    @property
    def tables(self) -> dict[str, LiveTable]:
        return self.hall.tables

    @property
    def kept(self) -> dict[str, ListedTable]:
        return self.hall.kept

    @property
    def kept_room(self) -> KeptRoom:
        return self.hall.kept_room

    # -- life ------------------------------------------------------------------------------------

    async def run(self) -> None:
        """Serve until SIGTERM / SIGINT / SIGHUP, or until idle for ``idle`` seconds."""
        import filelock

        directory = self.place.directory
        make_private_dir(self.games)
        with contextlib.suppress(ValueError, OSError):
            _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        self.gateway.max_conns = self.limits.total_conns()
        lock = filelock.FileLock(directory / "serve.lock", timeout=0, mode=0o600)
        try:
            lock.acquire()
        except filelock.Timeout:
            taken = said(N_("{directory}: another 'dvtui serve' already serves this directory"))
            raise AlreadyServed(taken.format(directory=directory)) from None
        asyncio.get_running_loop().set_exception_handler(self.gateway.loop_exception)
        try:
            self.hall.reopen_all()
            self.hall.keep_all()
            self.club.start(list(self.hall.tables.values()), sorted(self.hall.kept))
            self.following.start()
            await self._listen()
        finally:
            for table in list(self.hall.tables.values()):
                self.store.rest(table.name, table.session)
            self.hall.tables.clear()
            await self.bots.close()
            self._io.shutdown(wait=True)
            self.store.close()
            lock.release()

    async def _listen(self) -> None:
        loop = asyncio.get_running_loop()
        path = check_socket_path(self.place)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # a socket left by a server that died: ours now (we hold serve.lock)
        server = Acceptor(str(path), self.gateway.accepted, self._limited)
        server.start()
        # Who may connect is who may enter the directory: its mode (and group) decide, not the socket's.
        os.chmod(path, 0o666)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP) if self.signals else ():
            loop.add_signal_handler(sig, self.stopping.set)
        listening = said(N_("listening on {path} (unfinished tables: {count})"))
        self._log(listening.format(path=path, count=len(self.hall.tables)))
        self.listening.set()
        for table in self.hall.tables.values():
            self._wake(table)
        idle = self._watch_idle() if self.idle is not None else None
        clocks = run_clocks(self.hall.tables.values, self.alive, self._log, self._wake)
        try:
            async with contextlib.AsyncExitStack() as running:  # each stopped once the connections are
                holds = watch_holds(
                    self.hall.tables.get, self.backing, self._wake, self._limited, self.limits.hold_check
                )
                for work in (idle, self.hall.sweep(), clocks, holds, *self.club.works()):
                    await running.enter_async_context(background(work))
                try:
                    await self.stopping.wait()
                finally:
                    server.close()
                    self.gateway.refusals.close()
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(path)
                    for conn in list(self.gateway.conns):
                        conn.send(encode(Error(code="shutdown", message="the table server is stopping")))
                        conn.close()
                    if self.gateway.handlers:  # each connection ends on its own rather than being cancelled
                        await asyncio.wait(list(self.gateway.handlers), timeout=5)
        finally:
            await self.moves.stop()
            for table in self.hall.tables.values():
                async with table.lock:  # a decision being saved finishes first
                    pass
            self._log(said(N_("stopped")))

    async def _watch_idle(self) -> None:
        """Leave once nothing went on for :attr:`idle` seconds (no connection, no bot thinking): looked
        at again every quarter of it (a second at most) while something goes on, and once quiet,
        when the quiet would be over (a connection that came and went meanwhile starts it again),
        so a personal server leaves when it said it would, not up to a quarter of that later."""
        assert self.idle is not None
        quiet_since = time.monotonic()
        while True:
            now = time.monotonic()
            busy = self.gateway.conns or any(t.bot_task is not None for t in self.hall.tables.values())
            if busy:
                quiet_since = now
                await asyncio.sleep(min(1.0, self.idle / 4))
                continue
            quiet_since = max(quiet_since, self.gateway.last_ended)
            if now - quiet_since < self.idle:
                await asyncio.sleep(quiet_since + self.idle - now)
            else:
                leaving = said(N_("idle for {seconds} s: leaving (unfinished tables reopen on the next start)"))
                self._log(leaving.format(seconds=f"{self.idle:g}"))
                self.stopping.set()
                return

    async def _run_io(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._io, fn)

    def _counted_at_its_end(self, name: str) -> bool:
        """Whether table ``name``'s end is counted by whichever server reads it first (a rated game,
        a tournament's table being played): every server reads its lines as they are written, so the
        end is counted even when the server that ended it dies before counting it."""
        table = self.hall.tables.get(name)
        if table is not None and not table.over and table.session.game.created.rated:
            return True
        return any(name in record.tables for record in self.arenas.records.values() if record.ended is None)

    # -- a connection ----------------------------------------------------------------------------

    # -- tables ----------------------------------------------------------------------------------

    async def _list(self, conn: Conn, message: ListTables) -> None:
        """One page of the tables (or the one asked for): :meth:`.hall.Hall.listing`."""
        conn.send(self.hall.listing(conn.features, message.table, kept=message.all, after=message.after,
                                    limit=message.limit))  # fmt: skip

    async def _follow_list(self, conn: Conn, message: FollowTables) -> None:
        """The list's first page, as ``list_tables`` sends it; then its changes (see :mod:`.followers`)."""
        self.followers.follow(conn, kept=message.all)
        await self._list(conn, ListTables(limit=message.limit, all=message.all))

    async def _open(self, conn: Conn, message: OpenTable) -> None:
        await self.new_tables.open(conn, message)
        conn.send(encode(Opened(table=message.table)))

    # -- the pool --------------------------------------------------------------------------------

    def _gone(self, conn: Conn) -> None:
        """A connection ended: it leaves the club's waits (:meth:`.club.Club.gone`), and its table (:meth:`_leave`)."""
        self.club.gone(conn)
        self._leave(conn)

    async def _ended(self, table: LiveTable) -> None:
        """A game has just ended here: the club is told (:meth:`.club.Club.ended`)."""
        await self.club.ended(table)

    # -- who is at a table -----------------------------------------------------------------------

    async def _join(self, conn: Conn, message: Join) -> None:
        table = self.hall.table(message.table)
        elsewhere = conn.table is not None and conn.table is not table
        sat = await verbs.join(table, conn, message.seat)
        if elsewhere:
            self._leave(conn)
        self.watching.discard(conn)
        table.arrive(conn, message.since, sat.seat, self._label(conn, table))
        if not table.playing:  # a player sits: the files open now, not at their move
            async with table.lock:
                with contextlib.suppress(GameFileError, SaveError, OSError):  # a decision says why
                    await table.play_here()
        self._wake(table)

    async def _watch(self, conn: Conn, message: Watch) -> None:
        table = self.hall.table(message.table)
        table.may_watch(conn, self.limits.spectators_per_table)
        self.watching.may_watch_more(conn)
        seat = conn.seat if conn.table is table else None
        if conn.table is not None and conn.table is not table:
            self._leave(conn)
        table.watch(conn, self.limits.spectators_per_table)
        if seat is not None:
            left = said(N_("{user} left {table} {seat}"))
            self._log(left.format(user=conn.user, table=table.name, seat=seat_said(table, seat)))
        self.watching.add(conn)
        table.arrive(conn, message.since, None, self._label(conn, table))
        self._wake(table)

    def _label(self, conn: Conn, table: LiveTable) -> str | None:
        """What ``conn``'s client names the table's game by (its file here), if it reads labels."""
        return str(self.games / f"{table.name}.dvr") if "label" in conn.features else None

    def _leave(self, conn: Conn) -> None:
        """``conn`` is no longer at its table: its seat is away, or one spectator fewer (the table's
        files close once nobody plays there)."""
        table = conn.table
        if table is None:
            return
        conn.table = None
        table.active = time.time()
        seat = table.leave(conn)
        if seat is not None:
            left = said(N_("{user} left {table} {seat}"))
            self._log(left.format(user=conn.user, table=table.name, seat=seat_said(table, seat)))
        self.watching.discard(conn)
        table.presence_soon()
        self._wake(table)
        self._deal_soon(table)  # (everyone still there may have accepted)

    def _deal_soon(self, table: LiveTable) -> None:
        """Deal the rematch at ``table`` if everyone there has accepted it and this server deals it."""
        if table.deals_here() and not self.stopping.is_set():
            task = asyncio.get_running_loop().create_task(self._deal_again(table))
            self._dealing.add(task)
            task.add_done_callback(self._dealing.discard)

    async def _release_seat(self, conn: Conn, message: Release) -> None:
        table = self.hall.table(message.table)
        to = None if message.to is None else owner_named(message.to)
        if message.to is not None and to is None:
            raise Refusal("bad_message", f"release to {message.to}: no such account here (a vouched person is "
                          "web:NAME)")  # fmt: skip
        if to is not None and message.bot is not None:
            raise Refusal("bad_message", "release a seat to a person or to a bot, not both")
        bot = None if message.bot is None else verbs.bot_level(message.bot, self.bots.budget)
        await verbs.release(table, conn, message.seat, to=to, bot=bot)
        self._wake(table)

    async def _start(self, conn: Conn, message: Start) -> None:
        await verbs.start(self.hall.table(message.table), conn)

    async def _set_clock(self, conn: Conn, message: SetClock) -> None:
        table = self.hall.table(message.table)
        await verbs.set_clock(table, conn, message.move_time, time_bank=message.time_bank, increment=message.increment)
        self._wake(table)

    async def _close_table(self, conn: Conn, message: CloseTable) -> None:
        """Close the table (:func:`.verbs.close`): those it let go are forgotten, its game put aside."""
        table = self.hall.table(message.table)
        gone, keep = await verbs.close(table, conn)
        for there in gone:
            self.watching.discard(there)
        await self.hall.put_aside(table, f"closed by {conn.user}", keep=keep)
        conn.send(encode(Closed(table=table.name, kept=keep)))

    async def _resign(self, conn: Conn, message: Resign) -> None:
        table = self.hall.table(message.table)
        await verbs.resign(table, conn)
        self._wake(table)

    async def _stand_in(self, conn: Conn, message: StandIn) -> None:
        table = conn.table
        if table is None:
            raise Refusal("not_seated", "only a player seated at the table may let a bot stand in")
        level = None if message.bot is None else verbs.bot_level(message.bot, self.bots.budget)
        await verbs.stand_in(table, conn, message.seat, level, grace=self.limits.stand_in_grace)
        self._wake(table)

    # -- chat --------------------------------------------------------------------------------------

    async def _say(self, conn: Conn, message: Say) -> None:
        """What ``conn`` says at the table (:func:`.verbs.say`), within its budgets."""
        table = self.hall.table(message.table)
        text = printable(message.text.strip())[:MAX_CHAT_CHARS]
        if not text:
            raise Refusal("bad_message", "say something: the line is empty")
        if self._chat_per_conn.take(conn) > 0 or self._chat_per_account.take(conn.identity) > 0:
            raise Refusal("chat_limit", "too many chat lines too fast: wait a few seconds")
        await verbs.say(table, conn, text, self.chats, self._limited)

    # -- a rematch ---------------------------------------------------------------------------------

    async def _rematch(self, conn: Conn, message: Rematch) -> None:
        """A vote for a rematch (:func:`.verbs.rematch`); once everyone seated has accepted, the
        table deals again (:meth:`_deal_again`)."""
        table = self.hall.table(message.table)
        if message.accept and conn.table is table:  # a rematch keeps the finished game: counted against the opener
            self.hall.room_to_keep(table.record.opener, f"table {table.name}", "deal a rematch")
        if await verbs.rematch(table, conn, message.accept):
            await self._deal_again(table)

    async def _deal_again(self, table: LiveTable) -> None:
        """Deal the rematch at ``table`` (:meth:`.hall.Hall.deal_again`); everyone at the table
        follows into it (``dealt`` and its lines; a client that did not say it knows ``rematch`` is
        sent ``bye`` and closed, and its reconnection joins the new game from its first line)."""
        dealt = await self.hall.deal_again(table)
        if dealt is None:
            return
        lines, aside = dealt
        self._tell_dealt(table, lines)
        await table.save_record()
        self._wake(table)
        await self.hall.keep_game(aside)

    def _tell_dealt(self, table: LiveTable, lines: list[bytes]) -> None:
        """Everyone at ``table`` follows into its next game, whose ``lines`` these are."""
        for conn in table.tell_dealt(lines):  # its reconnection joins the new game (its lines are not those it has)
            self._leave(conn)
            table.bye(conn, table.name)
        table.presence_soon()

    async def _fetch_game(self, conn: Conn, message: FetchGame) -> None:
        """Table ``table``'s game number ``game`` (:meth:`.hall.Hall.game_lines`), as a watch sends it."""
        lines = await self.hall.game_lines(conn.identity, message.table, message.game)
        conn.send(encode(GameLines(table=message.table, game=message.game, lines=len(lines))) + b"".join(lines))

    # -- decisions -------------------------------------------------------------------------------

    async def _decide(self, conn: Conn, message: Place | Undo) -> None:
        table, seat = conn.table, conn.seat
        if table is None or seat is None:
            raise Refusal("not_seated", "join a table's seat first")
        try:
            async with table.lock:
                await verbs.decide(table, seat, message)
        finally:
            self._wake(table)

    # -- bots ------------------------------------------------------------------------------------

    def _wake(self, table: LiveTable) -> None:
        """Start the bot to move at ``table`` if one is to, then let its files rest if nobody plays."""
        if self.stopping.is_set():
            return
        self.moves.start(table)
        self.hall.rest(table)

    def _bot_failed(self, table: LiveTable, error: Exception) -> None:
        table.halt("server", f"table {table.name} has stopped: its bot failed ({error!r})")
        failed = said(N_("table {table} has stopped: its bot failed ({error})"))
        self._log(failed.format(table=table.name, error=repr(error)))


def serve(
    place: ServerPlace,
    *,
    idle: float | None = None,
    trust: Iterable[int] = (),
    limits: Limits | None = None,
    budget: MaxBudget | None = None,
    table_limits: TableLimits | None = None,
    store: GameStore | None = None,
    peers: Peers | None = None,
) -> int:
    """Run the server in the foreground (``dvtui serve``); 0 once stopped. ``trust``: the uids
    besides its own that may vouch for a person; ``budget``: the most its bots may think;
    ``table_limits``: its rules for tables as a whole (how long it keeps a game put aside);
    ``store``: where its tables are kept (None: files in its games directory), closed when it
    stops; ``peers``: the other servers on that store (None: nobody else). The server speaks
    English whatever its user's language: what it passes on (a seat's or a rule's words) goes to
    clients that each say it in their own (each refusal of the rules also names its reason)."""
    operator = language()
    speak_to_operator(operator)  # its log and startup errors are its operator's (dvtui/server/operator.py)
    set_language(ENGLISH)
    try:
        make_private_dir(place.directory)
        server = Server(
            place,
            idle=idle,
            trust=trust,
            limits=limits,
            budget=budget,
            table_limits=table_limits,
            store=store,
            peers=peers,
        )
        pauses = FrozenAfterFull()
        pauses.install()  # (the process's collector: the server's alone here)
        try:
            asyncio.run(server.run())
        finally:
            pauses.uninstall()
    finally:
        set_language(operator)  # what the command says after the server (its error line) is the operator's
    return 0


__all__ = ["Server", "serve"]
