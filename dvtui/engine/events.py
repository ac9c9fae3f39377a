"""The events of a game, exactly the ``type`` names and fields of the ``.dvr`` format v1.

Decisions (``game_created``, ``card_placed``, ``placement_undone``) are what people and bots choose;
derived events (``column_resolved``, ``round_ended``, ``game_ended``) are the rules' consequences
and are always recomputed by the engine. ``seq`` is the event's line number in a file: the store
sets and checks it, the engine ignores it. ``at`` is deliberately not a field, so readers ignore it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

import msgspec

from .cards import VALUE_OF

FORMAT_VERSION = 1

if TYPE_CHECKING:
    Card = str  # to the checker a card is its name; the literal below is built at run time
else:
    Card = Literal[tuple(VALUE_OF)]
"""A card's name (R1), as files write it. Typed so, msgspec refuses an unknown card while decoding
(naming where) and hands back the one canonical string for each name: card comparisons and look-ups
in the engine are then identity checks and cached hashes (reading a file checks 66 cards at once)."""


class Seat(msgspec.Struct, omit_defaults=True, kw_only=True, gc=False):
    """A player as ``game_created`` lists them. Keyword-only, so fields stand in the format's order
    (``name, kind, bot, color``) and no positional call can put a colour where the level goes."""

    name: str
    kind: str  # "human" | "bot"
    bot: str | None = None  # bot level (with an optional budget, "strong@5000"); bots only
    color: str


class Award(msgspec.Struct, gc=False):
    player: int
    card: Card
    returned: Card | None  # R6.1: the good given back to the top of this column, if any


class Event(msgspec.Struct, tag_field="type", omit_defaults=True, kw_only=True, gc=False):
    """Every event is built with keywords (each subclass is ``kw_only`` too: msgspec does not pass
    the option down), so no positional call can swap two of its ints, a column and a card, say."""

    seq: int | None = None


SEED_LIMIT = 1 << 63
"""A deal's seed (and ``game_created``'s other numbers) fit in 64 signed bits: ``-SEED_LIMIT <= seed
< SEED_LIMIT``, what every JSON reader keeps exact. A new game's seed is from 0 up."""


class GameCreated(Event, tag="game_created", kw_only=True):
    format: int
    players: list[Seat]
    first_player: int
    rounds: int
    grid: list[list[Card]]  # 7 columns, each bottom first (R2.2)
    box: list[Card]
    seed: int | None = None
    parent: str | None = None  # branch annotation: the file this game was branched from
    parent_seq: int | None = None  # ... and the last event of the parent it shares
    rated: bool = False  # a table server's rated game: its end moves its people's ratings (absent: casual)


StandIn = Annotated[str, msgspec.Meta(pattern=r"^[a-z]{1,16}(@[0-9.]{1,12}s?)?$", max_length=32)]
"""A bot level as ``card_placed``'s optional ``stand_in`` names it: shaped like a level, checked when
decoded (an annotation for a replay to show, never run: any level-shaped word is read)."""


class CardPlaced(Event, tag="card_placed", kw_only=True):
    round: int
    player: int
    column: int
    card: int
    stand_in: StandIn | None = None
    """The bot level that placed for an absent human at a shared table (an optional annotation:
    the placement means the same with or without it)."""


class PlacementUndone(Event, tag="placement_undone", kw_only=True):
    round: int
    player: int
    column: int
    card: int


class ColumnResolved(Event, tag="column_resolved", kw_only=True):
    round: int
    column: int
    totals: list[int]
    cancelled: list[int]
    awards: list[Award]
    rotated: bool


class RoundEnded(Event, tag="round_ended", kw_only=True):
    round: int
    next_first_player: int


class GameEnded(Event, tag="game_ended", kw_only=True):
    scores: list[int]
    winners: list[int]


AnyEvent = GameCreated | CardPlaced | PlacementUndone | ColumnResolved | RoundEnded | GameEnded

DERIVED_TYPES: tuple[type[Event], ...] = (ColumnResolved, RoundEnded, GameEnded)
"""The rules' consequences (recomputed, never decided): ``isinstance(event, DERIVED_TYPES)``."""


def type_name(event: Event) -> str:
    """The event's ``type`` as written in a file."""
    return event.__struct_config__.tag  # type: ignore[return-value]
