"""The other servers on one storage: what they wrote, and who is at a table through them.

Several servers may play the same tables on one database (docs/TABLES_AT_SCALE.md). What that asks
of a server is kept apart from the storage (:class:`~.stores.base.GameStore`, which only keeps
tables) behind :class:`Peers`: hear what the others wrote, tell them and read from them who is
here, hold a table again before a decision, count the games they kept. A server alone on its
files has :class:`NoPeers`, which has nothing to hear, tell or hold; so the server never asks
whether it is shared, it asks its peers (the PostgreSQL ones are :mod:`.stores.pgpeers`).

Every method but :meth:`Peers.follow` and :meth:`Peers.tell_presence` may block (a database): the
server calls them off its event loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..play.session import PlaySession
from .keptroom import KeptSize
from .stores.base import Here


class Peers(Protocol):
    """What a server asks of the other servers on its storage (see the module's docstring)."""

    def follow(self, news: Callable[[str], None]) -> None:
        """Tell ``news`` (on the event loop, or from another thread) what the other servers wrote,
        from now on: ``lines NAME NEXT``, ``record NAME``, ``table NAME``, ``presence NAME``, ``chat
        NAME``, ``want NAME``, or ``*`` (something may have been missed: read every table again)."""
        ...

    def tell_presence(self, name: str, here: list[Here], game: int | None = None) -> None:
        """This server's people at table ``name`` are ``here`` now, for the others (it only queues:
        the server calls it on its event loop); ``game``: the store's identity of the table's game
        (:meth:`~.stores.base.GameStore.game_id`), which the others count them at."""
        ...

    def presence_elsewhere(self, name: str, game: int | None = None) -> list[Here]:
        """The people at table ``name`` through the other servers alive (``game``: at that game,
        never at another given the table's name meanwhile)."""
        ...

    def news(self, since: dict[int, int]) -> dict[int, list[bytes]]:
        """The lines the others wrote to each game from its ``seq`` on (``since``: the store's
        identity of a game -> seq), read at once for every table to catch up (a game with none:
        left out)."""
        ...

    def hold(self, name: str, session: PlaySession, seq: int) -> list[bytes] | None:
        """Table ``name`` held again for a decision, ``session`` being its game at line ``seq``: the
        lines the others wrote since (to apply), the session able to write after them. None:
        nobody else writes there, and the table's files are reopened from the store instead."""
        ...

    def recount(self, known: frozenset[str]) -> tuple[set[str], dict[str, KeptSize]]:
        """The games kept through the others that the ``known`` ones (this server's count) miss:
        those gone, and those new with their size and opener (:func:`~.keptroom.recount`)."""
        ...

    def lost_holds(self) -> set[str]:
        """The tables this server held against the others and holds no more (its hold's session
        ended: a terminated backend, a pooler, a timeout), asked every
        :attr:`~.limits.Limits.hold_check` seconds so that a table nobody moves at is not thought held."""
        ...


class NoPeers:
    """One server alone on its storage (a games directory): nobody else writes there, is at its
    tables or keeps games there, so there is nothing to hear, tell or hold."""

    def follow(self, news: Callable[[str], None]) -> None:
        return None

    def tell_presence(self, name: str, here: list[Here], game: int | None = None) -> None:
        return None

    def presence_elsewhere(self, name: str, game: int | None = None) -> list[Here]:
        return []

    def news(self, since: dict[int, int]) -> dict[int, list[bytes]]:
        return {}

    def hold(self, name: str, session: PlaySession, seq: int) -> list[bytes] | None:
        return None

    def recount(self, known: frozenset[str]) -> tuple[set[str], dict[str, KeptSize]]:
        return set(), {}

    def lost_holds(self) -> set[str]:
        return set()


__all__ = ["NoPeers", "Peers"]
