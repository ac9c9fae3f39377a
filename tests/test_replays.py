"""The shipped example games are real, current outputs of the engine (and so of the bots)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from dvtui.store import read_game

REPLAYS = Path(__file__).resolve().parent.parent / "replays"


def _generator():  # replays/ is data, not a package: load its script by path
    spec = importlib.util.spec_from_file_location("replays_generate", REPLAYS / "generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_examples_are_regenerated_byte_for_byte() -> None:
    built = _generator().build()
    shipped = {p.name: p.read_bytes() for p in REPLAYS.glob("*.dvr")}
    assert set(built) == set(shipped)
    for name, data in built.items():
        assert shipped[name] == data, f"replays/{name} differs from the engine's output: run replays/generate.py"


@pytest.mark.parametrize("name", ["game.dvr", "game-3p.dvr", "game-4p.dvr", "game-5p.dvr", "script-3p.dvr"])
def test_every_example_reads_as_a_finished_game(name: str) -> None:
    loaded = read_game(REPLAYS / name)
    assert loaded.game.over
    assert loaded.torn is None and not loaded.notices
    assert loaded.decisions_only == name.startswith("script")


def test_player_counts_are_covered() -> None:
    counts = {read_game(p).game.n for p in REPLAYS.glob("*.dvr")}
    assert counts == {3, 4, 5}


def test_main_example_shows_an_undo() -> None:
    types = [ev.__struct_config__.tag for ev in read_game(REPLAYS / "game.dvr").events]
    assert "placement_undone" in types
