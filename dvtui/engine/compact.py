"""A round's end (R5, R6) on a compact copy of the state: cards as small ints, no events, no copies.

Why a second representation of the rules: a search (the strong bot) resolves thousands of imagined
ends of the same round for one move. :meth:`Game.projected` answers the same question, but it copies
the game and builds events, which costs far more than the search can spend per simulation. Here the
round's fixed facts are encoded once (:class:`CompactGame`) and a resolution is integer arithmetic
on short lists.

It is kept honest by ``tests/engine/test_compact.py``, which compares it with
:meth:`Game.projected` on random states of every player count: a change to R5 or R6 must change
both, and that test says so when one is forgotten. The ranking itself (R5.1-R5.3) is not copied:
:func:`outcomes` asks :func:`dvtui.engine.rank`.

The encoding: a card is ``category * 8 + value in 100k`` (``car-400`` is ``1 * 8 + 4``), with money
as category :data:`MONEY` (``money-200`` is ``7 * 8 + 2``); a player's goods are the value (in 100k)
they hold in each category, 0 for none; scores are in 100k.
"""

from __future__ import annotations

from typing import Final

from .cards import CATEGORY_OF, VALUE_OF
from .game import Game
from .rules import rank

MONEY: Final = 7
"""The category index money cards get in the encoding (goods are 0-6, R1.1)."""

CANCELLED: tuple[int, ...] = (-1,)
"""A column's outcome when cards were placed there and every participant tied (R5.2): nobody takes
a card and the column does not move (R5.5)."""

Outcomes = tuple[tuple[int, ...], ...]
"""Each column's outcome: who takes a card, best first (R5.3); ``()`` when nobody placed a card there;
:data:`CANCELLED` when all who did tied. A round's resolution depends on nothing else."""

Resolution = tuple[list[int], list[list[int]], list[list[int]]]
"""What a round's end leaves: (worth by player, goods by player and category, the columns left)."""


def encode(card: str) -> int:
    """``car-400`` -> 1*8+4; ``money-200`` -> 7*8+2: category in the high bits, value in 100k."""
    k = CATEGORY_OF.get(card, MONEY)
    return k * 8 + VALUE_OF[card] // 100_000


def outcomes(totals: list[list[int]]) -> Outcomes:
    """Each column's :data:`Outcomes` entry for these totals (R5.1-R5.3, by :func:`dvtui.engine.rank`)."""
    out = []
    for t in totals:
        order, cancelled = rank(t)
        out.append(CANCELLED if cancelled and not order else order)
    return tuple(out)


class CompactGame:
    """The part of a :class:`Game` a round's end reads, encoded once: the columns, goods and worth."""

    __slots__ = ("columns", "goods", "worth")

    def __init__(self, game: Game) -> None:
        self.columns: list[list[int]] = [[encode(c) for c in col] for col in game.columns]
        """Each column's cards, bottom first."""
        self.goods: list[list[int]] = [
            [0 if g is None else VALUE_OF[g] // 100_000 for g in held] for held in game.goods
        ]
        """By player and category: the value of the good held, 0 for none."""
        self.worth: list[int] = [w // 100_000 for w in game.worth]
        """By player: the score so far."""

    def resolve(self, outcomes: Outcomes, keep_rest: bool = True) -> Resolution:
        """R5 and R6 for these outcomes: (worth, goods, the columns left, bottom first), as
        :meth:`Game.projected` gives them. ``keep_rest=False`` leaves the columns out (a search
        after the last round has nothing left to judge them for). Columns left empty are dropped.
        """
        own = [o[:] for o in self.goods]
        worth = self.worth[:]
        rest: list[list[int]] = []
        for col, order in zip(self.columns, outcomes, strict=True):
            if order is CANCELLED:
                if keep_rest and col:
                    rest.append(col)  # R5.5: all cancelled, the column does not move
                continue
            if not order:
                if keep_rest and col:
                    rest.append(col[1:] + col[:1])  # R5.5: nobody played, bottom to top
                continue
            pos = 0
            size = len(col)
            extra: list[int] | None = None
            for p in order:
                if pos < size:
                    code = col[pos]
                    pos += 1
                elif extra:
                    code = extra.pop(0)  # R6.2: an exchanged good can go to a lower rank
                else:
                    break  # R5.4
                cat = code >> 3
                v = code & 7
                if cat == MONEY:
                    worth[p] += v  # R6.3
                else:
                    mine = own[p]
                    old = mine[cat]
                    mine[cat] = v
                    worth[p] += v - old
                    if old:  # R6.1: the old good goes at once on top of this column
                        if extra is None:
                            extra = []
                        extra.append(cat * 8 + old)
            if keep_rest:
                left = col[pos:] if pos < size else []
                if extra:
                    left = left + extra
                if left:
                    rest.append(left)
        return worth, own, rest
