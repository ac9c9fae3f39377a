"""One connection to the table server (:class:`Connection`): who a client is (its uid, or the
person a trusted account vouches for), where it sits, its budget of messages, and the one way
bytes go to its socket (queued, never waited for: a client that lets too much pile up is dropped).

It names what it needs of the table it sits at, its seat there (:class:`AtTable`), and is generic
over that table's type: the gateway that accepts connections and the tables that hold them both
stand on this module, and neither needs the other (the server's tables use ``Connection[LiveTable]``,
:data:`~.live.Conn`).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Generic, Protocol, TypeVar

from ..printable import printable
from ..store import user_name
from ..tables.older import downgraded
from ..tables.wire import MAX_ERROR_CHARS, Error, ErrorCode, Owner, encode
from .limits import Limits, Output


class AtTable(Protocol):
    """What a connection needs of the table it is at: which seat it holds there, if any."""

    def seat_of(self, guest: Connection[Any]) -> int | None: ...


T = TypeVar("T", bound=AtTable)
"""The table a connection may be at."""


CLOSE_GRACE = 2.0
"""Seconds a closing connection has to read what is queued for it before it is cut off."""


class Connection(Generic[T]):
    """One client connection: who it is, where it sits (a ``T``), and its budget of messages."""

    def __init__(self, writer: asyncio.StreamWriter, uid: int, limits: Limits, output: Output) -> None:
        self.writer = writer
        self.limits = limits
        self.output = output
        """The bound on what all connections leave unread, told of this one's at each send."""
        self.uid = uid
        self.vouched: str | None = None
        """The person this connection speaks for (its hello's ``user``, from a trusted account)."""
        self.user = user_name(uid)
        """Who it is, as logs and ``welcome`` say it."""
        self.bot: str | None = None
        """The level of the bot this client is, as its hello said (None: a person at a screen)."""
        self.greeted = False
        self.features: frozenset[str] = frozenset()
        """What the client understands beyond the protocol's first vocabulary (its hello's
        ``features`` that this server speaks): nothing else of later versions is sent to it."""
        self.table: T | None = None
        self.seeking = False
        """It waits in the pool for a table (``seek``): not idle meanwhile."""
        self.closed = False
        self._tokens = limits.conn_burst
        self._at = time.monotonic()

    def send(self, data: bytes) -> None:
        """Queue ``data``, never waiting: a client that lets too much pile up is dropped (so is
        one among those with most unread, when all of them together leave too much)."""
        transport = self.writer.transport
        if self.closed or transport.is_closing():  # (writing to a lost peer: a log line per write)
            return
        self.writer.write(data)
        unsent = transport.get_write_buffer_size()
        if unsent > self.limits.queued_per_conn:
            self.abort()
        else:
            self.output.note(self, unsent)

    def unsent(self) -> int:
        return self.writer.transport.get_write_buffer_size()

    @property
    def identity(self) -> Owner:
        """What a seat it takes belongs to: the vouched person, else the account."""
        return self.uid if self.vouched is None else self.vouched

    @property
    def person(self) -> str:
        """The name a seat is matched against when a join names none."""
        return user_name(self.uid) if self.vouched is None else self.vouched

    @property
    def seat(self) -> int | None:
        return None if self.table is None else self.table.seat_of(self)

    def error(
        self, code: ErrorCode, message: str, *, seq: int | None = None, re: str | None = None,
        reason: str | None = None, fields: dict[str, int] | None = None,
    ) -> None:  # fmt: skip
        """Say ``message``; ``re``: the type of the message it answers (None: nobody asked);
        ``reason`` and ``fields``: which refusal, for the client to say in its own words."""
        message = printable(message)[:MAX_ERROR_CHARS]
        self.tell(Error(code=code, message=message, seq=seq, re=re, reason=reason, fields=fields))

    def tell(self, error: Error) -> None:
        """Send ``error`` in a code this client reads (:func:`~dvtui.tables.older.downgraded`)."""
        self.send(encode(downgraded(error, self.features)))

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
                asyncio.get_running_loop().call_later(CLOSE_GRACE, _cut_off, transport)

    def abort(self) -> None:
        self.closed = True
        self.output.forget(self)
        self.writer.transport.abort()

    def allowed(self) -> bool:
        """One more message within the connection's rate (a token bucket)."""
        now = time.monotonic()
        self._tokens = min(self.limits.conn_burst, self._tokens + (now - self._at) * self.limits.conn_rate)
        self._at = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


def _cut_off(transport: asyncio.WriteTransport) -> None:
    """Abort a closing transport that still has data to send. Only then: one that sent it all has
    closed already, and aborting it again fails inside asyncio."""
    if transport.get_write_buffer_size():
        transport.abort()


__all__ = ["CLOSE_GRACE", "AtTable", "Connection"]
