"""A finished game as the ratings read it: who held each seat, how it ended, who resigned.

A game is rated by its finishing order alone. Places come from the final scores, equal scores
sharing a place (R8: tied winners share the victory, and so do tied players further down); a seat
whose owner resigned finishes last, behind every seat that did not, whatever the bot that played it
to the end scored. A seat played for a while by a stand-in is still its owner's. A game closed before
its end (``scores`` None) rates nobody.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec

from ..engine import MAX_PLAYERS, MIN_PLAYERS, Event, GameCreated, GameEnded
from ..i18n import _
from ..printable import printable
from .scale import level_rating

MAX_ID_CHARS = 200
"""The longest game id or account name a record may carry (the ledger keeps them as keys)."""


class Person(msgspec.Struct, frozen=True, tag="person", gc=False):
    """A seat held by an account (its rating moves)."""

    account: str


class BotSeat(msgspec.Struct, frozen=True, tag="bot", gc=False):
    """A seat a bot held from the start: it counts with its level's measured strength, never moves."""

    level: str


Holder = Person | BotSeat

Unrated = Literal["unfinished", "no_person", "unmeasured_bot", "account_twice"]
"""Why a finished record rates nobody: closed before its end; no account at it; a bot the ladder has
not measured (its strength would be a guess); one account in two seats (it would play itself)."""


class FinishedGame(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One rated game's end, as the table server writes it with the game's end (once per game id).

    ``ended`` orders the games as they ended (the server's clock in milliseconds, say); two games with
    the same ``ended`` are taken in the order of their ids, so every reader folds the same order.
    Built from outside text (a store's record), it checks itself: a bad record raises ValueError."""

    game: str
    """The game's id, unique in the club (its table and game number, say): the key that makes a
    game given twice count once."""
    ended: int
    seats: tuple[Holder, ...]
    scores: tuple[int, ...] | None
    """Final scores by seat; None: the game was closed unfinished."""
    resigned: tuple[int, ...] = ()
    """Seats whose owner resigned, in seat order."""

    def __post_init__(self) -> None:
        if not 0 < len(self.game) <= MAX_ID_CHARS:
            raise ValueError(_("a game's id has 1 to {most} characters").format(most=MAX_ID_CHARS))
        game = printable(self.game)
        if not MIN_PLAYERS <= len(self.seats) <= MAX_PLAYERS:
            raise ValueError(
                _("game {game}: a game has {least} to {most} seats, not {count}").format(
                    game=game, least=MIN_PLAYERS, most=MAX_PLAYERS, count=len(self.seats)
                )
            )
        if self.scores is not None and len(self.scores) != len(self.seats):
            raise ValueError(_("game {game}: the scores are not one per seat").format(game=game))
        seats = range(len(self.seats))
        if list(self.resigned) != sorted(set(self.resigned)) or not all(s in seats for s in self.resigned):
            raise ValueError(_("game {game}: the resigned seats are not distinct seats in order").format(game=game))
        for holder in self.seats:
            name = holder.account if isinstance(holder, Person) else holder.level
            if not 0 < len(name) <= MAX_ID_CHARS:
                raise ValueError(
                    _("game {game}: a seat's account or level has 1 to {most} characters").format(
                        game=game, most=MAX_ID_CHARS
                    )
                )

    @property
    def key(self) -> tuple[int, str]:
        """Where the game stands in the order the ratings fold games in."""
        return self.ended, self.game


def unrated(game: FinishedGame) -> Unrated | None:
    """Why ``game`` rates nobody, or None when it rates every account at it."""
    if game.scores is None:
        return "unfinished"
    accounts = [h.account for h in game.seats if isinstance(h, Person)]
    if not accounts:
        return "no_person"
    if len(set(accounts)) != len(accounts):
        return "account_twice"
    if any(isinstance(h, BotSeat) and level_rating(h.level) is None for h in game.seats):
        return "unmeasured_bot"
    return None


def places(scores: tuple[int, ...], resigned: tuple[int, ...] = ()) -> tuple[int, ...]:
    """Each seat's place, 1 for first: one more than the seats ahead of it, so equal scores share a
    place (``(30, 50, 30)`` -> ``(2, 1, 2)``); resigned seats come after all others, sharing theirs."""
    gave_up = set(resigned)
    playing = [s for i, s in enumerate(scores) if i not in gave_up]
    return tuple(
        len(playing) + 1 if i in gave_up else 1 + sum(1 for other in playing if other > s) for i, s in enumerate(scores)
    )


def from_events(
    game: str, ended: int, events: Sequence[Event], accounts: Sequence[str | None], resigned: Sequence[bool] = ()
) -> FinishedGame:
    """The rated record of a game from its own events (its file): the seats of ``game_created``, each
    human's held by the account of ``accounts`` at its seat (the table's owners), each bot's by its
    level; the scores of ``game_ended`` if the file has it (else the game was closed unfinished); the
    seats ``resigned`` (by seat, as the table keeps them). A seat a stand-in played, for a while or
    since a resignation, is its owner's: the ``stand_in`` of a placement changes nothing here.
    Raises ValueError for events that are not a game's, or a human seat without an account."""
    if not events or not isinstance(events[0], GameCreated):
        raise ValueError(_("game {game}: its events do not start with game_created").format(game=printable(game)))
    players = events[0].players
    if len(accounts) != len(players):
        raise ValueError(_("game {game}: the accounts are not one per seat").format(game=printable(game)))
    seats: list[Holder] = []
    for i, (seat, account) in enumerate(zip(players, accounts, strict=True)):
        if seat.kind == "bot":
            seats.append(BotSeat(seat.bot or ""))
        elif account is None:
            raise ValueError(
                _("game {game}: seat {seat} is a person's with no account").format(game=printable(game), seat=i + 1)
            )
        else:
            seats.append(Person(account))
    last = events[-1]
    scores = tuple(last.scores) if isinstance(last, GameEnded) else None
    return FinishedGame(
        game=game,
        ended=ended,
        seats=tuple(seats),
        scores=scores,
        resigned=tuple(i for i, r in enumerate(resigned) if r),
    )
