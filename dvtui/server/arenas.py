"""Tournaments ("arenas") for 3 to 5 player tables, their rules without I/O: what a tournament keeps
(:class:`ArenaRecord`), the points a place earns (:func:`points`), who sits with whom
(:func:`seating`), when a waiting participant gets bots (:func:`bots_for`), and the standings.

An arena runs for a set time; whoever is free (just arrived, or just finished a game) is seated
again with others who are free, those near each other in the standings together, as lichess's
arenas pair; a game still running when time is up counts when it ends, and no table starts after.
docs/SHARED_TABLES.md ("Tournaments") says the rules in words; :mod:`.arenaroom` runs them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec

from ..tables.clubwire import SEEK_SIZES, ArenaLine

MOST_POINTS = 5
"""What a first place earns, at any table size."""
LEAST_POINTS = 1
"""What a last place earns (a seat resigned earns nothing)."""
BOT_WAIT = 30.0
"""Seconds a free participant waits for others before bots fill a table with them (and whoever else
is free): an arena is for people, but nobody sits out a tournament for want of two more."""
MOST_PARTICIPANTS = 500
"""People in one tournament."""
MOST_RUNNING = 50
"""Tournaments running at once on a server."""
MOST_PER_ACCOUNT = 2
"""Tournaments running at once that one account opened."""
MOST_LISTED = 100
"""Tournaments ``arena_list`` gives (the running ones, then the latest over)."""


def points(place: int, size: int, resigned: bool = False) -> int:
    """What ``place`` (1 for first) at a table of ``size`` people and bots earns: 5 for first, 1 for
    last, the places between spread evenly by the share of the table beaten (rounded), 0 for a seat
    resigned. So 3 players: 5/3/1; 4: 5/4/2/1; 5: 5/4/3/2/1: a table of any size pays 3 a seat on
    average, and the same for winning, for coming last, for beating half the table."""
    if resigned:
        return 0
    beaten = (size - place) / (size - 1)
    return LEAST_POINTS + round((MOST_POINTS - LEAST_POINTS) * beaten)


class Participant(msgspec.Struct, kw_only=True):
    """One person in a tournament: their points and games there, and the order they came in."""

    account: str
    points: int = 0
    games: int = 0
    since: int = 0
    """Their arrival's number (1 for the first): who ranks first among equal points and games."""


class ArenaRecord(msgspec.Struct, kw_only=True):
    """A tournament as the store keeps it: its rules, when it started and ends (UNIX seconds), who
    opened it, its participants, and the tables of it still being played (table name -> the
    accounts seated there, by seat; None for a bot's)."""

    name: str
    opener: str
    started: float
    ends: float
    players: list[int] = msgspec.field(default_factory=lambda: [*SEEK_SIZES])
    rated: bool = False
    move_time: int = 60
    participants: list[Participant] = msgspec.field(default_factory=list)
    tables: dict[str, list[str | None]] = msgspec.field(default_factory=dict)
    ended: float | None = None
    """When its last game ended (or its time, if none was running): it is over then."""

    def state(self, now: float) -> Literal["running", "finishing", "over"]:
        """``running`` until its time is up, ``finishing`` while its last games are played, ``over``."""
        if self.ended is not None:
            return "over"
        return "running" if now < self.ends else "finishing"

    def participant(self, account: str) -> Participant:
        """``account``'s line, made when it first comes."""
        for p in self.participants:
            if p.account == account:
                return p
        p = Participant(account=account, since=len(self.participants) + 1)
        self.participants.append(p)
        return p

    def ranked(self) -> list[Participant]:
        """The standings: most points first, then fewer games (the same points in fewer games),
        then who came first."""
        return sorted(self.participants, key=lambda p: (-p.points, p.games, p.since))

    def lines(self) -> list[ArenaLine]:
        """The standings as the protocol says them; equal points share a rank."""
        playing = {account for seated in self.tables.values() for account in seated if account is not None}
        out: list[ArenaLine] = []
        for i, p in enumerate(self.ranked()):
            rank = out[-1].rank if out and out[-1].points == p.points else i + 1
            out.append(ArenaLine(rank=rank, account=p.account, points=p.points, games=p.games,
                                 playing=p.account in playing))  # fmt: skip
        return out

    def score(self, table: str, places: Sequence[int], resigned: Sequence[bool]) -> list[tuple[str, int]]:
        """Table ``table`` of this tournament has ended with ``places`` (1 for first, by seat): each
        participant seated there earns its points; what each earned. A table not (or no longer) of
        it earns nothing: a game counts once."""
        seated = self.tables.pop(table, None)
        if seated is None:
            return []
        earned = []
        for seat, account in enumerate(seated):
            if account is None:
                continue
            won = points(places[seat], len(seated), seat < len(resigned) and resigned[seat])
            p = self.participant(account)
            p.points += won
            p.games += 1
            earned.append((account, won))
        return earned


def sizes_that_fill(free: int, sizes: Sequence[int]) -> list[int]:
    """How ``free`` people are split into tables of ``sizes``: as large as allowed, so long as those
    left can still be seated (``sizes`` 3-5: 7 -> 4+3, 8 -> 5+3, 11 -> 5+3+3); those who cannot be
    seated wait (``sizes`` 4: 6 -> 4, two waiting)."""
    can = [True] + [False] * free
    for n in range(1, free + 1):
        can[n] = any(s <= n and can[n - s] for s in sizes)
    out: list[int] = []
    left = free
    while left >= min(sizes):
        fits = [s for s in sorted(sizes, reverse=True) if s <= left and can[left - s]]
        size = fits[0] if fits else max(s for s in sizes if s <= left)
        out.append(size)
        left -= size
    return out


def seating(free: Sequence[str], record: ArenaRecord) -> list[list[str]]:
    """The tables to open for the ``free`` participants: taken in the standings' order, each table
    the next ones (so those near each other in the standings sit together), at the sizes
    :func:`sizes_that_fill` gives. Those left over wait for the next round."""
    order = {p.account: i for i, p in enumerate(record.ranked())}
    ranked = sorted(free, key=lambda a: order.get(a, len(order)))
    tables = []
    at = 0
    for size in sizes_that_fill(len(ranked), record.players):
        tables.append(list(ranked[at : at + size]))
        at += size
    return tables


def bots_for(
    waiting: Sequence[str], waited: float, sizes: Sequence[int], bound: float = BOT_WAIT
) -> tuple[list[str], int]:
    """Those left waiting after :func:`seating` (the longest waiting first), if the first of them
    has waited ``bound`` seconds: all of them at one table (the smallest size that holds them) and
    how many bots fill it; else nobody and 0."""
    if not waiting or waited < bound:
        return [], 0
    size = min((s for s in sizes if s >= len(waiting)), default=max(sizes))
    people = list(waiting[:size])
    return people, size - len(people)


__all__ = [
    "BOT_WAIT",
    "LEAST_POINTS",
    "MOST_LISTED",
    "MOST_PARTICIPANTS",
    "MOST_PER_ACCOUNT",
    "MOST_POINTS",
    "MOST_RUNNING",
    "ArenaRecord",
    "Participant",
    "bots_for",
    "points",
    "seating",
    "sizes_that_fill",
]
