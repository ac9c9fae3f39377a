"""Folding a log: ``state = fold(events)``, the one way from events to a game.

Every reader of events goes through here: the store's reader (a file, then line numbers from the
error's event index), the replay timeline (with checkpoints, to show any moment), the tests. A
log is either *full* (every derived event in place, as a writer records it) or a *game script*
(decisions only, which a person or a tool may write): a script's derived events are recomputed
and put in place; a full log's are recomputed and compared, and must come complete and in place.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import DerivedMismatch, RuleError
from .events import DERIVED_TYPES, CardPlaced, Event, GameCreated
from .game import GAME_ENDING, RESOLVING, ROUND_ENDING, Game

CHECKPOINT_EVERY = 256
"""Events between two checkpoints inside a round, at most (plus a round's derived events, which
come as one unit): the events a look-up from a checkpoint folds again, against the memory a
checkpoint takes (a game's state: a few kilobytes)."""

_DERIVED = frozenset(DERIVED_TYPES)  # a set: `type(ev) in` it per event
_OWING = frozenset((RESOLVING, ROUND_ENDING, GAME_ENDING))
"""The phases in which derived events are owed before the next decision."""
_NEVER = 1 << 62
"""``due`` when no checkpoint is kept: past any log's end."""
_OWED_NAME = {RESOLVING: "column_resolved", ROUND_ENDING: "round_ended", GAME_ENDING: "game_ended"}
"""The derived event a phase owes first."""


class Folded:
    """A log folded by :func:`fold`: the state after it, the log complete, and what it lacked."""

    __slots__ = ("_due", "_k", "_kept_round", "_owed", "checkpoints", "decisions_only", "events", "game", "owed_tail")

    game: Game
    """The state after every event (and every derived event owed at the end)."""
    events: list[Event]
    """The canonical log: a full log is the list given itself; a script gets its derived events
    put in place. Derived events owed at the end are appended (they are :attr:`owed_tail`)."""
    decisions_only: bool
    """The log holds no derived event (a game script, or a full log cut before its first
    resolution: the store tells the two apart by where the log stops)."""
    owed_tail: list[Event]
    """Derived events owed at the end of the log and absent from it: recomputed and appended."""
    checkpoints: list[tuple[int, Game]] | None
    """With ``checkpoints=True``: (k, a copy of the state after canonical event k), from the deal
    on, at each round's start and at most :data:`CHECKPOINT_EVERY` events apart (see there)."""

    def __init__(
        self,
        game: Game,
        events: list[Event],
        *,
        decisions_only: bool = False,
        checkpoints: list[tuple[int, Game]] | None = None,
    ) -> None:
        """A fold taken up where it stands: ``game`` is the state after the full log ``events``
        and ``checkpoints`` are that log's (None: keep none). :func:`fold` makes one; a replay
        makes one from what the store's reader kept, to extend it as a live game goes on."""
        self.game = game
        self.events = events
        self.decisions_only = decisions_only
        self.owed_tail = []
        self.checkpoints = checkpoints
        last_at, last = checkpoints[-1] if checkpoints else (0, game)
        self._due = last_at + CHECKPOINT_EVERY
        self._kept_round = last.round
        self._owed: list[Event] = []
        self._k = 0

    def extend(self, events: Iterable[Event]) -> None:
        """Fold more events of a full log onto this one (a live game's latest moves), checked as
        :func:`fold` checks a full log. Errors carry the event's index in :attr:`events`; after
        one, this fold is not to be used further."""
        start = len(self.events)
        self.events.extend(events)
        self._fold_full(start, tail=False)

    # -- the two loops -------------------------------------------------------------------------

    def _fold_full(self, i: int, *, tail: bool) -> None:
        """Fold ``events[i:]`` of a full log. A round's derived events are computed all at once
        where the log reaches the first of them and compared in one go (one by one only to name
        a difference); those still owed at the end are appended when ``tail``, else kept for
        :meth:`extend`."""
        events = self.events
        game = self.game
        apply = game.apply
        apply_placements = game.apply_placements
        n = len(events)
        owed = self._owed
        k = self._k
        owing = k < len(owed)  # derived events computed and not yet met in the log
        keeping = self.checkpoints is not None
        due = self._due if keeping else _NEVER  # a checkpoint is due after event `due`
        while i < n:
            ev = events[i]
            kind = type(ev)
            if kind is CardPlaced and not owing:  # most events: a run of placements
                stop = n if due >= n else (due + 1 if due >= i else i + 1)
                j = apply_placements(events, i, stop)
                if j > i:
                    i = j
                    if i > due:
                        due = self._keep(i - 1)
                    continue
            if kind in _DERIVED:
                if not owing:
                    if not game.derived_pending:
                        raise RuleError.of("not_owed", event=ev.__struct_config__.tag).at(i)
                    owed = game.derive_all()
                    k = 0
                    end = i + len(owed)
                    if end <= n and events[i:end] == owed:  # the usual case
                        k = len(owed)
                        i = end
                        if keeping:  # a round may have started: checked whenever derived events end
                            due = self._keep(i - 1)
                        continue
                expected = owed[k]
                k += 1
                owing = k < len(owed)
                if expected != ev:
                    raise DerivedMismatch.between(expected, ev).at(i)
                i += 1
                if keeping and not owing:
                    due = self._keep(i - 1)
                continue
            if owing or game.phase in _OWING:
                owed_name = type(owed[k]).__struct_config__.tag if owing else _OWED_NAME[game.phase]
                raise RuleError.of("misplaced", event=ev.__struct_config__.tag, owed=owed_name).at(i)
            try:
                apply(ev)
            except RuleError as e:
                raise e.at(i, f"{ev.__struct_config__.tag}: ") from None
            i += 1
            if i > due:
                due = self._keep(i - 1)
        rest = owed[k:]
        if tail:
            if game.derived_pending:
                rest.extend(game.derive_all())
            if rest:
                events.extend(rest)
                self.owed_tail = rest
                if keeping:
                    self._keep(len(events) - 1)
            owed, k = [], 0
        self._owed = owed
        self._k = k

    def _fill(self, log: list[Event]) -> None:
        """Fold the decisions ``log[1:]`` of a game script, putting the derived events each
        round owes in place (in :attr:`events`) before the next decision, and at the end."""
        events = self.events
        game = self.game
        apply = game.apply
        apply_placements = game.apply_placements
        keeping = self.checkpoints is not None
        due = self._due if keeping else _NEVER  # a checkpoint is due after canonical event `due`
        n = len(log)
        i = 1
        while i < n:
            ev = log[i]
            if game.phase in _OWING:  # a round's derived events, which a script leaves out
                events.extend(game.derive_all())
                if keeping:
                    due = self._keep(len(events) - 1)
            if type(ev) is CardPlaced:
                room = due - len(events) + 1  # events up to canonical index `due`, at least one
                j = apply_placements(log, i, n if room >= n - i else (i + room if room > 0 else i + 1))
                if j > i:
                    events += log[i:j]
                    i = j
                    if len(events) > due:
                        due = self._keep(len(events) - 1)
                    continue
            try:
                apply(ev)
            except RuleError as e:
                raise e.at(i, f"{ev.__struct_config__.tag}: ") from None
            events.append(ev)
            i += 1
            if len(events) > due:
                due = self._keep(len(events) - 1)
        if game.derived_pending:
            self.owed_tail = game.derive_all()
            events.extend(self.owed_tail)
            if keeping:
                self._keep(len(events) - 1)

    def _keep(self, k: int) -> int:
        """A checkpoint after canonical event ``k``, if one is due: a round has started since the
        last, or :data:`CHECKPOINT_EVERY` events have passed. Only where no derived event is
        owed, so a checkpoint is always a state a decision can follow. Returns the event after
        which the next one is due, whatever the round."""
        game = self.game
        if (k >= self._due or game.round != self._kept_round) and not game.derived_pending:
            self.checkpoints.append((k, game.copy()))  # type: ignore[union-attr]
            self._due = k + CHECKPOINT_EVERY
            self._kept_round = game.round
        return self._due


def fold(events: Iterable[Event], *, script: bool = True, checkpoints: bool = False) -> Folded:
    """The state after ``events``, checked: ``game_created`` first, every decision legal, every
    derived event what the rules give (else :class:`DerivedMismatch` naming the field).

    ``script``: a log without any derived event is a game script, its derived events recomputed
    and put in place; with ``script=False`` every log must be full (the replay timeline's moments
    are the log's own indexes). ``checkpoints``: keep copies of the state along the way (see
    :attr:`Folded.checkpoints`), so a state at any event is a bounded fold away.

    Every :class:`RuleError` raised carries ``index``, the position in ``events`` of the event at
    fault, and its message says what is wrong with that event.
    """
    log = events if isinstance(events, list) else list(events)
    first = log[0] if log else None
    if not isinstance(first, GameCreated):
        raise RuleError.of("first_event", what=None if first is None else _name(first)).at(0)
    try:
        game = Game(first)
    except RuleError as e:
        raise e.at(0, "game_created: ") from None
    decisions_only = _DERIVED.isdisjoint(map(type, log))
    kept = [(0, game.copy())] if checkpoints else None
    if script and decisions_only:
        folded = Folded(game, [first], decisions_only=True, checkpoints=kept)
        folded._fill(log)
    else:
        folded = Folded(game, log, decisions_only=decisions_only, checkpoints=kept)
        folded._fold_full(1, tail=True)
    return folded


def _name(event: object) -> str:
    """An event's ``type`` as a log writes it (or what else it is)."""
    return getattr(getattr(event, "__struct_config__", None), "tag", None) or type(event).__name__
