"""What the live table holds about the game on screen besides the game itself: the cursor, the
hint, the bot thinking, the resolution being shown. One value, replaced whole when the table
plays another game (a rematch, a new game, a branch), so no part of the old game's can stay
behind. Textual-free."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..engine import Event
from ..replay.steps import ResolutionStep


@dataclass(slots=True)
class TableState:
    selected_card: int | None = None
    selected_column: int = 0
    """Each turn starts on column A."""
    cursor_player: int | None = None
    """Whose card and column choice the cursor holds: each person at a shared keyboard starts
    their turn with a fresh one."""
    hint: str | None = None
    thinking: int | None = None
    """The bot seat whose worker is running."""
    steps: list[ResolutionStep] = field(default_factory=list)
    """The resolution on screen, a step per column and the round's end (empty: the live position)."""
    step_index: int = 0
    pending_log: list[Event] = field(default_factory=list)
    """Derived events not yet shown by the resolution (the log tells them as they appear)."""
    round_start_scores: list[int] = field(default_factory=list)
    """The scores before the round on screen was resolved (for the summary's gains)."""
    recap: bool = False
    """The resolution on screen is a recap: the game was left while it was being shown."""

    def fresh_cursor(self, player: int) -> None:
        """The keyboard passes to ``player``: no card chosen, column A, no hint."""
        self.selected_card, self.selected_column, self.hint = None, 0, None
        self.cursor_player = player
