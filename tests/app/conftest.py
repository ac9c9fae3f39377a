"""Fixtures for the app's tests: saves in a temporary data directory and no blinking cursor, so
every run (and snapshot) is the same. The apps themselves are built by tests.support.apps."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Input

from dvtui.i18n import ENGLISH, PSEUDO, set_language


@pytest.fixture(autouse=True)
def saves(data_dir: Path) -> Path:
    """Every test here saves in a fresh directory and runs in its own (see ``data_dir``)."""
    return data_dir


@pytest.fixture(autouse=True)
def no_blink(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text cursor that never blinks: snapshots are taken at an arbitrary instant."""
    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)


@pytest.fixture
def french() -> Iterator[None]:
    """The app speaks French for one test, and English again after it (the language is the
    process's: a test that left it French would change every later test's screens)."""
    set_language("fr")
    try:
        yield
    finally:
        set_language(ENGLISH)


@pytest.fixture
def pseudo() -> Iterator[None]:
    """The app speaks the pseudo-locale (every word accented and longer) for one test: what is
    not translated, or does not fit, shows."""
    set_language(PSEUDO)
    try:
        yield
    finally:
        set_language(ENGLISH)
