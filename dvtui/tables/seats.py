"""The seat a join without one means, read from the seats as a table shows them: the server decides
with it (:mod:`dvtui.server.table`), and the seat chooser offers the same seat first."""

from __future__ import annotations

from collections.abc import Sequence

from .tableinfo import SeatState


def pick_seat(seats: Sequence[SeatState], identity: str, person: str) -> int | None:
    """The seat a join without one means for ``identity`` (an owner as the table shows it, see
    :func:`dvtui.server.table.owner_name`), whose name is ``person``: their own seat left away (a dropped connection,
    a closed tab), else the free seat kept for them, else the free seat named like them
    (casefold). None: none of these (the server then asks which seat; the seat chooser offers the
    first free one, as a suggestion the person confirms)."""
    free = [s for s in seats if s.state == "free" and s.kept_for in (None, identity)]
    away = [s for s in seats if s.state == "away" and s.user == identity]
    kept = [s for s in free if s.kept_for == identity]
    named = [s for s in free if s.name.casefold() == person.casefold()]
    chosen = away or kept or named
    return chosen[0].seat if chosen else None


__all__ = ["pick_seat"]
