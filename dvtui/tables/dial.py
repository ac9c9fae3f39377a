"""Connecting to a table server's socket when its queue of connections waiting is full (no Textual).

On a shared host any co-user may connect and close in a loop: the server refuses such an account
at once (:class:`~.gate.ConnectGate`), but while the loop runs the kernel's queue of connections
not yet accepted may be full for a moment. A non-blocking ``connect()`` to a Unix socket then
fails with ``EAGAIN``, which asyncio takes for "in progress" and then reports as connected: the
first write fails with ``ENOTCONN`` and the client blamed the server. So the connect is made here,
where ``EAGAIN`` means what it says, and tried again after a jittered, doubling wait for
:data:`QUEUE_PATIENCE` seconds; ``ECONNREFUSED`` (a socket nobody listens on: a server starting or
stopping) for :data:`RESTART_PATIENCE`. What is still refused then is said as such.
"""

from __future__ import annotations

import asyncio
import errno
import random
import socket
import time

from ..i18n import _

QUEUE_PATIENCE = 10.0
"""Seconds a client keeps trying a server whose queue of waiting connections is full."""
RESTART_PATIENCE = 1.0
"""Seconds a client keeps trying a socket nobody listens on (a server binds before it listens)."""
FIRST_WAIT = 0.01
MOST_WAIT = 0.5


class Crowded(OSError):
    """The server's queue of connections stayed full for :data:`QUEUE_PATIENCE` seconds."""


async def dial(path: str) -> socket.socket:
    """A socket connected to the Unix socket ``path`` (non-blocking, for asyncio to take over), after
    the retries the module's docstring describes; OSError as the last attempt failed (Crowded for a
    full queue)."""
    start = time.monotonic()
    wait = FIRST_WAIT
    tries = 0
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        tries += 1
        try:
            sock.connect(path)  # a Unix socket connects at once, or says why not: never "in progress"
            return sock
        except OSError as e:
            sock.close()
            patience = {errno.EAGAIN: QUEUE_PATIENCE, errno.ECONNREFUSED: RESTART_PATIENCE}.get(e.errno or 0)
            if patience is None or time.monotonic() - start + wait > patience:
                if e.errno == errno.EAGAIN:
                    said = _("the table server's queue of connections stayed full for {seconds:g} s ({tries} tries): "
                             "someone is flooding it with connections; try again later")  # fmt: skip
                    raise Crowded(errno.EAGAIN, said.format(seconds=QUEUE_PATIENCE, tries=tries)) from None
                raise
        await asyncio.sleep(random.uniform(wait / 2, wait))  # apart, clients turned away together
        wait = min(MOST_WAIT, wait * 2)


__all__ = ["MOST_WAIT", "QUEUE_PATIENCE", "RESTART_PATIENCE", "Crowded", "dial"]
