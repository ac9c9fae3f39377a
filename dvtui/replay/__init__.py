"""Replays without a screen: the state at any moment of a game, a resolution as steps to show,
branching, and the text export.

Textual-free (like the engine and the store), so ``dvtui replay --text`` starts fast and the
viewer's logic is tested without a terminal.
"""

from .timeline import Replay

__all__ = ["Replay"]
