"""Why a decision was refused, in words that do not depend on the server's language.

A refusal of the rules (``illegal``, ``nothing_to_undo``, ``undo_limit``, ``stale``) names a
``reason`` and its ``fields`` on the wire, beside its ``code``: the server's English ``message``
and every client's sentence are both made from them here, so a server run in French sends the
same words as one run in English, and each client says them in its reader's language. A field
holds the protocol's value (a seat counted from 0, as ``player`` is); a sentence shows seats from 1,
as the screens and ``--as`` do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..i18n import N_, _
from ..printable import printable

Fields = Mapping[str, int]

REASONS: dict[str, tuple[str, tuple[str, ...]]] = {
    "not_your_turn": (N_("it is seat {to_move}'s turn, not seat {seat}'s"), ("to_move", "seat")),
    "card_placed": (N_("seat {seat} has already placed their {card} this round"), ("seat", "card")),
    "game_over": (N_("the game is over: no more placements"), ()),
    "resolving": (N_("the round is being resolved: nobody places until it is"), ()),
    "undo_limit": (
        N_(
            "seat {seat} has taken back {most} placements this round, as many as a table allows; the next round "
            "allows as many again"
        ),
        ("seat", "most"),
    ),
    "turn_begun": (
        N_("seat {seat}'s turn has begun on the clock: the placements before it can no longer be taken back"),
        ("seat",),
    ),
    "all_taken": (N_("every human seat is taken or kept for somebody else; watch the table instead"), ()),
    "stale": (N_("the table is at line {next_seq}, not {seq}: another decision came first"), ("next_seq", "seq")),
    "hold_lost": (
        N_("the table server lost its hold on this table in the database: no move is saved until it holds it again"),
        (),
    ),
    "hold_back": (N_("the table server holds this table again: play on"), ()),
}
"""Each reason: its sentence (English, marked for translation) and the fields it needs."""
SEAT_FIELDS = frozenset({"seat", "to_move"})
"""The fields that are seats: counted from 0 on the wire, from 1 in a sentence."""


def _said(reason: str, fields: Fields, translate: Callable[[str], str]) -> str | None:
    known = REASONS.get(reason)
    if known is None:
        return None
    sentence, needed = known
    shown: dict[str, str] = {}
    for name in needed:
        value = fields.get(name)
        if not isinstance(value, int) or value < 0:
            return None  # not the fields this reason has: the sentence cannot be made
        shown[name] = str(value + 1 if name in SEAT_FIELDS else value)
    return translate(sentence).format(**shown)


def english(reason: str, fields: Fields) -> str:
    """What the server says for ``reason``: the same whatever language it runs in."""
    said = _said(reason, fields, lambda sentence: sentence)
    if said is None:
        raise ValueError(f"refusal {reason!r} needs {REASONS[reason][1]}, not {dict(fields)!r}")
    return said


def reason_words(reason: str | None, fields: Fields | None) -> str | None:
    """``reason`` said in the language spoken now (None: a reason this client does not know, or
    fields it does not fit: the code's own words serve instead)."""
    if reason is None:
        return None
    said = _said(reason, fields or {}, _)
    return None if said is None else printable(said)
