"""What the pseudo-locale (``qps``) finds: a lowercase English word in text it should have said,
that is a message the code never marked for translation (tests/cli/test_pseudo_locale.py and
tests/app/test_app_pseudo.py scan commands and screens with it)."""

from __future__ import annotations

import re

from dvtui import i18n
from dvtui.engine import BOT_LEVELS

DATA = [
    re.compile(r"--?[\w-]+(=\S*)?"),  # an option, as typed
    re.compile(r"'[^']*'|\"[^\"]*\"|«[^»]*»"),  # a value quoted back, a command quoted
    re.compile(r"dvtui( [a-z]+)*"),  # a command to type
    re.compile(r"\S*[/.@:_]\S*"),  # a path, a file name, a budget, bot:LEVEL
    re.compile(r"%\(\w+\)\w|\{\w+\}"),  # a placeholder argparse fills
    re.compile(r"^ {4}[a-z]+( |$)"),  # a command's name in the help's list (alone on its line when long)
]
"""What a message says as it is, in any language: options, commands, paths, values typed back."""
KEPT_WORDS = {*BOT_LEVELS, "dvtui", *i18n.available()}
"""The bot levels' ids (the command line's), dvtui's name, the languages' codes."""
LEAK = re.compile(r"\b[a-z]{2,}\b")
"""A lowercase word of ASCII letters only: the pseudo-locale accents every message's letters (all
but b f m p q v x), so a word such as this came from no catalogue."""


def leaks(text: str) -> list[str]:
    """The lines of ``text`` with a word the pseudo-locale did not say."""
    found = []
    for line in text.splitlines():
        rest = line
        for pattern in DATA:
            rest = pattern.sub(" ", rest)
        words = [w for w in LEAK.findall(rest) if w not in KEPT_WORDS and not set(w) <= set("bfmpqvx")]
        if words:
            found.append(f"{words}: {line}")
    return found
