"""Errors of the store, worded for the one-line ``dvtui: error: FILE line N: ...`` message.

A message may quote a hostile file (a player's name, a card, a number); it is printed to a terminal
as one line. So every message is cleaned here, once: control characters (newlines, escape
sequences that would drive the terminal) are shown escaped, and a message is cut to a readable
length, so a 60 KiB string in a file gives a 300-character error, not a screenful.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..i18n import _
from ..printable import printable

MAX_MESSAGE_CHARS = 300
"""How much of a message is kept; quoted values beyond it are elided with ``…``."""


def clean(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``text`` as one printable line (:func:`~dvtui.printable.printable`), then cut."""
    text = printable(text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text


class GameFileError(Exception):
    """A file that is not a consistent game; ``line`` is 1-based (None: the file as a whole)."""

    def __init__(self, path: Path | str | None, line: int | None, message: str) -> None:
        self.path = None if path is None else str(path)
        self.line = line
        self.message = clean(message)
        where = clean(self.path or "<input>", 200)
        if line is None:
            super().__init__(_("{file}: {message}").format(file=where, message=self.message))
        else:
            super().__init__(_("{file} line {line}: {message}").format(file=where, line=line, message=self.message))


class SaveError(Exception):
    """A save that could not be made durable (disk full, read-only file system, ...), or a game
    file that cannot be opened for play. The message is one clean line."""

    def __init__(self, message: str) -> None:
        super().__init__(clean(message, 600))


@dataclass(frozen=True, slots=True)
class LockHolder:
    """Who holds a game's lock, as that process recorded it: enough to find it (host, pid) and to
    judge whether it is a forgotten session (since when)."""

    host: str
    pid: int
    since: str  # UTC, ISO 8601
    user: str = ""

    def describe(self) -> str:
        who = f"pid {self.pid} on {self.host}"
        if self.user:
            who += f" (user {self.user})"
        return f"{who} since {self.since}"


class GameLocked(SaveError):
    """Another process is playing this game (it holds the game's lock). ``holder`` says who, when
    it could be read and believed, else ``unknown`` says why not; the game can still be read
    (replay, verify), just not played here."""

    def __init__(self, path: Path | str, holder: LockHolder | None, unknown: str = "") -> None:
        self.path = str(path)
        self.holder = holder
        """Who holds it, from the holder's own record: None when there is none to believe."""
        if holder is not None:
            who = holder.describe()
        else:
            who = f"another process, {unknown}" if unknown else "another process (it has not said who yet)"
        super().__init__(
            f"{self.path}: this game is being played by {who}; one player process per game — "
            f"close the other one first ('dvtui replay {self.path}' shows the moves saved so far)"
        )


class SaveFailed(SaveError):
    """A write or fsync failed during play: the game must stop. The file holds every event up to
    the last durable one (the failed write was cut back); ``errno`` is the OS error number."""

    def __init__(self, message: str, errno: int | None = None, reason: str = "") -> None:
        self.errno = errno
        self.reason = reason or message
        """The cause alone ("the disk is full"), for a status line."""
        super().__init__(message)
