"""The types hold (mypy, configured in pyproject.toml: strict for the engine, the files, the sessions
and the tables). Among what it checks: the screens hold a session typed as :class:`GameSession`,
so a screen that asks a session for anything the protocol does not declare fails here; and
:class:`PlaySession` and :class:`RemoteSession` are passed where a :class:`GameSession` is wanted,
so each must have all of it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.long
def test_mypy_reports_nothing() -> None:
    cache = ROOT / ".mypy_cache"  # gitignored: a later run checks only what changed
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
