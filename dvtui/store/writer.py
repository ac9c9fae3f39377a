"""Appending to a ``.dvr`` file so that no acknowledged decision is ever lost.

Each decision goes to disk together with the derived events it triggers, in one ``write`` followed
by ``fsync``; only then does the caller move on (the next decision is asked for after ``append``
returns). The file is created ``0600`` and its directory fsynced, so the file itself survives a
crash too. A failed write is cut back, so the file stays valid up to the last durable decision.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from ..engine import ColumnResolved, Event, GameCreated, GameEnded, RoundEnded
from .codec import encode_line
from .errors import SaveError
from .reader import LoadedGame

_DERIVED = (ColumnResolved, RoundEnded, GameEnded)


def utc_stamp() -> str:
    """The ``at`` time stamp: UTC, to the millisecond, ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class GameWriter:
    """The one writer of one game file. Use :meth:`create` or :meth:`resume`."""

    def __init__(self, fd: int, path: Path, next_seq: int, *, stamp: bool, derived: bool = True) -> None:
        self._fd = fd
        self.path = path
        self.next_seq = next_seq
        self.stamp = stamp
        self.derived = derived
        """False for a game script: only decisions are written, so it stays a valid script."""

    @classmethod
    def create(cls, path: Path | str, created: GameCreated, *, stamp: bool = True) -> GameWriter:
        """A new file holding ``game_created``; refuses to overwrite an existing file."""
        path = Path(path)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC, 0o600)
        except FileExistsError:
            raise SaveError(f"{path}: already exists; choose another file") from None
        except OSError as e:
            raise SaveError(f"{path}: cannot create: {e.strerror or e}") from None
        writer = cls(fd, path, 0, stamp=stamp)
        try:
            writer.append([created])
            _fsync_dir(path.parent)
        except BaseException:
            writer.close()
            raise
        return writer

    @classmethod
    def resume(cls, loaded: LoadedGame, *, stamp: bool = True) -> GameWriter:
        """Continue ``loaded``'s file: cut a torn tail (the original kept beside it as
        ``FILE.torn-<time>``), append derived events the file lost at its end, then go on."""
        path = Path(loaded.path)
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC)
        except OSError as e:
            raise SaveError(f"{path}: cannot open for writing: {e.strerror or e}") from None
        writer = cls(fd, path, loaded.file_lines, stamp=stamp, derived=not loaded.decisions_only)
        try:
            if loaded.torn is not None:
                keep = path.with_name(f"{path.name}.torn-{utc_stamp().replace(':', '-')}")
                shutil.copy2(path, keep)
                os.ftruncate(fd, loaded.good_bytes)
                os.fsync(fd)
                loaded.torn = None
            if loaded.missing_tail:
                writer.append(loaded.missing_tail)
                loaded.missing_tail = []
        except OSError as e:
            writer.close()
            raise SaveError(f"{path}: cannot repair before resuming: {e.strerror or e}") from None
        return writer

    def append(self, events: Sequence[Event]) -> None:
        """Write ``events`` (a decision and its derived events) in one write, then fsync.

        On failure the file is cut back to where it was, and :class:`SaveError` says why.
        """
        if not self.derived:
            events = [ev for ev in events if not isinstance(ev, _DERIVED)]
            if not events:
                return
        at = utc_stamp() if self.stamp else None
        seq = self.next_seq
        data = b"".join(encode_line(ev, seq + i, at) for i, ev in enumerate(events))
        fd = self._fd
        start = os.lseek(fd, 0, os.SEEK_END)
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        except OSError as e:
            try:
                os.ftruncate(fd, start)
                os.fsync(fd)
            except OSError:
                pass  # the reader recovers a torn tail; nothing durable was lost either way
            raise SaveError(f"{self.path}: could not save: {e.strerror or e}") from None
        self.next_seq = seq + len(events)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> GameWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _fsync_dir(directory: Path) -> None:
    """Make the new file's directory entry durable (a file fsynced in a lost directory is lost)."""
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
