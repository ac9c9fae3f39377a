"""A real SSH session: OpenSSH's sshd on 127.0.0.1 with throw-away keys, ``ssh -tt ... dvtui
new ...`` inside tmux, cards placed, the ssh client killed mid-round, a reconnection with ``dvtui
resume``: every placement made before the drop is there, and play goes on.

Needs ``sshd``, ``ssh``, ``ssh-keygen`` and ``tmux`` (``.ci/setup-system.sh`` installs them) and root
(sshd logs in only its own user otherwise; CI runs as root).
"""

from __future__ import annotations

import contextlib
import getpass
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dvtui.engine import CardPlaced
from dvtui.store import GameLock, GameLocked, read_game, read_holder

from .support import REPO, run_dvtui

SSHD = "/usr/sbin/sshd"
WAIT = 60.0  # seconds before a wait is a failure (never reached when things work)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(what: str, check: Callable[[], bool], explain: Callable[[], str] = lambda: "") -> float:
    start = time.perf_counter()
    while not check():
        if time.perf_counter() - start > WAIT:
            raise AssertionError(f"timed out waiting for {what}\n{explain()}")
        time.sleep(0.05)
    return time.perf_counter() - start


class Remote:
    """sshd on a free port with throw-away keys, and a private tmux server to run ssh clients in."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.port = _free_port()
        self.host_key = tmp / "host_key"
        self.user_key = tmp / "user_key"
        self.tmux_socket = tmp / "tmux.sock"
        for key in (self.host_key, self.user_key):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
        (tmp / "authorized_keys").write_bytes(self.user_key.with_suffix(".pub").read_bytes())
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
        self.sshd = subprocess.Popen(
            [
                SSHD, "-D", "-e", "-p", str(self.port), "-h", str(self.host_key),
                "-o", "ListenAddress=127.0.0.1",
                "-o", f"AuthorizedKeysFile={tmp / 'authorized_keys'}",
                "-o", "StrictModes=no",
                "-o", f"PidFile={tmp / 'sshd.pid'}",
                "-o", "PermitRootLogin=prohibit-password",
            ],
            stdout=subprocess.DEVNULL,
            stderr=open(tmp / "sshd.log", "wb"),  # noqa: SIM115  (closed with the process)
        )  # fmt: skip
        _wait("sshd to listen", self._listening, self.log)

    def _listening(self) -> bool:
        assert self.sshd.poll() is None, self.log()
        with socket.socket() as s:
            return s.connect_ex(("127.0.0.1", self.port)) == 0

    def log(self) -> str:
        return (self.tmp / "sshd.log").read_text(errors="replace")

    def ssh(self, remote: str) -> str:
        """The client command line, run with exec so that the tmux pane's pid is ssh's."""
        return shlex.join(
            [
                "exec", "ssh", "-tt", "-i", str(self.user_key), "-p", str(self.port),
                "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
                "-o", "BatchMode=yes", "-o", "LogLevel=ERROR",
                f"{getpass.getuser()}@127.0.0.1", remote,
            ]
        ).replace("'exec'", "exec", 1)  # fmt: skip

    def tmux(self, *args: str) -> str:
        out = subprocess.run(
            ["tmux", "-S", str(self.tmux_socket), "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            check=False,
        )
        return out.stdout

    def open(self, session: str, remote: str) -> int:
        """Run ``ssh ... remote`` in a new tmux session (a 140x45 terminal); returns ssh's pid."""
        self.tmux("new-session", "-d", "-s", session, "-x", "140", "-y", "45", self.ssh(remote))
        return int(self.tmux("display-message", "-p", "-t", session, "#{pane_pid}").strip())

    def screen(self, session: str) -> str:
        return self.tmux("capture-pane", "-p", "-t", session)

    def keys(self, session: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", session, *keys)

    def close(self) -> None:
        self.tmux("kill-server")
        self.sshd.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.sshd.wait(timeout=10)
        if self.sshd.poll() is None:
            self.sshd.kill()


@pytest.fixture
def remote(tmp_path: Path) -> Iterator[Remote]:
    r = Remote(tmp_path)
    try:
        yield r
    finally:
        r.close()


def _dvtui(args: str, data: Path) -> str:
    return (
        f"cd {shlex.quote(str(REPO))} && DVTUI_DATA_DIR={shlex.quote(str(data))} "
        f"PYTHONPATH={shlex.quote(str(REPO))} exec {shlex.quote(sys.executable)} -m dvtui {args}"
    )


def _placements(path: Path) -> list[CardPlaced]:
    try:
        events = read_game(path).events
    except Exception:
        return []
    return [ev for ev in events if isinstance(ev, CardPlaced)]


def _to_move(path: Path) -> int | None:
    try:
        return read_game(path).game.to_move
    except Exception:
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (ended, not yet reaped by sshd) counts as gone
        return not Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")
    except (OSError, IndexError):
        return False


def _free(path: Path) -> bool:
    """The game's lock can be taken: no process plays it any more."""
    try:
        GameLock.acquire(path).release()
    except GameLocked:
        return False
    return True


def test_ssh_drop_mid_round_then_resume_keeps_every_placement(remote: Remote, tmp_path: Path) -> None:
    game = tmp_path / "ssh-game.dvr"
    data = tmp_path / "data"
    players = shlex.quote("Ana,bot:greedy,bot:greedy")
    ssh_pid = remote.open("play", _dvtui(f"new --players {players} --seed 7 --first 0 --bot-delay 0 -o {game}", data))
    screen = lambda: remote.screen("play")  # noqa: E731
    _wait("the table to be drawn", lambda: "Ana to play" in remote.screen("play") and game.exists(), screen)
    ana: list[tuple[int, int]] = []
    for card, column in ((3, "c"), (5, "e")):  # Ana's first two placements of round 1
        _wait("Ana's turn", lambda: _to_move(game) == 0, screen)
        remote.keys("play", str(card), column, "Enter")
        ana.append((card, "abcdefg".index(column)))
        _wait(
            "the placement to be saved",
            lambda: [(p.card, p.column) for p in _placements(game) if p.player == 0] == ana,
            screen,
        )
    _wait("the bots to answer", lambda: _to_move(game) == 0, screen)
    before = _placements(game)
    assert len(before) == 6 and [(p.card, p.column) for p in before if p.player == 0] == ana  # mid-round 1
    holder = read_holder(game)
    assert holder is not None
    remote_pid = holder.pid
    # a second player process for the same game (the app's own resume path) is refused, naming the first
    second = run_dvtui("resume", str(game), tmp_path=tmp_path)
    assert second.returncode == 1
    assert f"is being played by pid {remote_pid} on {socket.gethostname()}" in second.stderr
    assert _placements(game) == before

    os.kill(ssh_pid, signal.SIGKILL)  # the connection drops
    took = _wait("the remote dvtui to let the game go", lambda: _free(game), remote.log)
    gone = _wait("the remote dvtui to end", lambda: not _alive(remote_pid), remote.log)
    print(f"\nssh test: the remote dvtui let the game go {took:.2f} s after the ssh client was killed")
    print(f"ssh test: and was gone {took + gone:.2f} s after")
    loaded = read_game(game)
    assert loaded.torn is None and not loaded.missing_tail
    assert _placements(game) == before  # every placement made before the drop is there

    ssh_pid = remote.open("again", _dvtui(f"resume {game} --bot-delay 0", data))
    _wait("the resumed table", lambda: "Ana to play" in remote.screen("again"), lambda: remote.screen("again"))
    remote.keys("again", "2", "a", "Enter")  # play goes on
    _wait(
        "the next placement to be saved",
        lambda: len(_placements(game)) >= 7 and _placements(game)[6].player == 0,
        lambda: remote.screen("again"),
    )
    after = _placements(game)
    assert after[:6] == before
    assert (after[6].card, after[6].column) == (2, 0)
    _wait("the bots to answer", lambda: _to_move(game) == 0, lambda: remote.screen("again"))
    remote.keys("again", "q")
    _wait("dvtui to quit", lambda: _free(game), lambda: remote.screen("again"))
    final = read_game(game)
    assert final.torn is None and final.file_lines == 1 + len(_placements(game))
    print(f"ssh test: {len(before)} placements before the drop, all kept; {len(after)} after resuming")
