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
    # round's window of the table, below: the 64-bit seed is masked once, and the sum is small).
    hand = game.hands[game.to_move]
    i = (_WINDOWS[game.round][(seed & 4095) + len(game.placements)] ^ seed) % _CHOICES[len(hand)]
    return _PICKS[hand[_ROW[i]]][i]


_ROUND_MOVES: tuple[int, ...] = tuple(round_ * 64 for round_ in range(max(ROUNDS.values()) + 1))
"""``round * 64`` (the move number's base) by round, and ``len(hand) * COLUMNS`` (the placements
to choose from) by hand size, below: a tuple's look-up costs less than a multiplication, per move."""
_CHOICES: tuple[int, ...] = tuple(size * COLUMNS for size in range(len(NUMBER_CARDS) + 1))
_TWICE = _TABLE * 2
_WINDOWS: tuple[tuple[int, ...], ...] = tuple(tuple(_TWICE[moves : moves + 4096 + 64]) for moves in _ROUND_MOVES)
del _TWICE
"""The table as each round's moves see it: ``_WINDOWS[round][(seed & 4095) + placed]`` is entry
``(seed + round * 64 + placed) & 4095`` of the table (``placed`` below 64, the placements standing),
so a move costs one operation on the 64-bit seed and one small sum, not a sum of the 64-bit seed
with the move number (a new 64-bit int) and the mask, nor the round's base looked up and added
(each sum a new int above 256). Seven tuples of 4,160 entries, the table's own ints, made by
slicing once at import."""


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
