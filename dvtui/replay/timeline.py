"""A game as a sequence of moments: "the state at event k" from checkpoints, and where each key goes.

A replay is a live game whose events come from a file: the state at a moment is the engine's fold
of the events up to it. Folding from the first event at every key press would be linear in the
game's length, so the one fold that checks the log (:func:`dvtui.engine.fold`, the reader's own
when the file was read with ``checkpoints=True``) keeps a copy of the state at the start of each
round and every :data:`~dvtui.engine.CHECKPOINT_EVERY` events inside one (undo makes a round as
long as the file allows); the state at any event is then a copy of the nearest checkpoint before
it plus a bounded fold. No Textual here: the viewer, the tests and the benchmark all ask this module.

Moments are event indexes into the canonical log (``LoadedGame.events``): moment ``k`` is the
state after events ``0..k``; moment 0 is the deal, the last moment is the end of the file.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..engine import (
    DERIVED_TYPES,
    CardPlaced,
    ColumnResolved,
    Event,
    Folded,
    Game,
    GameCreated,
    GameEnded,
    PlacementUndone,
    RoundEnded,
    fold,
)
from .steps import ResolutionStep

if TYPE_CHECKING:
    from ..store import LoadedGame


def _moment(checkpoint: tuple[int, Game]) -> int:
    return checkpoint[0]


class Replay:
    """The canonical events of one game, with checkpoints and the marks the timeline steps by.

    ``round_starts[r - 1]`` is the moment round ``r`` starts (its table dealt, nothing placed):
    0 for round 1, else the ``round_ended`` of the round before. ``turn_stops`` are the moments a
    turn of placements is complete (every player has placed once more), plus the round starts and
    the last moment: what Shift+arrows step between.
    """

    __slots__ = (
        "_fold",
        "_resolution_from",
        "_standing",
        "created",
        "events",
        "names",
        "round_starts",
        "turn_stops",
    )

    def __init__(self, events: Iterable[Event]) -> None:
        """``events``: a complete canonical log (every derived event in place), as the store's
        reader returns it or a live session records it; folded here, checked as a full log
        (a ``RuleError`` says at which event it is wrong). The list is copied: the replay grows
        its own as a live game goes on."""
        self._start(fold(list(events), script=False, checkpoints=True))

    @classmethod
    def of(cls, loaded: LoadedGame) -> Replay:
        """The replay of a file as the store read it, on the reader's own fold when it was read
        with ``checkpoints=True`` (a long file is not folded a second time)."""
        if loaded.checkpoints is None:
            return cls(loaded.events)
        replay = cls.__new__(cls)
        replay._start(Folded(loaded.game.copy(), loaded.events[:], checkpoints=loaded.checkpoints[:]))
        return replay

    def _start(self, folded: Folded) -> None:
        first = folded.events[0]
        assert isinstance(first, GameCreated)
        self.created: GameCreated = first
        self.names: list[str] = [seat.name for seat in first.players]
        self.events: list[Event] = folded.events
        self._fold = folded
        """The fold of :attr:`events`, the state at the last moment: a live game's new moves
        extend it."""
        assert folded.checkpoints is not None
        self.round_starts: list[int] = [0]
        self.turn_stops: list[int] = [0]
        self._resolution_from: list[int] = [0]
        """Per moment, the first moment of the run of derived events it belongs to (itself for a
        decision): a resolution step's results are the columns resolved since then."""
        self._standing = 0
        """Placements standing in the round at the last moment (a turn is complete every n)."""
        self._mark(1)

    def extend(self, events: Iterable[Event]) -> None:
        """Append events (a live game's new moves, checked as the fold checks a full log) and
        update the marks."""
        start = len(self.events)
        self._fold.extend(events)
        self._mark(start)

    def _mark(self, start: int) -> None:
        """The marks of the moments from ``start`` on: they depend on the events alone."""
        events = self.events
        n = len(self.created.players)
        rounds = self.created.rounds
        resolution_from = self._resolution_from
        turn_stops = self.turn_stops
        standing = self._standing
        derived_before = isinstance(events[start - 1], DERIVED_TYPES)
        for k in range(start, len(events)):
            event = events[k]
            kind = type(event)
            if kind is CardPlaced:
                standing += 1
                if standing % n == 0:
                    turn_stops.append(k)
                resolution_from.append(k)
                derived_before = False
                continue
            if kind is PlacementUndone:
                standing -= 1
                resolution_from.append(k)
                derived_before = False
                continue
            resolution_from.append(resolution_from[k - 1] if derived_before else k)
            derived_before = True
            if kind is RoundEnded:
                standing = 0
                assert isinstance(event, RoundEnded)
                if event.round < rounds:  # the last round's end starts nothing
                    self.round_starts.append(k)
                turn_stops.append(k)
            elif kind is GameEnded:
                turn_stops.append(k)
        self._standing = standing

    # -- what is where ---------------------------------------------------------------------------

    @property
    def last(self) -> int:
        """The last moment (the end of the file)."""
        return len(self.events) - 1

    @property
    def final(self) -> Game:
        """The state at the last moment (a copy)."""
        return self._fold.game.copy()

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
        checkpoints = self._fold.checkpoints
        assert checkpoints is not None
        at, checkpoint = checkpoints[bisect_right(checkpoints, k, key=_moment) - 1]
        game = checkpoint.copy()
        apply = game.apply
        events = self.events
        for j in range(at + 1, k + 1):
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
        return {ev.column: ev for ev in self.events[self._resolution_from[k] : k + 1] if isinstance(ev, ColumnResolved)}

    def decision_moment(self, k: int) -> int:
        """The first moment at or after ``k`` at which a decision is awaited: a moment inside a
        resolution moves on to the round's end (nothing can be decided before it)."""
        k = self.clamp(k)
        while k < self.last and isinstance(self.events[k + 1], DERIVED_TYPES):
            k += 1
        return k
