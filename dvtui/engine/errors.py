"""Typed errors for illegal decisions: the UI shows their message, the reader adds a line number."""

from __future__ import annotations


class RuleError(Exception):
    """A decision the rules do not allow; the message says which rule and why."""


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
