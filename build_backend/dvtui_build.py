"""dvtui's build backend: setuptools, plus mypy (whose mypyc compiles the search) when asked for.

``DVTUI_MYPYC=1 pip install .`` builds the compiled wheel (see ``setup.py``); without the variable
this is setuptools' own backend, unchanged. An editable install is always pure Python, whatever the
variable says: a compiled module next to its source would shadow every later edit of that source.
A source distribution holds the sources alone, so it is never compiled either.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 (the whole PEP 517 interface; overridden below where it differs)

MYPYC = "mypy>=2.0"
"""What compiles (mypyc ships with mypy); a C compiler is the one other need."""

TYPED_IMPORTS = ("msgspec",)
"""What mypy must import to type the compiled modules: the libraries they import (the events and
the rules are msgspec Structs). Without them mypy reads each as ``Any`` and fails the build, and the
build's environment holds only what this backend asks for, not the project's dependencies."""

T = TypeVar("T")


def _compiled_requirements() -> list[str]:
    """mypy, and each of ``TYPED_IMPORTS`` as the project requires it (pyproject.toml's
    ``dependencies``), so the compiler types the code against the versions dvtui runs with."""
    project = tomllib.loads(Path("pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [r for r in project["dependencies"] if re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0] in TYPED_IMPORTS]
    return [MYPYC, *wanted]


def _compiled() -> bool:
    return os.environ.get("DVTUI_MYPYC") == "1"


def _pure(hook: Callable[..., T]) -> Callable[..., T]:
    """``hook`` with the variable unset: each hook is its own process, and setup.py runs inside it."""

    def run(*args: object, **kwargs: object) -> T:
        os.environ.pop("DVTUI_MYPYC", None)
        return hook(*args, **kwargs)

    return run


def get_requires_for_build_wheel(config_settings: dict[str, str] | None = None) -> list[str]:
    if _compiled():  # setuptools' own answer runs setup.py, which needs mypyc before it is installed
        return _compiled_requirements()
    return build_meta.get_requires_for_build_wheel(config_settings)


prepare_metadata_for_build_wheel = _pure(build_meta.prepare_metadata_for_build_wheel)
"""The metadata are the same either way: without the variable, setup.py does not compile the
search once for the metadata and again for the wheel."""


get_requires_for_build_editable = _pure(build_meta.get_requires_for_build_editable)
prepare_metadata_for_build_editable = _pure(build_meta.prepare_metadata_for_build_editable)
build_editable = _pure(build_meta.build_editable)
get_requires_for_build_sdist = _pure(build_meta.get_requires_for_build_sdist)
build_sdist = _pure(build_meta.build_sdist)
