"""Computer players: pure functions (state, seed) -> placement. No I/O."""

from __future__ import annotations

import functools
import re

from ..engine import Game
from .base import BotFn, BotSpec, Placement, UnknownBot, mix
from .greedy import choose as greedy
from .random_bot import choose as random_choice

LEVELS: dict[str, BotFn] = {"random": random_choice, "greedy": greedy}
"""Bot levels by name; a level may register itself here (``strong`` does)."""

BUDGETED = frozenset({"strong"})
"""Levels that search, and so take an iteration or time budget (``strong@5000``, ``strong@0.5s``)."""

_SPEC = re.compile(r"^(?P<level>[a-z]+)(?:@(?:(?P<iters>\d+)|(?P<secs>\d+(?:\.\d+)?)s))?$")


def parse_bot(text: str) -> BotSpec:
    """``greedy`` / ``strong@5000`` / ``strong@0.5s`` -> :class:`BotSpec`; unknown names refused."""
    m = _SPEC.match(text.strip())
    if not m or m["level"] not in LEVELS:
        level, at, budget = text.strip().partition("@")
        if at and level in BUDGETED:  # a known level with a budget that is not one: say so
            raise UnknownBot(f"{level}'s budget is a number of iterations ({level}@5000) or of seconds "
                             f"({level}@0.5s), not {budget!r}")
        known = ", ".join(sorted(LEVELS))
        raise UnknownBot(f"unknown bot level {text!r} (levels: {known})")
    iters = int(m["iters"]) if m["iters"] else None
    secs = float(m["secs"]) if m["secs"] else None
    if (iters is not None or secs is not None) and m["level"] not in BUDGETED:
        only = ", ".join(sorted(BUDGETED))
        raise UnknownBot(f"bot level {m['level']!r} takes no budget (only {only} does): {text!r}")
    if iters == 0 or secs == 0:
        raise UnknownBot(f"a bot's budget must be more than 0: {text!r}")
    return BotSpec(m["level"], iters, secs)


def choose(spec: BotSpec | str, game: Game, seed: int) -> Placement:
    """The bot's placement for the player to move. Deterministic unless a time budget is named."""
    if isinstance(spec, str):
        spec = parse_bot(spec)
    return bot_fn(spec)(game, seed)


def bot_fn(spec: BotSpec) -> BotFn:
    """The move function for ``spec``, its budget bound in (levels that take one accept
    ``iterations=`` and ``seconds=`` keywords)."""
    fn = LEVELS[spec.level]
    if spec.iterations is None and spec.seconds is None:
        return fn
    return functools.partial(fn, iterations=spec.iterations, seconds=spec.seconds)


def bot_seed(game_seed: int, seat: int) -> int:
    """Each seat's bot gets its own stream of chance from the game's seed."""
    return mix(mix(game_seed, _BOTS), seat)


def bot_seeds(game_seed: int, players: int) -> list[int]:
    """``bot_seed`` of every seat, sharing the first step (a tournament deals thousands a second)."""
    base = mix(game_seed, _BOTS)
    return [mix(base, seat) for seat in range(players)]


_BOTS = 0xB07
"""The key that separates the bots' chance from anything else drawn from a game's seed."""


from .strong import choose as strong_choose  # noqa: E402  (registered last; keeps `bots.strong` the module)

LEVELS["strong"] = strong_choose  # type: ignore[assignment]  # takes iterations=/seconds= too (see bot_fn)

__all__ = [
    "LEVELS",
    "BotFn",
    "BotSpec",
    "Placement",
    "UnknownBot",
    "bot_fn",
    "bot_seed",
    "bot_seeds",
    "choose",
    "mix",
    "parse_bot",
]
