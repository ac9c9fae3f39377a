"""Guests at a table for the table's rules without a socket (tests/tables/test_table_rules.py,
test_rematch_rules.py, the clock tests): plain values with an identity, a clock moved by hand, and the
refusal a rule raises."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from dvtui.server.table import Refusal
from dvtui.tables.wire import Owner

ANA_UID = 70001
BOB_UID = 70002


@dataclass(eq=False)
class Guest:
    """One connection: two of the same identity are two guests."""

    identity: Owner
    person: str
    bot: str | None = None


class HandClock:
    """A monotonic clock a test moves by hand (``now.t += 9.5``): a table's ``now`` without a sleep."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def ana() -> Guest:
    return Guest(ANA_UID, "ana")


def bob() -> Guest:
    return Guest(BOB_UID, "bob")


def refused(code: str, call: Callable[..., object], *args: object, **kwargs: object) -> str:
    """The message of the :class:`Refusal` ``call(*args, **kwargs)`` raises, whose code is ``code``."""
    with pytest.raises(Refusal) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value.message
    return caught.value.message
