"""The compiled build (``DVTUI_MYPYC=1``, setup.py) plays exactly as the pure one: the same source
compiled by mypyc into a temporary tree, then the same positions searched by both trees.

Floats are compared by their repr, so a compiled module that rounded one step differently (and one
day chose another move because of it) fails here, not in a game."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.mypyc

ROOT = Path(__file__).resolve().parents[2]

SEARCH = """
import json, sys
from dvtui.bots import think
from dvtui.bots.strong import candidates
from dvtui.engine import compact, rules
from dvtui.bots import strong, value
from tests.support.positions import random_state

out = {"modules": [m.__file__ for m in (compact, rules, strong, value)], "moves": []}
for deal in range(int(sys.argv[1])):
    players = 3 + deal % 3
    whole_game = random_state(players, deal, 0, 0).rounds * 5 * players
    game = random_state(players, deal, deal * 53 % whole_game, deal)  # every round, the last one too
    hint = think(game, deal, iterations=int(sys.argv[2]))
    weighed = [tuple(p) for p in candidates(game)]
    out["moves"].append([deal, *hint.placement, hint.gain, repr(hint.win), hint.iterations, weighed])
print(json.dumps(out))
"""

POSITIONS = 90
"""Positions searched: 30 each at 3, 4 and 5 players, spread over the whole game."""
ITERATIONS = 1000
"""Enough for a tree several placements deep, memo hits and rollouts in every search."""


def search(tree: Path) -> dict[str, list]:
    """The moves of the dvtui in ``tree`` (the tests' helpers from this checkout)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(ROOT)])}
    run = subprocess.run(
        [sys.executable, "-c", SEARCH, str(POSITIONS), str(ITERATIONS)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_compiled_and_pure_builds_choose_the_same_moves(tmp_path: Path) -> None:
    tree = tmp_path / "compiled"
    tree.mkdir()
    for name in ("setup.py", "pyproject.toml"):
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(ROOT / "dvtui", tree / "dvtui", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    built = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=tree,
        env={**os.environ, "DVTUI_MYPYC": "1"},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert built.returncode == 0, built.stderr[-3000:]

    compiled, pure = search(tree), search(ROOT)

    assert all(Path(f).suffix == ".so" and Path(f).is_relative_to(tree) for f in compiled["modules"])
    assert all(Path(f).suffix == ".py" for f in pure["modules"])
    assert len(pure["moves"]) == POSITIONS
    assert compiled["moves"] == pure["moves"]
