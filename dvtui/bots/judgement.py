"""One judgement of a position, for the hint (``h``) and the analysis alike: which placement is best
and what each one weighed is worth, every value measured the same way.

Why not read the strong bot's search as it stands: a tree search spends nearly all of its budget on
the placement it liked first, and a placement it left after a few simulations keeps the value of
those few, played out by the rollouts' rough policy rather than by the search. That value is not
noisy but *biased*, low by as much as 50 points of win chance, and which placement the search
settles on changes with the seed: two searches of one position can each call the other's choice a
blunder (and a placement's value keeps rising as the search below it deepens, so the one searched
most looks best because it was searched most).

So each distinct placement gets a search of its own, made to play it first, and the budget is
shared by *sequential halving*: every placement gets an equal share, the better half by value goes
on with an equal share of the next part, and so on until one is left (:func:`halvings`: as many
parts as halvings). The best is that one, and it was compared with the runner-up after searches of
the same size. Another placement (the one played, for the analysis) has its search carried on to the
best's size before the two are compared: the loss is the difference of two values measured alike.
Every one of those searches is seeded from the seed and the position alone, so they draw the same
chance and much of their noise cancels in a difference.

With the same seed and budget the hint and the analysis make the very same searches, so the
analysis never marks the placement the hint advised. Every search counts iterations, never the
clock: a pure function of (state, seed, budget).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

from ..engine import Game, Placement
from .base import Stopped
from .calibration import chance
from .strong import DEFAULT_ITERATIONS, STOP_EVERY, Suggestion, _Search, candidates, searched_as


@dataclass(frozen=True, slots=True)
class Weighed:
    """One placement, searched on its own: what it is worth to the player who makes it."""

    placement: Placement
    value: float
    """The mover's mean value over the simulations of a search that played this placement first,
    about 0..1 (mostly a chance to win, see :mod:`dvtui.bots.value`)."""
    error: float
    """The standard error of ``value``: the spread of those simulations' values over the root of
    their number."""
    gain: float
    """The mover's mean score rise by the round's end, in 100k."""
    iterations: int
    """The size of its search (the halving stopped the worse placements' sooner)."""


@dataclass(frozen=True, slots=True)
class Judgement:
    best: Weighed
    weighed: tuple[Weighed, ...]
    """Every distinct placement, the best first, then the longest searched, then by value."""
    iterations: int
    """All the searches' iterations together."""

    def of(self, placement: Placement) -> Weighed | None:
        """The placement's weighing (as the search stands for it: :func:`searched_as`)."""
        return next((w for w in self.weighed if w.placement == placement), None)


class _Forced:
    """A search made to play one placement first, with the spread of its simulations' values."""

    def __init__(self, game: Game, seed: int, placement: Placement, sibling: _Forced | None = None) -> None:
        """``sibling``: a search of another placement from the same position, whose memos (the
        judgement of each end of the round, the placements of each column) hold here too: they
        are functions of the position alone, so sharing them saves work and changes no value."""
        self.placement = placement
        self.search = search = _Search(game, seed)
        if sibling is not None:
            search.share(sibling.search)
        search.force(placement.card, placement.column)
        self.total = 0.0
        self.squares = 0.0

    def run(self, iterations: int, stop: threading.Event | None) -> None:
        search = self.search
        for i in range(iterations):
            search.iterate()
            w = search.root.kids[0].w  # judged by the root's mover: me
            value = w - self.total
            self.total = w
            self.squares += value * value
            if stop is not None and i % STOP_EVERY == 0 and stop.is_set():
                raise Stopped

    @property
    def n(self) -> int:
        return self.search.iterations

    @property
    def value(self) -> float:
        return self.total / self.n if self.n else 0.0

    def weighed(self) -> Weighed:
        n = max(1, self.n)
        mean = self.total / n
        spread = math.sqrt(max(0.0, self.squares / n - mean * mean))
        gain = self.search.root.kids[0].gain / n if self.n else 0.0
        return Weighed(self.placement, mean, spread / math.sqrt(n), gain, self.n)


def judge(
    game: Game,
    seed: int,
    iterations: int = DEFAULT_ITERATIONS,
    *,
    also: Placement | None = None,
    stop: threading.Event | None = None,
) -> Judgement:
    """The judgement of ``game`` for the player to move (see the module docstring); ``also``: a
    placement whose search is carried on to the best's size (the one played, for the analysis)."""
    forced: list[_Forced] = []
    for p in candidates(game):
        forced.append(_Forced(game, seed, p, forced[0] if forced else None))
    alive = list(range(len(forced)))
    per_round = max(1, iterations) / halvings(len(forced))
    while True:
        share = max(1, int(per_round / len(alive)))
        for i in alive:
            forced[i].run(share, stop)
        if len(alive) == 1:
            break
        alive = sorted(alive, key=lambda i: (-forced[i].value, i))[: (len(alive) + 1) // 2]
    best = forced[alive[0]]
    if also is not None:
        mine = next(f for f in forced if f.placement == searched_as(game, also))
        mine.run(best.n - mine.n, stop)
    order = sorted(range(len(forced)), key=lambda i: (i != alive[0], -forced[i].n, -forced[i].value, i))
    return Judgement(best.weighed(), tuple(forced[i].weighed() for i in order), sum(f.n for f in forced))


def halvings(placements: int) -> int:
    """The halvings from ``placements`` down to one (at least one part: a single placement is still valued)."""
    return max(1, math.ceil(math.log2(placements))) if placements > 1 else 1


def advise(game: Game, seed: int, *, iterations: int | None = None, stop: threading.Event | None = None) -> Suggestion:
    """The hint: the judgement's best placement, with what it expects of it (its chance to win
    calibrated, as the analysis shows it: :mod:`dvtui.bots.calibration`)."""
    start = time.perf_counter()
    found = judge(game, seed, DEFAULT_ITERATIONS if iterations is None else iterations, stop=stop)
    return Suggestion(
        placement=found.best.placement,
        gain=round(found.best.gain * 100_000),
        win=chance(found.best.value, game.n),
        iterations=found.iterations,
        seconds=time.perf_counter() - start,
        visits=tuple((w.placement, w.iterations) for w in found.weighed),
    )
