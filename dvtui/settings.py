"""Where the person's settings file is, and the one setting read before anything else: the language.

The file is ``settings.json`` in the platform's user config directory, or in ``$DVTUI_DATA_DIR``
when that is set (tests and portable installs keep everything in one place). What it holds is the
app's (:mod:`dvtui.app.config`: the pace, notifications); the language is read here, apart, because
every command, a headless one too, chooses its language before it says a word, and a headless
command never loads the app.

A leaf: it imports nothing of dvtui.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
import platformdirs

SETTINGS_FILE = "settings.json"


def settings_path() -> Path:
    env = os.environ.get("DVTUI_DATA_DIR")
    base = Path(env) if env else platformdirs.user_config_path("dvtui", appauthor=False)
    return base / SETTINGS_FILE


class _Language(msgspec.Struct):
    """The settings file seen for its ``"language"`` alone (every other key is ignored)."""

    language: str | None = None


def saved_language() -> str | None:
    """The language the settings file names (``"fr"``), or None: no file, no such key, or a file
    that cannot be read (a preference is never worth refusing to start over)."""
    try:
        return msgspec.json.decode(settings_path().read_bytes(), type=_Language).language
    except (OSError, msgspec.DecodeError):
        return None


class _Plain(msgspec.Struct):
    """The settings file seen for its ``"plain"`` alone."""

    plain: bool = False


def saved_plain() -> bool:
    """Whether the settings file asks for the plain, line-by-line mode (``"plain": true``): read
    here, before any command starts, because that choice decides whether the app is loaded at all."""
    try:
        return msgspec.json.decode(settings_path().read_bytes(), type=_Plain).plain
    except (OSError, msgspec.DecodeError):
        return False
