"""The optional compiled build: with ``DVTUI_MYPYC=1`` the search's hot modules are compiled to C
by mypyc (as black ships); without it dvtui is pure Python. Everything else is in pyproject.toml.

The compiled modules are the strong bot's search and the rules it runs thousands of times a move;
they give the same moves as their Python source (``tests/bots/test_compiled.py``), only faster
(``bench/bench_strong_ab.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HOT_MODULES = [
    "dvtui/engine/rules.py",
    "dvtui/engine/compact.py",
    "dvtui/bots/value.py",
    "dvtui/bots/strong.py",
]
"""What mypyc compiles: the search (strong, value) and the rules on its compact copy (compact, rules)."""


class BuildWithCatalogues(build_py):
    """The package as setuptools builds it, plus each language's compiled catalogue: the ``.po``
    (committed, package data) compiled to the ``.mo`` gettext reads, beside it in the build (a
    source checkout compiles it in memory instead: dvtui.i18n)."""

    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for source in Path("dvtui/locale").glob("*/LC_MESSAGES/dvtui.po"):
            with source.open("rb") as handle:
                catalog = read_po(handle, locale=source.parts[-3], domain="dvtui")
            target = Path(self.build_lib) / source.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("wb") as handle:
                write_mo(handle, catalog)


COMMANDS = {"build_py": BuildWithCatalogues}

if os.environ.get("DVTUI_MYPYC") == "1":
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(HOT_MODULES, opt_level="3"), cmdclass=COMMANDS)
else:
    setup(cmdclass=COMMANDS)
