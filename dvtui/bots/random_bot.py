"""``random``: a uniformly random legal placement; the baseline every other level must beat."""

from __future__ import annotations

import random

from ..engine import COLUMNS, NUMBER_CARDS, PLACEMENTS, ROUNDS, Game, Placement

_rng = random.Random(0x5EED)
_TABLE: list[int] = [_rng.getrandbits(30) for _ in range(4096)]
del _rng
"""4,096 fixed random 30-bit numbers: the bot's chance is a tabulation hash of (seed, move)."""


def choose(game: Game, seed: int) -> Placement:
    # A tabulation hash rather than base.mix: the seat's seed (bots.bot_seed, already a full
    # splitmix64 hash) picks a window of the table and masks the entry the move picks. It costs a
    # fraction of a 64-bit mix, and it runs once per move of every `dvtui sim` game (hence the
    # brackets: the move number is summed in small ints before the one sum with the 64-bit seed).
    hand = game.hands[game.to_move]
    i = (_WINDOW[(seed & 4095) + _ROUND_MOVES[game.round] + len(game.placements)] ^ seed) % _CHOICES[len(hand)]
    return _PICKS[hand[_ROW[i]]][i]


_ROUND_MOVES: tuple[int, ...] = tuple(round_ * 64 for round_ in range(max(ROUNDS.values()) + 1))
"""``round * 64`` (the move number's base) by round, and ``len(hand) * COLUMNS`` (the placements
to choose from) by hand size, below: a tuple's look-up costs less than a multiplication, per move."""
_CHOICES: tuple[int, ...] = tuple(size * COLUMNS for size in range(len(NUMBER_CARDS) + 1))
_WINDOW: tuple[int, ...] = (*_TABLE, *_TABLE[: _ROUND_MOVES[-1] + 64])
"""The table, its start repeated after its end: entry ``(seed & 4095) + move`` is entry
``(seed + move) & 4095`` of the table, for every move number a round can reach (below
``_ROUND_MOVES[-1] + 64``), so the 64-bit seed takes one ``&`` a move rather than a sum with the
move number first (a new 64-bit int) and then the ``&``."""


_ROW: tuple[int, ...] = tuple(i // COLUMNS for i in range(len(NUMBER_CARDS) * COLUMNS))
"""Move number -> its card's index in hand (``i // COLUMNS``): a look-up instead of a division."""
_PICKS: tuple[tuple[Placement, ...], ...] = tuple(
    tuple(PLACEMENTS[card][i % COLUMNS] for i in range(len(NUMBER_CARDS) * COLUMNS)) if card in NUMBER_CARDS else ()
    for card in range(max(NUMBER_CARDS) + 1)
)
"""``_PICKS[card][i]``: the placement of ``card`` under column ``i % COLUMNS``, made once, so a move
costs look-ups rather than a new value or a pair to unpack (a tuple by card rather than a dict: the
card comes from the hand, and a tuple's look-up is the cheaper). They are the engine's own
:data:`~dvtui.engine.PLACEMENTS`, which :meth:`Game.play` finds by identity."""
