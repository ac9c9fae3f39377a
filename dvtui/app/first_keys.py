"""Keys typed before the first screen can take them: kept, then handed to it in order.

A terminal (or a browser tab, whose keys reach dvtui as soon as its socket opens) may send keys
while the app is still starting: Textual hands each to the focused widget or the screen, and before
the first screen is mounted and focused there is none that wants it, so the key is dropped. A
person who types ahead of a slow start (a busy machine, a remote terminal) must lose nothing."""

from __future__ import annotations

from textual import events

Typed = events.Key | events.Paste


class FirstKeys:
    """What was typed before the first screen could take it (see the module's docstring)."""

    def __init__(self) -> None:
        self.held: list[Typed] | None = []
        """Kept until :meth:`release` (None after: keys go straight through)."""

    def hold(self, event: events.Event) -> bool:
        """Whether ``event`` was kept: a key or a paste from the terminal before :meth:`release`
        (one Textual forwards to a widget is left alone: it was taken already)."""
        if self.held is None or not isinstance(event, Typed) or event.is_forwarded:
            return False
        self.held.append(event)
        return True

    def release(self) -> list[Typed]:
        """What was kept, oldest first; from now on nothing is."""
        held, self.held = self.held or [], None
        return held
