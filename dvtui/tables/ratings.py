"""The ratings over the wire, the client's side: the leaderboard (``ratings``) and an account's
profile (``profile``), each one request on a connection of its own; a server whose welcome does not
name the feature ``ratings`` has none (:class:`NoRatings`, said before anything is asked)."""

from __future__ import annotations

from ..i18n import _
from .clubwire import AskProfile, AskRatings, Leaderboard, PlayerProfile
from .connection import Connection, ask_once
from .where import ServerPlace


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
    return await ask_once(place, AskRatings(top=top), Leaderboard, user=user, speaks=has_ratings)


async def profile(place: ServerPlace, account: str | None, *, user: str | None = None) -> PlayerProfile:
    """``account``'s rating, places and latest rated games (None: this connection's own person)."""
    return await ask_once(place, AskProfile(account=account), PlayerProfile, user=user, speaks=has_ratings)


__all__ = ["NoRatings", "has_ratings", "leaderboard", "profile"]
