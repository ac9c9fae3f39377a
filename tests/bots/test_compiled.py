"""The compiled build (pyproject.toml's mypyc hook, enabled by ``HATCH_BUILD_HOOK_ENABLE_MYPYC=1``)
installs with the README's command and plays exactly as the pure one: the documented command, run
as written in a fresh virtual environment, builds the source with mypyc (the build's own isolated
environment holds only what pyproject.toml asks for), then the same positions are searched by both
installs.

Floats are compared by their repr, so a compiled module that rounded one step differently (and one
day chose another move because of it) fails here, not in a game."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

pytestmark = pytest.mark.mypyc

ROOT = Path(__file__).resolve().parents[2]

DOCUMENTED = "HATCH_BUILD_HOOK_ENABLE_MYPYC=1 pip install ."
"""The compiled build's command as README.md and docs/DEVELOPMENT.md give it."""
SOURCE = ("pyproject.toml", "README.md", "dvtui")
"""What the build reads: a checkout without its tests, its history or anything built in it."""

SEARCH = """
import json, sys
from dvtui.bots import think
from dvtui.bots.strong import candidates
from dvtui.engine import compact, rules
from dvtui.bots import strong, value
from tests.support.positions import random_state

out = {"modules": [m.__file__ for m in (compact, rules, strong, value)], "moves": [], "rounds": []}
positions = int(sys.argv[1])
for deal in range(positions):
    players = 3 + deal % 3
    whole_game = random_state(players, deal, 0, 0).rounds * 5 * players
    stretch = deal // 3 * whole_game // (positions // 3)  # evenly over the game: every round, the last too
    game = random_state(players, deal, stretch + deal % 5, deal)
    hint = think(game, deal, iterations=int(sys.argv[2]))
    weighed = [tuple(p) for p in candidates(game)]
    out["moves"].append([deal, *hint.placement, hint.gain, repr(hint.win), hint.iterations, weighed])
    out["rounds"].append([players, game.round, game.rounds])
print(json.dumps(out))
"""

POSITIONS = 30
"""Positions searched: 10 each at 3, 4 and 5 players, spread evenly over the whole game (every round
at every player count: the test checks it), each a different deal."""
ITERATIONS = 300
"""Enough for a tree several placements deep and memo hits in every search, rollouts in all but
those a few cards from their round's end (where the tree reaches the end itself). The compiled and
pure moves are the same or not from the first positions and iterations: a larger search only cost
more (90 positions of 1000 iterations were 4 s of CPU for the pure search alone, these 0.5 s)."""


def searching(python: Path | str, path: Path) -> subprocess.Popen[str]:
    """Start searching with the dvtui ``python`` imports, with ``path`` in front of its own (the
    tests' helpers from this checkout): :func:`searched` gives its moves."""
    env = {**os.environ, "PYTHONPATH": str(path)}
    return subprocess.Popen(
        [python, "-c", SEARCH, str(POSITIONS), str(ITERATIONS)],
        cwd=path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def searched(search: subprocess.Popen[str]) -> dict[str, list]:
    """The moves a search started by :func:`searching` chose."""
    out, err = search.communicate(timeout=600)
    assert search.returncode == 0, err[-3000:]
    return json.loads(out)


def test_the_documents_give_the_command_this_test_runs() -> None:
    for page in ("README.md", "docs/DEVELOPMENT.md"):
        assert f"`{DOCUMENTED}`" in (ROOT / page).read_text(encoding="utf-8"), page


@pytest.mark.long
def test_the_documented_command_installs_a_compiled_build_that_chooses_the_pure_moves(tmp_path: Path) -> None:
    pure_search = searching(sys.executable, ROOT)  # meanwhile: the build waits on downloads much of its time
    try:
        compiled, pure = _built_and_searched(tmp_path), searched(pure_search)
    finally:
        pure_search.kill()
        pure_search.wait()

    assert all(Path(f).suffix == ".so" and Path(f).is_relative_to(tmp_path / "venv") for f in compiled["modules"])
    assert all(Path(f).suffix == ".py" and Path(f).is_relative_to(ROOT) for f in pure["modules"])
    assert len(pure["moves"]) == POSITIONS
    assert {(players, round_) for players, round_, _ in pure["rounds"]} == {
        (players, round_) for players, _, rounds in pure["rounds"] for round_ in range(1, rounds + 1)
    }
    assert compiled["moves"] == pure["moves"]


def _built_and_searched(tmp_path: Path) -> dict[str, list]:
    """The documented command run in a fresh virtual environment (``tmp_path / "venv"``) on a copy
    of the source; then the moves of the build it installed."""
    tree = tmp_path / "source"
    tree.mkdir()
    for name in SOURCE:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.mo", "*.pot")
            )
        else:
            shutil.copy(ROOT / name, tree / name)
    fresh = _fresh_venv(tmp_path / "venv")
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "VIRTUAL_ENV", "HATCH_BUILD_HOOK_ENABLE_MYPYC", "HATCH_BUILD_HOOKS_ENABLE")
    }
    env["PATH"] = os.pathsep.join([str(fresh / "bin"), env.get("PATH", "")])
    # pip's own setting, for the build's environment too: no bytecode compiled ahead for every module
    # installed (mypy's there, Textual's and Pygments' here), of which the search imports a few
    env["PIP_NO_COMPILE"] = "1"
    built = subprocess.run(DOCUMENTED, shell=True, cwd=tree, env=env, capture_output=True, text=True, timeout=900)
    assert built.returncode == 0, (built.stdout + built.stderr)[-3000:]
    checkout = tmp_path / "checkout"  # the tests' helpers, without this checkout's dvtui beside them
    checkout.mkdir()
    (checkout / "tests").symlink_to(ROOT / "tests")
    _link(HELPERS, checkout)

    return searched(searching(fresh / "bin" / "python", checkout))


PIP = ("pip",)
"""What the fresh environment's ``pip`` is: this interpreter's own, linked rather than installed."""
HELPERS = ("hypothesis", "_hypothesis_globals", "_hypothesis_ftz_detector", "sortedcontainers")
"""What tests.support.positions needs besides dvtui (hypothesis, which it imports, and what
hypothesis imports): linked beside the tests' helpers rather than installed in the fresh
environment, where they would be installed for the search alone."""


def _fresh_venv(where: Path) -> Path:
    """A new virtual environment with nothing installed but ``pip``: the pip this test runs with
    (ensurepip's, as in any environment ``python -m venv`` makes), linked into its site-packages
    with its record and started by a ``bin/pip`` as pip's own console script, rather than unpacked
    and compiled again (ensurepip: over 5 s of CPU)."""
    venv.create(where, with_pip=False)
    (site,) = where.glob("lib/python*/site-packages")
    (pip,) = _link(PIP, site)
    for record in pip.parent.glob("pip-*.dist-info"):
        (site / record.name).symlink_to(record)
    script = where / "bin" / "pip"
    script.write_text(
        f"#!{where / 'bin' / 'python'}\nimport sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n"
    )
    script.chmod(0o755)
    return where


def _link(modules: tuple[str, ...], into: Path) -> list[Path]:
    """Link each of ``modules`` (a package or a module of this interpreter's) into ``into``; returns
    where each was found."""
    linked = []
    for name in modules:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.origin is not None, name
        found = Path(spec.origin)
        found = found.parent if found.name == "__init__.py" else found
        (into / found.name).symlink_to(found)
        linked.append(found)
    return linked
