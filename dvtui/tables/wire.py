"""The wire's base: what every message of the table server's protocol stands on.

The message base class (:class:`Message`: ``type`` first, unknown keys ignored), the one encoder
(:func:`encode`, a message as one line), the ``error`` any request may be answered with
(:class:`Error`, its :data:`ErrorCode`), and the bounds and names every message shares: the line's
length, a table's and a kept game's names, who owns a seat, a person vouched for. The messages
themselves are :mod:`.clubwire`'s (the club's: the pool, the ratings, the tournaments) and
:mod:`.protocol`'s (a table's, and the unions its decoders read, the club's included); both stand
on this module, which imports neither.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

import msgspec

PROTOCOL_VERSION = 1
"""Bumped for any change a version-1 client could misread; additions (a new optional field, a new
message a client may ignore) keep it."""

MAX_LINE_BYTES = 64 * 1024
"""The longest line either side sends or accepts (a ``.dvr`` line is at most this long too)."""

MAX_ERROR_CHARS = 500
"""The longest ``error.message`` (a server cuts its own there; a client refuses a longer one)."""

SOCKET_NAME = "dvtui.sock"
"""The server's socket in its directory."""

TABLE_NAME = r"\A[A-Za-z0-9][A-Za-z0-9_-]{0,31}\Z"
"""A table's name: letters, digits, ``_`` and ``-``, 1 to 32 characters (it names the game's file).
Anchored with ``\\A`` and ``\\Z``: the pattern is searched (msgspec), and ``$`` would also match
before a final newline."""
TABLE_NAME_RULE = "1 to 32 letters (a-z, A-Z), digits (0-9), '-' or '_', starting with a letter or digit"
"""The rule in words, for whoever typed a name that breaks it."""
_TABLE_NAME = re.compile(TABLE_NAME)


def is_table_name(text: str) -> bool:
    """``text`` may name a table (the protocol's own check, for a command line to make first)."""
    return _TABLE_NAME.search(text) is not None


TableName = Annotated[str, msgspec.Meta(pattern=TABLE_NAME)]
KEPT_GAME = r"\A[A-Za-z0-9][A-Za-z0-9_-]{0,31}\.\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(-\d{1,6})?\Z"
"""The name of a game kept after its table: the table's name, a dot, and when it was put aside
(UTC, ``2026-11-26T21-04-05``, with ``-2``... when two were put aside in the same second); its
file is that name and ``.dvr``."""
_KEPT_GAME = re.compile(KEPT_GAME)


def is_kept_name(text: str) -> bool:
    """``text`` names a game kept after its table (``friday.2026-11-20T10-00-00``)."""
    return _KEPT_GAME.search(text) is not None


Owner = int | str
"""Who a seat belongs to: a uid, or a person a trusted account vouched for (never equal to a uid)."""

SeatIndex = Annotated[int, msgspec.Meta(ge=0, le=4)]
Seq = Annotated[int, msgspec.Meta(ge=0, le=1 << 31)]
Text = Annotated[str, msgspec.Meta(max_length=200)]
Entry = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
"""A seat as ``--players`` writes one: a person's name or ``bot:LEVEL``."""
MAX_PERSON_CHARS = 40
Person = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_PERSON_CHARS)]
"""A person a trusted account vouches for (``hello.user``); see :func:`~.vetting.person_problem`."""
VOUCHED_PREFIX = "web:"
"""How the server shows a vouched person (``web:ana``): never an account's name, since no account
name holds a ``:`` (the field separator of ``/etc/passwd``)."""
Invitee = Annotated[str, msgspec.Meta(min_length=1, max_length=len(VOUCHED_PREFIX) + MAX_PERSON_CHARS)]
"""Whom a seat is kept for: an account's name or ``web:NAME``."""


def shown_person(person: str) -> str:
    """A vouched person as the server shows them (``welcome.user``, ``SeatState.user``)."""
    return f"{VOUCHED_PREFIX}{person}"


class Message(msgspec.Struct, tag_field="type", kw_only=True, omit_defaults=True):
    """Every control message: ``type`` first, unknown keys ignored (a newer peer may add some)."""


# -- the answer any request may get ------------------------------------------------------------


ErrorCode = Literal[
    "bad_message",  # not JSON, not a message, a field out of range
    "too_long",  # a line over MAX_LINE_BYTES (the connection is closed)
    "flood",  # too many messages too fast (the connection is closed)
    "version",  # no hello first, or a version the server does not speak (closed)
    "no_table",  # no such table
    "table_exists",  # open_table: the name is taken
    "bad_setup",  # open_table: players or first player not allowed, or the opener's quota reached
    "seat_taken",  # the seat belongs to another user
    "no_seat",  # no free human seat / not a human seat / no such seat
    "not_seated",  # place, undo or stand_in without a seat
    "stale",  # the seq given is not the table's next one (``seq`` says which is)
    "illegal",  # the rules refuse it: not your turn, a card not in hand, ...
    "nothing_to_undo",
    "undo_limit",  # undo: this seat has taken back as many placements this round as a table allows
    "not_away",  # stand_in: that seat's owner is connected
    "game_over",
    "log_full",  # the table's log has reached its bound
    "server",  # the server could not save; the table has stopped
    "taken_over",  # the seat was taken by another connection of the same user (closed)
    "not_trusted",  # hello: this account may not vouch for a person (closed)
    "not_opener",  # release, start: only the table's opener may ask
    "shutdown",  # the server is stopping (closed; reconnect later)
    "busy",  # a limit is reached: connections (closed), spectators
    "closed",  # the table was closed by its opener or the server's operator (it takes no more decisions)
    "chat_limit",  # say: too many lines too fast, from this connection or account (the line is dropped)
    "timeout",  # no hello, an unfinished line, or idle at no table, for too long (closed)
    "no_arena",  # arena_join, arena_show: no such tournament
    "arena_exists",  # arena_new: the name is taken (by a tournament running or kept)
]
STOPPING: frozenset[str] = frozenset({"server", "log_full", "closed"})
"""Errors after which a table takes no more decisions: waiting for a turn would wait forever."""


class Error(Message, tag="error"):
    code: ErrorCode
    message: str
    seq: int | None = None
    re: str | None = None
    """The ``type`` of the client's message this error answers (``place``, ``stand_in``...); None
    for an error nobody asked for (a table that stops, a seat taken over, the server stopping)."""
    reason: Annotated[str, msgspec.Meta(max_length=32)] | None = None
    """Which refusal of its ``code`` this is (:data:`~dvtui.tables.reasons.REASONS`, or the code of
    a rule's own error, :data:`dvtui.rulewords.RULE_WORDS`), for a client to say in its reader's
    language with ``fields``; None: ``code`` says all there is."""
    fields: Annotated[dict[Annotated[str, msgspec.Meta(max_length=32)], int], msgspec.Meta(max_length=8)] | None = None
    """The values ``reason``'s sentence names (a seat counted from 0, as everywhere on the wire)."""


_encoder = msgspec.json.Encoder()


def encode(message: Message) -> bytes:
    """One line of the protocol, ``\\n`` included."""
    return _encoder.encode(message) + b"\n"
