"""``greedy``: the placement that most improves its own outcome of the round as it stands.

For each legal placement it asks the engine what the round would give if it ended right after that
placement (:meth:`Game.projected`, exchanges included), and takes the best gain for itself. Among
equal gains it keeps its higher cards for later (lower card first), then lets the seed decide, so
two greedy bots do not mirror each other.
"""

from __future__ import annotations

from ..engine import Game, Placement
from .base import mix, move_key


def projected_gain(game: Game, placement: Placement, *, player: int) -> int:
    """How much the player's score would rise if the round ended right after this placement."""
    _, after = game.projected(placement, player=player)
    return after.score(player) - game.score(player)


def choose(game: Game, seed: int) -> Placement:
    me = game.to_move
    key = move_key(game)
    best: tuple[int, int, int] | None = None
    choice = Placement(card=game.hands[me][0], column=0)
    for placement in game.legal_placements():
        card, column = placement
        gain = projected_gain(game, placement, player=me)
        rank = (gain, -card, mix(seed, key, card * 8 + column) & 0xFFFF)
        if best is None or rank > best:
            best = rank
            choice = placement
    return choice
