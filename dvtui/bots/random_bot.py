"""``random``: a uniformly random legal placement; the baseline every other level must beat."""

from __future__ import annotations

from ..engine import COLUMNS, Game
from .base import Placement

_M64 = (1 << 64) - 1


def choose(game: Game, seed: int) -> Placement:
    # base.mix(seed, move) unrolled for one key: this runs once per move of every `dvtui sim` game
    hand = game.hands[game.to_move]
    z = (seed + (game.round * 64 + len(game.placements) + 1) * 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    i = (z ^ (z >> 31)) % (len(hand) * COLUMNS)
    return hand[i // COLUMNS], i % COLUMNS
