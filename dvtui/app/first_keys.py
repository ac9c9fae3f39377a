"""Keys typed before the first screen can take them: kept, then handed to it in order.

A terminal (or a browser tab, whose keys reach dvtui as soon as its socket opens) may send keys
while the app is still starting: Textual hands each to the focused widget or the screen, and before
the first screen is mounted and focused there is none that wants it, so the key is dropped. A
person who types ahead of a slow start (a busy machine, a remote terminal) must lose nothing.

A terminal's keys typed before dvtui took it over were read by the terminal's line discipline,
which turns Enter's carriage return into a line feed (``ICRNL``): Textual reads that as ctrl+j, a
key nothing here is bound to. Kept keys are those of that moment, so a line feed among them is
handed over as the Enter it was typed as."""

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
        """What was kept, oldest first (a line feed as Enter: see the module's docstring); from
        now on nothing is."""
        held, self.held = self.held or [], None
        return [_as_typed(event) for event in held]


def _as_typed(event: Typed) -> Typed:
    if isinstance(event, events.Key) and event.key == "ctrl+j" and event.character == "\n":
        return events.Key("enter", "\r")
    return event
