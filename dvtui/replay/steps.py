"""A round's resolution as a sequence of tables to show, one per column (no Textual here).

The engine resolves a round in one go; people want to watch it column by column. Each step is the
state right after one ``column_resolved`` (refolded through the engine from the state before the
round's last placement), with every result so far, so a view only has to draw a state. The live
table and the replay viewer share this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..engine import ColumnResolved, Event, Game, GameEnded, RoundEnded


@dataclass(frozen=True, slots=True)
class ResolutionStep:
    game: Game
    """The table to draw: right after ``event`` for a column; for the round's end, the table
    after the last column (before the cards go back to hand)."""
    event: ColumnResolved | RoundEnded
    results: dict[int, ColumnResolved]
    """Column -> what it gave, for every column resolved so far this round."""

    @property
    def column(self) -> int | None:
        return self.event.column if isinstance(self.event, ColumnResolved) else None


def resolution_steps(before: Game, events: Sequence[Event]) -> list[ResolutionStep]:
    """The steps of the resolution in ``events`` (a decision and the derived events it caused),
    starting from ``before``, the state before that decision."""
    game = before.copy()
    steps: list[ResolutionStep] = []
    results: dict[int, ColumnResolved] = {}
    for event in events:
        if isinstance(event, RoundEnded):
            steps.append(ResolutionStep(game.copy(), event, dict(results)))
            game.apply(event)
            continue
        if isinstance(event, GameEnded):
            break
        game.apply(event)
        if isinstance(event, ColumnResolved):
            results[event.column] = event
            steps.append(ResolutionStep(game.copy(), event, dict(results)))
    return steps
