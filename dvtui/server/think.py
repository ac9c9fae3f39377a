"""A worker process of the server's bot pool: ``python -P -m dvtui.server.think`` (light to import).

It reads requests on stdin and answers on stdout, each a 4-byte length and a pickle: the server
sends ``(game, level, seed, within)`` (``within``: the seconds a searching bot's move may take at
most, whatever its iterations; None: no bound), the worker answers ``("move", placement)`` (a
:class:`~dvtui.engine.Placement`) or ``("error", text)``. A plain child process and a pipe, not
:mod:`multiprocessing`: no fork server, no resource tracker, no semaphores and no directory in /tmp,
so a server killed with -9 leaves nothing behind and nothing speaks on its terminal. The worker
leaves when stdin closes (the server stopped or died).
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys
from typing import BinaryIO

from ..bots import bot_fn, parse_bot
from ..engine import Game, Placement

HEADER = struct.Struct("!I")
"""A frame's length, before its pickle."""


def think(game: Game, level: str, seed: int, within: float | None = None) -> Placement:
    """The placement bot ``level`` makes for the player to move in ``game`` (in ``within`` seconds
    at most, if it searches: see :func:`dvtui.bots.bot_fn`)."""
    return bot_fn(parse_bot(level), within=within)(game, seed)


def read_frame(stream: BinaryIO) -> bytes | None:
    """One frame's bytes, or None at the end of the stream."""
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    body = stream.read(size)
    return body if len(body) == size else None


def frame(value: object) -> bytes:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def main() -> None:
    # Ctrl+C at the server's terminal reaches its whole process group: the server stops its
    # workers itself, and a worker must not print a KeyboardInterrupt there meanwhile.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    requests = sys.stdin.buffer
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # whatever else prints cannot break the frames
    while (body := read_frame(requests)) is not None:
        game, level, seed, within = pickle.loads(body)  # from the server that started this process
        try:
            answer: tuple[str, object] = ("move", think(game, level, seed, within))
        except Exception as e:  # the server stops the table and says why
            answer = ("error", repr(e))
        try:
            answers.write(frame(answer))
            answers.flush()
        except OSError:  # the server is gone
            break
    os._exit(0)  # (nothing to flush: a closed pipe would only make the exit print)


if __name__ == "__main__":
    main()
