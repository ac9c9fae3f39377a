"""``greedy``: the placement that most improves its own outcome of the round as it stands.

For each legal placement it asks the engine what the round would give if it ended right after that
placement (:meth:`Game.projected`, exchanges included), and takes the best gain for itself. Among
equal gains it keeps its higher cards for later (lower card first), then lets the seed decide, so
two greedy bots do not mirror each other.
"""

from __future__ import annotations

from ..engine import Game
from .base import Placement, mix, move_key


def projected_gain(game: Game, player: int, card: int, column: int) -> int:
    """How much the player's score would rise if the round ended right after this placement."""
    _, after = game.projected(after=(player, card, column))
    return after.score(player) - game.score(player)


def choose(game: Game, seed: int) -> Placement:
    me = game.to_move
    key = move_key(game)
    best: tuple[int, int, int] | None = None
    choice: Placement = (game.hands[me][0], 0)
    for card, column in game.legal_placements():
        gain = projected_gain(game, me, card, column)
        rank = (gain, -card, mix(seed, key, card * 8 + column) & 0xFFFF)
        if best is None or rank > best:
            best = rank
            choice = (card, column)
    return choice
