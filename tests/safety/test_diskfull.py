"""Disk full, read-only file system, failed fsync: the game stops with a clear
message and the file stays valid up to the last durable decision; once there is room, resuming ends
the game exactly as if nothing had happened.

The first test fills a real, tiny file system (a 64 KiB tmpfs, mounted when the machine allows it,
as CI's root does); where it cannot be mounted, the same scenario runs with ENOSPC injected into
the writer's ``write``. The others inject each failure the kernel can give.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from dvtui.cli import main
from dvtui.engine import Game, Placement
from dvtui.store import GameWriter, SaveError, SaveFailed, read_game
from dvtui.store import writer as writer_module

from ..support.files import reference, start_game, strip_at
from ..support.positions import BOTS3, WITH_HUMAN, created
from ..support.processes import dvtui, one_error_line

PAGE = 4096


@contextlib.contextmanager
def _tiny_fs(where: Path) -> Iterator[bool]:
    """A 64 KiB tmpfs at ``where`` (True), or just the directory when mounting is not allowed (False)."""
    where.mkdir()
    try:
        mounted = (
            subprocess.run(
                ["mount", "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", str(where)],
                capture_output=True,
                check=False,
            ).returncode
            == 0
        )
    except OSError:  # no mount program
        mounted = False
    try:
        yield mounted
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def _fill(where: Path, leave: int) -> Path:
    """Fill the file system at ``where`` but ``leave`` bytes; returns the filler file."""
    filler = where / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * PAGE)
    finally:
        os.close(fd)
    size = filler.stat().st_size
    os.truncate(filler, max(0, size - leave))
    return filler


def _check_stopped_file(path: Path, full: bytes) -> int:
    """The stopped game's file: valid as it is (no torn tail, nothing owed), a prefix of the game."""
    loaded = read_game(path)
    assert loaded.torn is None and not loaded.missing_tail
    assert not loaded.game.over
    assert strip_at(full).startswith(strip_at(path.read_bytes()))
    assert dvtui("verify", str(path)).returncode == 0
    return loaded.file_lines


def test_disk_full_stops_the_game_cleanly_and_resume_finishes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    full = reference(BOTS3, seed=5)
    where = tmp_path / "tiny"
    with _tiny_fs(where) as mounted:
        path = start_game(where / "game.dvr", BOTS3, seed=5)
        if mounted:
            filler = _fill(where, leave=2 * PAGE)  # a page for the lock's record, one more for the game
            result = dvtui("resume", str(path), "--headless")
            code, err = result.returncode, result.stderr
        else:  # no mount here: the disk fills up after 5 KiB more, as the kernel would say it
            room = [5000]

            def write(fd: int, data: memoryview) -> int:
                if room[0] <= 0:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                n = min(len(data), room[0])
                room[0] -= n
                return os.write(fd, data[:n])

            monkeypatch.setattr(writer_module, "_write", write)
            code = main(["resume", str(path), "--headless"])
            err = capsys.readouterr().err
            monkeypatch.undo()
        print(f"\ndisk-full test ({'real 64 KiB tmpfs' if mounted else 'injected ENOSPC'}): {err.strip()}")
        assert code == 1
        line = one_error_line(err.splitlines()[-1] + "\n", path)
        assert "could not save the last move: the disk is full" in line
        assert "The game has stopped" in line and f"dvtui resume {path}" in line
        lines = _check_stopped_file(path, full)
        assert 1 < lines < full.count(b"\n")  # it did stop mid-game
        assert not (where / "game.dvr.lock").exists()  # the stopped game let its lock go
        if mounted:
            filler.unlink()
        assert main(["resume", str(path), "--headless"]) == 0
        assert strip_at(path.read_bytes()) == strip_at(full)


@pytest.mark.parametrize(
    ("fail", "why"),
    [
        ("write-enospc", "the disk is full"),
        ("write-erofs", "the file system is read-only"),
        ("write-partial-then-enospc", "the disk is full"),
        ("fsync-eio", "the disk reported an I/O error"),
        ("fsync-enospc", "the disk is full"),
        ("write-edquot", "the disk quota is exceeded"),
    ],
)
def test_a_failed_save_is_cut_back_and_stops_the_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail: str, why: str
) -> None:
    path = start_game(tmp_path / "game.dvr", BOTS3, seed=5)
    loaded = read_game(path)
    game: Game = loaded.game
    writer = GameWriter.resume(loaded)
    saved = 0
    for _ in range(20):  # some moves saved normally
        events = game.place(game.legal_placements()[0])
        writer.append(events)
        saved += len(events)
    good = path.read_bytes()
    code = {"enospc": errno.ENOSPC, "erofs": errno.EROFS, "eio": errno.EIO, "edquot": errno.EDQUOT}[
        fail.rsplit("-", 1)[1]
    ]

    def boom(*_: object) -> int:
        raise OSError(code, os.strerror(code))

    if fail.startswith("fsync"):
        calls = [0]
        real_fsync = os.fsync

        def fsync_once_failing(fd: int) -> None:  # the cut-back's own fsync works
            calls[0] += 1
            if calls[0] == 1:
                boom()
            real_fsync(fd)

        monkeypatch.setattr(writer_module, "_fsync", fsync_once_failing)
    elif fail == "write-partial-then-enospc":

        def partial(fd: int, data: memoryview) -> int:
            if len(data) > 10:
                return os.write(fd, data[: len(data) // 2])
            raise OSError(code, os.strerror(code))

        monkeypatch.setattr(writer_module, "_write", partial)
    else:
        monkeypatch.setattr(writer_module, "_write", boom)
    move = game.place(game.legal_placements()[0])
    with pytest.raises(SaveFailed) as failed:
        writer.append(move)
    monkeypatch.undo()
    message = str(failed.value)
    assert f"could not save the last move: {why}" in message and "\n" not in message
    assert failed.value.errno == code
    assert path.read_bytes() == good  # cut back to the last durable decision
    with pytest.raises(SaveFailed):  # the game has stopped: nothing more is written
        writer.append(game.place(game.legal_placements()[0]))
    assert path.read_bytes() == good
    writer.close()
    loaded = read_game(path)
    assert loaded.torn is None and not loaded.missing_tail and loaded.file_lines == 1 + saved


def test_cut_back_failing_too_leaves_a_torn_tail_that_resume_repairs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worst case: half a write lands and the cut back fails too. The reader recovers the
    complete lines; nothing acknowledged is lost; resume repairs and finishes."""
    path = start_game(tmp_path / "game.dvr", BOTS3, seed=5)
    loaded = read_game(path)
    game = loaded.game
    writer = GameWriter.resume(loaded)
    for _ in range(14):
        writer.append(game.place(game.legal_placements()[0]))
    good = path.read_bytes()

    def partial(fd: int, data: memoryview) -> int:
        if len(data) > 100:
            return os.write(fd, data[: len(data) // 2 + 3])  # the round's last move and part of its results
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    def no_truncate(fd: int, size: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(writer_module, "_write", partial)
    monkeypatch.setattr(writer_module, "_ftruncate", no_truncate)
    with pytest.raises(SaveFailed, match="resuming repairs its end"):
        writer.append(game.place(game.legal_placements()[0]))  # 15th placement: resolves round 1
    monkeypatch.undo()
    writer.close()
    assert path.read_bytes().startswith(good)
    again = read_game(path)
    assert again.file_lines > good.count(b"\n")  # the complete lines that did land are kept
    assert again.torn is not None
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["resume", str(path), "--headless"]) == 0
    assert "torn last line" in err.getvalue()
    final = read_game(path)
    assert final.game.over and final.torn is None


def test_a_new_game_that_cannot_be_saved_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: object) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(writer_module, "_write", boom)
    with pytest.raises(SaveError, match="cannot save a new game: the disk is full; nothing was kept"):
        GameWriter.create(tmp_path / "new.dvr", created())
    assert os.listdir(tmp_path) == []


def _fail_after(monkeypatch: pytest.MonkeyPatch, writes: int) -> None:
    """The writer's ``write`` works ``writes`` times more, then the disk is full."""
    left = [writes]

    def write(fd: int, data: memoryview) -> int:
        if left[0] <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        left[0] -= 1
        return os.write(fd, data)

    monkeypatch.setattr(writer_module, "_write", write)


async def test_a_failed_save_in_play_says_not_saved_and_nobody_thinks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's move that cannot be saved: the title says NOT SAVED for good, nobody is shown
    thinking, no key plays on."""
    from dvtui.app.app import DvtuiApp
    from dvtui.app.config import Pace
    from dvtui.app.options import AppOptions
    from dvtui.app.widgets.hand import HandBar
    from dvtui.app.widgets.panels import RoundBar
    from dvtui.play.local import LocalSession

    path = start_game(tmp_path / "game.dvr", WITH_HUMAN, seed=3)
    app = DvtuiApp(LocalSession.resume(read_game(path)), AppOptions(pace=Pace(bot_delay=0.0, step_delay=None)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        _fail_after(monkeypatch, 1)  # Ana's placement is saved, Bot 1's is not
        await pilot.press("6", "a", "enter")
        for _ in range(50):
            await app.workers.wait_for_complete()
            await pilot.pause()
        bar = app.screen.query_one(RoundBar).render().plain
        hand = app.screen.query_one(HandBar).render().plain
        assert "✗ NOT SAVED: disk is full" in bar and "✓ saved" not in bar
        assert "thinking" not in bar + hand
        assert "Game stopped: the disk is full" in hand
        await pilot.press("5", "b", "enter", "u")  # nothing plays on
        await pilot.pause()
        assert len(app.session.game.placements) == 1  # type: ignore[union-attr]
    monkeypatch.undo()
    assert len(read_game(path).game.placements) == 1


def test_quitting_a_stopped_game_exits_1_and_says_it_was_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from dvtui.app.app import DvtuiApp
    from dvtui.app.exit_state import ExitState, exit_state_of
    from dvtui.cli import play

    path = start_game(tmp_path / "game.dvr", WITH_HUMAN, seed=3)

    def run(self: DvtuiApp, *args: object, **kwargs: object) -> ExitState:  # Ana's move meets a full disk, then q
        _fail_after(monkeypatch, 0)
        with pytest.raises(SaveFailed):
            self.session.place(Placement(6, 0))  # type: ignore[union-attr]
        return exit_state_of(self.session)  # what the app says as it closes

    monkeypatch.setattr(DvtuiApp, "run", run)
    monkeypatch.setattr(play, "has_terminal", lambda: True)
    assert main(["resume", str(path)]) == 1
    out, err = capsys.readouterr()
    assert "saved" not in out.lower()
    line = one_error_line(err, path)
    assert "could not save the last move: the disk is full" in line
