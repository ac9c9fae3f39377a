"""What a client that named fewer features reads: the server sends each client only the keys and
error codes of the features its hello named (:data:`~dvtui.tables.protocol.FEATURES`), and
something of the protocol's first vocabulary instead, so a client of version 1 as it first was
still plays. The wire itself is typed in :mod:`dvtui.tables.protocol` (and :mod:`~dvtui.tables.clubwire`)."""

from __future__ import annotations

import msgspec

from .clock import MAX_MOVE_TIME
from .protocol import Presence
from .tableinfo import ListedTable, SeatState
from .wire import Error

FIRST_CODES: frozenset[str] = frozenset({
    "bad_message", "too_long", "flood", "version", "no_table", "table_exists", "bad_setup", "seat_taken", "no_seat",
    "not_seated", "stale", "illegal", "nothing_to_undo", "undo_limit", "not_away", "game_over", "log_full", "server",
    "taken_over", "not_trusted", "not_opener", "shutdown", "busy", "timeout",
})  # fmt: skip
"""The error codes of the protocol's first vocabulary: a client that named no feature decodes no other."""
NEWER_CODES: dict[str, tuple[str, str]] = {
    "closed": ("close", "server"),
    "no_arena": ("arena", "no_table"),
    "arena_exists": ("arena", "table_exists"),
}
"""Each later error code: the feature that brings it, and the first vocabulary's code a client
without that feature gets instead (``closed`` is ``server`` to it: the table takes no more decisions;
a tournament's name is a table's, so its refusals read as a table's)."""


def downgraded(error: Error, features: frozenset[str]) -> Error:
    """``error`` as a client that speaks ``features`` may read it (see :data:`NEWER_CODES`)."""
    if "reasons" not in features and (error.reason is not None or error.fields is not None):
        error = msgspec.structs.replace(error, reason=None, fields=None)
    newer = NEWER_CODES.get(error.code)
    if newer is None or newer[0] in features:
        return error
    return msgspec.structs.replace(error, code=newer[1])


def listed_for(info: ListedTable, features: frozenset[str]) -> ListedTable:
    """``info`` with only the keys a client that speaks ``features`` reads."""
    unset = msgspec.UNSET
    return msgspec.structs.replace(
        info,
        waiting=info.waiting if "waiting" in features else unset,
        move_time=info.move_time if "clock" in features else unset,
        move_left=(_left_for(info.move_left, features) if isinstance(info.move_left, float) else info.move_left)
        if "clock" in features
        else unset,
        game=info.game if "rematch" in features else unset,
        opener=info.opener if "close" in features else unset,
        time_bank=info.time_bank if "bank" in features else unset,
        increment=info.increment if "bank" in features else unset,
        rated=info.rated if "ratings" in features else unset,
        seats=info.seats if "close" in features else [without_resigned(s) for s in info.seats],
    )


def presence_for(presence: Presence, features: frozenset[str]) -> Presence:
    """``presence`` with only the keys a client that speaks ``features`` reads."""
    return msgspec.structs.replace(
        presence,
        waiting=presence.waiting and "waiting" in features,
        move_time=presence.move_time if "clock" in features else None,
        move_left=_left_for(presence.move_left, features) if "clock" in features else None,
        rematch=presence.rematch if "rematch" in features else None,
        to_move=presence.to_move if "turn" in features else None,
        time_bank=presence.time_bank if "bank" in features else None,
        increment=presence.increment if "bank" in features else 0,
        banks=presence.banks if "bank" in features else None,
        seats=presence.seats if "close" in features else [without_resigned(s) for s in presence.seats],
    )


def _left_for(left: float | None, features: frozenset[str]) -> float | None:
    """The time left as a client reads it: one that knows no bank reads no more than a move time
    (its bound), though a move time and a bank together may be longer."""
    return left if left is None or "bank" in features else min(left, float(MAX_MOVE_TIME))


def without_resigned(seat: SeatState) -> SeatState:
    """``seat`` as a client that does not speak ``close`` reads it: a resigned seat is one whose
    stand-in plays it, which that client shows already; who asked for a stand-in is left out too."""
    if seat.resigned or seat.stand_in_by is not None:
        return msgspec.structs.replace(seat, resigned=False, stand_in_by=None)
    return seat
