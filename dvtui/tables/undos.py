"""How often a seat may take a placement back at a shared table.

Each undo writes lines to the table's log, and the log is bounded (a reader refuses a file past its
bound), so without a bound of its own one seated player could place and undo until the table stops
for everyone. The count is read from the log itself, not kept per connection: reconnecting, or a
restarted server, gives no undo back.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import Event, GameCreated, PlacementUndone, RoundEnded
from ..i18n import _

MAX_UNDOS_PER_ROUND = 5
"""Placements a seat may take back in one round: as many as the cards it places in a round."""


def undos_this_round(events: Sequence[Event], seat: int) -> int:
    """The placements of ``seat`` taken back since the current round began (its own undos: an undo
    takes back one placement of the one who asks, and the bots' answers to it)."""
    count = 0
    for event in reversed(events):
        if isinstance(event, RoundEnded | GameCreated):
            break
        if isinstance(event, PlacementUndone) and event.player == seat:
            count += 1
    return count


def undo_refusal(events: Sequence[Event], seat: int, name: str) -> str | None:
    """Why ``seat`` (called ``name``) may take nothing more back this round, or None."""
    if undos_this_round(events, seat) < MAX_UNDOS_PER_ROUND:
        return None
    said = _("{name} has taken back {most} placements this round, as many as a table allows; the next round "
             "allows as many again")  # fmt: skip
    return said.format(name=name, most=MAX_UNDOS_PER_ROUND)
