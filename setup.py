"""The optional compiled build: with ``DVTUI_MYPYC=1`` the search's hot modules are compiled to C
by mypyc (as black ships); without it dvtui is pure Python. Everything else is in pyproject.toml.

The compiled modules are the strong bot's search and the rules it runs thousands of times a move;
they give the same moves as their Python source (``tests/bots/test_compiled.py``), only faster
(``bench/bench_strong_ab.py``).
"""

from __future__ import annotations

import os

from setuptools import setup

HOT_MODULES = [
    "dvtui/engine/rules.py",
    "dvtui/engine/compact.py",
    "dvtui/bots/value.py",
    "dvtui/bots/strong.py",
]
"""What mypyc compiles: the search (strong, value) and the rules on its compact copy (compact, rules)."""

if os.environ.get("DVTUI_MYPYC") == "1":
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(HOT_MODULES, opt_level="3"))
else:
    setup()
