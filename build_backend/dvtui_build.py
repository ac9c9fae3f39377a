"""dvtui's build backend: setuptools, plus mypy (whose mypyc compiles the search) when asked for.

``DVTUI_MYPYC=1 pip install .`` builds the compiled wheel (see ``setup.py``); without the variable
this is setuptools' own backend, unchanged. An editable install is always pure Python, whatever the
variable says: a compiled module next to its source would shadow every later edit of that source.
A source distribution holds the sources alone, so it is never compiled either.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 (the whole PEP 517 interface; overridden below where it differs)

MYPYC = "mypy>=2.0"
"""What the compiled build needs besides setuptools (mypyc ships with mypy), and a C compiler."""

T = TypeVar("T")


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
        return [MYPYC]
    return build_meta.get_requires_for_build_wheel(config_settings)


get_requires_for_build_editable = _pure(build_meta.get_requires_for_build_editable)
prepare_metadata_for_build_editable = _pure(build_meta.prepare_metadata_for_build_editable)
build_editable = _pure(build_meta.build_editable)
get_requires_for_build_sdist = _pure(build_meta.get_requires_for_build_sdist)
build_sdist = _pure(build_meta.build_sdist)
