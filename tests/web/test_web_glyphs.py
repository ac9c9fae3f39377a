"""What the app draws shows in a browser tab: the page has no web font, so the browser draws the
app in its monospace (fontconfig's, on Linux), and a glyph that font lacks is an empty box."""

from __future__ import annotations

import subprocess

import pytest

from dvtui.app.screens.replay import PAUSED, PLAYING

pytestmark = pytest.mark.chromium


def monospace_family() -> str:
    return subprocess.run(["fc-match", "-f", "%{family[0]}", "monospace"], capture_output=True, text=True,
                          check=True).stdout  # fmt: skip


@pytest.mark.parametrize("glyph", [PLAYING, PAUSED])
def test_the_timelines_marks_are_in_the_browsers_monospace(glyph: str) -> None:
    family = monospace_family()
    having = subprocess.run(["fc-list", f":charset={ord(glyph):x}", "family"], capture_output=True, text=True,
                            check=True).stdout  # fmt: skip
    assert family in having, f"{glyph!r} is not in {family}: the browser shows an empty box"
