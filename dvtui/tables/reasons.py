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

from ..engine import RuleError
from ..i18n import N_, _
from ..printable import printable
from ..rulewords import words_for

Fields = Mapping[str, int]
MAX_FIELDS = 8
"""The most values an ``error`` carries."""

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
    "undo_resolved": (N_("nothing to take back: undo never crosses a resolution"), ()),
    "undo_locked": (N_("seat {seat}'s move can no longer be undone: another player has placed since"), ("seat",)),
    "undo_placed_since": (N_("seat {seat} has placed since; only your own latest placement can go"), ("seat",)),
    "undo_nothing_placed": (N_("seat {seat} has placed nothing this round"), ("seat",)),
    "hold_lost": (
        N_("the table server lost its hold on this table in the database: no move is saved until it holds it again"),
        (),
    ),
    "hold_back": (N_("the table server holds this table again: play on"), ()),
}
"""Each reason: its sentence (English, marked for translation) and the fields it needs. Any other
reason is a code of the rules' own errors (:data:`dvtui.rulewords.RULE_WORDS`), said in the words
a game of this machine uses for it."""
SEAT_FIELDS = frozenset({"seat", "to_move"})
"""The fields that are seats: counted from 0 on the wire, from 1 in a sentence."""


def _said(reason: str, fields: Fields, translate: Callable[[str], str]) -> str | None:
    known = REASONS.get(reason)
    if known is None:
        return words_for(reason, fields, translate)  # a rule's code, or one this client does not know
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
    said = _said(reason, fields, str)
    if said is None:
        raise ValueError(f"refusal {reason!r} does not fit {dict(fields)!r}")
    return said


def wire_fields(error: RuleError) -> dict[str, int] | None:
    """A rule error's fields as the wire carries them (every one a number from 0), or None: fields
    the wire cannot carry, so the error goes with its English words alone."""
    fields = error.fields
    if len(fields) > MAX_FIELDS or any(type(value) is not int or value < 0 for value in fields.values()):
        return None
    return {name: value for name, value in fields.items() if isinstance(value, int)}


def reason_words(reason: str | None, fields: Fields | None) -> str | None:
    """``reason`` said in the language spoken now (None: a reason this client does not know, or
    fields it does not fit: the code's own words serve instead)."""
    if reason is None:
        return None
    said = _said(reason, fields or {}, _)
    return None if said is None else printable(said)
