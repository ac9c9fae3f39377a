"""Every account's rating as a fold over the finished rated games, in the order they ended.

Nothing is stored but the games: a rating is what folding them gives, so a game's end written once
(with the game, by the server that saw it end) is the whole of its update. A server killed after
writing it loses nothing (the fold finds the game); a server taking over and writing it again
doubles nothing (the game's id is already folded: the same record is ignored, a different one under
the same id is refused). A game that arrives late, ending before games already folded, is put in
its place and the later ones folded again after it, so the order of arrival never changes a rating.
A :class:`Ledger` kept in memory is a cache of the fold: thrown away, it is made again from the games.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
from collections.abc import Iterable, Mapping

import msgspec

from ..engine import MAX_PLAYERS
from ..i18n import _
from ..printable import printable
from .games import BotSeat, FinishedGame, Person, Unrated, places, unrated
from .scale import BOT_SIGMA, MODEL, NEWCOMER, Rating, level_rating, plays_like


class ConflictingGame(ValueError):
    """Two different records under one game id: a game ends once, so one of them is damage."""


class Entry(msgspec.Struct, frozen=True, gc=False):
    """What one rated game did to one account: its place among ``players`` and its rating around it."""

    game: str
    ended: int
    place: int
    players: int
    before: Rating
    after: Rating


class Step(msgspec.Struct, frozen=True, gc=False):
    """One folded game: the entry of each account it rated, or why it rated nobody."""

    game: FinishedGame
    entries: tuple[tuple[str, Entry], ...]
    seated: tuple[Rating, ...] = ()
    """The rating each seat was seated with, in seat order (a bot's: its level's; none if unrated)."""
    unrated: Unrated | None = None


class Standing(msgspec.Struct, frozen=True, gc=False):
    """An account's line of the leaderboard, what ``--json`` gives as it is (its numbers read, not
    derived again by each client)."""

    account: str
    shown: int
    provisional: bool
    like: tuple[str, int]
    """The ladder's rung nearest the shown rating, and by how much (:func:`plays_like`)."""
    games: int
    rating: Rating

    @classmethod
    def of(cls, account: str, rating: Rating, games: int) -> Standing:
        return cls(account, rating.shown, rating.provisional, plays_like(rating.shown), games, rating)


class Profile(msgspec.Struct, frozen=True, gc=False):
    """An account's rating and what made it: its standing, how often it took each place, its games."""

    standing: Standing
    places: tuple[int, ...]
    """How many rated games it finished first, second, ... fifth."""
    history: tuple[Entry, ...]
    """Its rated games in the order they ended, each with the rating before and after."""


def update(game: FinishedGame, ratings: Mapping[str, Rating]) -> Step:
    """The step ``game`` makes from the accounts' ``ratings`` (a newcomer's for an account not in it).

    The model sees every seat: a bot with its level's measured strength (:data:`BOT_SIGMA` sure), a
    person with their rating; the bots' new ratings are thrown away, so a bot never moves."""
    reason = unrated(game)
    if reason is not None or game.scores is None:
        return Step(game, (), unrated=reason)
    finished = places(game.scores, game.resigned)
    before = [
        ratings.get(holder.account, NEWCOMER) if isinstance(holder, Person) else bot_rating(holder) or NEWCOMER
        for holder in game.seats  # (``or``: never taken, unrated() has checked every bot is measured)
    ]
    after = shared(before, finished)
    n = len(game.seats)
    return Step(
        game,
        tuple(
            (h.account, Entry(game.game, game.ended, finished[i], n, before[i], after[i]))
            for i, h in enumerate(game.seats)
            if isinstance(h, Person)
        ),
        tuple(before),
    )


def orders(finished: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every strict finishing order ``finished`` allows: each group of seats sharing a place taken in
    every order (``(1, 1, 3)`` -> ``(1, 2, 3)`` and ``(2, 1, 3)``); the places without a tie as they are."""
    groups = [[seat for seat, p in enumerate(finished) if p == place] for place in sorted(set(finished))]
    found = []
    for chosen in itertools.product(*(itertools.permutations(group) for group in groups)):
        strict = [0] * len(finished)
        for group in chosen:
            for offset, seat in enumerate(group):
                strict[seat] = finished[seat] + offset
        found.append(tuple(strict))
    return found


def shared(before: list[Rating], finished: tuple[int, ...]) -> list[Rating]:
    """The model's update of ``before`` for the places ``finished``, a tie shared: the mean of the
    updates of every order the tied seats could have finished in, as if the tie were broken by a fair
    draw. (openskill's own reading of tied ranks can move a tied winner less than the player behind
    them, so the model is only ever given strict orders.)"""
    updates = [
        MODEL.rate([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before], ranks=[float(p) for p in strict])
        for strict in orders(finished)
    ]
    return [
        Rating(
            math.fsum(u[i][0].mu for u in updates) / len(updates),
            math.fsum(u[i][0].sigma for u in updates) / len(updates),
        )
        for i in range(len(before))
    ]


def _key(game: FinishedGame) -> tuple[int, str]:
    return game.key


class Ledger:
    """The fold of finished rated games: every account's rating and history (see the module's docstring)."""

    def __init__(self, games: Iterable[FinishedGame] = ()) -> None:
        self._games: dict[str, FinishedGame] = {}
        self._keys: list[tuple[int, str]] = []  # each folded game's key, in the order folded
        self._steps: list[Step] = []
        self._ratings: dict[str, Rating] = {}
        self._history: dict[str, list[Entry]] = {}
        self.extend(games)

    def add(self, game: FinishedGame) -> bool:
        """Fold ``game`` in at its place in the order games ended; False if it was folded already.
        Raises :class:`ConflictingGame` for a different record under a folded game's id."""
        return self.extend((game,)) == 1

    def extend(self, games: Iterable[FinishedGame]) -> int:
        """Fold every game of ``games`` (given in any order) in at its place; how many were new.

        The games already folded that ended after the first new one are unfolded (each account's
        rating before them is in its history) and folded again among the new ones, once for all of
        them. A different record under a known id raises :class:`ConflictingGame`, before any change."""
        fresh: dict[str, FinishedGame] = {}
        for game in games:
            known = self._games.get(game.game) or fresh.get(game.game)
            if known is None:
                fresh[game.game] = game
            elif known != game:
                raise ConflictingGame(_("game {game} ended twice, differently").format(game=printable(game.game)))
        if not fresh:
            return 0
        new = sorted(fresh.values(), key=_key)
        self._games.update(fresh)
        at = bisect.bisect(self._keys, new[0].key)
        later = [step.game for step in self._steps[at:]]
        for step in reversed(self._steps[at:]):
            self._undo(step)
        del self._steps[at:], self._keys[at:]
        for game in heapq.merge(new, later, key=_key):
            self._apply(game)
        return len(new)

    def _apply(self, game: FinishedGame) -> None:
        step = update(game, self._ratings)
        for account, entry in step.entries:
            self._ratings[account] = entry.after
            self._history.setdefault(account, []).append(entry)
        self._steps.append(step)
        self._keys.append(game.key)

    def _undo(self, step: Step) -> None:
        for account, entry in step.entries:
            history = self._history[account]
            history.pop()
            if history:
                self._ratings[account] = entry.before
            else:
                del self._history[account], self._ratings[account]

    def rating(self, account: str) -> Rating:
        """``account``'s rating now (a newcomer's before any rated game)."""
        return self._ratings.get(account, NEWCOMER)

    def history(self, account: str) -> tuple[Entry, ...]:
        """``account``'s rated games, in the order they ended."""
        return tuple(self._history.get(account, ()))

    def step(self, game: str) -> Step | None:
        """What the game of id ``game`` did (None: not folded)."""
        known = self._games.get(game)
        if known is None:
            return None
        return self._steps[bisect.bisect_left(self._keys, known.key)]

    def accounts(self) -> int:
        """How many accounts have a rating."""
        return len(self._ratings)

    def games(self) -> int:
        """How many games are folded (rated or not)."""
        return len(self._steps)

    def leaderboard(self, top: int | None = None) -> list[Standing]:
        """The accounts by shown rating, highest first (equal ones by name), the first ``top`` of them.
        Provisional ratings are listed too: their uncertainty already keeps them low."""
        rows = self._ratings.items()

        def order(row: tuple[str, Rating]) -> tuple[int, str]:
            return -row[1].shown, row[0]

        chosen = sorted(rows, key=order) if top is None else heapq.nsmallest(top, rows, key=order)
        return [Standing.of(account, rating, len(self._history[account])) for account, rating in chosen]

    def rank(self, account: str) -> int:
        """``account``'s place on the leaderboard, 1 for the first (0: it has no rated game)."""
        mine = self._ratings.get(account)
        if mine is None:
            return 0
        ahead = (-mine.shown, account)
        return 1 + sum(1 for other, rating in self._ratings.items() if (-rating.shown, other) < ahead)

    def profile(self, account: str) -> Profile:
        """``account``'s standing, places and history (a newcomer's, with none, before any rated game)."""
        history = self.history(account)
        taken = [0] * MAX_PLAYERS
        for entry in history:
            taken[entry.place - 1] += 1
        return Profile(Standing.of(account, self.rating(account), len(history)), tuple(taken), history)


def fold(games: Iterable[FinishedGame]) -> Ledger:
    """The ledger of ``games``: the same games give the same ratings, whatever order they come in."""
    return Ledger(games)


def bot_rating(holder: BotSeat) -> Rating | None:
    """The fixed rating a bot seat counts with (None: its level is not measured, so it rates nobody)."""
    mu = level_rating(holder.level)
    return None if mu is None else Rating(mu, BOT_SIGMA)
