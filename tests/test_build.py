"""The package as pip builds it from this checkout (pyproject.toml, hatchling and its hooks): the wheel
of ``pip install .`` is pure Python and holds every module and data file of the package, with each
language's catalogue compiled by Babel beside its source; and the checkout the tests run is its own
source, not the compiled modules a compiled build leaves beside it (they would hide every edit).

The compiled build itself is tested by tests/bots/test_compiled.py (marker mypyc)."""

from __future__ import annotations

import importlib
import io
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from packaging.requirements import Requirement

from .support.processes import REPO

HOT = ("dvtui.engine.rules", "dvtui.engine.compact", "dvtui.bots.value", "dvtui.bots.strong")
"""The modules the compiled build compiles (pyproject.toml's mypyc hook)."""
BUILT = ("__pycache__", "*.so", "*.mo", "*.pot")
"""What a build or a developer's command makes in the package: not part of the source."""


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of what the build reads (a build leaves files where it runs)."""
    tree = tmp_path_factory.mktemp("source")
    shutil.copytree(REPO / "dvtui", tree / "dvtui", ignore=shutil.ignore_patterns(*BUILT))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, tree / name)
    return tree


@pytest.fixture(scope="module")
def wheel(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel pip builds from ``source`` with the build's own requirements already installed
    (the test extras), as ``pip install .`` does without any build variable set."""
    out = tmp_path_factory.mktemp("wheel")
    env = {key: value for key, value in os.environ.items() if not key.startswith("HATCH_BUILD")}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])  # Babel's pybabel
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(source)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, (built.stdout + built.stderr)[-3000:]
    (found,) = out.glob("*.whl")
    return found


def test_the_wheel_is_pure_python_and_holds_the_whole_package_and_its_compiled_catalogues(
    source: Path, wheel: Path
) -> None:
    package = {path.relative_to(source).as_posix() for path in (source / "dvtui").rglob("*") if path.is_file()}
    catalogues = {name.removesuffix(".po") + ".mo" for name in package if name.endswith(".po")}
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        tags = archive.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()

    assert wheel.name.endswith("-py3-none-any.whl")
    assert "Root-Is-Purelib: true" in tags
    assert catalogues
    assert {name for name in names if ".dist-info/" not in name} == package | catalogues


def test_each_catalogue_ships_compiled_exactly_as_babel_compiles_it(source: Path, wheel: Path) -> None:
    """Every message, plural form and context as ``dvtui.i18n`` reads them from the ``.po`` in a
    source checkout: the same compiler, to the byte."""
    with zipfile.ZipFile(wheel) as archive:
        for po in sorted((source / "dvtui" / "locale").glob("*/LC_MESSAGES/dvtui.po")):
            with po.open("rb") as handle:
                expected = io.BytesIO()
                write_mo(expected, read_po(handle, locale=po.parts[-3], domain="dvtui"))
            shipped = archive.read(po.relative_to(source).with_suffix(".mo").as_posix())
            assert shipped == expected.getvalue(), po


def test_the_checkout_under_test_runs_its_own_sources() -> None:
    """A compiled build in this checkout (the mypyc hook compiles in place) leaves ``*.so`` files
    beside their sources, which Python imports before the ``.py``: every later edit of them would go
    unseen, here and in each dvtui process the tests start."""
    compiled = [name for name in HOT if not (importlib.import_module(name).__file__ or "").endswith(".py")]
    assert compiled == [], (
        f"{compiled} imported from a compiled build's leftovers: delete them "
        "(find dvtui -name '*.so' -delete; rm -f ./*__mypyc*.so)"
    )


def test_the_compiled_builds_environment_pins_dvtuis_dependencies_as_dvtui_does() -> None:
    """The mypyc hook's build environment holds, of dvtui's dependencies, only those mypy reaches
    from the compiled modules (tests/bots/test_compiled.py builds in it, so one missing fails
    there): each with the very requirement ``[project]`` gives it, so that mypy types the
    compiled modules against the version they run with."""
    with (REPO / "pyproject.toml").open("rb") as handle:
        config = tomllib.load(handle)
    runtime = {Requirement(spec).name: spec for spec in config["project"]["dependencies"]}
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    shared = {Requirement(spec).name: spec for spec in hook["dependencies"] if Requirement(spec).name in runtime}

    assert "require-runtime-dependencies" not in hook
    assert set(shared) == {"msgspec", "babel"}
    assert shared == {name: runtime[name] for name in shared}
