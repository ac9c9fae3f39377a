"""Who may sit at a table: the one set of rules for seats' names and bots' levels and budgets.

The command line (``--players``), the set-up screen and the file reader (``game_created``) all ask
these functions, so a game the app lets you start is always one it can open again, and a file
cannot name a bot that never answers. It lives in the engine because the store reads seats
without knowing the bots; the bots register their move functions under :data:`BOT_LEVELS`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import CodedError
from .events import Seat

BOT_LEVELS = ("random", "greedy", "strong", "novice", "casual", "club", "expert", "master")
"""The bot levels this version plays: the first three as they always were (weakest first), then the
ladder's named levels, weakest first (:data:`dvtui.bots.LADDER` says how each plays)."""
BUDGETED = frozenset({"strong"})
"""Levels that search, and so take an iteration or time budget (``strong@5000``, ``strong@0.5s``)."""
MAX_ITERATIONS = 200_000
"""The largest iteration budget: a few seconds of search per move on a slow machine, and a search
tree that stays well within memory. A budget is a cost the file's author imposes on whoever opens it."""
MAX_SECONDS = 10.0
"""The largest time budget: a person waits this long for a bot's move at most."""
MAX_NAME_CHARS = 24
"""The longest name of a seat (the table's columns are laid out for it)."""
_MAX_BOT_CHARS = 32
"""Longer is no bot level; checked before any number in it is read."""
_SPEC = re.compile(r"^(?P<level>[a-z]+)(?:@(?:(?P<iters>\d+)|(?P<secs>\d+(?:\.\d+)?)s))?$")


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot as named on the command line and in files: ``greedy``, ``strong@5000``, ``strong@0.5s``."""

    level: str
    iterations: int | None = None
    seconds: float | None = None

    def __str__(self) -> str:
        if self.iterations is not None:
            return f"{self.level}@{self.iterations}"
        if self.seconds is not None:
            return f"{self.level}@{self.seconds:g}s"
        return self.level


class SeatError(CodedError, ValueError):
    """A seat that cannot sit at a table. ``seat`` (0-based) and ``field`` (``name`` or ``bot``) say
    where, when known; its sentence (:mod:`dvtui.rulewords`) is a whole phrase each caller prefixes
    with its own "where"."""

    def __init__(
        self,
        message: str = "",
        seat: int | None = None,
        field: str | None = None,
        *,
        code: str = "",
        fields: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message, code=code, fields=fields)
        self.seat = seat
        self.field = field


class UnknownBot(SeatError):
    """A bot level (or budget) this version does not play."""


def _unknown(shown: str) -> UnknownBot:
    return UnknownBot.of("unknown_bot", level=shown, levels=", ".join(sorted(BOT_LEVELS)))


def parse_bot(text: str) -> BotSpec:
    """``greedy`` / ``strong@5000`` / ``strong@0.5s`` -> :class:`BotSpec`; unknown levels and
    budgets beyond :data:`MAX_ITERATIONS` / :data:`MAX_SECONDS` refused."""
    text = text.strip()
    if len(text) > _MAX_BOT_CHARS:
        raise _unknown(show(text))
    m = _SPEC.match(text)
    if not m or m["level"] not in BOT_LEVELS:
        level, at, budget = text.partition("@")
        if at and level in BUDGETED:  # a known level with a budget that is not one: say so
            raise UnknownBot.of("budget_form", level=level, budget=repr(budget))
        raise _unknown(repr(text))
    level = m["level"]
    iters = int(m["iters"]) if m["iters"] else None
    secs = float(m["secs"]) if m["secs"] else None
    if (iters is not None or secs is not None) and level not in BUDGETED:
        only = ", ".join(sorted(BUDGETED))
        raise UnknownBot.of("no_budget", level=repr(level), only=only, text=repr(text))
    if iters == 0 or secs == 0:
        raise UnknownBot.of("budget_zero", text=repr(text))
    if (iters is not None and iters > MAX_ITERATIONS) or (secs is not None and secs > MAX_SECONDS):
        fields = {"iterations": MAX_ITERATIONS, "level": level, "seconds": f"{MAX_SECONDS:g}", "text": repr(text)}
        raise UnknownBot(code="budget_max", fields=fields)
    return BotSpec(level, iters, secs)


def show(text: str) -> str:
    """``text`` quoted for a message, cut to a name's length (a file may hold a very long one)."""
    if len(text) <= MAX_NAME_CHARS:
        return repr(text)
    return repr(text[:MAX_NAME_CHARS]) + "…"


def check_name(name: str, *, human: bool) -> None:
    """A seat's name, on its own: raises :class:`SeatError` (without ``seat``) saying what is wrong."""
    if not name.strip():
        raise SeatError(field="name", code="no_name")
    if len(name) > MAX_NAME_CHARS:
        fields = {"name": show(name), "length": len(name), "most": MAX_NAME_CHARS}
        raise SeatError(field="name", code="name_long", fields=fields)
    if not name.isprintable():
        raise SeatError(field="name", code="name_control", fields={"name": show(name)})
    if human and name[:4].lower() == "bot:":
        raise SeatError(field="name", code="name_bot", fields={"name": show(name)})


def check_seats(seats: Sequence[Seat]) -> None:
    """Every seat's name and bot level, and that no two seats share a name (case aside): raises
    :class:`SeatError` naming the first seat at fault. The number of seats and their colours are
    the rules' (:func:`dvtui.engine.check_setup`)."""
    names: dict[str, int] = {}
    for i, seat in enumerate(seats):
        try:
            check_name(seat.name, human=seat.kind == "human")
            if seat.kind == "bot" and seat.bot is not None:
                try:
                    parse_bot(seat.bot)
                except UnknownBot as e:
                    e.field = "bot"
                    raise
        except SeatError as e:
            e.seat = i
            raise
        key = seat.name.strip().casefold()
        if key in names:
            raise SeatError(seat=i, field="name", code="names_twice", fields={"name": show(seat.name)})
        names[key] = i
