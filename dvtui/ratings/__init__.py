"""Ratings: each account's strength from its rated games, on one scale with the bot ladder. No I/O.

Everything outside imports these names from ``dvtui.ratings``: :class:`FinishedGame` (a rated game's
end, as the table server writes it; :func:`from_events` makes it from the game's own events and its
table's owners), :class:`Ledger` and :func:`fold` (every account's rating and history from the
finished games, a game given twice counted once; its leaderboard of :class:`Standing` and each
account's :class:`Profile`), :class:`Rating` (``shown``, the one number people
read, and ``provisional``), :func:`plays_like` (a rating read against the ladder).
docs/RATINGS.md describes the model and the scale.
"""

from __future__ import annotations

from .games import BotSeat, FinishedGame, Holder, Person, Unrated, from_events, places, unrated
from .ledger import ConflictingGame, Entry, Ledger, Profile, Standing, Step, bot_rating, fold, update
from .scale import (
    BETA,
    BOT_SIGMA,
    MARKS,
    MU0,
    NEWCOMER,
    PROVISIONAL,
    SIGMA0,
    STRONG_AT,
    TAU,
    Rating,
    Z,
    level_rating,
    plays_like,
)

__all__ = [
    "BETA",
    "BOT_SIGMA",
    "MARKS",
    "MU0",
    "NEWCOMER",
    "PROVISIONAL",
    "SIGMA0",
    "STRONG_AT",
    "TAU",
    "BotSeat",
    "ConflictingGame",
    "Entry",
    "FinishedGame",
    "Holder",
    "Ledger",
    "Person",
    "Profile",
    "Rating",
    "Standing",
    "Step",
    "Unrated",
    "Z",
    "bot_rating",
    "fold",
    "from_events",
    "level_rating",
    "places",
    "plays_like",
    "unrated",
    "update",
]
