"""A terminal's colours as its environment sets them, for tests that draw under each."""

from __future__ import annotations

import pytest
import textual.constants


def terminal(monkeypatch: pytest.MonkeyPatch, system: str, off: bool) -> tuple[str, bool]:
    """A colour system, with colours on or off (``NO_COLOR``), set as a terminal's environment sets
    them (read when the app is made)."""
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", system)
    if off:
        monkeypatch.setenv("NO_COLOR", "1")
    else:
        monkeypatch.delenv("NO_COLOR", raising=False)
    return system, off
