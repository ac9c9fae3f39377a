"""What the screens ask of the app, as messages: the app imports the screens, so a screen posts a
request up instead of importing the app back."""

from __future__ import annotations

from textual.message import Message
from textual.screen import Screen


class BranchRequested(Message):
    """Play on from ``moment`` (a decision moment, as the viewer hands it over) of the game
    ``table`` is playing, in a new file; ``take``: the bot's seat the person at the keyboard plays
    from there. ``table`` then plays the branch."""

    def __init__(self, table: Screen[None], moment: int, take: int | None) -> None:
        super().__init__()
        self.table = table
        self.moment = moment
        self.take = take
