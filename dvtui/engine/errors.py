"""Typed errors for illegal decisions and logs: the UI shows their message, the reader adds a line
number (from the event index a fold puts on them)."""

from __future__ import annotations

from typing import Self

from ..i18n import _
from .events import Award, Event, type_name


class RuleError(Exception):
    """A decision the rules do not allow; the message says which rule and why.

    ``index`` is where in a log the error is, when it comes from folding one (:func:`dvtui.engine.fold`):
    the event's position, 0 for ``game_created``. The store turns it into the file's line number.
    """

    index: int | None

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index

    def at(self, index: int, context: str = "") -> Self:
        """This error, placed at event ``index`` of a log, its message prefixed with ``context``
        (the event's type, for an error the event's own rule gave without naming it)."""
        if context:
            self.args = (context + str(self),)
        self.index = index
        return self


class GameOver(RuleError):
    pass


class WrongPlayer(RuleError):
    pass


class CardNotInHand(RuleError):
    pass


class ColumnOutOfRange(RuleError):
    pass


class NothingToUndo(RuleError):
    pass


class NotPlacementPhase(RuleError):
    """A decision arrived while a round's derived events are still owed."""


class BadSetup(RuleError):
    """A ``game_created`` that breaks R1-R3 (player count, grid shape, cards)."""


class DerivedMismatch(RuleError):
    """A derived event in a log differs from what the rules give; ``field`` names where."""

    def __init__(self, event_type: str, field: str, expected: object, found: object, index: int | None = None) -> None:
        self.field = field
        said = _("{event}: field {field!r} should be {expected}, found {found}")
        super().__init__(
            said.format(event=event_type, field=field, expected=_show(expected), found=_show(found)), index
        )

    @classmethod
    def between(cls, expected: Event, found: Event) -> DerivedMismatch:
        """The error naming the first field where ``found`` differs from ``expected``, the event
        the rules give (the type first, then each field in the format's order, an award's fields
        one by one)."""
        exp_type = type_name(expected)
        found_type = type_name(found)
        if exp_type != found_type:
            return cls(exp_type, "type", exp_type, found_type)
        for name in expected.__struct_fields__:
            if name == "seq":
                continue
            a = getattr(expected, name)
            b = getattr(found, name)
            if a == b:
                continue
            if isinstance(a, list) and isinstance(b, list) and a and isinstance(a[0], Award):
                for i in range(min(len(a), len(b))):
                    for sub in Award.__struct_fields__:
                        if getattr(a[i], sub) != getattr(b[i], sub):
                            return cls(exp_type, f"{name}[{i}].{sub}", getattr(a[i], sub), getattr(b[i], sub))
            return cls(exp_type, name, a, b)
        return cls(exp_type, "seq", expected.seq, found.seq)  # only seq is left to differ


def _show(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)
