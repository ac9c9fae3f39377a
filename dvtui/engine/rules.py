"""The rules that turn a round's placements into awards (R5, R6) and scores into a result (R8), as
functions over plain lists: :class:`dvtui.engine.Game` keeps the state and its phases and calls
these; the bots ask :func:`rank` directly.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from .cards import CATEGORY_OF, COLUMNS, VALUE_OF
from .events import Award, ColumnResolved

Ranking = tuple[tuple[int, ...], tuple[int, ...]]
"""(who takes a card, in order; who is cancelled, sorted): a column's outcome by R5.1-R5.3."""


def _ranked(totals: tuple[int, ...]) -> Ranking:
    """R5.1-R5.3 for one column, computed.

    Players with a total of 0 placed nothing there and take no part (R5.1). Every group of equal
    totals is removed, however many tie and at whatever rank (R5.2); the rest rank by total,
    highest first (R5.3), and no two of them can be equal. A total held by one player only is
    found by ``count`` (a C scan) rather than by walking a sorted copy: a miss of the memo costs a
    fifth less, and the sim misses it a few times a game.
    """
    order: list[int] = []
    cancelled: list[int] = []
    count = totals.count
    for p in range(len(totals)):
        total = totals[p]
        if total:  # R5.1: a player who placed nothing here takes no part
            if count(total) == 1:
                order.append(p)
            else:  # R5.2: a tie cancels everyone in it
                cancelled.append(p)
    if len(order) > 1:
        order.sort(key=totals.__getitem__, reverse=True)  # R5.3: no two of them are equal
    return tuple(order), tuple(cancelled)


_RANKINGS: dict[tuple[int, ...], Ranking] = {}
"""Memo of :func:`rank`: a column's outcome depends only on its totals, and the same totals come
back again and again (few players, cards 1 to 6), in games and in the bots' searches alike."""
_RANKINGS_MAX = 200_000
"""A bound on the memo, so a long run of the sim or a search cannot grow it without end."""


_SHAPES: dict[tuple[int, ...], Ranking] = {}
"""The outcome of each shape of totals (see :func:`_ranked_and_kept`): at most ``(n+1)**n`` of them
at a table of n (64 at 3 players), so no bound is needed."""


def _ranked_and_kept(key: tuple[int, ...]) -> Ranking:
    """:func:`_ranked` of the totals ``key``, kept in the memo for next time (while it has room).

    A column's outcome depends only on the order of its totals, their ties and which are 0, which
    is what the totals' shape keeps: each total replaced by its place among the distinct totals and
    0 (``(0, 7, 3)`` and ``(0, 12, 5)`` are both ``(0, 2, 1)``). Few shapes cover every total, so a
    miss of the memo (a few a game) is nearly always a hit of the shapes, at half the cost of
    ranking the totals."""
    shape = tuple(map(sorted({0, *key}).index, key))
    try:
        ranking = _SHAPES[shape]
    except KeyError:
        ranking = _SHAPES[shape] = _ranked(shape)
    if len(_RANKINGS) < _RANKINGS_MAX:
        _RANKINGS[key] = ranking
    return ranking


def rank(totals: Sequence[int]) -> Ranking:
    """R5.1-R5.3 for one column whose totals by seat are ``totals``: (the players who take a card,
    highest total first; the players cancelled by a tie, in seat order). Memoized."""
    key = tuple(totals)
    try:
        return _RANKINGS[key]
    except KeyError:
        return _ranked_and_kept(key)


_CARD_INFO: dict[str, tuple[int, int]] = {card: (VALUE_OF[card], CATEGORY_OF.get(card, -1)) for card in VALUE_OF}
"""Card -> (value, category index or -1 for money): one look-up per award."""


def resolve_columns(
    all_totals: list[list[int]],
    columns: list[list[str]],
    goods: list[list[str | None]],
    money: list[list[str]],
    worth: list[int],
    round_: int,
    start: int,
    stop: int,
) -> list[ColumnResolved]:
    """Resolve columns ``start`` .. ``stop - 1`` left to right (R5, R6), changing the lists given
    (a game's state: totals by column, the columns bottom first, each player's goods by category,
    money and score) as each column is resolved, and return what each column gave.

    One loop for a whole round with everything it touches in locals: resolving is most of a
    simulated game's work. A resolved column's totals list goes into its event, and the column
    gets a fresh list of zeros. MIRROR of :func:`settle_columns`, which changes the state alike
    without the events (a change to one is a change to both; tests/engine compares them).
    """
    events: list[ColumnResolved] = []
    zeros = [0] * len(worth)
    rankings = _RANKINGS
    card_info = _CARD_INFO
    for c in range(start, stop):
        totals = all_totals[c]
        column = columns[c]
        key = tuple(totals)
        try:
            order, cancelled = rankings[key]
        except KeyError:
            order, cancelled = _ranked_and_kept(key)
        all_totals[c] = zeros[:]  # a fresh list: the event owns the old one
        if order:
            awards: list[Award] = []
            for p in order:  # R5.3: highest total first, each takes the current bottom card
                if not column:  # R5.4
                    break
                card = column.pop(0)
                value, k = card_info[card]
                if k < 0:  # R6.3: money is never exchanged
                    money[p].append(card)
                    worth[p] += value
                    awards.append(Award(p, card, None))
                    continue
                held = goods[p]
                old = held[k]
                held[k] = card
                if old is None:
                    worth[p] += value
                else:  # R6.1: the old good goes at once on top of this column
                    column.append(old)
                    worth[p] += value - VALUE_OF[old]
                awards.append(Award(p, card, old))
            events.append(
                ColumnResolved(
                    round=round_,
                    column=c,
                    totals=totals,
                    cancelled=list(cancelled) if cancelled else [],
                    awards=awards,
                    rotated=False,
                )
            )
        elif cancelled:  # R5.2: everyone who played here tied; nobody takes a card
            events.append(
                ColumnResolved(
                    round=round_, column=c, totals=totals, cancelled=list(cancelled), awards=[], rotated=False
                )
            )
        elif column:  # R5.5: nobody played here, the bottom card goes to the top
            column.append(column.pop(0))
            events.append(ColumnResolved(round=round_, column=c, totals=totals, cancelled=[], awards=[], rotated=True))
        else:
            events.append(ColumnResolved(round=round_, column=c, totals=totals, cancelled=[], awards=[], rotated=False))
    return events


_WHOLE = slice(None)
"""``[:]`` made once: :func:`settle_columns` refills a list in place per column, and a slice in the
code is a new slice object each time."""
_COLUMN_INDEXES = range(COLUMNS)
"""R2.2: the grid's columns, left to right, made once: :func:`settle_columns` walks them a round, and
``range(len(columns))`` is two calls to make it again (every grid has ``COLUMNS``, as
:func:`~dvtui.engine.setup.check_setup` makes sure)."""


def settle_columns(
    all_totals: list[list[int]],
    columns: list[list[str]],
    goods: list[list[str | None]],
    money: list[list[str]],
    worth: list[int],
) -> None:
    """Resolve every column of a round (R5, R6) as :func:`resolve_columns` does, for a game nobody
    watches: the same changes to the state, and no events (building them, some fifty a game, was
    the larger part of resolving one). Each column's totals list is zeroed in place (no event
    takes it away).

    MIRROR of :func:`resolve_columns` (see there).
    """
    rankings = _RANKINGS
    card_info = _CARD_INFO
    zeros = [0] * len(worth)
    whole = _WHOLE
    for c in _COLUMN_INDEXES:  # (a zip with strict=True costs more, a round, than the two look-ups)
        totals = all_totals[c]
        column = columns[c]
        key = tuple(totals)
        order, cancelled = rankings.get(key) or _ranked_and_kept(key)  # (no KeyError raised on a miss)
        totals[whole] = zeros  # (totals[:] would build a slice a column)
        if order:
            for p in order:  # R5.3: highest total first, each takes the current bottom card
                if not column:  # R5.4
                    break
                card = column.pop(0)
                value, k = card_info[card]
                if k < 0:  # R6.3: money is never exchanged
                    money[p].append(card)
                    worth[p] += value
                    continue
                held = goods[p]
                old = held[k]
                held[k] = card
                if old is None:
                    worth[p] += value
                else:  # R6.1: the old good goes at once on top of this column
                    column.append(old)
                    worth[p] += value - VALUE_OF[old]
        elif column and not cancelled:  # R5.5: nobody played here, the bottom card goes to the top
            column.append(column.pop(0))


def winners(scores: Sequence[int]) -> list[int]:
    """R8: the seats with the highest score, in seat order (more than one share the victory)."""
    best = max(scores)
    if scores.count(best) == 1:  # the usual case, found by two C scans (a game ends a call)
        return [scores.index(best)]
    return [p for p, s in enumerate(scores) if s == best]


class Outcome(msgspec.Struct, frozen=True, gc=False):
    """R8: how a game ended. ``scores`` by seat; ``winners`` the seats with the highest score, in
    seat order: more than one when they tie, and then they share the victory."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]

    @classmethod
    def of(cls, scores: Sequence[int]) -> Outcome:
        """The outcome of a game that ended with these scores (R8)."""
        return cls(tuple(scores), tuple(winners(scores)))

    @property
    def best(self) -> int:
        """The winning score."""
        return self.scores[self.winners[0]]

    @property
    def shared(self) -> bool:
        """More than one player has the highest score: they share the victory (R8)."""
        return len(self.winners) > 1
