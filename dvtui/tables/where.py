"""Where a table server lives: ``--server DIR``, ``DVTUI_SERVER_DIR``, or the user's personal one.

The personal server sits in the user's runtime directory (platformdirs) and is started in the
background by the first client that needs it, as tmux starts its server; it leaves by itself once
idle. Its directory must be the user's own and closed to others: whoever could write there could
put their own socket in its place and see every move, or read the games.
"""

from __future__ import annotations

import errno
import os
import socket
import stat
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from ..i18n import _
from ..store import SaveError, make_private_dirs, not_own, user_name
from .wire import SOCKET_NAME

ENV = "DVTUI_SERVER_DIR"
PERSONAL_IDLE = 300.0
"""Seconds a personal server stays up with no client and no bot at work (it reopens every
unfinished table from its file when it starts again)."""
START_WAIT = 30.0
"""Seconds a client waits for a personal server it started to listen (a generous bound)."""
MAX_SOCKET_PATH = 107
"""The longest path a Unix socket can be reached by (sun_path, less its terminating NUL)."""


@dataclass(frozen=True, slots=True)
class ServerPlace:
    """A server's directory, and whether a client may start it (the personal one only)."""

    directory: Path
    personal: bool

    @property
    def socket(self) -> Path:
        return self.directory / SOCKET_NAME

    @property
    def games(self) -> Path:
        """Where the server keeps its tables' games: ``NAME.dvr`` each."""
        return self.directory / "games"


def server_place(explicit: str | None = None) -> ServerPlace:
    """``--server DIR``, else ``$DVTUI_SERVER_DIR``, else the personal server's directory."""
    given = explicit or os.environ.get(ENV)
    if given:
        return ServerPlace(Path(given), personal=False)
    return ServerPlace(personal_dir(), personal=True)


INSTEAD = "set XDG_RUNTIME_DIR to a directory of yours (mode 0700), or name a server with --server DIR"
"""What to do when the personal server's directory cannot be one's own."""


def personal_dir() -> Path:
    """``dvtui`` in the user's runtime directory, made private if missing, and checked.

    Without ``XDG_RUNTIME_DIR`` the runtime directory is ``runtime-UID`` in the temporary
    directory, a name any account can create first: platformdirs refuses one that is another's
    or open to others (``PermissionError``), and so does :func:`make_private_dir` for ``dvtui``
    inside; either is said as :class:`SaveError`, with what to do instead."""
    with warnings.catch_warnings():  # no XDG_RUNTIME_DIR: platformdirs falls back to /tmp and warns
        warnings.simplefilter("ignore")
        try:
            d = Path(platformdirs.user_runtime_dir("dvtui", appauthor=False))
        except PermissionError as e:  # "runtime directory D is owned by uid U, not V; set XDG_RUNTIME_DIR instead"
            why = str(e).partition(";")[0]
            raise SaveError(f"no private directory for your personal table server ({why}): {INSTEAD}") from None
    try:
        make_private_dir(d)
    except SaveError as e:
        raise SaveError(f"{e}; {INSTEAD}") from None
    except OSError as e:  # a parent another account made first, closed to this one
        why = e.strerror or str(e)
        raise SaveError(f"{d}: cannot make the personal table server's directory ({why}): {INSTEAD}") from None
    return d


def make_private_dir(d: Path) -> None:
    """Make ``d`` (and missing parents) 0700 whatever the umask, then refuse it unless it is a
    directory of this user that nobody else may write to (:class:`SaveError`)."""
    make_private_dirs(d)
    why = unsafe_dir(d)
    if why is not None:
        raise SaveError(_("{directory}: not a safe directory for a table server: {why}").format(directory=d, why=why))


def unsafe_dir(d: Path) -> str | None:
    """Why ``d`` may not hold a server's socket and games (None: it may): it must be a directory
    (not a symbolic link) owned by this user, writable by nobody else."""
    try:
        st = os.lstat(d)
    except OSError as e:
        return e.strerror or str(e)
    why = not_own(st, directory=True)
    if why is not None:
        return f"it {why}"
    if st.st_mode & 0o022:
        said = _("other users can write to it (mode {mode}): chmod go-w {directory}")
        return said.format(mode=f"{stat.S_IMODE(st.st_mode):o}", directory=d)
    return None


def foreign_owner(place: ServerPlace) -> str | None:
    """The account owning ``place``'s directory when it is neither this user nor root and could
    be anybody's (None otherwise, or when there is no directory): the server answering there is
    whatever that account runs, a process dvtui cannot vouch for. A directory an administrator
    set up for a server account (``install -d -o dvtui ... /srv/dvtui``) is not: nobody but root
    and that account could have put it there, so its owner is the one chosen for it, and saying
    so at every command would only teach people to skip the warning."""
    try:
        owner = os.stat(place.directory).st_uid
    except OSError:
        return None
    if owner in (os.geteuid(), 0) or _set_up_for(Path(os.path.abspath(place.directory)), owner):
        return None
    return user_name(owner)


_OTHERS_WRITE = stat.S_IWGRP | stat.S_IWOTH


def _set_up_for(directory: Path, owner: int) -> bool:
    """Only root and ``owner`` could have made ``directory`` what it is: from ``/`` down, each
    name is in a directory that only they may write to (and is theirs), or is root's in a sticky
    one (``/tmp``: nobody else may replace it); the directory itself is writable by its owner
    alone. A name anybody could have taken first (``/tmp/x`` owned by ``owner``) is not."""
    trusted = (0, owner)
    try:
        for name in [*reversed(directory.parents[:-1]), directory]:
            parent, it = os.stat(name.parent), os.lstat(name)
            if stat.S_ISLNK(it.st_mode):
                return False  # (where a link leads is another path to check: a set-up has none)
            if parent.st_uid in trusted and not parent.st_mode & _OTHERS_WRITE:
                if it.st_uid not in trusted:
                    return False
            elif not (parent.st_mode & stat.S_ISVTX and it.st_uid == 0):
                return False
        return not os.stat(directory).st_mode & _OTHERS_WRITE
    except OSError:
        return False


def check_socket_path(place: ServerPlace) -> str:
    path = str(place.socket)
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        said = _("{path}: too long for a Unix socket ({most} bytes at most); use a shorter DIR")
        raise SaveError(said.format(path=path, most=MAX_SOCKET_PATH))
    return path


def is_listening(place: ServerPlace) -> bool:
    """A server answers at ``place`` (a connection is accepted)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        try:
            s.connect(check_socket_path(place))
        except OSError:
            return False
    return True


def personal_idle() -> float:
    """How long the personal server stays up idle: ``$DVTUI_SERVER_IDLE`` seconds if set, else
    :data:`PERSONAL_IDLE`."""
    try:
        return max(0.1, float(os.environ.get("DVTUI_SERVER_IDLE", "")))
    except ValueError:
        return PERSONAL_IDLE


def ensure_personal_server(place: ServerPlace, idle: float | None = None) -> None:
    """Start the personal server unless one listens. Two clients starting it at once end with one
    server: they take a start lock in turn, and the second finds the first one's server listening
    (a server also refuses to run beside another on the same directory)."""
    if is_listening(place):
        return
    import filelock

    idle = personal_idle() if idle is None else idle
    with filelock.FileLock(place.directory / "start.lock", timeout=START_WAIT, mode=0o600):
        if is_listening(place):
            return
        log = os.open(place.directory / "serve.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
        try:  # -P: this dvtui, never a ``dvtui`` folder of the working directory
            child = subprocess.Popen(
                [sys.executable, "-P", "-m", "dvtui", "serve", "--dir", str(place.directory), "--idle", f"{idle:g}"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, close_fds=True,
            )  # fmt: skip
        finally:
            os.close(log)
        deadline = time.monotonic() + START_WAIT
        while not is_listening(place):
            if child.poll() is not None or time.monotonic() > deadline:
                said = _("{directory}: the table server did not start (see {log})")
                raise SaveError(said.format(directory=place.directory, log=place.directory / "serve.log"))
            time.sleep(0.02)


def connect_error(place: ServerPlace, e: OSError) -> str:
    """Why no server answers at ``place``, in a player's words."""
    if e.errno in (errno.ENOENT, errno.ECONNREFUSED):
        return _("no table server at {directory} (start one with 'dvtui serve --dir {directory}')").format(
            directory=place.directory
        )
    if e.errno in (errno.EACCES, errno.EPERM):
        return _("{socket}: permission denied (ask the server's owner to let you in)").format(socket=place.socket)
    return f"{place.socket}: {e.strerror or e}"
