"""When a game's file was last written, read from the file itself (its last line's time stamp):
the server's kept games and the client's list of fetched games read it the same way."""

from __future__ import annotations

from datetime import datetime

import msgspec


def last_stamp(data: bytes) -> float | None:
    """The time stamp (``at``) of the last whole line of a game's file (None: it has none)."""
    for line in reversed(data.splitlines()[-2:]):  # a torn last line: the one before
        try:
            at = msgspec.json.decode(line, type=_Stamped).at
        except msgspec.DecodeError:
            continue
        if at is None:
            return None
        try:
            return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return None
    return None


class _Stamped(msgspec.Struct):
    at: str | None = None


__all__ = ["last_stamp"]
