"""Shared files and shared hosts: one writer per game file whatever name reaches it, lock files that
dvtui never writes through nor believes unless they are the user's own, and a saves directory that
another user cannot have made or write to.

The second user is real (``useradd``): the tests run as root, as CI does, to make and own its files.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import socket
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui.store import GameLocked, GameWriter, SaveError, list_games, lock_path, new_save_path, read_game, read_holder

from ..support.files import reference, start_game, strip_at
from ..support.positions import BOTS3, created
from ..support.processes import dvtui, dvtui_cmd, env, one_error_line, run_main
from ..support.sshd import OTHER

SPOOF = b'{"host": "build-server", "pid": 1, "since": "2020-01-01T00:00:00Z", "user": "admin"}\n'


def as_user(user: pwd.struct_passwd, *cmd: str) -> subprocess.CompletedProcess[str]:
    """Run ``cmd`` as ``user`` (its uid and gid only)."""
    return subprocess.run(
        ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", *cmd],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory everyone may write to, like ``/tmp`` (sticky), reachable by the second user."""
    d = Path(tempfile.mkdtemp(prefix="dvtui-shared-", dir="/tmp"))
    os.chmod(d, 0o1777)
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _holding(path: Path) -> subprocess.Popen[bytes]:
    """A first player: ``dvtui resume FILE --headless`` at a slow pace, once it holds the game."""
    first = subprocess.Popen(
        dvtui_cmd("resume", str(path), "--headless", "--bot-delay", "0.2"),
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(2000):
        holder = read_holder(path)
        if holder is not None and holder.pid == first.pid:
            return first
        assert first.poll() is None, "the first player ended before locking the game"
        time.sleep(0.005)
    first.kill()
    raise AssertionError("the first player never locked the game")


# -- one writer per file, whatever its name ---------------------------------------------------------


def _other_names(path: Path) -> dict[str, Path]:
    """Every other way to name ``path``'s file: a symbolic link, a hard link, a ``..`` path."""
    d = path.parent
    (d / "sub").mkdir()
    (d / "link.dvr").symlink_to(path.name)
    os.link(path, d / "hard.dvr")
    return {"symlink": d / "link.dvr", "hard link": d / "hard.dvr", "dotdot": d / "sub" / ".." / path.name}


def test_a_second_writer_by_any_name_is_refused_with_the_holders_details(tmp_path: Path) -> None:
    path = start_game(tmp_path / "game.dvr", BOTS3, seed=5)
    names = _other_names(path)
    first = _holding(path)
    try:
        before = path.read_bytes()
        for kind, other in names.items():
            second = dvtui("resume", str(other), "--headless")
            assert second.returncode == 1, (kind, second.stderr)
            line = one_error_line(second.stderr, other)
            assert f"is being played by pid {first.pid} on {socket.gethostname()}" in line, (kind, line)
        played = dvtui("resume", str(names["symlink"]))  # the app too: refused before any screen
        assert played.returncode == 1
        assert f"is being played by pid {first.pid}" in one_error_line(played.stderr, names["symlink"])
        assert path.read_bytes().startswith(before)  # the refused ones wrote nothing
    finally:
        first.kill()
        first.wait(timeout=30)
    finished = dvtui("resume", str(names["symlink"]), "--headless")  # after the kill: free again
    assert finished.returncode == 0, finished.stderr
    assert strip_at(path.read_bytes()) == strip_at(reference(BOTS3, seed=5))
    assert not lock_path(path).exists()


def test_in_process_every_name_and_a_rename_during_play_share_one_lock(tmp_path: Path) -> None:
    path = start_game(tmp_path / "game.dvr")
    names = _other_names(path)
    writer = GameWriter.resume(read_game(path))
    try:
        for kind, other in names.items():
            with pytest.raises(GameLocked) as refused:
                GameWriter.resume(read_game(other))
            assert refused.value.holder is not None and refused.value.holder.pid == os.getpid(), kind
        moved = tmp_path / "moved.dvr"
        os.rename(path, moved)  # renamed while it is played: still the same file, still locked
        with pytest.raises(GameLocked) as refused:
            GameWriter.resume(read_game(moved))
        assert refused.value.holder is not None and refused.value.holder.pid == os.getpid()
    finally:
        writer.close()
    with GameWriter.resume(read_game(names["hard link"])):  # free once the holder closed
        pass


def test_a_hard_link_in_another_directory_is_refused_even_without_a_record(tmp_path: Path) -> None:
    path = start_game(tmp_path / "game.dvr")
    (tmp_path / "elsewhere").mkdir()
    other = tmp_path / "elsewhere" / "copy.dvr"
    os.link(path, other)
    with GameWriter.resume(read_game(path)), pytest.raises(GameLocked) as refused:
        GameWriter.resume(read_game(other))
    assert refused.value.holder is None
    assert "under another of the file's 2 names" in str(refused.value)


def test_a_holder_record_is_shown_escaped_and_bounded(tmp_path: Path) -> None:
    """The record is the user's own file, but its strings are still outside text for a terminal."""
    path = start_game(tmp_path / "game.dvr")
    with GameWriter.resume(read_game(path)):
        record = {"host": "evil\x1b[2J\nhost" + "x" * 1000, "pid": 7, "since": "now\x07", "user": "u\r"}
        lock_path(path).write_text(json.dumps(record))
        result = dvtui("resume", str(path), "--headless")
    line = one_error_line(result.stderr, path)
    assert "\x1b" not in line and "\x07" not in line and "\r" not in line
    assert "pid 7 on evil\\x1b[2J\\x0ahost" + "x" * 87 + " (user u\\x0d) since now\\x07;" in line  # host cut to 100


# -- a lock file is never written through ------------------------------------------------------------


@pytest.mark.parametrize("kind", ["hard link", "symlink"])
def test_a_lock_file_that_is_another_file_is_never_written_through(tmp_path: Path, kind: str) -> None:
    path = start_game(tmp_path / "game.dvr")
    precious = tmp_path / "notes.txt"
    precious.write_bytes(b"my notes\n")
    if kind == "hard link":
        os.link(precious, lock_path(path))
    else:
        lock_path(path).symlink_to(precious)
    game = path.read_bytes()
    result = dvtui("resume", str(path), "--headless")
    assert result.returncode == 1
    line = one_error_line(result.stderr, path)
    assert f"{lock_path(path)} {'has 2 names (hard links)' if kind == 'hard link' else 'is a symbolic link'}" in line
    assert "remove it" in line
    assert precious.read_bytes() == b"my notes\n"
    assert path.read_bytes() == game
    with pytest.raises(SaveError):
        GameWriter.resume(read_game(path))
    assert precious.read_bytes() == b"my notes\n"


def test_a_lock_file_that_is_a_directory_or_a_fifo_is_refused(tmp_path: Path) -> None:
    path = start_game(tmp_path / "game.dvr")
    lock_path(path).mkdir()
    with pytest.raises(SaveError, match="is a directory"):
        GameWriter.resume(read_game(path))
    lock_path(path).rmdir()
    os.mkfifo(lock_path(path))
    with pytest.raises(SaveError, match="is not a regular file"):
        GameWriter.resume(read_game(path))
    assert stat.S_ISFIFO(os.lstat(lock_path(path)).st_mode)


# -- a lock file of another user is not believed, not written ------------------------------------


@pytest.mark.root
def test_a_lock_file_planted_by_another_user_refuses_play_and_is_left_alone(
    shared_dir: Path, other_user: pwd.struct_passwd
) -> None:
    path = start_game(shared_dir / "game.dvr")
    planted = as_user(other_user, "sh", "-c", f"umask 0; printf '%s' '{SPOOF.decode().strip()}' > {lock_path(path)}")
    assert planted.returncode == 0, planted.stderr
    assert os.stat(lock_path(path)).st_uid == other_user.pw_uid
    game = path.read_bytes()
    result = dvtui("resume", str(path), "--headless")
    assert result.returncode == 1
    line = one_error_line(result.stderr, path)
    assert f"belongs to user {OTHER}, not to you" in line
    assert "build-server" not in line
    assert lock_path(path).read_bytes() == SPOOF.strip()  # nothing of ours written into it
    assert path.read_bytes() == game
    assert read_holder(path) is None  # what it says is not taken as fact


@pytest.mark.root
def test_a_new_game_beside_a_planted_lock_file_is_not_started(tmp_path: Path, other_user: pwd.struct_passwd) -> None:
    """Refused at the start of a new game too, and the new file is removed: nothing that looks
    like a game is left behind."""
    path = tmp_path / "new.dvr"
    lock_path(path).write_bytes(SPOOF)
    os.chown(lock_path(path), other_user.pw_uid, other_user.pw_gid)
    with pytest.raises(SaveError, match=f"belongs to user {OTHER}, not to you"):
        GameWriter.create(path, created())
    assert not path.exists()
    assert lock_path(path).read_bytes() == SPOOF


@pytest.mark.root
def test_a_spoofed_record_is_never_shown_as_the_holder(tmp_path: Path, other_user: pwd.struct_passwd) -> None:
    """The game is really held; its record was replaced by another user's file: the refusal says
    the game is played, not by whom the planted file claims."""
    path = start_game(tmp_path / "game.dvr")
    with GameWriter.resume(read_game(path)):
        lock_path(path).unlink()
        lock_path(path).write_bytes(SPOOF)
        os.chown(lock_path(path), other_user.pw_uid, other_user.pw_gid)
        with pytest.raises(GameLocked) as refused:
            GameWriter.resume(read_game(path))
    message = str(refused.value)
    assert refused.value.holder is None
    assert "build-server" not in message and "pid 1 " not in message
    assert f"belongs to user {OTHER}" in message and "is being played by another process" in message


@pytest.mark.root
def test_the_holder_record_is_private_to_its_user(shared_dir: Path, other_user: pwd.struct_passwd) -> None:
    path = start_game(shared_dir / "game.dvr")
    old = os.umask(0)
    try:
        with GameWriter.resume(read_game(path)):
            assert stat.S_IMODE(os.stat(lock_path(path)).st_mode) == 0o600
            peek = as_user(other_user, "cat", str(lock_path(path)))
            assert peek.returncode != 0 and "Permission denied" in peek.stderr
            assert json.loads(lock_path(path).read_bytes())["pid"] == os.getpid()
    finally:
        os.umask(old)


# -- the saves directory ---------------------------------------------------------------------------


def _plant_game(games: Path, owner: pwd.struct_passwd | None = None) -> Path:
    games.mkdir(parents=True, exist_ok=True)
    planted = start_game(games / "planted.dvr", BOTS3, seed=9)
    if owner is not None:
        for p in (games, planted):
            os.chown(p, owner.pw_uid, owner.pw_gid)
    return planted


def _refused(result: subprocess.CompletedProcess[str], games: Path, why: str) -> None:
    assert result.returncode == 1, (result.stdout, result.stderr)
    line = one_error_line(result.stderr, games)
    assert why in line, line
    assert "planted.dvr" not in result.stdout + result.stderr


def _dvtui_in(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    e = env()
    e["DVTUI_DATA_DIR"] = str(data)
    return subprocess.run(
        dvtui_cmd(*args), capture_output=True, text=True, env=e, timeout=60, check=False, stdin=subprocess.DEVNULL
    )


@pytest.mark.root
def test_a_games_directory_made_by_another_user_is_refused(shared_dir: Path, other_user: pwd.struct_passwd) -> None:
    games = shared_dir / "games"
    planted = _plant_game(games, other_user)
    before = planted.read_bytes()
    why = f"not a safe saves directory: it belongs to user {OTHER}, not to you"
    commands = (
        ["resume", "--list"],
        ["resume", "--headless"],
        ["resume"],
        ["new"],
        ["new", "--players", "Ana,bot:greedy,bot:greedy"],
    )
    for args in commands:
        _refused(_dvtui_in(shared_dir, *args), games, why)
    assert planted.read_bytes() == before
    assert sorted(os.listdir(games)) == ["planted.dvr"]  # nothing new saved in it


def _main_in(
    data: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> subprocess.CompletedProcess[str]:
    """:func:`_dvtui_in` in this process (:func:`run_main`): where a real process adds nothing to
    what is checked, the refusals of a command that needs no terminal."""
    monkeypatch.setenv("DVTUI_DATA_DIR", str(data))
    return run_main(capsys, *args)


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o702])
def test_a_games_directory_others_may_write_to_is_refused(
    tmp_path: Path, mode: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    _plant_game(data / "games")
    os.chmod(data / "games", mode)
    why = "not a safe saves directory: other users can write to it"
    _refused(_main_in(data, capsys, monkeypatch, "resume", "--list"), data / "games", why)
    _refused(_main_in(data, capsys, monkeypatch, "resume", "--headless"), data / "games", why)
    os.chmod(data / "games", 0o700)
    listed = _main_in(data, capsys, monkeypatch, "resume", "--list")
    assert listed.returncode == 0 and "planted.dvr" in listed.stdout


def test_a_data_directory_others_may_write_to_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whoever may write to the data directory may put their own ``games`` in place of the user's."""
    data = tmp_path / "data"
    _plant_game(data / "games")
    os.chmod(data, 0o777)
    _refused(
        _main_in(data, capsys, monkeypatch, "resume", "--list"),
        data / "games",
        f"{data} can be written by other users (mode 777), who could put another directory in its place",
    )
    os.chmod(data, 0o1777)  # sticky, like /tmp: others cannot replace games/
    assert _main_in(data, capsys, monkeypatch, "resume", "--list").returncode == 0


@pytest.mark.root
def test_a_symlinked_games_directory_must_lead_to_a_directory_of_the_user(
    shared_dir: Path, tmp_path: Path, other_user: pwd.struct_passwd
) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    theirs = shared_dir / "theirs"
    _plant_game(theirs, other_user)
    (data / "games").symlink_to(theirs)
    _refused(_dvtui_in(data, "resume", "--list"), data / "games", f"belongs to user {OTHER}")
    (data / "games").unlink()
    mine = tmp_path / "elsewhere"
    _plant_game(mine)
    os.chmod(mine, 0o700)
    (data / "games").symlink_to(mine)  # the user's own games on another disk: fine
    listed = _dvtui_in(data, "resume", "--list")
    assert listed.returncode == 0 and "planted.dvr" in listed.stdout


def test_dvtui_makes_the_data_directory_private_even_with_a_careless_umask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "a" / "data"
    monkeypatch.setenv("DVTUI_DATA_DIR", str(data))
    old = os.umask(0)
    try:
        path = new_save_path(created())
    finally:
        os.umask(old)
    for d in (tmp_path / "a", data, data / "games"):
        assert stat.S_IMODE(os.stat(d).st_mode) == 0o700, d
    assert path.parent == data / "games"
    assert list_games() == ([], [])
