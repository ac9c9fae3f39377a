"""Messages between the app and its screens: what a screen asks of the app (the app imports the
screens, so a screen posts a request up instead of importing the app back), and what one screen
tells another."""

from __future__ import annotations

from collections.abc import Sequence

from textual.message import Message
from textual.screen import Screen

from ..engine import Event


class BranchRequested(Message):
    """Play on from ``moment`` (a decision moment, as the viewer hands it over) of the game
    ``table`` is playing, in a new file; ``take``: the bot's seat the person at the keyboard plays
    from there. ``table`` then plays the branch."""

    def __init__(self, table: Screen[None], moment: int, take: int | None) -> None:
        super().__init__()
        self.table = table
        self.moment = moment
        self.take = take


class LiveEvents(Message):
    """Events just saved in the game a viewer watches live (time travel): the table tells the
    viewer as it plays, so the viewer never has to look."""

    bubble = False  # for the viewer alone

    def __init__(self, events: Sequence[Event]) -> None:
        super().__init__()
        self.events = list(events)
