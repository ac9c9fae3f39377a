"""A real SSH server for the tests: OpenSSH's sshd on 127.0.0.1 with throw-away keys, logins by key
only, each login's ``authorized_keys`` a file of the test's, and ssh clients run in a private tmux
server (``ssh -tt``: each session a terminal, as a person's). Logins may be other Unix accounts
(:func:`unix_account`): the session then runs dvtui as that user.

The accounts run this checkout with this interpreter (``bin/dvtui`` on their ``PATH``). When the
interpreter or the checkout lies under a directory other users cannot enter (``/root``, mode 0700,
where pyenv puts it for root), sshd runs in a mount namespace of its own in which that directory is
an empty one they may enter, with only those paths bound back into it: the host's directories are
never opened to anyone, and the namespace goes with sshd.

Needs ``sshd``, ``ssh``, ``ssh-keygen``, ``tmux``, ``unshare`` and root (CI runs as root).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shlex
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import filelock

from .processes import REPO

SSHD = "/usr/sbin/sshd"
WAIT = 60.0
"""Seconds before a wait is a failure (never reached when things work)."""
ENDED = "[ssh ended]"
"""What the shell around each ssh writes on its terminal once ssh ended."""


def wait(what: str, check: Callable[[], bool], explain: Callable[[], str] = lambda: "") -> float:
    """Wait for ``check``; the seconds it took."""
    start = time.perf_counter()
    while not check():
        if time.perf_counter() - start > WAIT:
            raise AssertionError(f"timed out waiting for {what}\n{explain()}")
        time.sleep(0.05)
    return time.perf_counter() - start


OTHER = "dvtuitest"
"""The second account of the tests of another user on this host (``other_user``, tests/conftest.py)."""


def unix_account(name: str, shell: str = "/usr/sbin/nologin") -> pwd.struct_passwd:
    """The account ``name`` on this host with this ``shell``, made if missing (and kept: ``useradd``
    is not undone between runs). One that logs in over SSH needs a ``shell``; its password is ``*``
    (none can match) rather than locked, since sshd refuses a locked account even a key. An account
    of that name made otherwise (another shell, a locked password) is changed to this."""
    with contextlib.suppress(KeyError):
        found = pwd.getpwnam(name)
        if found.pw_shell == shell and not _locked(name):
            return found
    if os.geteuid() != 0:
        raise AssertionError("these tests need root (as in CI): they make other users and files they own")
    options = ["--shell", shell, "--password", "*", name]
    # one at a time across the suite's workers: two useradd at once fail on /etc/passwd's lock
    with filelock.FileLock(Path(tempfile.gettempdir()) / "dvtui-tests-accounts.lock"):
        try:
            pwd.getpwnam(name)
            command = ["usermod", *options]
        except KeyError:
            command = ["useradd", "--system", "--create-home", *options]
        made = subprocess.run(command, capture_output=True, text=True, check=False)
    try:
        found = pwd.getpwnam(name)  # made here, or by a run in parallel
    except KeyError:
        raise AssertionError(f"cannot make user {name}: {made.stderr.strip()}") from None
    if found.pw_shell != shell or _locked(name):
        raise AssertionError(f"cannot make user {name} one that logs in with {shell}: {made.stderr.strip()}")
    return found


def _locked(name: str) -> bool:
    """Whether ``name``'s password is locked (``!`` before it in ``/etc/shadow``, which only root
    reads: for anyone else, not known to be)."""
    with contextlib.suppress(OSError):
        for line in Path("/etc/shadow").read_text().splitlines():
            login, _, rest = line.partition(":")
            if login == name:
                return rest.startswith("!")
    return False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _closed_to_others(path: Path) -> Path | None:
    """The highest directory on the way to ``path`` that other users may not enter, if any."""
    for d in [*reversed(path.parents), path]:
        if d.is_dir() and not os.stat(d).st_mode & stat.S_IXOTH:
            return d
    return None


def _reachable_view(paths: list[Path], where: Path) -> str:
    """Shell commands, run in sshd's own mount namespace, after which every one of ``paths`` can be
    reached by other users: each directory closed to them on the way becomes an empty tmpfs they
    may enter, with the paths it held bound back in (the files keep their own modes)."""
    closed: dict[Path, list[Path]] = {}
    for p in paths:
        d = _closed_to_others(p)
        if d is not None and d != p:
            closed.setdefault(d, []).append(p)
    lines = []
    for i, (d, inside) in enumerate(sorted(closed.items())):
        hidden = shlex.quote(str(where / f"view-{i}"))  # where d stays reachable to root, in the namespace
        lines += [f"mkdir -p {hidden}", f"mount --bind {shlex.quote(str(d))} {hidden}",
                  f"mount -t tmpfs -o mode=0755 tmpfs {shlex.quote(str(d))}"]  # fmt: skip
        for p in sorted(inside):
            if any(q != p and q in p.parents for q in inside):
                continue  # bound with a directory above it
            rel = shlex.quote(str(p.relative_to(d)))
            target = shlex.quote(str(p))
            lines += [f"mkdir -p {target}", f"mount --bind {hidden}/{rel} {target}"]
    return "\n".join(lines)


def _python_paths() -> list[Path]:
    """What running this interpreter on this checkout reads."""
    paths = {Path(sys.base_prefix), Path(sys.prefix), Path(os.path.realpath(sys.executable)).parent, REPO}
    paths |= {Path(p) for p in sys.path if p and Path(p).is_dir()}
    return sorted({Path(os.path.realpath(p)) for p in paths})


class Sshd:
    """sshd on a free port of 127.0.0.1, and a private tmux server to run ssh clients in.

    ``where`` must be a directory every login may read (its ``authorized_keys/LOGIN`` files are
    read as the login's user); ``env`` is set in every session (sshd's ``SetEnv``)."""

    def __init__(self, where: Path, env: dict[str, str] | None = None) -> None:
        self.where = where
        self.port = _free_port()
        self.host_key = where / "host_key"
        self.authorized = where / "authorized_keys"
        self.authorized.mkdir(mode=0o755)
        self.tmux_socket = where / "tmux.sock"
        self.bin = where / "bin"
        self.bin.mkdir(mode=0o755)
        self._key(self.host_key)
        dvtui = self.bin / "dvtui"  # `dvtui` as an installed one is run: this checkout, this interpreter
        dvtui.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m dvtui "$@"\n')
        dvtui.chmod(0o755)
        setenv = {"PATH": f"{self.bin}:/usr/bin:/bin", "PYTHONPATH": str(REPO), **(env or {})}
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
        command = shlex.join(
            [
                SSHD, "-D", "-e", "-p", str(self.port), "-h", str(self.host_key),
                "-o", "ListenAddress=127.0.0.1",
                "-o", f"AuthorizedKeysFile={self.authorized}/%u",
                "-o", "StrictModes=no",
                "-o", "PasswordAuthentication=no",
                "-o", f"PidFile={where / 'sshd.pid'}",
                "-o", "PermitRootLogin=prohibit-password",
                "-o", "SetEnv " + " ".join(f"{k}={v}" for k, v in setenv.items()),
            ]
        )  # fmt: skip
        script = f"set -e\n{_reachable_view(_python_paths(), where)}\nexec {command}"
        with open(where / "sshd.log", "wb") as log:  # sshd keeps its own copy of the file
            self.sshd = subprocess.Popen(
                ["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        try:
            wait("sshd to listen", self._listening, self.log)
        except BaseException:
            self.close()  # the caller gets no Sshd to close
            raise

    def _key(self, path: Path) -> Path:
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(path)], check=True)
        return path.with_suffix(".pub")

    def new_key(self, name: str) -> tuple[Path, str]:
        """A throw-away key pair: the private key's file and the public key's line."""
        public = self._key(self.where / f"key-{name}")
        return public.with_suffix(""), public.read_text().strip()

    def authorize(self, login: str, *lines: str) -> None:
        """``login``'s ``authorized_keys``: these lines (a key, options before it if any)."""
        path = self.authorized / login
        path.write_text("".join(f"{line}\n" for line in lines))
        path.chmod(0o644)

    def login(self, login: str) -> Path:
        """A key that logs in as ``login`` (and only it): its private key's file."""
        key, public = self.new_key(login)
        self.authorize(login, public)
        return key

    def _listening(self) -> bool:
        assert self.sshd.poll() is None, self.log()
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def log(self) -> str:
        return (self.where / "sshd.log").read_text(errors="replace")

    def ssh(self, login: str, key: Path, remote: str = "", tty: str = "-tt") -> str:
        """The client command line (``exec ssh ...``). ``tty``:
        ``-tt`` insists on a terminal (no session without one), ``-t`` asks for one, ``""`` lets
        ssh decide as it does for a person (a terminal when no ``remote`` command is given)."""
        options = [
            "-i", str(key), "-p", str(self.port),
            "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
            "-o", "BatchMode=yes", "-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes",
        ]  # fmt: skip
        return "exec " + shlex.join(["ssh", *([tty] if tty else []), *options, f"{login}@127.0.0.1",
                                     *([remote] if remote else [])])  # fmt: skip

    def tmux(self, *args: str) -> str:
        out = subprocess.run(
            ["tmux", "-S", str(self.tmux_socket), "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            check=False,
        )
        return out.stdout

    def open(self, session: str, login: str, key: Path, remote: str = "", tty: str = "-tt") -> int | None:
        """Run ``ssh ... login@127.0.0.1 remote`` in a new tmux session (a 140x45 terminal that
        stays on screen once ssh ends); returns ssh's pid (None if it has already ended). A shell
        around ssh keeps its exit status (tmux's own can lag: a pane's process may stay unreaped
        for many seconds), then writes :data:`ENDED` on the terminal, after all ssh wrote."""
        status = shlex.quote(str(self.where / f"exit-{session}"))
        ssh = self.ssh(login, key, remote, tty).removeprefix("exec ")
        command = f"{ssh}; echo $? > {status}; echo {shlex.quote(ENDED)}"
        self.tmux(
            "new-session",
            "-d",
            "-s",
            session,
            "-x",
            "140",
            "-y",
            "45",
            command,
            ";",
            "set-option",
            "-t",
            session,
            "remain-on-exit",
            "on",
        )  # fmt: skip  (before ssh can end)
        shell = int(self.tmux("display-message", "-p", "-t", session, "#{pane_pid}").strip())

        def children() -> list[str]:
            try:
                return Path(f"/proc/{shell}/task/{shell}/children").read_text().split()
            except FileNotFoundError:  # the shell has ended already, ssh with it
                return []

        wait("ssh to start", lambda: bool(children()) or self.exit_status(session) is not None)
        pids = children()
        return int(pids[0]) if pids else None

    def screen(self, session: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", session)

    def written(self, session: str) -> str:
        """Everything the terminal showed, the lines scrolled out of its screen included (a line
        wrapped at the terminal's edge as one)."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", session)

    def keys(self, session: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", session, *keys)

    def ended(self, session: str) -> bool:
        """Whether ssh ended and all it wrote is on ``session``'s terminal (:data:`ENDED` is)."""
        return any(line.strip() == ENDED for line in self.written(session).splitlines())

    def exit_status(self, session: str) -> int | None:
        """ssh's exit status (the remote command's) once it ended, else None."""
        with contextlib.suppress(FileNotFoundError, ValueError):
            return int((self.where / f"exit-{session}").read_text())
        return None

    def close(self) -> None:
        self.tmux("kill-server")
        self.sshd.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.sshd.wait(timeout=10)
        if self.sshd.poll() is None:
            self.sshd.kill()
