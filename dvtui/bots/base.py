"""What a bot is: a pure function of (game state, seed) to a placement (the engine's
:data:`~dvtui.engine.Mover`), plus how bots are named.

Bots keep no memory between moves, so a game resumed from any point continues exactly as the
uninterrupted one (the determinism promise of the README).
"""

from __future__ import annotations

from ..engine import BotSpec, Game, Mover, UnknownBot

__all__ = ["BotSpec", "Mover", "Stopped", "UnknownBot", "mix", "move_key"]

_M64 = (1 << 64) - 1


def mix(seed: int, *keys: int) -> int:
    """A 64-bit hash of ``seed`` and ``keys`` (splitmix64 steps): the bots' only source of chance.

    Defined here rather than taken from ``hash()`` or ``random`` so that a bot's choice depends on
    nothing but the game and the seed, on every Python and every machine.
    """
    z = seed & _M64
    for k in keys:
        z = (z + 0x9E3779B97F4A7C15 + (k & _M64)) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        z ^= z >> 31
    return z


def bot_seed(game_seed: int, seat: int) -> int:
    """Each seat's bot gets its own stream of chance from the game's seed."""
    return mix(mix(game_seed, _BOTS), seat)


def bot_seeds(game_seed: int, players: int) -> list[int]:
    """:func:`bot_seed` of every seat, the first step shared (a tournament asks for every game it
    deals, ``dvtui sim`` once a game): :func:`mix`'s steps written out, as its loop over ``*keys``
    and a call per seat were a third of the cost (tests/bots compares the two)."""
    z = ((game_seed & _M64) + 0x9E3779B97F4A7C15 + _BOTS) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    base = (z ^ (z >> 31)) + 0x9E3779B97F4A7C15  # mix(game_seed, _BOTS), and the next step's constant
    seeds = []
    for seat in range(players):
        z = (base + seat) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        seeds.append(z ^ (z >> 31))
    return seeds


_BOTS = 0xB07
"""The key that separates the bots' chance from anything else drawn from a game's seed."""


def move_key(game: Game) -> int:
    """Which move of the game this is: distinct for every placement decision of a game."""
    return (game.round * 64 + len(game.placements)) * 8 + game.to_move


class Stopped(Exception):
    """A bot asked to stop thinking (its ``stop`` event set) before it chose: there is no move."""
