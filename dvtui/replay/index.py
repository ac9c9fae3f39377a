"""A game as a sequence of moments: "the state at event k" from checkpoints, and where each key goes.

A replay is a live game whose events come from a file (STYLE): the state at a moment is the
engine's fold of the events up to it. Folding from the first event at every key press would be
linear in the game's length, so the fold is run once, keeping a copy of the state at the start of
each round (a checkpoint); the state at any event is then a copy of the nearest checkpoint before
it plus at most one round of events (33 for five players). Undo makes a round as long as the file
allows (half a million events in the largest file the reader accepts), so a round also gets a
checkpoint every :data:`CHECKPOINT_EVERY` events: a bounded fold whatever the file. No Textual here:
the viewer, the tests and the benchmark all ask this module.

Moments are event indexes into the canonical log (``LoadedGame.events``): moment ``k`` is the
state after events ``0..k``; moment 0 is the deal, the last moment is the end of the file.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence

from ..engine import (
    DERIVED_TYPES,
    CardPlaced,
    ColumnResolved,
    Event,
    Game,
    GameCreated,
    GameEnded,
    PlacementUndone,
    RoundEnded,
    RuleError,
)
from .steps import ResolutionStep

CHECKPOINT_EVERY = 256
"""Events between two checkpoints inside a round (a few hundred microseconds of folding; a
checkpoint is a few kilobytes, so the largest file holds a few megabytes of them)."""


class Replay:
    """The canonical events of one game, with checkpoints and the marks the timeline steps by.

    ``round_starts[r - 1]`` is the moment round ``r`` starts (its table dealt, nothing placed):
    0 for round 1, else the ``round_ended`` of the round before. ``turn_stops`` are the moments a
    turn of placements is complete (every player has placed once more), plus the round starts and
    the last moment: what Shift+arrows step between.
    """

    __slots__ = (
        "_checkpoint_at",
        "_checkpoints",
        "_game",
        "_resolution_from",
        "created",
        "events",
        "names",
        "round_starts",
        "turn_stops",
    )

    def __init__(self, events: Iterable[Event]) -> None:
        """``events``: a complete canonical log (every derived event in place), as the store's
        reader returns it or a live session records it. Raises ``RuleError`` otherwise."""
        it = iter(events)
        first = next(it, None)
        if not isinstance(first, GameCreated):
            raise RuleError("a game starts with game_created")
        self.created: GameCreated = first
        self.names: list[str] = [seat.name for seat in first.players]
        self.events: list[Event] = [first]
        game = Game(first)
        self._game = game
        """The state at the last moment, kept to extend the replay as a live game goes on."""
        self._checkpoints: list[Game] = [game.copy()]
        self._checkpoint_at: list[int] = [0]
        self.round_starts: list[int] = [0]
        self.turn_stops: list[int] = [0]
        self._resolution_from: list[int] = [0]
        """Per moment, the first moment of the run of derived events it belongs to (itself for a
        decision): a resolution step's results are the columns resolved since then."""
        self.extend(it)

    def extend(self, events: Iterable[Event]) -> None:
        """Append events (a live game's new moves) and update the marks."""
        game = self._game
        n = game.n
        for event in events:
            k = len(self.events)
            try:
                game.apply(event)
            except RuleError as e:
                raise RuleError(f"event {k}: {e}") from None
            self.events.append(event)
            if isinstance(event, DERIVED_TYPES):
                prev = self._resolution_from[k - 1]
                derived_before = isinstance(self.events[k - 1], DERIVED_TYPES)
                self._resolution_from.append(prev if derived_before else k)
            else:
                self._resolution_from.append(k)
            if isinstance(event, RoundEnded):
                self._checkpoints.append(game.copy())
                self._checkpoint_at.append(k)
                if not game.derived_pending:  # the last round's end starts nothing
                    self.round_starts.append(k)
                self.turn_stops.append(k)
            else:
                if (isinstance(event, CardPlaced) and len(game.placements) % n == 0) or isinstance(event, GameEnded):
                    self.turn_stops.append(k)
                if k - self._checkpoint_at[-1] >= CHECKPOINT_EVERY:
                    self._checkpoints.append(game.copy())
                    self._checkpoint_at.append(k)

    # -- what is where ---------------------------------------------------------------------------

    @property
    def last(self) -> int:
        """The last moment (the end of the file)."""
        return len(self.events) - 1

    @property
    def final(self) -> Game:
        """The state at the last moment (a copy)."""
        return self._game.copy()

    @property
    def rounds(self) -> int:
        return self.created.rounds

    @property
    def n(self) -> int:
        return len(self.created.players)

    def clamp(self, k: int) -> int:
        return max(0, min(self.last, k))

    def state_at(self, k: int) -> Game:
        """The state after events ``0..k`` (a fresh copy: the caller may keep or change it)."""
        k = self.clamp(k)
        i = bisect_right(self._checkpoint_at, k) - 1
        game = self._checkpoints[i].copy()
        apply = game.apply
        events = self.events
        for j in range(self._checkpoint_at[i] + 1, k + 1):
            apply(events[j])
        return game

    def round_at(self, k: int) -> int:
        """The round on the table at a moment: a round's end is the next round's start (its cards
        are back in hand), except at the end of the last round."""
        return min(bisect_right(self.round_starts, self.clamp(k)), self.rounds)

    def round_start(self, round_: int) -> int | None:
        """The moment round ``round_`` starts, or None when the file does not reach it."""
        if 1 <= round_ <= len(self.round_starts):
            return self.round_starts[round_ - 1]
        return None

    # -- where the keys go -------------------------------------------------------------------------

    def next_turn(self, k: int) -> int:
        i = bisect_right(self.turn_stops, k)
        return self.turn_stops[i] if i < len(self.turn_stops) else self.last

    def previous_turn(self, k: int) -> int:
        i = bisect_left(self.turn_stops, k) - 1
        return self.turn_stops[i] if i >= 0 else 0

    def next_round(self, k: int) -> int:
        i = bisect_right(self.round_starts, k)
        return self.round_starts[i] if i < len(self.round_starts) else self.last

    def previous_round(self, k: int) -> int:
        """The start of this round, or of the one before when already there."""
        i = bisect_left(self.round_starts, k) - 1
        return self.round_starts[i] if i >= 0 else 0

    # -- the resolution, as live play shows it ------------------------------------------------------

    def resolution_step(self, k: int) -> ResolutionStep | None:
        """For a ``column_resolved`` moment, what the live table shows at that step of the round's
        resolution (:mod:`dvtui.replay.steps`): the state right after the column, every column
        resolved so far, the column in focus. None for any other moment."""
        k = self.clamp(k)
        event = self.events[k]
        if not isinstance(event, ColumnResolved):
            return None
        return ResolutionStep(self.state_at(k), event, self.resolution_results(k))

    def resolution_results(self, k: int) -> dict[int, ColumnResolved]:
        """Column -> what it gave, for the columns of this round resolved up to moment ``k``."""
        k = self.clamp(k)
        return {
            ev.column: ev
            for ev in self.events[self._resolution_from[k] : k + 1]
            if isinstance(ev, ColumnResolved)
        }

    def decision_moment(self, k: int) -> int:
        """The first moment at or after ``k`` at which a decision is awaited: a moment inside a
        resolution moves on to the round's end (nothing can be decided before it)."""
        k = self.clamp(k)
        while k < self.last and isinstance(self.events[k + 1], DERIVED_TYPES):
            k += 1
        return k

    def kind(self, k: int) -> str:
        """``deal``, ``placement``, ``undo``, ``column``, ``round_end`` or ``game_end``."""
        return _KINDS[type(self.events[self.clamp(k)])]


_KINDS: dict[type, str] = {
    GameCreated: "deal",
    CardPlaced: "placement",
    PlacementUndone: "undo",
    ColumnResolved: "column",
    RoundEnded: "round_end",
    GameEnded: "game_end",
}


def fold_prefix(events: Sequence[Event], k: int) -> Game:
    """The engine's plain fold of ``events[0..k]``, event by event from the deal: what
    :meth:`Replay.state_at` must equal (the tests and the benchmark compare the two)."""
    first = events[0]
    assert isinstance(first, GameCreated)
    game = Game(first)
    for event in events[1 : k + 1]:
        game.apply(event)
    return game
