"""Appending to a ``.dvr`` file so that no acknowledged decision is ever lost.

Each decision goes to disk together with the derived events it triggers, in one ``write`` followed
by ``fsync``; only then does the caller move on (the next decision is asked for after ``append``
returns). The file is created ``0600`` and its directory fsynced, so the file itself survives a
crash too. A failed write or fsync is cut back, so the file stays valid up to the last durable
decision, and the writer refuses everything after it: the game stops with a clear message.

A writer holds the game's lock (:mod:`.lock`, on the game file itself) from
:meth:`GameWriter.create` or :meth:`GameWriter.resume` until :meth:`GameWriter.close`, so two
processes never append to one game file, whatever names they opened it by; a second one gets
:class:`~.errors.GameLocked`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from ..engine import DERIVED_TYPES, Event, GameCreated
from .codec import encode_line
from .errors import SaveError, SaveFailed
from .lock import GameLock
from .reader import LoadedGame

_DERIVED = DERIVED_TYPES

# The system calls of a save, looked up at call time so tests can make them fail (disk full,
# read-only file system, a failed fsync) without touching the os module for everyone else.
_write = os.write
_fsync = os.fsync
_ftruncate = os.ftruncate

_WHY = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EROFS: "the file system is read-only",
    errno.EIO: "the disk reported an I/O error",
    errno.EFBIG: "the file is too large for this file system",
}


def utc_stamp() -> str:
    """The ``at`` time stamp: UTC, to the millisecond, ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _why(e: OSError) -> str:
    return _WHY.get(e.errno or 0) or (e.strerror or str(e))


def _why_not_here(e: OSError, directory: Path) -> str:
    """Why no file can be created in ``directory``, in a player's words."""
    if e.errno in (errno.EACCES, errno.EPERM, errno.ENOENT):  # ENOENT: an existing directory that refuses
        return f"the directory {directory} is not writable"
    return _why(e)


class GameWriter:
    """The one writer of one game file. Use :meth:`create` or :meth:`resume`."""

    def __init__(
        self,
        fd: int,
        path: Path,
        next_seq: int,
        *,
        stamp: bool,
        derived: bool = True,
        lock: GameLock | None = None,
    ) -> None:
        self._fd = fd
        self.path = path
        self.next_seq = next_seq
        self.stamp = stamp
        self.derived = derived
        """False for a game script: only decisions are written, so it stays a valid script."""
        self.lock = lock
        """The game's lock, held until :meth:`close` (None only for a writer built by hand)."""
        self.failed: SaveFailed | None = None
        """Set when a save failed: the game has stopped, every later append raises it again."""
        self.notices: list[str] = []
        """What opening the file did that a player should hear of (a torn tail cut and kept, a
        lock taken over from a process that died)."""

    @classmethod
    def create(cls, path: Path | str, created: GameCreated, *, stamp: bool = True) -> GameWriter:
        """A new file holding ``game_created``, locked for play; refuses to overwrite anything.

        If the first line cannot be made durable, the new file is removed again: a failed start
        leaves nothing behind that would look like a game.
        """
        path = Path(path)
        if not path.parent.is_dir():
            raise SaveError(f"{path}: cannot create: no such directory {path.parent}")
        # The file first, then its lock: creating it is what says why a directory cannot hold a
        # game (not writable, read-only), where a lock that cannot be made reads as one held.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC, 0o600)
        except FileExistsError:
            what = "is a directory" if path.is_dir() else "already exists"
            raise SaveError(f"{path}: {what}; choose another file") from None
        except OSError as e:
            raise SaveError(f"{path}: cannot create: {_why_not_here(e, path.parent)}") from None
        try:
            lock = _lock_opened(path, fd)
        except BaseException:
            _remove_if_same(path, fd)
            os.close(fd)
            raise
        writer = cls(fd, path, 0, stamp=stamp, lock=lock)
        _note_takeover(writer, lock)
        try:
            writer.append([created])
            fsync_dir(path.parent, strict=True)
        except BaseException as e:
            with contextlib.suppress(OSError):
                os.unlink(path)
            writer.close()
            if isinstance(e, SaveFailed):
                raise SaveFailed(f"{path}: cannot save a new game: {e.reason}; nothing was kept", e.errno) from None
            if isinstance(e, OSError):
                raise SaveFailed(f"{path}: cannot save a new game: {_why(e)}; nothing was kept", e.errno) from None
            raise
        return writer

    @classmethod
    def resume(cls, loaded: LoadedGame, *, stamp: bool = True) -> GameWriter:
        """Continue ``loaded``'s file, locked for play: cut a torn tail (the original kept beside
        it as ``FILE.torn-<time>``), append derived events the file lost at its end, then go on.

        Raises :class:`~.errors.GameLocked` when another process plays the game, and
        :class:`SaveError` when the file changed since it was read (read it again) or cannot be
        written.
        """
        path = Path(loaded.path)
        try:
            fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CLOEXEC | os.O_NONBLOCK)
        except OSError as e:
            raise SaveError(f"{path}: cannot open for writing: {_why(e)}") from None
        try:
            lock = _lock_opened(path, fd)
        except BaseException:
            os.close(fd)
            raise
        script, owed = _script_or_owed(loaded)
        writer = cls(fd, path, loaded.file_lines, stamp=stamp, derived=not script, lock=lock)
        _note_takeover(writer, lock)
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise SaveError(f"{path}: is not a regular file")
            if loaded.file_bytes is not None and st.st_size != loaded.file_bytes:
                raise SaveError(
                    f"{path}: changed since it was read ({loaded.file_bytes} bytes then, {st.st_size} now); "
                    "open it again"
                )
            if loaded.torn is not None:
                keep = _keep_copy(fd, path, st.st_size)
                _ftruncate(fd, loaded.good_bytes)
                _fsync(fd)
                writer.notices.append(
                    f"{path}: cut the torn last line ({loaded.torn.size} bytes); the file as it was is kept as {keep}"
                )
                loaded.torn = None
                loaded.file_bytes = loaded.good_bytes
            if owed:
                writer.append(owed)
                writer.notices.append(f"{path}: wrote the {len(owed)} derived events the file lost at its end")
                loaded.missing_tail = []
        except OSError as e:
            writer.close()
            raise SaveError(f"{path}: cannot repair before resuming: {_why(e)}") from None
        except BaseException:
            writer.close()
            raise
        return writer

    def append(self, events: Sequence[Event]) -> list[bytes]:
        """Write ``events`` (a decision and its derived events) in one write, then fsync; return
        the lines written, as they are in the file (none for derived events a script leaves out).

        On failure the file is cut back to where it was, the writer is marked failed, and
        :class:`~.errors.SaveFailed` says why; every later call raises it again.
        """
        if self.failed is not None:
            raise self.failed
        if self._fd < 0:
            raise SaveError(f"{self.path}: the game file is closed")
        if not self.derived:
            events = [ev for ev in events if not isinstance(ev, _DERIVED)]
            if not events:
                return []
        at = utc_stamp() if self.stamp else None
        seq = self.next_seq
        lines = [encode_line(ev, seq + i, at) for i, ev in enumerate(events)]
        data = b"".join(lines)
        fd = self._fd
        start = os.lseek(fd, 0, os.SEEK_END)
        try:
            view = memoryview(data)
            while view:
                written = _write(fd, view)
                view = view[written:]
            _fsync(fd)
        except OSError as e:
            cut = True
            try:
                _ftruncate(fd, start)
                _fsync(fd)
            except OSError:
                cut = False  # the reader recovers a torn tail; nothing durable was lost either way
            after = (
                "the file keeps every move up to the last one saved"
                if cut
                else "the file keeps every move up to the last one saved (resuming repairs its end)"
            )
            self.failed = SaveFailed(
                f"{self.path}: could not save the last move: {_why(e)}. The game has stopped; {after}. "
                f"Make room, then continue with 'dvtui resume {self.path}'",
                e.errno,
                _why(e),
            )
            raise self.failed from None
        self.next_seq = seq + len(events)
        return lines

    def close(self) -> None:
        """Close the file and release the game's lock (every event is already durable)."""
        if self._fd >= 0:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = -1
        if self.lock is not None:
            self.lock.release()

    @property
    def closed(self) -> bool:
        return self._fd < 0

    def __enter__(self) -> GameWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _script_or_owed(loaded: LoadedGame) -> tuple[bool, list[Event]]:
    """Is the file a game script (keep writing decisions only), and which derived events does it
    owe at its end (:attr:`LoadedGame.is_script` says why a file without any may still owe some)?"""
    if not loaded.decisions_only:
        return False, list(loaded.missing_tail)
    if loaded.is_script:
        return True, []
    events = loaded.events
    last = max(i for i, ev in enumerate(events) if not isinstance(ev, _DERIVED))
    return False, list(events[last + 1 :])


def _lock_opened(path: Path, fd: int) -> GameLock:
    """Lock game ``path`` whose file is open as ``fd``: the lock is taken by name, so it must turn
    out to be on this very file (the name was not pointed at another file in between)."""
    lock = GameLock.acquire(path)
    st = os.fstat(fd)
    if lock.game_id != (st.st_dev, st.st_ino):
        lock.release()
        raise SaveError(f"{path}: was replaced by another file while being opened; open it again")
    return lock


def _remove_if_same(path: Path, fd: int) -> None:
    """Remove the file ``path`` names if it is still the one open as ``fd`` (a failed start)."""
    with contextlib.suppress(OSError):
        st, mine = os.stat(path, follow_symlinks=False), os.fstat(fd)
        if (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino):
            os.unlink(path)


def _note_takeover(writer: GameWriter, lock: GameLock) -> None:
    if lock.took_over is not None:
        writer.notices.append(
            f"{writer.path}: took over the lock left by {lock.took_over.describe()}, which ended without closing"
        )


def _keep_copy(fd: int, path: Path, size: int) -> Path:
    """Copy the file as it is (torn tail included) to ``FILE.torn-<time>``, durably, before the
    original is cut: the cut bytes stay available to whoever wants to look at them."""
    data = os.pread(fd, size, 0)
    base = f"{path.name}.torn-{utc_stamp().replace(':', '-')}"
    n = 1
    while True:
        keep = path.with_name(base if n == 1 else f"{base}-{n}")
        try:
            out = os.open(keep, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
            break
        except FileExistsError:
            n += 1
    try:
        write_whole(out, data)
    finally:
        os.close(out)
    fsync_dir(path.parent)
    return keep


def write_whole(fd: int, data: bytes) -> None:
    """All of ``data`` to ``fd`` (a write may take less than it is given), then fsync: durable
    before anything that counts on it follows."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)


def fsync_dir(directory: Path, *, strict: bool = False) -> None:
    """Make a new file's directory entry durable (a file fsynced in a lost directory is lost).

    ``strict``: a failed fsync is raised, except where the file system cannot fsync a directory
    at all (EINVAL), which says nothing about the file's safety.
    """
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        _fsync(fd)
    except OSError as e:
        if strict and e.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)
