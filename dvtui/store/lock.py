"""One writer per game: an exclusive lock on ``FILE.lock`` beside the game file.

The lock itself is the kernel's ``flock`` (through the ``filelock`` library, which handles the
races of lock files: never truncating a holder's file, retrying when the file was unlinked between
open and lock). It belongs to an open file, so it dies with its process: a game left by a killed
process (kill -9, a dropped SSH session, a power cut) is free again at once, with no timeout and no
guessing from pids.

Inside the lock file the holder writes who it is (host, pid, user, since when), as one JSON
object, so a refused second player is told who holds it. That record is information only: it
never decides anything. When a new holder finds an old record in a file it could lock, the old
holder died without closing; the record then becomes a notice ("took over from ...").
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import socket
import time
from datetime import UTC, datetime
from pathlib import Path

from .errors import GameLocked, LockHolder, SaveError

MAX_RECORD_BYTES = 4096
"""A holder record is ~100 bytes; what is read of a lock file is bounded all the same."""


def lock_path(path: Path | str) -> Path:
    """The lock file of a game file: ``FILE.lock`` beside it."""
    p = Path(path)
    return p.with_name(p.name + ".lock")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry, no env: the uid will do
        return str(os.getuid())


def this_process() -> LockHolder:
    return LockHolder(host=socket.gethostname(), pid=os.getpid(), since=_now(), user=_user())


def parse_record(data: bytes) -> LockHolder | None:
    """A holder record, or None for an empty or unreadable one (a lock file is never trusted)."""
    if not data.strip() or len(data) > MAX_RECORD_BYTES:
        return None
    try:
        obj = json.loads(data)
        host, pid, since = obj["host"], obj["pid"], obj["since"]
        user = obj.get("user", "")
    except (ValueError, TypeError, KeyError, RecursionError):
        return None
    if not (isinstance(host, str) and isinstance(since, str) and isinstance(user, str)):
        return None
    if not isinstance(pid, int) or isinstance(pid, bool) or not 0 < pid < 2**31:
        return None
    return LockHolder(host=host[:100], pid=pid, since=since[:40], user=user[:64])


def read_holder(path: Path | str) -> LockHolder | None:
    """What the lock file of game ``path`` says about its holder (None if nothing readable).

    Only information: a record may be left over from a holder that died. Whether the game is in use
    is known only by trying to lock it.
    """
    lp = lock_path(path)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(lp, flags)
    except OSError:
        return None
    try:
        return parse_record(os.pread(fd, MAX_RECORD_BYTES + 1, 0))
    except OSError:
        return None
    finally:
        os.close(fd)


class GameLock:
    """The exclusive lock of one game file, held from :meth:`acquire` to :meth:`release`."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.lock_file = lock_path(path)
        self.holder = this_process()
        self.took_over: LockHolder | None = None
        """The record a dead holder left behind, when this lock was taken over from it."""
        self._fd = -1
        self._inode: tuple[int, int] | None = None
        import filelock  # here, not at the top: verify and sim never lock, and it costs them 10 ms

        self._lock = filelock.UnixFileLock(
            str(self.lock_file),
            mode=0o600,
            thread_local=False,  # the app may append from a worker thread and close from another
            blocking=False,
            fallback_to_soft=False,  # no flock here: refuse rather than pretend to lock
            on_acquired=self._on_acquired,
        )

    @classmethod
    def acquire(cls, path: Path | str) -> GameLock:
        """Lock game ``path`` for play, or raise :class:`GameLocked` naming who holds it
        (:class:`SaveError` when the lock file cannot be made at all)."""
        import filelock

        lock = cls(path)
        if not lock.lock_file.parent.is_dir():  # filelock would create missing directories
            raise SaveError(f"{path}: no such directory: {lock.lock_file.parent}")
        try:
            lock._lock.acquire(blocking=False)
        except filelock.Timeout:
            raise GameLocked(path, lock._holder_of_busy_lock()) from None
        except OSError as e:
            why = e.strerror or str(e)
            raise SaveError(f"{path}: cannot lock the game for play ({lock.lock_file.name}: {why})") from None
        return lock

    def _on_acquired(self, fd: int) -> None:
        """Runs with the flock held: note a dead holder's record, then write ours in its place."""
        self._fd = fd
        st = os.fstat(fd)
        self._inode = (st.st_dev, st.st_ino)
        old = parse_record(os.pread(fd, MAX_RECORD_BYTES + 1, 0))
        if old is not None and (old.host, old.pid) != (self.holder.host, self.holder.pid):
            self.took_over = old
        record = json.dumps(
            {"host": self.holder.host, "pid": self.holder.pid, "user": self.holder.user, "since": self.holder.since}
        ).encode()
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, record + b"\n", 0)
        except OSError:
            pass  # a full disk: the lock holds all the same, a refused player is just not told who

    def _holder_of_busy_lock(self) -> LockHolder | None:
        """The record of the process that holds the lock. A holder writes it just after locking, so
        an empty file is read again a few times before giving up on naming it."""
        for _ in range(20):
            holder = read_holder(self.path)
            if holder is not None:
                return holder
            time.sleep(0.01)
        return None

    @property
    def held(self) -> bool:
        return self._lock.is_locked

    def release(self) -> None:
        """Unlock, leaving no lock file behind.

        The file is removed while still locked (so no one can lock it in between and then lose it);
        a process that opened it before and locks it after sees it unlinked and starts over
        (filelock checks ``st_nlink``), so mutual exclusion holds.
        """
        if not self._lock.is_locked:
            return
        try:
            with contextlib.suppress(OSError):
                st = os.stat(self.lock_file, follow_symlinks=False)
                if (st.st_dev, st.st_ino) == self._inode:
                    os.unlink(self.lock_file)
        finally:
            self._fd = -1
            with contextlib.suppress(OSError):
                self._lock.release(force=True)

    def __enter__(self) -> GameLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
