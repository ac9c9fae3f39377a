"""Messages between the app, its screens and their workers: what a screen asks of the app (the
app imports the screens, so a screen posts a request up instead of importing the app back), what one
screen tells another, and what a worker thread tells the screen that started it (instead of being
read back by its name)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from textual.message import Message
from textual.screen import Screen

if TYPE_CHECKING:
    from ..bots import Suggestion

from ..engine import Event, Placement
from ..i18n import N_

STATE_TITLE = N_("Pace")
"""The title of notices that tell a state, not an event (the pace): the app keeps only the newest
(shown, and compared, in the language spoken now)."""


class BranchRequested(Message):
    """Play on from ``moment`` (a decision moment, as the viewer hands it over) of the game
    ``table`` is playing, in a new file; ``take``: the bot's seat the person at the keyboard plays
    from there. ``table`` then plays the branch."""

    def __init__(self, table: Screen[None], moment: int, take: int | None) -> None:
        super().__init__()
        self.table = table
        self.moment = moment
        self.take = take


class BotPlaced(Message, bubble=False):  # for the table that asked, nobody above it
    """A bot chose ``placement`` for the position the table's turn ``token`` names (the table
    plays it only if that position is still the one on the table)."""

    def __init__(self, token: int, placement: Placement) -> None:
        super().__init__()
        self.token = token
        self.placement = placement


class HintReady(Message, bubble=False):
    """The strong bot's advice for the position ``token`` names."""

    def __init__(self, token: int, suggestion: Suggestion) -> None:
        super().__init__()
        self.token = token
        self.suggestion = suggestion


class ThinkingFailed(Message, bubble=False):
    """A bot's or a hint's search (``what``) for the position ``token`` names ended in ``error``
    (a search told to stop is not a failure: it reports nothing)."""

    def __init__(self, token: int, what: str, error: BaseException) -> None:
        super().__init__()
        self.token = token
        self.what = what
        self.error = error


class LiveEvents(Message):
    """Events just saved in the game a viewer watches live (time travel): the table tells the
    viewer as it plays, so the viewer never has to look."""

    bubble = False  # for the viewer alone

    def __init__(self, events: Sequence[Event]) -> None:
        super().__init__()
        self.events = list(events)
