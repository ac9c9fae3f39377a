"""A bot's move in a worker process of the server's pool (a module of its own, light to import)."""

from __future__ import annotations

from ..bots import Placement, choose, parse_bot
from ..engine import Game


def think(game: Game, level: str, seed: int) -> Placement:
    """The (card, column) bot ``level`` places for the player to move in ``game``."""
    return choose(parse_bot(level), game, seed)
