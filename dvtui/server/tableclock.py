"""A table's move clock and time banks (:class:`TableClock`, a base of :class:`~.table.Table`):
the turn under way's deadline, each seat's bank and increment, what an undo gives back, a server
stopped for a while, and the opener shortening the move time; :func:`record_bank` reads a seat's
bank from a table's record alone (a table nobody has loaded)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..play.session import PlaySession
from ..tables.clock import MoveClock, waiting_time
from ..tables.wire import Error, Owner
from .refusal import Refusal, owner_name
from .stores.base import TableRecord


class TableClock:
    """The move clock of a table, over the table's state (:class:`~.table.Table` sets it and says
    when it waits or starts; declared here for these rules)."""

    name: str
    session: PlaySession
    record: TableRecord
    failed: Error | None
    now: Callable[[], float]
    clock: MoveClock | None
    """The current turn's deadline (None: the table has no move time)."""
    left_at_placement: dict[int, float]
    """The time each seat had left when its latest placement was made (a clocked table): an
    undo gives that back, never a whole turn; a turn that ran out gives back nothing."""
    bank_at_placement: dict[int, float]
    """Each seat's time bank before its latest placement (a table with a bank): an undo gives it back."""
    overdue: bool
    """The current turn ran out: a stand-in plays it (its person keeps the seat)."""

    if TYPE_CHECKING:

        @property
        def waiting(self) -> bool: ...

        def _start_now(self) -> bool: ...

    def _begin_clock(self, now: Callable[[], float] | None, left: float | None) -> None:
        """Start the clock of a table made or reopened: ``now``, the monotonic clock it runs on
        (given by tests); ``left``, the time left of the turn under way (None: a whole move time)."""
        self.now = now or time.monotonic
        self.clock = None
        if self.record.move_time is not None:
            if left is None and not self.record.started:  # a waiting room waits longer than a move
                left = waiting_time(self.record.move_time)
            self.clock = MoveClock.begin(self.record.move_time, self.now(), left)
            self._bank_clock(fresh=left is None)
        self.left_at_placement = {}
        self.bank_at_placement = {}
        self.overdue = False

    def _deal_clock(self) -> None:
        """A new game dealt at the table: its first turn has the whole move time, every bank full again."""
        record = self.record
        self.overdue = False
        self.clock = None if record.move_time is None else MoveClock.begin(record.move_time, self.now(), None)
        record.banks = []
        self._bank_clock(fresh=True)

    def move_left(self) -> float | None:
        """The seconds left to the person to move (or to the waiting room), None when no clock runs:
        no move time, the game over or stopped, a bot's seat to move."""
        clock, game = self.clock, self.session.game
        if clock is None or game.over or self.failed is not None:
            return None
        if not self.waiting and self.session.is_bot(game.to_move):
            return None
        return round(clock.left(self.now()), 1)

    def due_in(self) -> float | None:
        """Seconds until :meth:`tick` has something to say (the turn or the waiting room runs out),
        None when it has nothing to wait for: no clock, the game over or stopped, a bot's seat to
        move, or the turn already played by a stand-in. The server's clock loop wakes then rather
        than at its next whole tick, so a turn runs out on time, not up to a tick late."""
        clock, game = self.clock, self.session.game
        if clock is None or game.over or self.failed is not None or self.overdue:
            return None
        if not self.waiting and self.session.is_bot(game.to_move):
            return None
        return clock.left(self.now())

    def set_clock(
        self, by: Owner, move_time: int, *, operator: Owner, time_bank: int | None = None, increment: int | None = None
    ) -> None:  # fmt: skip
        """The table's opener (or ``operator``) gives it a move time, or a shorter one than it has:
        a stalled table (a seat taken and never played) gets a clock, and nobody makes a running
        table slower for the others. The turn under way ends at the latest ``move_time`` from now
        (and its seat's bank). ``time_bank``, ``increment``: a table without a clock gets them; a
        clocked one may have them lowered (each seat's bank no more than the new one), never raised."""
        if by not in (self.record.opener, operator):
            opener = self.record.opener
            named = "nobody" if opener is None else owner_name(opener)
            raise Refusal("not_opener", f"only the opener of table {self.name} ({named}) may set its move time")
        if self.session.game.over:
            raise Refusal("game_over", f"the game at table {self.name} is over")
        before = self.record.move_time
        if before is not None and move_time > before:
            raise Refusal("illegal", f"table {self.name} has a move time of {before} s: it may be shortened, "
                          "not lengthened")  # fmt: skip
        if before is not None:
            self._no_longer_bank(time_bank, increment)
        self.record.move_time = move_time
        if time_bank is not None:
            self.record.time_bank = time_bank
            self.record.banks = [min(bank, time_bank) for bank in self.record.banks]
        if increment is not None:
            self.record.increment = increment
        now, old = self.now(), self.clock
        self.clock = MoveClock.begin(move_time, now, 0.0)
        self._bank_clock(fresh=False)
        whole = move_time + self.clock.bank(self._clocked_seat())
        self.clock.deadline = now + (whole if old is None else min(old.left(now), whole))

    def _no_longer_bank(self, time_bank: int | None, increment: int | None) -> None:
        """Refuse a bank or increment that would make a clocked table slower for the others."""
        record = self.record
        if time_bank is not None and (record.time_bank is None or time_bank > record.time_bank):
            had = "none" if record.time_bank is None else f"one of {record.time_bank} s"
            raise Refusal("illegal", f"table {self.name} has a time bank of {had}: it may be lowered, not raised")
        if increment is not None and increment > record.increment:
            raise Refusal("illegal", f"table {self.name} has an increment of {record.increment} s: it may be "
                          "lowered, not raised")  # fmt: skip

    def _bank_clock(self, *, fresh: bool) -> None:
        """Give the clock the record's time banks (a table with one): each seat's as the record
        kept it, or full; ``fresh``: the turn under way begins now, its bank behind its move time."""
        record, clock = self.record, self.clock
        if clock is None or (record.time_bank is None and not record.increment):
            return
        n = self.session.game.n
        full = float(record.time_bank or 0)
        clock.banks = list(record.banks) if len(record.banks) == n else [full] * n
        clock.increment = float(record.increment)
        if fresh and record.started:
            clock.turn(self.now(), self._clocked_seat())

    def _clocked_seat(self) -> int | None:
        """Whose bank the turn under way spends (None: a waiting room's, the game over)."""
        game = self.session.game
        return None if self.waiting or game.over else game.to_move

    def banks(self) -> list[float] | None:
        """Each seat's time bank now, as ``presence`` says it (None: the table has none)."""
        clock = self.clock
        if clock is None or not clock.banks:
            return None
        running = self._clocked_seat() if self.move_left() is not None and not self.overdue else None
        return [round(bank, 1) for bank in clock.banks_now(self.now(), running)]

    def turned(self) -> None:
        """A line was written: the next turn has the whole move time (and its seat's bank)."""
        if self.clock is not None:
            self.clock.turn(self.now(), self._clocked_seat())
            if self.clock.banks:
                self.record.banks = [round(bank, 1) for bank in self.clock.banks]
        self.overdue = False

    def placing(self, seat: int) -> None:
        """``seat`` places now (or its stand-in does): keep the time it has left, and its bank
        before the placement, for an undo; its bank is what the turn left of it, plus the
        increment for a placement made in time."""
        if self.clock is not None:
            now = self.now()
            self.left_at_placement[seat] = 0.0 if self.overdue else self.clock.left(now)
            if not self.session.is_bot(seat):  # a bot seat has no clock: its bank stays as it was
                self.bank_at_placement[seat] = self.clock.spend(seat, now, in_time=not self.overdue)

    def undone(self, seat: int) -> None:
        """``seat`` took its placement back: its turn again, with the time it had left when it
        placed (nothing, if its time had run out: the stand-in plays it again), and its bank as
        it was before (the increment it earned taken back)."""
        if self.clock is not None:
            bank = self.bank_at_placement.get(seat, self.clock.bank(seat))
            self.clock.give_back(seat, self.now(), self.left_at_placement.get(seat, 0.0), bank)
            if self.clock.banks:
                self.record.banks = [round(bank, 1) for bank in self.clock.banks]

    def lag(self, gap: float) -> None:
        """The server was stopped for ``gap`` seconds: nobody's time ran meanwhile."""
        if self.clock is not None:
            self.clock.lag(gap)

    def tick(self) -> str | None:
        """Look at the clock: ``"started"`` when it ended the waiting room (the record changed:
        stand-ins for the seats nobody took), ``"overdue"`` when the turn ran out (a stand-in plays
        it), else None."""
        if self.clock is None or self.session.game.over or self.failed is not None or self.overdue:
            return None
        if not self.clock.out(self.now()):
            return None
        if self.waiting:
            self._start_now()
            return "started"
        if self.session.is_bot(self.session.game.to_move):
            return None
        self.overdue = True
        return "overdue"


def record_bank(record: TableRecord, seat: int | None) -> float:
    """``seat``'s time bank as ``record`` kept it when its turn began (0: no bank, or no seat)."""
    if seat is None or (record.time_bank is None and not record.increment):
        return 0.0
    return record.banks[seat] if seat < len(record.banks) else float(record.time_bank or 0)


__all__ = ["TableClock", "record_bank"]
