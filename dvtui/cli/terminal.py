"""Whether dvtui has a screen to draw on: a terminal, or a browser tab that ``dvtui web`` serves.
A leaf (no Textual, nothing of dvtui), so the dispatcher can ask before importing any app."""

from __future__ import annotations

import os
import sys

WEB_DRIVER = "textual.drivers.web_driver:WebDriver"
"""The Textual driver textual-serve names in each tab's environment: the app talks to the browser
over its standard input and output, which are pipes there, not a terminal."""


def served_to_browser() -> bool:
    """This dvtui runs for a browser tab (under ``dvtui web``): its pipes are the tab's screen and keys."""
    return os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER


def has_terminal() -> bool:
    """Both ends of a full-screen app: keys come from stdin, the screen goes to stdout (a terminal's,
    or a browser tab's through the web driver)."""
    return served_to_browser() or (sys.stdin.isatty() and sys.stdout.isatty())
