"""What the table server grants each connection and each account, and the means it keeps to them.

Every co-user of a shared host may connect, so nothing one account does may take the server from
the others: its connections, what they may leave unread or half-sent, and how fast they may ask
are bounded per connection, per account and in all, and each limit reached costs a log line at
most once a minute. The numbers are :class:`Limits`' defaults (``dvtui serve --limit NAME=VALUE``
changes one); docs/PROTOCOL.md ("Limits") states them.

The server's own account and those it trusts (``--trust``) are bounded only in all: the first can
rewrite the games anyway, and a trusted one speaks for many people (each vouched person has the
budget of an account of their own).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import os
import resource
import socket
import time
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Protocol

from ..i18n import _
from .keptroom import KEPT_BYTES_PER_OPENER, KEPT_BYTES_TOTAL

LOG_EVERY = 60.0
"""Seconds between two log lines about the same limit (the ones between are counted)."""
PAGE_COST = 2.0
"""What a ``list_tables`` answered by a page of the tables costs of its account's budget, in
messages: what it sends is bounded (a page holds at most ``MAX_PAGE`` tables), so its cost is
too, however many tables the server holds; a lookup of one table costs one, as any message. (A
cost that grew with the tables made a whole listing, page after page, cost their square.)"""
MOST_WAIT = 3.0
"""Seconds at most an account's message waits for its budget by default (:attr:`Limits.account_wait`):
past it, the message is answered ``busy`` and spends nothing, so an account's debt is bounded and a
storm ended is soon forgotten."""
ACCEPT_PAUSE = 0.5
"""Seconds the server stops accepting when the system has no descriptor or memory for one more."""
ACCEPT_BACKLOG = 128
"""Connections accepted in one turn of the loop (then it serves those it has)."""
LISTEN_BACKLOG = 65535
"""The queue of connections the kernel holds for the server before it accepts them: the kernel
takes the least of this and ``net.core.somaxconn`` (4096 by default since Linux 5.4), so the
operator's setting decides. A deep queue is what makes a connect/close loop cost its own account:
the server empties it faster than one loop fills it and refuses that account's connections at once
(:attr:`Limits.connect_rate`); a shallow one (128) stays full, and everyone's connects fail."""


@dataclass(frozen=True)
class Limits:
    """The server's bounds (see the module's docstring for who is bound by which)."""

    conns_per_account: int = 64
    """Connections one account (or vouched person) holds at once."""
    conns_total: int = 4096
    """Connections in all (never more than half the server's open-file limit)."""
    connect_rate: float = 20.0
    """Connections one account may open a second on average (a command opens one, a player's
    client one per reconnection) ..."""
    connect_burst: float = 100.0
    """... and in a row; past either, its new connections are refused (``busy``) at once."""
    hello_seconds: float = 10.0
    """A connection says ``hello`` within this, or is closed."""
    line_seconds: float = 10.0
    """A line, once begun, ends (``\\n``) within this, or the connection is closed."""
    idle_seconds: float = 120.0
    """A connection at no table that sends nothing for this long is closed."""
    queued_per_conn: int = 4 * 1024 * 1024
    """Bytes one client may leave unread before it is dropped (a whole game is ~30 KiB)."""
    queued_total: int = 64 * 1024 * 1024
    """Bytes all clients together may leave unread: past it the clients with most unread are dropped."""
    conn_rate: float = 50.0
    """Messages a second one connection may send on average (a person sends a few a minute) ..."""
    conn_burst: float = 200.0
    """... and at once; past either, ``flood`` and the connection is closed."""
    account_rate: float = 50.0
    """Messages a second one account may send over all its connections; past it, its messages wait."""
    account_burst: float = 200.0
    account_wait: float = MOST_WAIT
    """Seconds at most one account's message waits for its budget; past it, ``busy`` (see :data:`MOST_WAIT`)."""
    spectators_per_table: int = 100
    spectators_per_account: int = 16
    """Tables one account (or vouched person) watches at once, over its connections."""
    presence_tick: float = 0.1
    """Seconds: at most one ``presence`` per table in each."""
    stand_in_grace: float = 30.0
    """Seconds a seat's owner is away before a co-player may let a bot play it (a dropped
    connection, a restarted server, is back sooner)."""
    chat_rate: float = 0.5
    """Chat lines a second one connection may say on average (a line every two seconds) ..."""
    chat_burst: float = 5.0
    """... and in a row; past either, a line is refused (``chat_limit``), and counts all the same."""
    chat_account_rate: float = 1.0
    """Chat lines a second one account (or vouched person) may say over all its connections ..."""
    chat_account_burst: float = 10.0
    kept_bytes_per_opener: int = KEPT_BYTES_PER_OPENER
    """Bytes of kept games of the tables one account (or vouched person) opened; at it, its new
    tables and rematches are refused until some are removed (:mod:`.keptroom`) ..."""
    kept_bytes_total: int = KEPT_BYTES_TOTAL
    """... and of all the server's kept games; at it, everyone's (but the server's own account's)."""
    hold_check: float = 2.0
    """Seconds between two questions of a server on a shared database: which tables does it hold
    no more (:mod:`.holdwatch`)? A hold lost is noticed by then though nobody moves."""

    @classmethod
    def option_names(cls) -> list[str]:
        """The names ``--limit`` takes (``conns-per-account``...)."""
        return [f.name.replace("_", "-") for f in dataclasses.fields(cls)]

    def with_options(self, options: Iterable[str]) -> Limits:
        """These limits with ``NAME=VALUE`` options applied; ValueError says what is wrong."""
        types = {f.name: f.type for f in dataclasses.fields(self)}
        changes: dict[str, int | float] = {}
        for option in options:
            name, sep, value = option.partition("=")
            key = name.strip().replace("-", "_")
            if not sep or key not in types:
                said = _("{option!r}: say NAME=VALUE, NAME one of {names}")
                raise ValueError(said.format(option=option, names=_(", ").join(self.option_names())))
            try:
                number = int(value) if types[key] in ("int", int) else float(value)
            except ValueError:
                raise ValueError(_("{name}={value}: not a number").format(name=name, value=value)) from None
            if not 0 < number < float("inf"):
                raise ValueError(_("{name}={value}: a limit is a number above 0").format(name=name, value=value))
            changes[key] = number
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def total_conns(self) -> int:
        """:attr:`conns_total`, within half the descriptors the process may open (a table's files,
        the bots' pipes and the log need the rest)."""
        with contextlib.suppress(ValueError, OSError):
            soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            if soft != resource.RLIM_INFINITY:
                return max(1, min(self.conns_total, soft // 2))
        return self.conns_total


class Throttled:
    """A log that says each kind of event at most once per :data:`LOG_EVERY` seconds, with how
    many it did not say: a limit hit thousands of times a second costs a line a minute."""

    def __init__(self, log: Callable[[str], None], every: float = LOG_EVERY) -> None:
        self._log = log
        self._every = every
        self._last: dict[str, tuple[float, int]] = {}

    def __call__(self, kind: str, line: str) -> None:
        now = time.monotonic()
        at, unsaid = self._last.get(kind, (float("-inf"), 0))
        if now - at < self._every:
            self._last[kind] = (at, unsaid + 1)
            return
        self._last[kind] = (now, 0)
        more = f" (and {unsaid} more like it in the last {self._every:g} s)" if unsaid else ""
        self._log(line + more)


class Budgets:
    """A token bucket per key (an account, a vouched person): the rate of all its connections
    together. A message over budget waits its turn, so an account's flood slows that account
    alone; for at most :attr:`Limits.account_wait` seconds (:meth:`take_within`), past which it is refused
    and spends nothing, so the debt of an account, however many connections it floods from, is
    bounded and soon paid once it stops."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._buckets: dict[Hashable, tuple[float, float]] = {}

    def take(self, key: Hashable, cost: float = 1.0) -> float:
        """Spend ``cost`` of ``key``'s budget; the seconds to wait before going on (0: at once)."""
        now = self._clock()
        tokens, at = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate) - cost
        self._buckets[key] = (tokens, now)
        if len(self._buckets) > 1024:  # a full bucket is a missing one: forget those
            for k, (t, a) in list(self._buckets.items()):
                if t + (now - a) * self.rate >= self.burst:
                    del self._buckets[k]
        return 0.0 if tokens >= 0 else -tokens / self.rate

    def take_within(self, key: Hashable, cost: float, most_wait: float) -> float | None:
        """:meth:`take`, unless that would mean waiting more than ``most_wait`` seconds: then nothing
        is spent and None is returned. A key refused so runs up no debt, so it is served again as
        soon as it slows down, whatever it asked before."""
        now = self._clock()
        tokens, at = self._buckets.get(key, (self.burst, now))
        if min(self.burst, tokens + (now - at) * self.rate) - cost < -most_wait * self.rate:
            return None
        return self.take(key, cost)


class Late(Exception):
    """No line in time: ``unfinished`` a line begun and not ended, else nothing sent at all."""

    def __init__(self, unfinished: bool) -> None:
        super().__init__("unfinished line" if unfinished else "nothing sent")
        self.unfinished = unfinished


class TooLong(Exception):
    """A line longer than the bound."""


class LineReader:
    """Lines from a stream, each at most ``max_bytes`` (``\\n`` included) and each finished within
    ``line_seconds`` of its first byte: a client cannot hold the server's memory with a line it
    never ends, nor keep a line open a byte at a time."""

    def __init__(self, reader: asyncio.StreamReader, max_bytes: int, line_seconds: float) -> None:
        self._reader = reader
        self._max = max_bytes
        self._line_seconds = line_seconds
        self._buf = b""
        self._pos = 0
        self._begun = 0.0
        """When the unfinished line in the buffer began."""

    async def line(self, wait: float | None) -> bytes | None:
        """The next line (None: the stream ended). ``wait``: seconds to wait for one to begin (None:
        for ever). Raises :class:`Late` or :class:`TooLong`."""
        wait_until = None if wait is None else time.monotonic() + wait
        while True:
            end = self._buf.find(b"\n", self._pos)
            if end >= 0:
                if end + 1 - self._pos > self._max:
                    raise TooLong
                line = self._buf[self._pos : end + 1]
                self._pos = end + 1
                if self._pos < len(self._buf):
                    self._begun = time.monotonic()  # the next line's start came with this one
                else:
                    self._buf, self._pos = b"", 0  # (held by nobody while the client is quiet)
                return line
            unfinished = self._pos < len(self._buf)
            if len(self._buf) - self._pos >= self._max:
                raise TooLong
            deadline = self._begun + self._line_seconds if unfinished else wait_until
            if unfinished and wait_until is not None:
                deadline = min(deadline, wait_until)  # type: ignore[type-var]
            try:
                async with asyncio.timeout_at(None if deadline is None else _loop_time(deadline)):
                    chunk = await self._reader.read(self._max)
            except TimeoutError:
                raise Late(unfinished) from None
            if not chunk:
                return None
            if not unfinished:
                self._begun = time.monotonic()
            self._buf = self._buf[self._pos :] + chunk
            self._pos = 0


def _loop_time(monotonic: float) -> float:
    """A :func:`time.monotonic` instant on the running loop's clock."""
    return asyncio.get_running_loop().time() + (monotonic - time.monotonic())


class Queue(Protocol):
    """A connection as the output bound sees it."""

    def unsent(self) -> int: ...
    def abort(self) -> None: ...


class Output:
    """The bound on what all clients together leave unread. Each send tells it the connection's
    unsent bytes; their sum is an estimate (a client that reads lowers its share unseen until the
    next send to it), so past the bound the real sizes are measured, and if the bound is really
    passed the clients with most unread are dropped until three quarters of it are left."""

    def __init__(self, bound: int, on_drop: Callable[[int, int], None]) -> None:
        self.bound = bound
        self._on_drop = on_drop
        self._sizes: dict[Queue, int] = {}
        self.total = 0

    def note(self, conn: Queue, size: int) -> None:
        before = self._sizes.pop(conn, 0)
        if size:
            self._sizes[conn] = size
        self.total += size - before
        if self.total > self.bound:
            self._measure()

    def forget(self, conn: Queue) -> None:
        self.total -= self._sizes.pop(conn, 0)

    def _measure(self) -> None:
        self._sizes = {c: n for c in self._sizes if (n := c.unsent())}
        self.total = sum(self._sizes.values())
        if self.total <= self.bound:
            return
        dropped = 0
        for conn, _size in sorted(self._sizes.items(), key=lambda item: item[1], reverse=True):
            if self.total <= self.bound * 3 // 4:
                break
            conn.abort()
            self.forget(conn)
            dropped += 1
        self._on_drop(dropped, self.total)


class Acceptor:
    """The listening socket's accept loop. The system may run out of descriptors or memory for a
    new connection: accepting then stops for :data:`ACCEPT_PAUSE` seconds, with one log line per
    :data:`LOG_EVERY`, where asyncio's own loop retries at once, for every connection waiting, and
    logs a traceback each time."""

    def __init__(self, path: str, accepted: Callable[[socket.socket], None], log: Throttled) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self.sock.bind(path)
            self.sock.listen(LISTEN_BACKLOG)
            self.sock.setblocking(False)
        except BaseException:
            self.sock.close()
            raise
        self._accepted = accepted
        self._log = log
        self._loop = asyncio.get_running_loop()
        self._closed = False
        self._resume: asyncio.TimerHandle | None = None

    def start(self) -> None:
        self._resume = None
        if not self._closed:
            self._loop.add_reader(self.sock.fileno(), self._ready)

    def _ready(self) -> None:
        for _attempt in range(ACCEPT_BACKLOG):  # then let the loop serve the connections it has
            try:
                conn, _address = self.sock.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return
            except OSError as e:
                short = e.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
                self._log("accept", f"cannot accept a connection ({os.strerror(e.errno or 0)}): "
                          f"{'pausing' if short else 'retrying in'} {ACCEPT_PAUSE:g} s")  # fmt: skip
                self._loop.remove_reader(self.sock.fileno())
                self._resume = self._loop.call_later(ACCEPT_PAUSE, self.start)
                return
            conn.setblocking(False)
            self._accepted(conn)

    def close(self) -> None:
        self._closed = True
        if self._resume is not None:
            self._resume.cancel()
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(self.sock.fileno())
        self.sock.close()


class Refusals:
    """Connections refused with a last line: each is kept open for up to ``grace`` seconds, its
    input read and thrown away, so a client that wrote its ``hello`` before the refusal reached it
    still reads why (closing at once would make its write fail, and its reading with it). Its
    writing side is shut at once, though: the client reads the end right after the line, as it
    would a closed connection's, rather than ``grace`` seconds later (a client that says nothing
    more learns at once that nothing more comes). At most ``most`` are kept so; past that a
    refused connection is closed at once."""

    def __init__(self, grace: float, most: int = 64) -> None:
        self._grace = grace
        self._most = most
        self._held: dict[socket.socket, asyncio.TimerHandle] = {}

    def refuse(self, sock: socket.socket, last: bytes) -> None:
        with contextlib.suppress(OSError):
            sock.send(last)
            sock.shutdown(socket.SHUT_WR)
        if len(self._held) >= self._most:
            sock.close()
            return
        loop = asyncio.get_running_loop()
        self._held[sock] = loop.call_later(self._grace, self._close, sock)
        loop.add_reader(sock.fileno(), self._drain, sock)

    def _drain(self, sock: socket.socket) -> None:
        try:
            if sock.recv(65536):
                return
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            pass
        self._close(sock)

    def _close(self, sock: socket.socket) -> None:
        timer = self._held.pop(sock, None)
        if timer is None:
            return
        timer.cancel()
        with contextlib.suppress(ValueError, OSError):
            asyncio.get_running_loop().remove_reader(sock.fileno())
        sock.close()

    def close(self) -> None:
        for sock in list(self._held):
            self._close(sock)


class Coalesced:
    """``fn`` run at most once per ``tick`` however often it is asked for (the latest state is what
    it sends), or at once by :meth:`flush` when something must follow it in order."""

    def __init__(self, fn: Callable[[], None], tick: float) -> None:
        self._fn = fn
        self._tick = tick
        self._pending: asyncio.TimerHandle | None = None
        self._last = float("-inf")

    def __call__(self) -> None:
        if self._pending is not None:
            return
        loop = asyncio.get_running_loop()
        self._pending = loop.call_at(max(loop.time(), self._last + self._tick), self.flush)

    def flush(self) -> None:
        if self._pending is None:
            return
        self._pending.cancel()
        self._pending = None
        self._last = asyncio.get_running_loop().time()
        self._fn()

    def cancel(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None


def hung_up(writer: asyncio.StreamWriter) -> bool:
    """Whether the client closed its end of the connection (both ways: a client that only ended its
    writing still reads its answers). What it sent before is then asked of nobody: dropped."""
    import select

    sock = writer.get_extra_info("socket")
    if sock is None:
        return False
    poller = select.poll()
    poller.register(sock.fileno(), select.POLLOUT)
    return any(events & (select.POLLHUP | select.POLLERR) for _fd, events in poller.poll(0))


def peer_uid(sock: socket.socket) -> int:
    """The uid of the process at the other end of a Unix socket (SO_PEERCRED)."""
    import struct

    size = struct.calcsize("3i")
    uid: int
    _, uid, _ = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, size))
    return uid


__all__ = [
    "Acceptor",
    "Budgets",
    "Coalesced",
    "Late",
    "Limits",
    "LineReader",
    "Output",
    "Refusals",
    "Throttled",
    "TooLong",
    "hung_up",
]
