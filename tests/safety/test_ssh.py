"""A real SSH session: OpenSSH's sshd on 127.0.0.1 with throw-away keys, ``ssh -tt ... dvtui
new ...`` inside tmux, cards placed, the ssh client killed mid-round, a reconnection with ``dvtui
resume``: every placement made before the drop is there, and play goes on.

The server is :class:`~tests.safety.sshd.Sshd`: it needs ``sshd``, ``ssh``, ``ssh-keygen`` and
``tmux`` (``.ci/setup-system.sh`` installs them) and root (sshd logs in only its own user otherwise;
CI runs as root).
"""

from __future__ import annotations

import getpass
import os
import shlex
import signal
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui.engine import CardPlaced
from dvtui.store import GameLock, GameLocked, read_game, read_holder

from ..support.processes import REPO, dvtui
from ..support.sshd import Sshd, wait

pytestmark = pytest.mark.sshd


@pytest.fixture
def remote(tmp_path: Path) -> Iterator[Sshd]:
    r = Sshd(tmp_path)
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


def test_ssh_drop_mid_round_then_resume_keeps_every_placement(remote: Sshd, tmp_path: Path) -> None:
    game = tmp_path / "ssh-game.dvr"
    data = tmp_path / "data"
    players = shlex.quote("Ana,bot:greedy,bot:greedy")
    me = getpass.getuser()
    key = remote.login(me)
    new = f"new --players {players} --seed 7 --first 1 --bot-delay 0 -o {game}"
    ssh_pid = remote.open("play", me, key, _dvtui(new, data))
    assert ssh_pid is not None
    screen = lambda: remote.screen("play")  # noqa: E731
    wait("the table to be drawn", lambda: "Ana to play" in remote.screen("play") and game.exists(), screen)
    ana: list[tuple[int, int]] = []
    for card, column in ((3, "c"), (5, "e")):  # Ana's first two placements of round 1
        wait("Ana's turn", lambda: _to_move(game) == 0, screen)
        remote.keys("play", str(card), column, "Enter")
        ana.append((card, "abcdefg".index(column)))
        wait(
            "the placement to be saved",
            lambda: [(p.card, p.column) for p in _placements(game) if p.player == 0] == ana,
            screen,
        )
    wait("the bots to answer", lambda: _to_move(game) == 0, screen)
    before = _placements(game)
    assert len(before) == 6 and [(p.card, p.column) for p in before if p.player == 0] == ana  # mid-round 1
    holder = read_holder(game)
    assert holder is not None
    remote_pid = holder.pid
    # a second player process for the same game (the app's own resume path) is refused, naming the first
    second = dvtui("resume", str(game), data=tmp_path / "data")
    assert second.returncode == 1
    assert f"is being played by pid {remote_pid} on {socket.gethostname()}" in second.stderr
    assert _placements(game) == before

    os.kill(ssh_pid, signal.SIGKILL)  # the connection drops
    took = wait("the remote dvtui to let the game go", lambda: _free(game), remote.log)
    gone = wait("the remote dvtui to end", lambda: not _alive(remote_pid), remote.log)
    print(f"\nssh test: the remote dvtui let the game go {took:.2f} s after the ssh client was killed")
    print(f"ssh test: and was gone {took + gone:.2f} s after")
    loaded = read_game(game)
    assert loaded.torn is None and not loaded.missing_tail
    assert _placements(game) == before  # every placement made before the drop is there

    remote.open("again", me, key, _dvtui(f"resume {game} --bot-delay 0", data))
    wait("the resumed table", lambda: "Ana to play" in remote.screen("again"), lambda: remote.screen("again"))
    remote.keys("again", "2", "a", "Enter")  # play goes on
    wait(
        "the next placement to be saved",
        lambda: len(_placements(game)) >= 7 and _placements(game)[6].player == 0,
        lambda: remote.screen("again"),
    )
    after = _placements(game)
    assert after[:6] == before
    assert (after[6].card, after[6].column) == (2, 0)
    wait("the bots to answer", lambda: _to_move(game) == 0, lambda: remote.screen("again"))
    remote.keys("again", "q")
    wait("dvtui to quit", lambda: _free(game), lambda: remote.screen("again"))
    final = read_game(game)
    assert final.torn is None and final.file_lines == 1 + len(_placements(game))
    print(f"ssh test: {len(before)} placements before the drop, all kept; {len(after)} after resuming")
