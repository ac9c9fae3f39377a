"""What people say at a table: kept beside its game (``games/NAME.chat``), never inside the ``.dvr``.

The game's file is the rules' record, replayed and verified; chat is talk about it, so it lives in
a file of its own, one ``said`` message a line, as the protocol sends it. A table keeps the latest
:data:`RECENT` lines in memory for whoever arrives; the file stops growing at :data:`MAX_CHAT_BYTES`
(the talk goes on, unrecorded past it), so no table's talk can fill the server's disk.

Every method may block (file system calls): the server calls :meth:`ChatLog.append` off its loop.
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from pathlib import Path
from typing import NamedTuple, Protocol

RECENT = 20
"""The lines a client gets on joining or watching a table (the latest)."""
MAX_CHAT_BYTES = 256 * 1024
"""The most a table's chat file holds (some 1,000 lines of the longest kind)."""


class Heard(NamedTuple):
    """A table's talk from some point on: its ``lines`` (``said`` messages), to tell in this order,
    and ``seen``, how many lines the table keeps up to the last of them (where to read on from)."""

    lines: deque[bytes]
    seen: int


class Talk(Protocol):
    """Where a server keeps its tables' talk: :class:`ChatLog` (files beside the games), or the
    database several servers share (:mod:`.pgchat`). Every method may block: off the loop."""

    def recent(self, name: str, game: int | None = None) -> Heard:
        """The latest :data:`RECENT` lines kept for table ``name`` (``game``: the store's identity
        of the table's game, :meth:`~.stores.base.GameStore.game_id`: that game's talk, whatever
        game has the table's name now; None: the talk of the game at ``name`` now)."""
        ...

    def say(self, name: str, line: bytes, seen: int, game: int | None = None) -> tuple[Heard, bool]:
        """Keep ``line`` for table ``name`` (whose server has told the lines up to ``seen``): the
        lines to tell now, in the order every server tells them (the line among them), and
        whether it was kept (False: the table's talk is full; the line is told here, unkept)."""
        ...

    def since(self, name: str, seen: int, game: int | None = None) -> Heard:
        """What the other servers kept for table ``name`` after line ``seen``."""
        ...


class ChatLog:
    """The chat files of a games directory (one server: its lines are told as they are said)."""

    def __init__(self, directory: Path) -> None:
        self.games = directory

    def path(self, name: str) -> Path:
        return self.games / f"{name}.chat"

    def recent(self, name: str, game: int | None = None) -> Heard:
        """The latest :data:`RECENT` lines kept for table ``name`` (none: no file, or not readable)."""
        lines: deque[bytes] = deque(maxlen=RECENT)
        with contextlib.suppress(OSError):
            fd = os.open(self.path(name), os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
            try:
                data = os.read(fd, MAX_CHAT_BYTES)
            finally:
                os.close(fd)
            lines.extend(line + b"\n" for line in data.split(b"\n") if line.startswith(b"{"))
        return Heard(lines, 0)

    def say(self, name: str, line: bytes, seen: int, game: int | None = None) -> tuple[Heard, bool]:
        return Heard(deque([line]), seen), self.append(name, line)

    def since(self, name: str, seen: int, game: int | None = None) -> Heard:
        return Heard(deque(), seen)  # (nobody else keeps talk here)

    def append(self, name: str, line: bytes) -> bool:
        """Add ``line`` (one ``said``, ``\\n`` ended) to table ``name``'s file; False: the file is full."""
        fd = os.open(self.path(name), os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            if os.fstat(fd).st_size + len(line) > MAX_CHAT_BYTES:
                return False
            os.write(fd, line)
            return True
        finally:
            os.close(fd)


__all__ = ["MAX_CHAT_BYTES", "RECENT", "ChatLog", "Heard", "Talk"]
