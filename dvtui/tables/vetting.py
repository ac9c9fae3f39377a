"""What the table server checks of what a client says beyond the protocol's types: the names it
shows to everyone (a bot client's level, a vouched person's name) and, for a line that is not a
valid message, what it says it is, so that the refusal answers the request it was meant to be.
The types themselves, and their bounds, are those of :mod:`dvtui.tables.wire` and the messages' modules."""

from __future__ import annotations

import re

import msgspec

from ..printable import printable
from .wire import MAX_PERSON_CHARS


def bot_problem(level: str) -> str | None:
    """Why ``level`` cannot be a bot client's level (``hello.bot``; None: it can): it is shown to
    everyone at the table, so it prints as itself and has no spaces around it."""
    if printable(level) != level or level.strip() != level:
        return "a bot's level is of printable characters only, with no spaces around it"
    return None


def person_problem(name: str) -> str | None:
    """Why ``name`` cannot be a vouched person's (None: it can). It must print as itself, as every
    name the server shows and logs, and have no spaces around it (`` ana`` would be someone else)."""
    if not 1 <= len(name) <= MAX_PERSON_CHARS:
        return f"a person's name is 1 to {MAX_PERSON_CHARS} characters"
    if printable(name) != name:
        return "a person's name is of printable characters only"
    if name.strip() != name:
        return "a person's name has no spaces around it"
    return None


class _Typed(msgspec.Struct):
    type: str


_typed_decoder = msgspec.json.Decoder(_Typed)
_TYPE = re.compile(r"[a-z][a-z_]{0,31}\Z")


def request_type(line: bytes) -> str | None:
    """The ``type`` a line that is not a valid message says it is, if it can be read (an object
    with a short lowercase ``type``): what a ``bad_message`` about it answers (``re``), so a client
    waiting for its ``place``'s answer gets it even when a field of it is out of range."""
    try:
        kind = _typed_decoder.decode(line).type
    except (msgspec.DecodeError, RecursionError):
        return None
    return kind if _TYPE.match(kind) else None
