"""Move clocks: how long the person to move at a table has, as plain values and functions.

A table with a move time gives each turn (and its waiting room) that long; when it runs out, a
greedy stand-in plays the turn and the person keeps the seat. The time is the server's monotonic
clock, and only the time the server was running counts against anyone:

- a server stopped (SIGSTOP, a suspended machine) sees its loop come back late; :meth:`MoveClock.lag`
  moves every deadline on by the gap, so nobody loses on time while nothing could be played;
- a server restarted recomputes a turn's time left from the files' time stamps (:func:`resumed_left`):
  the game's file was last written when the turn began, and the server's *alive* stamp (touched
  every tick) says when it stopped running; the time in between was used, the time after was not.
  A turn's clock is never given back whole by a restart, nor taken by one.

A table may also give each seat a *time bank* (a game clock, as lichess's correspondence and
BGA's turn-based timers have): a turn first spends its move time, then its seat's bank, and a
stand-in plays it only when both have run out. Each placement a person makes in time adds the
table's *increment* to their bank; a turn a stand-in played leaves the bank empty and earns
nothing. An undo gives the seat back its bank as it was before the placement, with the time the
turn had left (never a whole turn); the record keeps each bank, so a restart gives it back.

Nothing here reads a clock itself: every function is given ``now``, so the rules are tested
without a socket or a sleep.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..i18n import _

UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
MIN_MOVE_TIME = 1
MAX_MOVE_TIME = 30 * 86400
"""The longest move time: 30 days (``3d`` is correspondence play, a game over about a week)."""
TICK = 1.0
"""How often at least the server looks at its clocks (seconds); it looks sooner when a turn runs out
before then, so a turn runs out on time (at most this late only after an undo gave back less)."""
LAG = 0.5
"""A tick this much later than due is the server having been stopped: the gap counts for nobody."""
WAITING_ROOM_TIME = 600
"""The least a clocked table's waiting room waits for its people (seconds): friends need longer
to open their terminals than a player needs for a move."""


def waiting_time(move_time: float) -> float:
    """How long a clocked table's waiting room lasts before stand-ins sit in for whoever has not
    come: ten minutes, or the move time when that is longer."""
    return max(move_time, WAITING_ROOM_TIME)


DAY_ALIASES = {"j": "d"}
"""Units a person may type in their language for one of :data:`UNITS`: French counts days in
*jours* (``3j``), as the screen writes them (``2 j 4 h``)."""
_DURATION = re.compile(r"\A([0-9]{1,7})([smhdj])\Z")


def parse_duration(text: str) -> int:
    """``45s``, ``2m``, ``1h``, ``3d`` (or ``3j``) as seconds; ValueError says the rule."""
    match = _DURATION.match(text.strip())
    seconds = int(match.group(1)) * UNITS[DAY_ALIASES.get(match.group(2), match.group(2))] if match else 0
    if not MIN_MOVE_TIME <= seconds <= MAX_MOVE_TIME:
        raise ValueError(_("a move time is a number and a unit: 45s, 2m, 1h or 3d (from 1s to 30d)"))
    return seconds


def duration_words(seconds: float) -> str:
    """A duration as people read a clock: ``1:05``, ``12:00``, ``2:03:04``, ``3d 4h``."""
    whole = max(0, int(seconds + 0.999))  # 0.2 s left shows 0:01: the clock reaches 0:00 only when it runs out
    days, rest = divmod(whole, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return _("{days}d {hours}h").format(days=days, hours=hours)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


def move_time_words(seconds: int) -> str:
    """A table's move time as ``--move-time`` takes it (the largest unit that divides it)."""
    for unit in ("d", "h", "m"):
        if seconds % UNITS[unit] == 0:
            return f"{seconds // UNITS[unit]}{unit}"
    return f"{seconds}s"


def resumed_left(move_time: float, turn_began: float, alive: float | None, now: float) -> float:
    """The time left of a turn when a server starts again (wall-clock seconds since the epoch):
    ``turn_began`` when its game's file was last written, ``alive`` the server's latest stamp
    before it stopped (None: none, so the time since the turn began counts whole). What was used
    while the server ran is gone; the time it was down is nobody's."""
    ran_until = now if alive is None else min(max(alive, turn_began), now)
    used = max(0.0, ran_until - turn_began)
    return max(0.0, move_time - used)


def bank_left(bank: float, left: float) -> float:
    """What is left of a seat's ``bank`` with ``left`` seconds left on its turn (its move time and
    its bank together): the move time is spent first, so the bank is untouched until the move
    time has run out, then it runs down to nothing with the turn."""
    return max(0.0, min(bank, left))


@dataclass(slots=True)
class MoveClock:
    """One table's clock on the server's monotonic clock: the current turn's deadline, and each
    seat's time bank when the table has one (``banks`` empty: none)."""

    move_time: float
    deadline: float
    """When the turn (or the waiting room) runs out (monotonic seconds)."""
    increment: float = 0.0
    """What a placement made in time adds to its seat's bank (seconds)."""
    banks: list[float] = field(default_factory=list)
    """Each seat's bank as its latest turn began (seconds; empty: the table has no bank)."""

    @classmethod
    def begin(cls, move_time: float, now: float, left: float | None = None) -> MoveClock:
        """A turn that begins at ``now`` with ``left`` seconds (None: the whole move time)."""
        return cls(move_time, now + (move_time if left is None else left))

    def bank(self, seat: int | None) -> float:
        """``seat``'s bank as its turn began (0: no bank, or no seat: a waiting room)."""
        return self.banks[seat] if seat is not None and 0 <= seat < len(self.banks) else 0.0

    def turn(self, now: float, seat: int | None = None) -> None:
        """A new turn (``seat``'s) began at ``now`` (a line was written): the whole move time
        again, and the seat's bank behind it."""
        self.deadline = now + self.move_time + self.bank(seat)

    def left(self, now: float) -> float:
        return max(0.0, self.deadline - now)

    def out(self, now: float) -> bool:
        return now >= self.deadline

    def lag(self, gap: float) -> None:
        """The server was stopped for ``gap`` seconds: the turn's time stands still meanwhile."""
        self.deadline += gap

    def spend(self, seat: int, now: float, *, in_time: bool) -> float:
        """``seat`` places now: its bank becomes what its turn left of it, plus the increment for a
        placement made ``in_time`` (a stand-in's earns nothing), never more than
        :data:`MAX_MOVE_TIME`, so a clock stays one people can read. Returns the bank it had before,
        for an undo (:meth:`give_back`)."""
        before = self.bank(seat)
        if 0 <= seat < len(self.banks):
            kept = bank_left(before, self.left(now)) if in_time else 0.0
            self.banks[seat] = min(kept + (self.increment if in_time else 0.0), MAX_MOVE_TIME)
        return before

    def give_back(self, seat: int, now: float, left: float, bank: float) -> None:
        """``seat`` took its placement back: its turn again with the ``left`` seconds it had when it
        placed, and the ``bank`` it had before it (the increment it earned is taken back)."""
        if 0 <= seat < len(self.banks):
            self.banks[seat] = bank
        self.deadline = now + left

    def banks_now(self, now: float, seat: int | None) -> list[float]:
        """Each seat's bank now: the seat to move (``seat``) spends its own once its move time has
        run out; the others' stand still."""
        return [bank_left(bank, self.left(now)) if i == seat else bank for i, bank in enumerate(self.banks)]


def loop_gap(last_tick: float, now: float, tick: float = TICK) -> float:
    """The time that counts for nobody between two ticks, seen from the loop's lag: a tick due at
    ``last_tick + tick`` that runs at ``now`` more than :data:`LAG` late means the server was
    stopped meanwhile, and the whole time since the last tick is given back (0: it ran)."""
    return now - last_tick if now - (last_tick + tick) > LAG else 0.0


__all__ = [
    "LAG",
    "MAX_MOVE_TIME",
    "TICK",
    "WAITING_ROOM_TIME",
    "MoveClock",
    "bank_left",
    "duration_words",
    "loop_gap",
    "move_time_words",
    "parse_duration",
    "resumed_left",
    "waiting_time",
]
