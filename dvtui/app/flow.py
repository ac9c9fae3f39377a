"""The turn at the live table, without Textual: the cursor, the resolution on screen, the moves
that came while it was shown, and what each key may do now. The table screen renders from it and
runs its effects (workers, timers); a new game gets a new flow, so nothing of the old game's stays.

Every decision that stands reaches the flow as a :class:`~dvtui.play.session.PlayedMove` through
:meth:`TableFlow.arrive`, whoever made it. A move that resolves the round is played out step by
step; moves arriving meanwhile (another terminal's, the server's bots) wait their turn, so the
screen always shows one decision at a time, in the order the game made them.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..describe import hint_line
from ..engine import COLUMNS, CardPlaced, Event, Placement, PlacementUndone, RoundEnded, fold
from ..i18n import _
from ..play.face import GameSession, presence_of
from ..play.session import PlayedMove
from ..replay.steps import ResolutionStep, resolution_steps

PLACING = frozenset({"pick", "step", "column", "place"})


@dataclass(slots=True)
class Cursor:
    """A person's choice in the making: the card, the column (each turn starts on column A), the
    hint shown, and whose choice it is (each person at a shared keyboard starts afresh)."""

    card: int | None = None
    column: int = 0
    player: int | None = None
    hint: str | None = None


@dataclass(slots=True)
class Resolution:
    """The round's resolution on screen, a step per column and the round's end."""

    steps: list[ResolutionStep]
    start_scores: list[int]
    """The scores before the round (for the summary's gains)."""
    pending_log: list[Event] = field(default_factory=list)
    """Derived events the log has not told yet (it tells them as their step appears)."""
    index: int = 0
    recap: bool = False
    """Shown again: the game was left while it was being shown."""

    @property
    def step(self) -> ResolutionStep:
        return self.steps[self.index]

    @property
    def at_summary(self) -> bool:
        return isinstance(self.step.event, RoundEnded)

    def log_until(self, event: Event) -> list[Event]:
        """The pending derived events up to and including ``event``, taken out of the pending."""
        if event not in self.pending_log:
            return []
        cut = self.pending_log.index(event) + 1
        shown, self.pending_log = self.pending_log[:cut], self.pending_log[cut:]
        return shown


class TableFlow:
    """The turn for ``session``. ``hold_summary``: a round's summary waits for a key when someone
    plays at this keyboard (bots alone, or a spectator, go on)."""

    def __init__(self, session: GameSession, *, hold_summary: bool = True) -> None:
        self.session = session
        self.hold_round_end = hold_summary
        self.token = 0
        """Bumped at every change of position: answers (a bot's, a hint) for an older one are dropped."""
        self.cursor = Cursor()
        self.resolution: Resolution | None = None
        self.waiting: deque[PlayedMove] = deque()
        """Moves that came while a resolution was shown, oldest first."""
        self.thinking: int | None = None
        """The bot seat whose search is running on this side."""
        self.rung_at: int | None = None
        """The position (number of events) the turn's bell last rang for."""

    # -- what may be done now ----------------------------------------------------------------------

    @property
    def holds_summary(self) -> bool:
        return self.hold_round_end and bool(self.session.abilities.seats_here)

    def busy(self) -> bool:
        """A resolution is shown, a move waits to be, or a decision of this side is on its way."""
        return self.resolution is not None or bool(self.waiting) or self.session.deciding

    def placer(self) -> int | None:
        """The person whose placement the keys make now, if any."""
        session = self.session
        if self.busy() or session.save_failure is not None:
            return None
        return session.human_to_move()

    def allowed(self, action: str) -> bool:
        session = self.session
        if action in PLACING:
            return self.placer() is not None
        if action == "hint":
            return self.placer() is not None and session.abilities.hints is None
        if action == "undo":
            return not self.busy() and session.undo_player() is not None and session.save_failure is None
        if action in ("next_step", "skip"):
            return self.resolution is not None
        if action == "results":
            return session.game.over and self.resolution is None
        if action == "chat":  # (a stopped table hears nobody)
            presence = presence_of(session)
            return session.abilities.chat is not None and (presence is None or presence.stopped is None)
        if action in ("close_table", "resign"):
            presence = presence_of(session)
            if presence is None or presence.left is not None or presence.stopped is not None or session.game.over:
                return False
            return session.abilities.close if action == "close_table" else session.abilities.resign
        if action in ("stand_in", "start"):
            presence = presence_of(session)
            if not self.seated_at_table() or presence is None:
                return False
            return bool(presence.away()) and not session.game.over if action == "stand_in" else bool(presence.awaited())
        return True

    def seated_at_table(self) -> bool:
        """This side holds a seat at a shared table it is still at, and that still plays: it may let
        bots stand in for the seats nobody plays, and start a waiting table."""
        session = self.session
        presence = presence_of(session)
        gone = presence is None or presence.left is not None or presence.stopped is not None
        return session.abilities.stand_ins and not gone

    def bot_to_start(self) -> int | None:
        """The seat whose bot thinks on this side now, if one is to."""
        session = self.session
        game = session.game
        if self.busy() or game.over or session.save_failure is not None or session.human_to_move() is not None:
            return None
        return game.to_move if session.bots[game.to_move] is not None else None

    # -- the person's choice -------------------------------------------------------------------------

    def follow_keyboard(self) -> None:
        """A fresh cursor when the keyboard passes to another person (or the game begins)."""
        placer = self.placer()
        if placer is not None and placer != self.cursor.player:
            self.cursor = Cursor(player=placer)

    def pick(self, card: int) -> str | None:
        """Choose ``card``; a warning when it is not in the hand."""
        player = self.placer()
        if player is None:
            return None
        if card not in self.session.game.hands[player]:
            return _("Your {card} is already on the table this round.").format(card=card)
        self.cursor.card, self.cursor.hint = card, None
        return None

    def move_to(self, column: int) -> None:
        if self.placer() is not None:
            self.cursor.column, self.cursor.hint = column % COLUMNS, None

    def step(self, delta: int) -> None:
        self.move_to(self.cursor.column + delta)

    def hand_in(self) -> None:
        """A decision was handed to the session: what was thought for this position is moot."""
        self.token += 1
        self.cursor.hint = None
        self.thinking = None

    def hinted(self, placement: Placement, gain: int, win: float) -> None:
        self.cursor.card, self.cursor.column = placement
        self.cursor.hint = hint_line(placement, gain, win)

    # -- decisions that stand ------------------------------------------------------------------------

    def arrive(self, move: PlayedMove) -> PlayedMove | None:
        """A decision stands: the move to show now, or None when it waits for the resolution on
        screen (see :meth:`next_waiting`)."""
        self.token += 1
        self.thinking = None
        self.cursor.hint = None
        if self.resolution is not None or self.waiting:
            self.waiting.append(move)
            return None
        return self._show(move)

    def next_waiting(self) -> PlayedMove | None:
        """The next move that came during a resolution, once none is on screen."""
        if self.resolution is not None or not self.waiting:
            return None
        return self._show(self.waiting.popleft())

    def _show(self, move: PlayedMove) -> PlayedMove:
        events = move.events
        if events and isinstance(events[0], PlacementUndone):
            self._undone([e for e in events if isinstance(e, PlacementUndone)])
        elif len(events) > 1:
            self.resolution = Resolution(resolution_steps(move.before, events), move.before.scores(),
                                         list(events[1:]))  # fmt: skip
        if events and isinstance(events[0], CardPlaced) and events[0].player == self.cursor.player:
            self.cursor.card = None  # the choice was played (the column stays where it was)
        return move

    def _undone(self, undone: list[PlacementUndone]) -> None:
        """A placement taken back comes back to its person's cursor (not a fresh one), when this
        keyboard plays for them now."""
        human = self.session.human_to_move()
        mine = next((e for e in reversed(undone) if e.player == human), None)
        if mine is not None:
            self.cursor = Cursor(card=mine.card, column=mine.column, player=mine.player)

    # -- the resolution ------------------------------------------------------------------------------

    def next_step(self) -> bool:
        """On to the next step: False when there is none (the caller ends the resolution)."""
        resolution = self.resolution
        if resolution is None or resolution.index + 1 >= len(resolution.steps):
            return False
        resolution.index += 1
        return True

    def skip(self) -> bool:
        """Straight to the round's summary when it waits to be read (True); False when the
        resolution is to end now (from the summary, or when nobody reads it)."""
        resolution = self.resolution
        if resolution is None:
            return False
        last = len(resolution.steps) - 1
        if self.holds_summary and resolution.index < last and isinstance(resolution.steps[last].event, RoundEnded):
            resolution.index = last
            return True
        return False

    def end_resolution(self) -> list[Event]:
        """The resolution is gone: the derived events the log has not told yet."""
        resolution, self.resolution = self.resolution, None
        return resolution.pending_log if resolution is not None else []

    def recap(self) -> int | None:
        """A game left while its round was being resolved (the file ends with ``round_ended``:
        nobody has placed since) opens on that resolution again, so its results are not lost. The
        number of events the log tells before it (the rest it tells as they are shown), or None:
        nothing to show again."""
        history = self.session.events
        if self.session.game.over or not history or not isinstance(history[-1], RoundEnded):
            return None
        last = next((i for i in range(len(history) - 1, -1, -1) if isinstance(history[i], CardPlaced)), None)
        if last is None:
            return None
        before = fold(history[:last]).game
        events = list(history[last:])
        self.resolution = Resolution(resolution_steps(before, events), before.scores(), events[1:], recap=True)
        return last + 1

    # -- the bell ----------------------------------------------------------------------------------

    def my_turn(self) -> bool:
        """The game asks this side for a placement at its latest position, whatever the screen
        shows meanwhile (a round's resolution or summary, moves waiting to be shown, a dialog)."""
        session = self.session
        return session.human_to_move() is not None and not session.game.over and session.save_failure is None

    def turn_begins(self) -> bool:
        """It has just become this side's turn at a new position (not by taking one's own move
        back): once per position. Asked of the game, not of what is on screen: a turn that comes
        while a round's summary is read is called at once, not once the summary is gone."""
        session = self.session
        if not self.my_turn():
            return False
        n = len(session.events)
        last = session.events[-1]
        if self.rung_at == n or (isinstance(last, PlacementUndone) and last.player == session.human_to_move()):
            return False
        self.rung_at = n
        return True
