"""Whether dvtui has a screen to draw on: a terminal, or a browser tab that ``dvtui web`` serves;
and whether it is asked for lines of text instead (``--plain``). No Textual, and of dvtui only the
settings leaf, so the dispatcher and every command can ask before importing any front."""

from __future__ import annotations

import argparse
import os
import sys

from ..settings import saved_plain

PLAIN_ENV = "DVTUI_PLAIN"
YES = ("1", "yes", "true", "on")

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


def wants_plain(args: argparse.Namespace) -> bool:
    """``--plain``, else ``DVTUI_PLAIN`` (``1``: on, ``0``: off, whatever the settings say), else
    the settings file. Never in a browser tab (``dvtui web``): its pipes carry the screen's protocol,
    not lines, whatever the person's settings say. Asked here, not by the plain front, so that a
    command that shows no lines (``dvtui tables``, ``join --bot``) does not load that front to ask."""
    if served_to_browser():
        return False
    if getattr(args, "plain", None):
        return True
    env = os.environ.get(PLAIN_ENV, "").strip().lower()
    if env:
        return env in YES
    return saved_plain()
