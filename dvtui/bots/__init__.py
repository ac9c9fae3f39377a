"""Computer players: pure functions (state, seed) -> placement. No I/O.

Everything outside the bots imports these names from ``dvtui.bots``, never from its modules (an
import-linter contract in pyproject.toml): the levels and the named :data:`LADDER`, :func:`think` (the
strong bot's search) and its :class:`Suggestion`, :func:`judge` and :func:`advise` (the one judgement
of a position the app's hint and the analysis share), the strong level's :data:`DEFAULT_ITERATIONS`.
"""

from __future__ import annotations

import functools
import threading
from typing import Protocol

from ..engine import BUDGETED, Game, Placement
from ..engine import parse_bot as _parse_bot
from .base import BotSpec, Mover, Stopped, UnknownBot, bot_seed, bot_seeds, mix
from .calibration import chance as win_chance
from .calibration import chance_error as win_chance_error
from .calibration import identity as win_chance_identity
from .greedy import choose as greedy
from .judgement import Judgement, advise, judge
from .ladder import LADDER, MOVERS, Level, StoppableMover
from .random_bot import choose as random_choice
from .strengths import RATINGS, SAME_PLAYER, about
from .strong import DEFAULT_ITERATIONS, Suggestion, searched_as, think
from .strong import choose as strong_choose


class BudgetedMover(Protocol):
    """A level that searches: a :data:`Mover` that also takes its budget and a stop signal."""

    def __call__(
        self,
        game: Game,
        seed: int,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        stop: threading.Event | None = None,
    ) -> Placement: ...


SEARCHING: dict[str, BudgetedMover] = {"strong": strong_choose}
"""The levels that take ``iterations=``, ``seconds=`` and ``stop=`` keywords (see :func:`bot_fn`)."""
STOPPABLE: dict[str, StoppableMover] = {**SEARCHING, **MOVERS}
"""Every level that searches, and so takes a ``stop=`` keyword: ``strong`` and the ladder's."""
LEVELS: dict[str, Mover] = {"random": random_choice, "greedy": greedy, **SEARCHING, **MOVERS}
"""Bot levels by name (:data:`dvtui.engine.BOT_LEVELS`)."""


def parse_bot(text: str) -> BotSpec:
    """``greedy`` / ``strong@5000`` / ``strong@0.5s`` -> :class:`BotSpec` (the engine's rules:
    :func:`dvtui.engine.parse_bot`), refused unless a level here plays it."""
    spec = _parse_bot(text)
    if spec.level not in LEVELS:  # named by the rules but not registered (cannot happen in a full install)
        raise UnknownBot(f"unknown bot level {spec.level!r} (levels: {', '.join(sorted(LEVELS))})")
    return spec


def choose(spec: BotSpec | str, game: Game, seed: int) -> Placement:
    """The bot's placement for the player to move. Deterministic unless a time budget is named."""
    if isinstance(spec, str):
        spec = parse_bot(spec)
    return bot_fn(spec)(game, seed)


def bot_fn(spec: BotSpec, stop: threading.Event | None = None, within: float | None = None) -> Mover:
    """The move function for ``spec``, its budget bound in (levels that take one accept
    ``iterations=``, ``seconds=`` and ``stop=`` keywords).

    ``stop``, once set, makes a searching bot give up (raising :class:`Stopped`): a thread cannot be
    killed, so a program that quits while a bot thinks asks it to stop. Unset, it changes nothing.
    ``within``: seconds a searching bot's move may take at most, whatever its iterations (a shared
    server's bound); such a move is no longer a pure function of (game, seed). None: no bound.
    """
    if spec.level in BUDGETED and (spec.iterations is not None or spec.seconds is not None or within is not None):
        if spec.seconds is not None:
            return functools.partial(SEARCHING[spec.level], seconds=_least(spec.seconds, within), stop=stop)
        iterations = spec.iterations if spec.iterations is not None or within is None else DEFAULT_ITERATIONS
        return functools.partial(SEARCHING[spec.level], iterations=iterations, seconds=within, stop=stop)
    if spec.level in STOPPABLE and (stop is not None or within is not None):
        return functools.partial(STOPPABLE[spec.level], stop=stop, seconds=within)
    return LEVELS[spec.level]


def _least(seconds: float, within: float | None) -> float:
    return seconds if within is None else min(seconds, within)


__all__ = [
    "DEFAULT_ITERATIONS",
    "LADDER",
    "LEVELS",
    "RATINGS",
    "SAME_PLAYER",
    "BotSpec",
    "Judgement",
    "Level",
    "Mover",
    "Stopped",
    "Suggestion",
    "UnknownBot",
    "about",
    "advise",
    "bot_fn",
    "bot_seed",
    "bot_seeds",
    "choose",
    "judge",
    "mix",
    "parse_bot",
    "searched_as",
    "think",
    "win_chance",
    "win_chance_error",
    "win_chance_identity",
]
