"""``dvtui resume --headless`` and where and how save files are made."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from dvtui.cli import main
from dvtui.engine import Game, Placement, Seat
from dvtui.play.autoplay import play_out
from dvtui.store import GameLock, GameWriter, data_dir, list_games, lock_path, new_save_path, read_game

from ..support.files import reference, start_game, strip_at
from ..support.positions import BOTS3, WITH_HUMAN, created
from ..support.processes import dvtui, one_error_line


def test_refuses_when_a_human_still_has_to_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = start_game(tmp_path / "game.dvr", WITH_HUMAN, seed=3)
    with GameWriter.resume(read_game(path)) as w:  # Ana plays, then the bots, then it is Ana again
        game = read_game(path).game
        w.append(game.place(Placement(6, 0)))
        play_out(game, w.append)
    before = path.read_bytes()
    assert main(["resume", str(path), "--headless"]) == 1
    line = one_error_line(capsys.readouterr().err, path)
    assert "cannot finish headless: Ana (seat 1) is a human player and still has to move" in line
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ["game.dvr"]


def test_with_a_human_seat_only_owed_results_are_written(tmp_path: Path) -> None:
    """A game whose last placement is saved but whose results were lost (torn): no one has to move,
    so the headless resume completes it, human seat or not."""
    path = tmp_path / "game.dvr"
    c = created(WITH_HUMAN, seed=3)
    game = Game(c)
    with GameWriter.create(path, c) as w:
        while not game.over:
            w.append(game.place(game.legal_placements()[-1]))
    full = path.read_bytes()
    cut = full.rindex(b'{"type":"column_resolved","seq"', 0, full.rindex(b"game_ended")) + 20  # mid-results
    path.write_bytes(full[:cut])
    assert main(["resume", str(path), "--headless"]) == 0
    assert strip_at(path.read_bytes()) == strip_at(full)


def test_without_a_file_it_finishes_the_latest_unfinished_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path / "data"))
    assert main(["resume", "--headless"]) == 1
    assert "no unfinished game in" in capsys.readouterr().err
    c = created(BOTS3, seed=5)
    path = new_save_path(c)
    assert path.parent == data_dir() and str(path).startswith(str(tmp_path / "data"))
    GameWriter.create(path, c).close()
    assert main(["resume", "--headless"]) == 0
    assert strip_at(path.read_bytes()) == strip_at(reference(BOTS3, seed=5))
    games, bad = list_games()
    assert [g.path for g in games] == [path] and games[0].finished and not bad


def test_a_save_files_name_keeps_accented_names_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path / "data"))
    seats = [Seat(name="Éloïse", kind="human", color="red"), Seat(name="Anaïs, Béatrice", kind="human", color="yellow"),
             Seat(name="Œdipe 李", kind="human", color="green")]  # fmt: skip
    path = new_save_path(created(seats))
    assert path.name.endswith("_eloise-anais-beatrice-oedipe.dvr"), path.name


def test_save_files_are_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DVTUI_DATA_DIR", str(tmp_path / "data"))
    old = os.umask(0)  # even a careless umask gives nobody else access
    try:
        path = new_save_path(created())
        writer = GameWriter.create(path, created())
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
        assert stat.S_IMODE(os.stat(lock_path(path)).st_mode) == 0o600
        writer.close()
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(data_dir()).st_mode) == 0o700
    assert sorted(os.listdir(data_dir())) == [path.name]


def test_bot_level_unknown_to_this_version_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.dvr"
    start_game(path)
    path.write_bytes(path.read_bytes().replace(b'"bot":"random"', b'"bot":"oracle"', 1))
    assert main(["resume", str(path), "--headless"]) == 1
    line = one_error_line(capsys.readouterr().err, path)
    assert "line 1: game_created: players[1].bot: unknown bot level 'oracle'" in line


@pytest.mark.parametrize(
    ("bot", "words"),
    [
        ("oracle", "players[1].bot: unknown bot level 'oracle'"),
        ("strong@99999999999999", "players[1].bot: a bot's budget is at most 200000 iterations"),
        ("strong@999999999s", "players[1].bot: a bot's budget is at most"),
    ],
)
@pytest.mark.parametrize("command", [["verify"], ["resume"], ["resume", "--headless"], ["replay", "--text"]])
def test_a_bot_this_version_will_not_play_is_refused_at_game_created(
    tmp_path: Path, bot: str, words: str, command: list[str]
) -> None:
    """Refused when read, by every command alike, before anything is locked or started: no
    'internal error', no stale lock, no bot that never answers."""
    path = tmp_path / "game.dvr"
    start_game(path)
    data = path.read_bytes().replace(b'"bot":"random"', f'"bot":"{bot}"'.encode(), 1)
    path.write_bytes(data)
    proc = dvtui(*command, str(path), data=tmp_path / "data")
    assert proc.returncode == 1, proc.stderr
    line = one_error_line(proc.stderr, path)
    assert f"line 1: game_created: {words}" in line
    assert path.read_bytes() == data
    assert sorted(os.listdir(tmp_path)) == ["game.dvr"]  # no lock, no copy, no save directory


def test_a_finished_games_lock_left_by_a_killed_process_is_cleared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A process killed after a game's last line leaves its lock file behind (its lock died with
    it): ``resume --headless`` says the game is over, and the file is gone with nobody holding it;
    a lock somebody holds stays."""
    path = tmp_path / "game.dvr"
    path.write_bytes(reference())
    stale = b'{"host": "here", "pid": 4242, "since": "2020-01-01T00:00:00Z", "user": "ana"}\n'
    lock_path(path).write_bytes(stale)
    assert main(["resume", str(path), "--headless"]) == 0
    assert "the game is already over; nothing to play" in capsys.readouterr().err
    assert not lock_path(path).exists()
    assert path.read_bytes() == reference()

    with GameLock.acquire(path):  # a live holder's lock is left alone
        assert main(["resume", str(path), "--headless"]) == 0
        assert lock_path(path).exists()
