"""A browser tab's dvtui started ahead of its tab (``dvtui web`` keeps one spare): it imports the
app, the long part of a start (at the start menu, it also builds it and parses its styles), then
waits for the tab to say its size and person, and only then runs, so what it shows (the game to
resume, who is at the table) is as of the tab's opening, not before."""

from __future__ import annotations

import json
import os

from ..i18n import PSEUDO, available, choose, language_of, set_language
from ..settings import saved_language
from ..tables.vetting import person_problem
from .errors import WebUsageError

SPARE_VARIABLE = "DVTUI_WEB_SPARE"
"""Set in a spare's environment by ``dvtui web``: wait for the tab's line before building the app."""
PLAYER_VARIABLE = "DVTUI_PLAYER"
"""The person of a tab, as a login proxy named them; the set-up screen's first seat."""
DATA_VARIABLE = "DVTUI_DATA_DIR"
"""Where a dvtui keeps its games and settings (:func:`dvtui.store.data_dir`): ``dvtui web`` gives
each person a proxy names a directory of their own."""
MAX_LINE = 4096
MAX_LANGUAGES = 20
"""The most of an ``Accept-Language`` header's entries read (a browser sends a handful)."""


LANGUAGE_VARIABLE = "DVTUI_LANG"
"""The language ``dvtui web --lang`` gives every tab: a choice, above the browser's and the settings'."""
BROWSER_VARIABLE = "LANGUAGE"
"""Where a tab's dvtui finds the languages its browser asks for (its page request's
``Accept-Language``): gettext's own variable, which :func:`dvtui.i18n.choose` ranks below a
``--lang``, ``DVTUI_LANG`` and the person's settings, so that a language the person chose wins."""


def browser_languages(header: str) -> str | None:
    """The languages of an ``Accept-Language`` header that dvtui speaks, most wanted first, as
    ``LANGUAGE`` lists them (``fr:en``); None when it names none of them (the tab keeps the
    environment's)."""
    wanted: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",")[:MAX_LANGUAGES]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip() == "q":
            try:
                quality = float(value)
            except ValueError:
                continue
        code = language_of(tag)
        if code is not None and quality > 0:
            wanted.append((-quality, i, code))
    spoken = set(available()) - {PSEUDO}
    codes = list(dict.fromkeys(code for _, _, code in sorted(wanted) if code in spoken))
    return ":".join(codes) or None


def is_spare() -> bool:
    return os.environ.get(SPARE_VARIABLE) == "1"


def wait_for_tab() -> None:
    """Read the tab's one JSON line from standard input (byte by byte, so that nothing after it,
    the web driver's, is taken) and make its size, person and data directory this process's. Standard input
    closed first: ``dvtui web`` left without using this spare."""
    line = b""
    while not line.endswith(b"\n") and len(line) < MAX_LINE:
        byte = os.read(0, 1)
        if not byte:
            raise SystemExit(0)
        line += byte
    tab = json.loads(line)
    os.environ.pop(SPARE_VARIABLE, None)
    os.environ["COLUMNS"] = str(int(tab["width"]))
    os.environ["ROWS"] = str(int(tab["height"]))
    if tab.get("player"):
        os.environ[PLAYER_VARIABLE] = str(tab["player"])
    if tab.get("data"):
        os.environ[DATA_VARIABLE] = str(tab["data"])
    if tab.get("languages"):
        os.environ[BROWSER_VARIABLE] = str(tab["languages"])
    # chosen again: the tab's browser and its person's settings are known only now
    set_language(choose(None, os.environ, saved_language()))


def vouched() -> str | None:
    """The person this dvtui sits at a table for: ``DVTUI_PLAYER``, else None (the account
    itself). ``dvtui web`` sets it for a tab whose login proxy named a user and removes an
    inherited one from every other tab; anyone may also set it in their own environment, and the
    table server takes it only from an account it trusts to vouch (its own, ``--trust``'s). A name
    the table cannot take is refused here, in words, rather than cut (two people would merge)."""
    name = os.environ.get(PLAYER_VARIABLE) or None
    problem = None if name is None else person_problem(name)
    if problem is not None:
        raise WebUsageError(f"{PLAYER_VARIABLE}: {problem}, not {name!r}")
    return name


def tab_line(
    width: int, height: int, player: str | None, data: str | None = None, languages: str | None = None
) -> bytes:
    """What a spare waits for: the tab's size, its person, their data directory (None: the
    account's own) and the languages its browser asks for (:func:`browser_languages`)."""
    tab = {"width": width, "height": height, "player": player, "data": data, "languages": languages}
    return (json.dumps(tab) + "\n").encode()


__all__ = [
    "BROWSER_VARIABLE",
    "DATA_VARIABLE",
    "LANGUAGE_VARIABLE",
    "PLAYER_VARIABLE",
    "SPARE_VARIABLE",
    "browser_languages",
    "is_spare",
    "tab_line",
    "vouched",
    "wait_for_tab",
]
