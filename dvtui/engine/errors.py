"""Typed errors for illegal decisions, logs and seats. The engine makes no words: an error names its
``code`` and the values the sentence needs (``fields``), and the words are made where the error is
shown (:mod:`dvtui.rulewords`, in the reader's language; the table server in English on the wire,
beside the code). The reader adds a line number (from the event index a fold puts on them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Self

from .events import Award, Event, type_name


class CodedError(Exception):
    """An error that names its ``code`` and the values its sentence needs (``fields``: seats counted
    from 0, cards, columns, an event's type...), and makes no words.

    A layer above the engine may raise one with its own ``message`` instead (words it made for its
    reader; ``worded``), with or without a code. ``str()`` of an error with a code alone is the code
    and its fields, for a log or a traceback: a reader is shown the sentence
    :mod:`dvtui.rulewords` makes. ``context`` is what a sentence is said after (the type of the
    event at fault in a log, and a colon).
    """

    def __init__(self, message: str = "", *, code: str = "", fields: Mapping[str, object] | None = None) -> None:
        self.code = code
        self.fields: dict[str, object] = dict(fields or {})
        self.worded = bool(message)
        self.context = ""
        super().__init__(message or self._plain())

    @classmethod
    def of(cls, code: str, /, **fields: object) -> Self:
        """The error ``code``, naming ``fields`` (what a sentence for it needs)."""
        return cls(code=code, fields=fields)

    def _plain(self) -> str:
        shown = " ".join(f"{name}={value!r}" for name, value in self.fields.items())
        return f"{self.context}{self.code} {shown}".rstrip()

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled whole (a process pool hands errors back): its code and fields, not its text."""
        return _rebuilt, (type(self), self.args, self.__dict__)


def _rebuilt(kind: type[CodedError], args: tuple[object, ...], state: dict[str, object]) -> CodedError:
    error = kind.__new__(kind)
    error.args = args
    error.__dict__.update(state)
    return error


class RuleError(CodedError):
    """A decision or a log the rules do not allow: ``code`` says which rule and why.

    ``index`` is where in a log the error is, when it comes from folding one (:func:`dvtui.engine.fold`):
    the event's position, 0 for ``game_created``. The store turns it into the file's line number.
    """

    index: int | None

    def __init__(
        self,
        message: str = "",
        index: int | None = None,
        *,
        code: str = "",
        fields: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message, code=code, fields=fields)
        self.index = index

    def at(self, index: int, context: str = "") -> Self:
        """This error, placed at event ``index`` of a log, said after ``context`` (the event's
        type and a colon, for an error the event's own rule gave without naming it)."""
        if context:
            if self.worded:
                self.args = (context + str(self),)
            else:
                self.context = context
                self.args = (self._plain(),)
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
        fields = {"event": event_type, "field": field, "expected": expected, "found": found}
        super().__init__(index=index, code="derived_mismatch", fields=fields)

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
