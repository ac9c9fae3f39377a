"""The ratings over the wire, the client's side: the leaderboard (``ratings``) and an account's
profile (``profile``), each one request on a connection of its own; a server whose welcome does not
name the feature ``ratings`` has none (:class:`NoRatings`, said before anything is asked)."""

from __future__ import annotations

from typing import TypeVar

from ..i18n import _
from .connection import Connection, Dropped, lost
from .protocol import AskProfile, AskRatings, Leaderboard, PlayerProfile
from .where import ServerPlace

A = TypeVar("A", Leaderboard, PlayerProfile)


class NoRatings(Exception):
    """The server speaks no ``ratings``: an older dvtui, which has no rated tables."""

    def __init__(self, place: ServerPlace) -> None:
        said = _("the table server at {directory} has no ratings (an older dvtui serve): no rated tables there")
        super().__init__(said.format(directory=place.directory))


def has_ratings(conn: Connection) -> None:
    """Raise :class:`NoRatings` unless ``conn``'s server speaks ``ratings``."""
    if "ratings" not in conn.welcome.features:
        raise NoRatings(conn.place)


async def leaderboard(place: ServerPlace, top: int, *, user: str | None = None) -> Leaderboard:
    """The leaderboard's first ``top`` lines (the server caps them), best first."""
    return await _ask(place, AskRatings(top=top), Leaderboard, user)


async def profile(place: ServerPlace, account: str | None, *, user: str | None = None) -> PlayerProfile:
    """``account``'s rating, places and latest rated games (None: this connection's own person)."""
    return await _ask(place, AskProfile(account=account), PlayerProfile, user)


async def _ask(place: ServerPlace, message: AskRatings | AskProfile, answer: type[A], user: str | None) -> A:
    try:
        conn = await Connection.open(place, user=user)
        try:
            has_ratings(conn)
            reply = await conn.request(message, answer)
            assert isinstance(reply, answer)
            return reply
        finally:
            conn.close()
    except Dropped as e:
        raise lost(place, e) from None


__all__ = ["NoRatings", "has_ratings", "leaderboard", "profile"]
