"""One writer per game: an exclusive ``flock`` on the game file itself, and a note of who holds it
in ``FILE.lock`` beside it.

The lock is on the game file, not on a lock file named after it, because a lock is only as good as
the key that two writers agree on. A lock file named after the game locks a *name*: a symbolic link,
a hard link, a ``x/../game.dvr`` spelling or a rename during play reaches the same file under
another name, hence another lock file, and two writers append to one file. The flock belongs to the
file (its inode), which every name shares. It also belongs to an open file description, so it dies
with its process: a game left by a killed process (kill -9, a dropped SSH session, a power cut) is
free again at once, with no timeout and no guessing from pids. (``filelock.lock_descriptor`` takes
it on a descriptor dvtui opened; filelock's ``FileLock`` opens a lock file by name, the weakness
above.)

Who holds the game (host, pid, user, since when, and the game file's inode number) is written to
``FILE.lock`` beside the file the name leads to (symbolic links and ``..`` resolved), so a refused
second player is told who holds it. That record is information only: it never decides anything.
A refused player that finds no record there (its name is a hard link, or the file was renamed) looks
for a record naming the same inode among the lock files of that directory. When a new holder finds
an old record, the old holder died without closing; the record then becomes a notice ("took over
from ...").

A lock file may sit in a directory other users write to (a shared host), so it is outside text:
dvtui never writes into an existing one. It believes and replaces only a regular file with one name
owned by the user: it reads it, removes it, and creates its own (``O_EXCL``, 0600). Anything else
there (a symbolic link or hard link to some other file, a directory, a file another user made to
read the holder's details or to spoof a holder) makes dvtui refuse to play, saying what is there,
and is left as it is; a refused player is never shown what such a file says.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import pwd
import socket
import stat
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from ..i18n import _
from .errors import GameLocked, LockHolder, SaveError

MAX_RECORD_BYTES = 4096
"""A holder record is ~120 bytes; what is read of a lock file is bounded all the same."""

MAX_SCANNED = 1000
"""How many directory entries a refused player looks through for the record of a hard-linked or
renamed game (a saves directory holds far fewer; a huge shared directory is not read whole)."""

_READ = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW


def lock_path(path: Path | str) -> Path:
    """The holder record of a game file: ``FILE.lock`` beside the file that ``path`` leads to."""
    real = Path(os.path.realpath(path))
    return real.with_name(real.name + ".lock")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no passwd entry, no env: the uid will do
        return str(os.getuid())


def user_name(uid: int) -> str:
    """The account name of ``uid`` (as the system knows it), or ``uid N``."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def this_process() -> LockHolder:
    return LockHolder(host=socket.gethostname(), pid=os.getpid(), since=_now(), user=_user())


def _parse(data: bytes) -> tuple[LockHolder, int | None] | None:
    """A holder record and the inode number of the game it is about (None if it does not say)."""
    if not data.strip() or len(data) > MAX_RECORD_BYTES:
        return None
    try:
        obj = json.loads(data)
        host, pid, since = obj["host"], obj["pid"], obj["since"]
        user = obj.get("user", "")
        ino = obj.get("ino")
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
        return None
    if not (isinstance(host, str) and isinstance(since, str) and isinstance(user, str)):
        return None
    if not isinstance(pid, int) or isinstance(pid, bool) or not 0 < pid < 2**31:
        return None
    if not isinstance(ino, int) or isinstance(ino, bool):
        ino = None
    return LockHolder(host=host[:100], pid=pid, since=since[:40], user=user[:64]), ino


def parse_record(data: bytes) -> LockHolder | None:
    """A holder record, or None for an empty or unreadable one (a lock file is never trusted)."""
    parsed = _parse(data)
    return parsed[0] if parsed is not None else None


def not_own(st: os.stat_result, *, directory: bool) -> str | None:
    """Why what ``st`` describes (an ``lstat``: a link is not followed) is not this user's own
    directory (``directory``) or regular file, or None when it is; said without a subject
    ("is a symbolic link"), for the caller to put its name before."""
    if stat.S_ISLNK(st.st_mode):
        return _("is a symbolic link")
    if directory and not stat.S_ISDIR(st.st_mode):
        return _("is not a directory")
    if not directory and stat.S_ISDIR(st.st_mode):
        return _("is a directory")
    if not directory and not stat.S_ISREG(st.st_mode):
        return _("is not a regular file")
    if st.st_uid != os.geteuid():
        return _("belongs to user {user}, not to you").format(user=user_name(st.st_uid))
    return None


def untrusted(st: os.stat_result) -> str | None:
    """Why a lock file is not one dvtui may believe or replace, or None when it may: a regular
    file with one name, owned by the user running dvtui."""
    why = not_own(st, directory=False)
    if why is not None:
        return why
    if st.st_nlink != 1:
        return _("has {n} names (hard links), so it may be some other file").format(n=st.st_nlink)
    return None


@dataclass(frozen=True, slots=True)
class _Record:
    """What one lock file holds: its holder and game inode if it may be believed, else why not."""

    holder: LockHolder | None
    ino: int | None
    distrust: str | None = None


def _read_record(lp: Path) -> _Record | None:
    """The record at ``lp`` (None: no file there). Opened without following a symbolic link and
    without blocking (a FIFO), checked before a byte of it is read."""
    try:
        fd = os.open(lp, _READ)
    except FileNotFoundError:
        return None
    except OSError as e:  # a symbolic link (ELOOP), a file we may not read (EACCES), ...
        try:
            st = os.lstat(lp)
        except FileNotFoundError:
            return None
        except OSError:
            return _Record(None, None, f"cannot be read ({e.strerror})")
        return _Record(None, None, untrusted(st) or f"cannot be read ({e.strerror})")
    try:
        why = untrusted(os.fstat(fd))
        if why is not None:
            return _Record(None, None, why)
        parsed = _parse(os.pread(fd, MAX_RECORD_BYTES + 1, 0))
    except OSError as e:
        return _Record(None, None, f"cannot be read ({e.strerror})")
    finally:
        os.close(fd)
    return _Record(*parsed) if parsed is not None else _Record(None, None)


def read_holder(path: Path | str) -> LockHolder | None:
    """What the lock file of game ``path`` says about its holder (None if nothing readable, or if
    the lock file is not the user's own: another user's file is never taken as fact).

    Only information: a record may be left over from a holder that died. Whether the game is in use
    is known only by trying to lock it.
    """
    record = _read_record(lock_path(path))
    return record.holder if record is not None else None


def _record_by_inode(directory: Path, ino: int) -> LockHolder | None:
    """A believable record among ``directory``'s lock files that names the game inode ``ino``."""
    with contextlib.suppress(OSError), os.scandir(directory) as entries:
        for n, entry in enumerate(entries):
            if n >= MAX_SCANNED:
                break
            if entry.name.endswith(".lock"):
                record = _read_record(Path(entry.path))
                if record is not None and record.holder is not None and record.ino == ino:
                    return record.holder
    return None


def _holder_of_busy_lock(path: Path, st: os.stat_result) -> tuple[LockHolder | None, str]:
    """Who holds game ``path`` (its file's ``st``), or None and why that is not known.

    A holder writes its record just after locking, so a missing one is looked for again a few
    times before giving up on naming it.
    """
    lp = lock_path(path)
    why = ""
    for _attempt in range(20):
        record = _read_record(lp)
        if record is not None and record.distrust is not None:
            return None, f"whose record is not believed: {lp.name} beside it {record.distrust}"
        if record is not None and record.holder is not None and record.ino in (None, st.st_ino):
            return record.holder, ""
        holder = _record_by_inode(lp.parent, st.st_ino)
        if holder is not None:
            return holder, ""
        time.sleep(0.01)
    if st.st_nlink > 1:
        why = f"under another of the file's {st.st_nlink} names (hard links)"
    return None, why


class GameLock:
    """The exclusive lock of one game file, held from :meth:`acquire` to :meth:`release`."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.lock_file = lock_path(path)
        self.holder = this_process()
        self.took_over: LockHolder | None = None
        """The record a dead holder left behind, when this lock was taken over from it."""
        self.game_id: tuple[int, int] | None = None
        """(device, inode) of the locked game file: a writer checks that the file it opens is it."""
        self._fd = -1
        self._record_id: tuple[int, int] | None = None

    @classmethod
    def acquire(cls, path: Path | str) -> GameLock:
        """Lock game ``path`` for play, or raise :class:`GameLocked` naming who holds it
        (:class:`SaveError` when it cannot be locked at all, or its lock file is not one dvtui
        may believe and replace)."""
        import filelock  # here, not at the top: verify and sim never lock, and need not load it

        lock = cls(path)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as e:
            raise SaveError(f"{path}: cannot open the game for play: {e.strerror or e}") from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise SaveError(f"{path}: is not a regular file")
            if not filelock.lock_descriptor(fd, blocking=False):
                holder, why = _holder_of_busy_lock(Path(path), st)
                raise GameLocked(path, holder, why)
        except OSError as e:  # no flock on this file system (ENOSYS): refuse rather than pretend
            os.close(fd)
            raise SaveError(f"{path}: cannot lock the game for play ({e.strerror or e})") from None
        except BaseException:
            os.close(fd)
            raise
        lock._fd = fd
        lock.game_id = (st.st_dev, st.st_ino)
        try:
            lock._write_record(st.st_ino)
        except BaseException:
            lock.release()
            raise
        return lock

    def _write_record(self, ino: int) -> None:
        """With the game locked: note a dead holder's record, then put ours in its place, in a new
        file (a failed write, a full disk, leaves the lock held and a refused player not told who)."""
        lp = self.lock_file
        old = _read_record(lp)
        if old is not None and old.distrust is not None:
            raise SaveError(
                f"{self.path}: will not play: {lp} {old.distrust}; dvtui neither believes nor replaces "
                "a lock file it may not have written: remove it, or play the game from a directory "
                "only you can write to"
            )
        try:
            if old is not None:
                mine = (self.holder.host, self.holder.pid)
                if old.holder is not None and old.ino in (None, ino) and (old.holder.host, old.holder.pid) != mine:
                    self.took_over = old.holder
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(lp)
            fd = os.open(lp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except FileExistsError:
            raise SaveError(f"{self.path}: cannot lock the game for play: {lp} was made again meanwhile") from None
        except OSError as e:
            raise SaveError(f"{self.path}: cannot lock the game for play ({lp.name}: {e.strerror or e})") from None
        h = self.holder
        record = json.dumps({"host": h.host, "pid": h.pid, "user": h.user, "since": h.since, "ino": ino}).encode()
        try:
            st = os.fstat(fd)
            self._record_id = (st.st_dev, st.st_ino)
            with contextlib.suppress(OSError):  # a full disk: the lock holds all the same
                os.write(fd, record + b"\n")
        finally:
            os.close(fd)

    @property
    def held(self) -> bool:
        return self._fd >= 0

    def release(self) -> None:
        """Unlock, leaving no lock file behind: the record goes first (while still locked, so no
        new holder can have written one in its place), then the game file is closed, which drops
        the flock."""
        if self._fd < 0:
            return
        try:
            with contextlib.suppress(OSError):
                st = os.stat(self.lock_file, follow_symlinks=False)
                if (st.st_dev, st.st_ino) == self._record_id:
                    os.unlink(self.lock_file)
        finally:
            fd, self._fd = self._fd, -1
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> GameLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
