"""When a game's file was last written, read from the file itself (its last line's time stamp):
the server's kept games and the client's list of fetched games read it the same way; and a time
stamp as the server and game files write it (UTC, ISO 8601) read as a time, the one way every
reader takes it (:func:`stamp_time`)."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec


def last_stamp(data: bytes) -> float | None:
    """The time stamp (``at``) of the last whole line of a game's file (None: it has none)."""
    for line in reversed(data.splitlines()[-2:]):  # a torn last line: the one before
        try:
            at = msgspec.json.decode(line, type=_Stamped).at
        except msgspec.DecodeError:
            continue
        when = None if at is None else stamp_time(at)
        return None if when is None else when.timestamp()
    return None


def stamp_time(stamp: str) -> datetime | None:
    """A time stamp as the files and the server write it (``2026-12-06T22:56:00Z``) as a time in
    UTC; one without a zone is UTC too (every stamp is); None for one that does not read."""
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


class _Stamped(msgspec.Struct):
    at: str | None = None


__all__ = ["last_stamp", "stamp_time"]
