"""The plain front: dvtui as lines of text, for a screen reader, a braille display or a terminal
that only shows lines (``dvtui --plain``; ``docs/PLAIN.md``).

No full screen, no escape sequence, no colour, no box drawing: each line is complete on its own,
in the log's words (:mod:`dvtui.describe`). It sits beside the full-screen app and the browser
front and, like them, plays a game through the layers below: a game of this machine through
:class:`~dvtui.play.session.PlaySession`, a shared table through
:class:`~dvtui.tables.RemoteSession`, a file through the replay timeline. No Textual here.
"""

from .console import Console
from .local import LocalPlay, ask_players
from .menu import plain_menu
from .replay import PlainReplay
from .table import PlainTable

__all__ = ["Console", "LocalPlay", "PlainReplay", "PlainTable", "ask_players", "plain_menu"]
