"""The footer every screen of the app shows its keys in."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer as TextualFooter

from ..textual_private import FooterKey


class Footer(TextualFooter):
    """Textual's footer, whose keys are made compact when the footer is, rather than once mounted.

    Textual's footer mounts its keys anew whenever a screen's keys may have changed (a key press,
    a focus moved), and each key takes the footer's ``compact`` only once mounted: its watcher then
    adds the key's ``-compact`` class, and that class matches the whole stylesheet against the key
    a second time. A key made with the class already needs only the match every mounted widget
    has: the same styles, for about half the cost of each key."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.set_class(self.compact, "-compact", update=False)
            yield widget
