"""What people read about each bot level where they choose one: a sentence, and its measured strength.

The ratings are Elo relative to ``strong`` at its default budget (0), as the duplicate gauntlet of
``bench/bench_ladder.py`` measured them, rung by rung: one bot of a level among bots of the level
below, the table a person sits at when playing the ladder (docs/PLAYING.md publishes the table
with its date, commit and intervals). They are measured, never assumed: a level the gauntlet
leaves out shows none, and a change to a level's play means running the gauntlet again and
copying its numbers here.
"""

from __future__ import annotations

from ..i18n import N_, _
from .ladder import LADDER

RATINGS: dict[str, int] = {
    "novice": -400,
    "casual": -277,
    "greedy": -252,
    "club": -152,
    "strong": 0,
    "expert": 0,  # strong's: see SAME_PLAYER
    "master": 133,
}
"""Elo against ``strong`` by level, from ``python bench/bench_ladder.py`` (docs/PLAYING.md, "The ladder"):
each the sum of the rungs between it and ``strong``, each rung pooled over two sets of deals (0-19
and 500-519), since one set alone put a rung up to 40 Elo from the other. ``expert`` is ``strong``
under a ladder name (the same search, budget and moves), so its rating is strong's."""

SAME_PLAYER: frozenset[str] = frozenset({"expert"})
"""Ladder names for ``strong`` itself (the same search, budget and moves; tests/bots/test_ladder.py
pins it): where a level is described, their strength is told as strong's rather than as a number."""

SENTENCES: dict[str, str] = {
    "random": N_("Places any card anywhere."),
    "greedy": N_("Takes what pays best this round."),
    "strong": N_("Looks ahead to the end of the round and plays to win the game."),
    **{level.name: level.sentence for level in LADDER},
}
"""One sentence for people per level, in the catalogue's language when shown (:func:`about`)."""


def about(level: str) -> tuple[str, int | None]:
    """The level's sentence in the current language, and its rating against ``strong`` (None: not measured)."""
    return _(SENTENCES[level]), RATINGS.get(level)
