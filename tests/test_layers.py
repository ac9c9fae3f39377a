"""The layers of pyproject.toml's import-linter contract hold: cli, app, what plays or replays a
game without a screen, then describe / store / bots, then the engine; each imports only from the
layers below it. import-linter reads every import statement, including those inside functions, so
a deferred import that points up fails here even though ``tests/test_imports.py`` (which looks at
``sys.modules`` after importing) cannot see it.

Each check runs in a fresh interpreter, on the package of this repository.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LINT = (
    "import sys\n"
    "from importlinter.cli import lint_imports\n"
    "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))\n"
)


def lint_imports(config: Path, root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with ``config``, on the packages under ``root``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(root)
    return subprocess.run(
        [sys.executable, "-c", LINT, str(config)], capture_output=True, text=True, cwd=root, env=env, timeout=120
    )


def test_the_package_keeps_its_layers() -> None:
    proc = lint_imports(REPO / "pyproject.toml", REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "dvtui layers KEPT" in proc.stdout
    assert "the engine's one API KEPT" in proc.stdout
    assert "the leaves import nothing of dvtui KEPT" in proc.stdout
    assert "the bots' one API KEPT" in proc.stdout
    assert "the ratings' one API KEPT" in proc.stdout


def test_an_import_inside_a_function_that_points_up_breaks_the_contract(tmp_path: Path) -> None:
    """The check can fail, and on the kind of edge it is here for: a lower layer importing a
    higher one lazily, inside a function."""
    package = tmp_path / "layered"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "high.py").write_text("from . import low\n")
    (package / "low.py").write_text("def later():\n    from . import high\n\n    return high\n")
    config = tmp_path / "contract.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "layered"\n\n'
        '[[tool.importlinter.contracts]]\nname = "layers"\ntype = "layers"\n'
        'layers = ["layered.high", "layered.low"]\n'
    )
    proc = lint_imports(config, tmp_path)
    assert proc.returncode != 0
    assert "layers BROKEN" in proc.stdout and "layered.low -> layered.high" in proc.stdout


def test_a_deep_import_of_the_engine_breaks_the_contract(tmp_path: Path) -> None:
    """The engine's contract can fail, on what it is there for: another package importing one of
    the engine's modules instead of the engine itself (the engine's own modules may)."""
    package = tmp_path / "deep"
    engine = package / "engine"
    engine.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (engine / "__init__.py").write_text("from .game import Game\n")
    (engine / "game.py").write_text("from .cards import DECK\n\nGame = object\n")
    (engine / "cards.py").write_text("DECK = ()\n")
    (package / "fine.py").write_text("from .engine import Game\n")
    (package / "ui.py").write_text("def later():\n    from .engine.game import Game\n\n    return Game\n")
    config = tmp_path / "contract.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "deep"\n\n'
        '[[tool.importlinter.contracts]]\nname = "the engine\'s one API"\ntype = "protected"\n'
        'protected_modules = ["deep.engine.*"]\nallowed_importers = ["deep.engine"]\n'
    )
    proc = lint_imports(config, tmp_path)
    assert proc.returncode != 0
    assert "the engine's one API BROKEN" in proc.stdout and "deep.ui -> deep.engine.game" in proc.stdout
    assert "deep.fine" not in proc.stdout and "deep.engine.game -> deep.engine.cards" not in proc.stdout


def test_a_leaf_that_imports_any_of_its_package_breaks_the_contract(tmp_path: Path) -> None:
    """The leaves' contract can fail, on a leaf importing another module of the package, lazily,
    or the other leaf; a module beside them imports them freely."""
    package = tmp_path / "leafy"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "printable.py").write_text("def later():\n    from . import store\n\n    return store\n")
    (package / "signals.py").write_text("from .printable import later\n")
    (package / "store.py").write_text("from . import printable, signals\n")
    config = tmp_path / "contract.toml"
    config.write_text(
        '[tool.importlinter]\nroot_package = "leafy"\n\n'
        '[[tool.importlinter.contracts]]\nname = "the leaves"\ntype = "forbidden"\n'
        'source_modules = ["leafy.printable", "leafy.signals"]\nforbidden_modules = ["leafy.*"]\n'
    )
    proc = lint_imports(config, tmp_path)
    assert proc.returncode != 0
    assert "the leaves BROKEN" in proc.stdout
    assert "leafy.printable is not allowed to import leafy.store" in proc.stdout
    assert "leafy.signals is not allowed to import leafy.printable" in proc.stdout
