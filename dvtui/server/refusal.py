"""What the table's rules speak of and answer with: a :class:`Refusal` (a rule says no, as the
``error`` the server answers with), a :class:`Guest` (whatever stands for one person at a table),
an owner as the table shows it (:func:`owner_name`), and what a join did (:class:`Sat`). Apart from
the rules themselves (:mod:`.table`), which re-export them, so that what only needs to refuse or
to name somebody does not stand on a table's rules."""

from __future__ import annotations

from typing import Generic, NamedTuple, Protocol, TypeVar

from ..engine import RuleError
from ..rulewords import english_words
from ..store import user_name
from ..tables.reasons import english, wire_fields
from ..tables.wire import ErrorCode, Owner, shown_person


class Refusal(Exception):
    """A rule says no: ``code`` and ``message`` as the ``error`` the server answers with; ``seq``: the
    table's line the refusal is about (a stale decision); ``close``: the connection ends after it;
    ``reason`` and ``fields``: which refusal, for each client to say in its reader's language."""

    def __init__(
        self, code: ErrorCode, message: str, *, seq: int | None = None, close: bool = False,
        reason: str | None = None, fields: dict[str, int] | None = None,
    ) -> None:  # fmt: skip
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.seq = seq
        self.close = close
        self.reason = reason
        self.fields = fields

    @classmethod
    def because(cls, code: ErrorCode, reason: str, fields: dict[str, int], *, seq: int | None = None) -> Refusal:
        """The refusal ``reason`` (:data:`~dvtui.tables.reasons.REASONS`), its message the same English words
        whatever language the server runs in."""
        return cls(code, english(reason, fields), seq=seq, reason=reason, fields=fields)

    @classmethod
    def ruled(cls, code: ErrorCode, error: RuleError, *, seq: int | None = None) -> Refusal:
        """The rules' (or a session's) refusal ``error``: its code and values as the ``reason`` and
        ``fields``, for each client to say in its reader's language; its message the session's own
        words (they name the seats' people), else the rule's in English whatever language the
        server runs in."""
        fields = wire_fields(error)
        if error.code and fields is not None:
            try:
                english_said = english(error.code, fields)
            except ValueError:
                pass  # a code with no sentence: its English words alone
            else:
                message = str(error) if error.worded else english_said
                return cls(code, message, seq=seq, reason=error.code, fields=fields)
        return cls(code, english_words(error), seq=seq)


class Guest(Protocol):
    """One person (or bot client) at a table, as the rules see them."""

    @property
    def identity(self) -> Owner:
        """What a seat they take belongs to: an account's uid, or a vouched person's name."""
        ...

    @property
    def person(self) -> str:
        """The name a seat is matched against when a join names none."""
        ...

    @property
    def bot(self) -> str | None:
        """The level of the bot this client is (None: a person at a screen)."""
        ...


G = TypeVar("G", bound=Guest)


def owner_name(owner: Owner) -> str:
    """An owner as the table shows it: the account's name, or ``web:NAME`` for a vouched person."""
    return shown_person(owner) if isinstance(owner, str) else user_name(owner)


class Sat(NamedTuple, Generic[G]):
    """What a join did: the seat taken, the guest pushed off it (another connection of the same
    identity), and whether the record changed (to be saved)."""

    seat: int
    pushed: G | None
    changed: bool


__all__ = ["G", "Guest", "Refusal", "Sat", "owner_name"]
