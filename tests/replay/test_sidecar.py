"""A file beside a shared game (``FILE.analysis.json``) is anyone's: a named pipe, a link to a
device, a huge or deeply nested file or values no search gives are "no kept analysis" with one
line saying why, never a hang, an exhausted memory or a crash of whoever opens the game."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import shutil
from pathlib import Path

import pytest

from dvtui.app.textual_private import notifications
from dvtui.replay.analysis import Analysis, Review, analyse, analysis_path, file_digest, load, made_by, save
from dvtui.replay.sidecar import MAX_SIDECAR_BYTES, SidecarError, read_sidecar
from dvtui.store import read_game

from ..support.processes import dvtui
from ..support.replays import REPLAYS, replay_app, viewer

BUDGET = 5
"""Iterations of the analyses made here: their values are not what is tested."""


def _game(tmp_path: Path) -> Path:
    path = tmp_path / "shared.dvr"
    shutil.copyfile(REPLAYS / "game.dvr", path)
    return path


def _load(game: Path) -> tuple[Analysis | None, str | None]:
    return load(analysis_path(game), file_digest(game.read_bytes()), BUDGET, made_by(), read_game(game).events)


@functools.cache
def _reviews() -> tuple[Review, ...]:
    """The analysis of game.dvr, made once for the module: every game here is a copy of it, and an
    analysis of a file is the same each time it is made."""
    return tuple(analyse(read_game(REPLAYS / "game.dvr").events, BUDGET))


def _kept_text(game: Path, change: dict[str, object] | None = None) -> str:
    """A valid kept analysis of ``game`` (a copy of game.dvr) as text, its first review's values
    changed by ``change``."""
    assert game.read_bytes() == (REPLAYS / "game.dvr").read_bytes()
    reviews = list(_reviews())
    if change:
        reviews[0] = dataclasses.replace(reviews[0], **change)  # type: ignore[arg-type]
    save(analysis_path(game), Analysis(file_digest(game.read_bytes()), BUDGET, made_by(), reviews))
    return analysis_path(game).read_text()


def test_a_well_kept_analysis_is_read(tmp_path: Path) -> None:
    game = _game(tmp_path)
    _kept_text(game)
    found, why = _load(game)
    assert found is not None and why is None


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    game = _game(tmp_path)
    os.mkfifo(analysis_path(game))
    done = dvtui("analyse", str(game), "--budget", str(BUDGET), data=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "the analysis kept there is not read: is not a regular file" in done.stderr
    assert "round" in done.stdout  # made again and printed


def test_a_link_to_a_device_is_not_followed(tmp_path: Path) -> None:
    game = _game(tmp_path)
    analysis_path(game).symlink_to("/dev/zero")
    found, why = _load(game)
    assert found is None and why is not None and "symbolic link" in why


def test_a_link_to_a_good_file_is_not_followed_either(tmp_path: Path) -> None:
    game = _game(tmp_path)
    text = _kept_text(game)
    analysis_path(game).unlink()
    (tmp_path / "elsewhere.json").write_text(text)
    analysis_path(game).symlink_to(tmp_path / "elsewhere.json")
    with pytest.raises(SidecarError, match="symbolic link"):
        read_sidecar(analysis_path(game))


def test_a_file_over_the_cap_is_not_read(tmp_path: Path) -> None:
    game = _game(tmp_path)
    analysis_path(game).write_bytes(b" " * (MAX_SIDECAR_BYTES + 1))
    found, why = _load(game)
    assert found is None and why is not None and f"larger than {MAX_SIDECAR_BYTES} bytes" in why


@pytest.mark.parametrize("nested", ["[" * 200_000, '{"format":1,"x":' + "[" * 200_000 + "]" * 200_000 + "}"])
def test_deep_nesting_is_no_kept_analysis(tmp_path: Path, nested: str) -> None:
    game = _game(tmp_path)
    analysis_path(game).write_text(nested)
    found, why = _load(game)
    assert found is None and why is not None


@pytest.mark.parametrize(
    ("field", "value"),
    [("before", "NaN"), ("played", "Infinity"), ("loss", "-Infinity"), ("noise", "1e999"), ("before", "1.5"),
     ("loss", "-0.1"), ("noise", "-1.0")],
)  # fmt: skip
def test_values_no_search_gives_are_no_kept_analysis(tmp_path: Path, field: str, value: str) -> None:
    game = _game(tmp_path)
    body = json.loads(_kept_text(game, {"played": 0.25, "loss": 0.25, "noise": 0.01}))
    body["reviews"][0][field] = 12345.5  # a placeholder, then the raw token JSON may not even allow
    text = json.dumps(body).replace("12345.5", value)
    analysis_path(game).write_text(text)
    found, why = _load(game)
    assert found is None and why is not None


def test_the_cli_says_why_in_one_line_and_prints_no_impossible_percent(tmp_path: Path) -> None:
    game = _game(tmp_path)
    body = json.loads(_kept_text(game))
    body["reviews"][0]["before"] = 12345.5
    analysis_path(game).write_text(json.dumps(body).replace("12345.5", "Infinity"))
    done = dvtui("analyse", str(game), "--budget", str(BUDGET), data=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "inf%" not in done.stdout and "nan%" not in done.stdout
    assert [line for line in done.stderr.splitlines() if "not read" in line] == [
        f"dvtui: warning: {analysis_path(game)}: the analysis kept there is not read: not JSON as dvtui writes it"
    ]


async def test_the_viewer_opens_a_game_whose_kept_analysis_is_hostile_and_says_why(tmp_path: Path) -> None:
    game = _game(tmp_path)
    body = json.loads(_kept_text(game))
    body["reviews"][0]["before"] = 12345.5
    analysis_path(game).write_text(json.dumps(body).replace("12345.5", "NaN"))
    app = replay_app(game)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert viewer(app).analysis is None  # nothing of it shown, nothing to chart
        said = [str(n.message) for n in notifications(app)]
        assert any("the analysis kept there is not read" in line for line in said), said
