"""One writer per game: a second player process is refused with who holds the game;
a lock left by a killed process is taken over; the lock never outlives its holder's file."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from pathlib import Path

import pytest

from dvtui.cli import main
from dvtui.engine import Game
from dvtui.play.autoplay import play_out
from dvtui.store import GameLocked, GameWriter, lock_path, read_game, read_holder

from ..support.files import reference, start_game, strip_at
from ..support.positions import BOTS3
from ..support.processes import dvtui, dvtui_cmd, env, one_error_line


def _wait_for_holder(path: Path, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(2000):
        holder = read_holder(path)
        if holder is not None and holder.pid == proc.pid:
            return
        assert proc.poll() is None, "the first process ended before locking the game"
        time.sleep(0.005)
    raise AssertionError("the first process never locked the game")


def test_second_process_refused_then_takes_over_after_kill_minus_nine(tmp_path: Path) -> None:
    path = start_game(tmp_path / "game.dvr", BOTS3, seed=5)
    first = subprocess.Popen(
        dvtui_cmd("resume", str(path), "--headless", "--bot-delay", "0.2"),
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_holder(path, first)
        before = path.read_bytes()
        second = dvtui("resume", str(path), "--headless")
        assert second.returncode == 1
        line = one_error_line(second.stderr, path)
        assert f"is being played by pid {first.pid} on {socket.gethostname()}" in line
        assert "since 20" in line and "dvtui replay" in line
        assert path.read_bytes().startswith(before)  # the refused process wrote nothing
        # the game can still be read (watched) while it is played
        assert dvtui("verify", str(path)).returncode in (0, 1)
        assert read_game(path).game.created.seed == 5
    finally:
        first.kill()
        first.wait(timeout=30)
    assert lock_path(path).exists()  # kill -9 left the lock file (the flock itself died)
    third = dvtui("resume", str(path), "--headless")
    assert third.returncode == 0, third.stderr
    assert f"took over the lock left by pid {first.pid}" in third.stderr
    assert strip_at(path.read_bytes()) == strip_at(reference(BOTS3, seed=5))
    assert not lock_path(path).exists()


def test_lock_is_held_from_create_and_resume_until_close(tmp_path: Path) -> None:
    path = start_game(tmp_path / "game.dvr")
    loaded = read_game(path)
    writer = GameWriter.resume(loaded)
    try:
        holder = read_holder(path)
        assert holder is not None and holder.pid == os.getpid()
        assert (os.stat(lock_path(path)).st_mode & 0o777) == 0o600
        with pytest.raises(GameLocked) as refused:  # even from the same process
            GameWriter.resume(read_game(path))
        assert refused.value.holder == holder
        assert f"pid {os.getpid()}" in str(refused.value)
        play_out(loaded.game, writer.append)  # the holder plays on undisturbed
    finally:
        writer.close()
    assert not lock_path(path).exists()
    other = tmp_path / "new.dvr"
    from ..support.positions import created

    with GameWriter.create(other, created()):
        with pytest.raises(GameLocked):
            GameWriter.resume(read_game(other))
        assert main(["resume", str(other), "--headless"]) == 1
    assert read_game(other).file_lines == 1  # the refused resume added nothing
    with GameWriter.resume(read_game(other)) as w:  # free again once closed
        play_out(Game(read_game(other).game.created), w.append)
    assert read_game(other).game.over


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"garbage\x00\xff",
        b'{"host": "elsewhere", "pid": 4242, "since": "2020-01-01T00:00:00Z", "user": "bob"}\n',
        b'{"host": 1, "pid": "x"}',
        b"[" * 5000,
    ],
)
def test_a_stale_lock_file_never_blocks(tmp_path: Path, content: bytes) -> None:
    """Whatever a dead holder (or anyone) left in the lock file, nobody holds the flock: play goes on."""
    path = start_game(tmp_path / "game.dvr")
    lock_path(path).write_bytes(content)
    writer = GameWriter.resume(read_game(path))
    try:
        if b"4242" in content:
            assert writer.lock is not None and writer.lock.took_over is not None
            assert any("took over the lock left by pid 4242 on elsewhere" in n for n in writer.notices)
        holder = json.loads(lock_path(path).read_bytes())
        assert holder["pid"] == os.getpid()
    finally:
        writer.close()
    assert not lock_path(path).exists()


def test_refusal_names_an_unknown_holder_when_the_record_is_unreadable(tmp_path: Path) -> None:
    """A holder that has not written its record (or wrote garbage) is still refused, politely."""
    from dvtui.store import GameLock

    path = start_game(tmp_path / "game.dvr")
    with GameLock.acquire(path):
        lock_path(path).write_bytes(b"not json")
        with pytest.raises(GameLocked) as refused:
            GameWriter.resume(read_game(path))
    assert refused.value.holder is None
    assert "another process" in str(refused.value)
