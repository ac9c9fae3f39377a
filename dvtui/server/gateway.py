"""The server's connections (each a :class:`~.connection.Connection`): the :class:`Gateway`,
which accepts them (within the caps per account and in all), reads each line within its deadline
and its account's budget, greets, and hands each message to its handler (a :class:`~.table.Refusal`
it raises is the ``error`` answering it)."""

from __future__ import annotations

import asyncio
import socket
import time
import traceback
from collections.abc import Awaitable, Callable
from typing import Any, Generic

import msgspec

from ..i18n import N_
from ..store import user_name
from ..tables.protocol import (
    FEATURES,
    Bye,
    ClientMessage,
    FollowTables,
    Hello,
    ListTables,
    Place,
    Resign,
    Undo,
    Welcome,
    client_decoder,
)
from ..tables.vetting import bot_problem, person_problem, request_type
from ..tables.wire import MAX_LINE_BYTES, PROTOCOL_VERSION, Error, Owner, encode
from .connection import CLOSE_GRACE, Connection, T
from .followers import Followers
from .limits import (
    PAGE_COST,
    Budgets,
    Late,
    Limits,
    LineReader,
    Output,
    Refusals,
    TooLong,
    hung_up,
    peer_uid,
)
from .operator import said
from .table import Refusal, owner_name

DECISIONS = (Place, Undo, Resign)
"""What a person decides at a table: never dropped with a connection closed while it waited its turn."""


class Gateway(Generic[T]):
    """The server's connections (see the module's docstring), each at a table of type ``T`` or at
    none (the gateway asks a table nothing but a connection's seat there). ``handle``: each client message's
    handler, set by the server; ``left``: told when a connection ends, to let its seat go."""

    def __init__(
        self, limits: Limits, trusted: frozenset[int], followers: Followers, stopping: asyncio.Event,
        log: Callable[[str], None], limited: Callable[[str, str], None], *, left: Callable[[Connection[T]], None],
    ) -> None:  # fmt: skip
        self.limits = limits
        self.trusted = trusted
        self.followers = followers
        self.stopping = stopping
        self.log = log
        self.limited = limited
        self.left = left
        self.handle: dict[type[Any], Callable[[Connection[T], Any], Awaitable[None]]] = {}
        self.conns: set[Connection[T]] = set()
        self.last_ended = time.monotonic()
        """When the last connection served ended (:func:`time.monotonic`): an idle server's quiet
        began then, to the moment, however seldom it looks."""
        self.handlers: set[asyncio.Future[None]] = set()
        """One per connection being read, done once it ends (the server waits for them to stop)."""
        self.output = Output(limits.queued_total, self.dropped_readers)
        self.budgets = Budgets(limits.account_rate, limits.account_burst)
        self.connects = Budgets(limits.connect_rate, limits.connect_burst)
        """New connections per uid (those bound per account)."""
        self.per_account: dict[int, int] = {}
        """Connections per uid (those bound per account)."""
        self.accepted_tasks: set[asyncio.Task[None]] = set()
        self.refusals = Refusals(CLOSE_GRACE)
        self.max_conns = limits.conns_total
        """Connections in all (set once the open-file limit is raised, at the start)."""

    def loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        """What asyncio would print to stderr for each failure a peer can cause, throttled."""
        error = context.get("exception")
        detail = "".join(traceback.format_exception(error)) if isinstance(error, BaseException) else ""
        self.limited("asyncio", f"{context.get('message', 'asyncio error')}\n{detail}".rstrip())

    def dropped_readers(self, dropped: int, left: int) -> None:
        unread = said(N_("clients leave more than {most} bytes unread in all: dropped the {dropped} with most "
                         "unread ({left} bytes left)"))  # fmt: skip
        self.limited("output", unread.format(most=self.limits.queued_total, dropped=dropped, left=left))

    def bound(self, uid: int) -> bool:
        """Whether ``uid``'s connections count against the per-account limits (see limits.py)."""
        return uid not in self.trusted

    def accepted(self, sock: socket.socket) -> None:
        """A new connection: served, or refused with ``busy`` if it is one too many."""
        try:
            uid = peer_uid(sock)
        except OSError:
            sock.close()
            return
        limits = self.limits
        mine = self.per_account.get(uid, 0)
        refusal = None
        if len(self.accepted_tasks) >= self.max_conns:  # (a task per connection, until it ends)
            refusal = f"the table server holds {self.max_conns} connections, as many as it may: try again later"
        elif self.bound(uid) and mine >= limits.conns_per_account:
            refusal = (f"account {user_name(uid)} holds {limits.conns_per_account} connections to the table "
                       "server, as many as one account may")  # fmt: skip
        elif self.bound(uid) and self.connects.take_within(uid, 1.0, 0.0) is None:  # (a loop costs its own)
            refusal = (f"account {user_name(uid)} opens more than {limits.connect_rate:g} connections a second "
                       "to the table server: wait a moment")  # fmt: skip
        if refusal is not None:
            self.refusals.refuse(sock, encode(Error(code="busy", message=refusal)))
            refused = said(N_("refused a connection of {user}: {refusal}"))
            self.limited("busy", refused.format(user=user_name(uid), refusal=refusal))
            return
        if self.bound(uid):
            self.per_account[uid] = mine + 1
        task = asyncio.create_task(self.serve_conn(sock, uid))
        self.accepted_tasks.add(task)
        task.add_done_callback(self.accepted_tasks.discard)

    async def serve_conn(self, sock: socket.socket, uid: int) -> None:
        try:
            reader, writer = await asyncio.open_unix_connection(sock=sock, limit=MAX_LINE_BYTES)
        except OSError:
            sock.close()
            self.connection_ended(uid)
            return
        conn: Connection[T] = Connection(writer, uid, self.limits, self.output)
        self.conns.add(conn)
        done = asyncio.get_running_loop().create_future()
        self.handlers.add(done)
        try:
            await self.read(conn, reader)
        except (ConnectionError, OSError):
            pass
        finally:
            self.conns.discard(conn)
            self.last_ended = time.monotonic()
            self.followers.forget(conn)
            self.left(conn)
            conn.close()
            self.output.forget(conn)
            self.connection_ended(uid)
            done.set_result(None)
            self.handlers.discard(done)

    def connection_ended(self, uid: int) -> None:
        """One connection of ``uid`` fewer."""
        if self.bound(uid):
            left = self.per_account[uid] - 1
            if left:
                self.per_account[uid] = left
            else:
                del self.per_account[uid]

    def budget_key(self, conn: Connection[T]) -> Owner | None:
        """Whose budget ``conn``'s messages spend (None: bounded only in all)."""
        return None if conn.vouched is None and not self.bound(conn.uid) else conn.identity

    async def read(self, conn: Connection[T], reader: asyncio.StreamReader) -> None:
        limits = self.limits
        lines = LineReader(reader, MAX_LINE_BYTES, limits.line_seconds)
        hello_by = time.monotonic() + limits.hello_seconds
        while not conn.closed and not self.stopping.is_set():
            if not conn.greeted:
                wait: float | None = max(0.0, hello_by - time.monotonic())
            else:
                idle = conn.table is None and not conn.seeking and conn not in self.followers
                wait = limits.idle_seconds if idle else None
            try:
                line = await lines.line(wait)
            except TooLong:
                conn.fail("too_long", f"a line is at most {MAX_LINE_BYTES} bytes")
                return
            except Late as e:
                conn.fail("timeout", self.late(conn, e))
                return
            if line is None:
                return
            if not conn.allowed():
                conn.fail("flood", f"more than {limits.conn_rate:g} messages a second")
                return
            try:
                message = client_decoder.decode(line)
            except (msgspec.DecodeError, RecursionError) as e:  # (ValidationError is a DecodeError)
                why = str(e) if isinstance(e, msgspec.DecodeError) else "a value nested too deeply"
                conn.error("bad_message", why, re=request_type(line))
                if not conn.greeted:
                    conn.close()
                continue
            if not conn.greeted and not isinstance(message, Hello):
                conn.fail("version", f'say hello first: {{"type":"hello","version":{PROTOCOL_VERSION}}}')
                return
            key = self.budget_key(conn)
            if key is not None:
                paged = isinstance(message, FollowTables) or (isinstance(message, ListTables) and message.table is None)
                cost = PAGE_COST if paged else 1.0
                # a hello waits its turn whatever the debt (refused, the connection would end)
                delay = (
                    self.budgets.take_within(key, cost, limits.account_wait) if conn.greeted else self.budgets.take(key)
                )
                if delay is None:  # (the account's debt is bounded: see Limits.account_wait)
                    conn.error("busy", f"account {conn.person} asks more than {limits.account_rate:g} things a second "
                               "over its connections: wait a moment", re=request_type(line))  # fmt: skip
                    continue
                if delay > 0:
                    await asyncio.sleep(delay)
                    # what a closed connection left queued is asked of nobody, but a decision a person
                    # sent (a placement, its undo, a resignation) is theirs all the same: it counts
                    if hung_up(conn.writer) and not isinstance(message, DECISIONS):
                        return
            await self.answer(conn, message)

    def late(self, conn: Connection[T], late: Late) -> str:
        """Why a connection that sent nothing in time is closed."""
        limits = self.limits
        if late.unfinished:
            return f"a line begun is ended within {limits.line_seconds:g} s"
        if not conn.greeted:
            return f"no hello within {limits.hello_seconds:g} s"
        return f"nothing asked for {limits.idle_seconds:g} s at no table"

    async def answer(self, conn: Connection[T], message: ClientMessage) -> None:
        """Hand ``message`` to its handler; a :class:`~.table.Refusal` is the error answering it."""
        asked: str = type(message).__struct_config__.tag  # type: ignore[assignment]
        try:
            await self.handle[type(message)](conn, message)
        except Refusal as no:
            conn.error(no.code, no.message, seq=no.seq, re=asked, reason=no.reason, fields=no.fields)
            if no.close:
                conn.close()
        except Exception as e:  # a bug must cost one connection, never the server
            internal = said(N_("internal error on a message from {user}: {error}"))
            self.limited("internal", f"{internal.format(user=conn.user, error=repr(e))}\n{traceback.format_exc()}")
            conn.error("bad_message", "the server could not handle that message", re=asked)
            conn.close()

    async def bye(self, conn: Connection[T], message: Bye) -> None:
        conn.close()

    async def greet(self, conn: Connection[T], message: Hello) -> None:
        """``welcome``, once the version is this server's and the person vouched for (if any) may be."""
        if message.version != PROTOCOL_VERSION:
            speaks = f"this server speaks version {PROTOCOL_VERSION}, not {message.version}"
            raise Refusal("version", speaks, close=True)
        person = message.user
        problem = None if person is None else person_problem(person)
        if problem is None and message.bot is not None:
            problem = bot_problem(message.bot)
        if problem is not None:
            raise Refusal("bad_message", f"hello: {problem}", close=not conn.greeted)
        if person is not None and conn.uid not in self.trusted:
            raise Refusal("not_trusted", f"account {conn.user} may not vouch for a person: this server trusts its "
                          "own account and those named by 'dvtui serve --trust'", close=True)  # fmt: skip
        if conn.greeted and person != conn.vouched:
            raise Refusal("bad_message", "a connection speaks for one person: the one its first hello named")
        if not conn.greeted:
            conn.bot = message.bot
            conn.features = frozenset(message.features) & frozenset(FEATURES)
        conn.vouched = person
        conn.user = owner_name(conn.identity)
        if person is not None and not conn.greeted:
            vouches = said(N_("account {account} vouches for {person}"))
            self.log(vouches.format(account=user_name(conn.uid), person=conn.user))
        conn.greeted = True
        from .. import __version__

        spoken = [feature for feature in FEATURES if feature in conn.features]
        conn.send(encode(Welcome(version=PROTOCOL_VERSION, server=__version__, user=conn.user, features=spoken)))


__all__ = ["Gateway"]
