"""dvtui's build backend: setuptools, plus mypy (whose mypyc compiles the search) when asked for.

``DVTUI_MYPYC=1 pip install .`` builds the compiled wheel (see ``setup.py``); without the variable
this is setuptools' own backend, unchanged. An editable install is always pure Python, whatever the
variable says: a compiled module next to its source would shadow every later edit of that source.
"""

from __future__ import annotations

import os

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 (the whole PEP 517 interface, overridden below where it differs)

MYPYC = "mypy>=2.0"
"""What the compiled build needs besides setuptools (mypyc ships with mypy), and a C compiler."""


def _compiled() -> bool:
    return os.environ.get("DVTUI_MYPYC") == "1"


def get_requires_for_build_wheel(config_settings: dict[str, str] | None = None) -> list[str]:
    if _compiled():  # setuptools' own answer runs setup.py, which needs mypyc before it is installed
        return [MYPYC]
    return build_meta.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_sdist(config_settings: dict[str, str] | None = None) -> list[str]:
    os.environ.pop("DVTUI_MYPYC", None)  # a source distribution holds the sources: nothing to compile
    return build_meta.get_requires_for_build_sdist(config_settings)


def build_sdist(sdist_directory: str, config_settings: dict[str, str] | None = None) -> str:
    os.environ.pop("DVTUI_MYPYC", None)
    return build_meta.build_sdist(sdist_directory, config_settings)


def get_requires_for_build_editable(config_settings: dict[str, str] | None = None) -> list[str]:
    os.environ.pop("DVTUI_MYPYC", None)  # setup.py runs in this process: it reads the same environment
    return build_meta.get_requires_for_build_editable(config_settings)


def build_editable(
    wheel_directory: str, config_settings: dict[str, str] | None = None, metadata_directory: str | None = None
) -> str:
    os.environ.pop("DVTUI_MYPYC", None)
    return build_meta.build_editable(wheel_directory, config_settings, metadata_directory)
