"""Fixtures for the viewer's tests: branches are saved in a temporary data directory, and the
working directory is the test's own (relative paths on screen are the same on every machine)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def saves(data_dir: Path) -> Path:
    """Every test here saves in a fresh directory and runs in its own (see ``data_dir``)."""
    return data_dir
