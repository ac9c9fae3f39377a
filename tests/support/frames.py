"""The frames a headless app draws for nobody. Textual's ``run_test`` app has no terminal, yet it
draws each frame (every widget a change touched, rendered to strips) and throws it away: about a
sixth of the app tests' CPU. The tests read the screen by drawing it when they look (the
compositor's ``render_strips``, a snapshot's full update), so in the test processes a headless
app's frames are not drawn; a terminal's (an app run in tmux, over SSH, in a browser tab: another
process) are, as ever.

What that leaves untested is what drawing a frame itself does. Nothing in dvtui may depend on it
(a widget keeps its state up to date when it changes, not when drawn); a test whose subject is the
work a frame does (how many lines a frame words, say) asks for frames with :func:`frames_drawn`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from textual._compositor import Compositor
from textual._context import active_app, visible_screen_stack
from textual.screen import Screen

_drawing = [False]
"""Whether headless apps draw their frames now (:func:`frames_drawn`)."""
_draw = Compositor.render_update


def _headless() -> bool:
    try:
        return active_app.get().is_headless
    except LookupError:  # no app is running in this context
        return False


def _render_update(
    self: Compositor, full: bool = False, screen_stack: list[Screen[object]] | None = None, simplify: bool = False
) -> object:
    """Textual's own for a full update (a screenshot) and for an app with a terminal; for a
    headless app's frame, what drawing it leaves behind without the drawing: the screens seen
    behind this one noted, the regions to draw again forgotten (a frame drew them)."""
    if full or _drawing[0] or not _headless():
        return _draw(self, full, screen_stack, simplify)
    visible_screen_stack.set([] if screen_stack is None else screen_stack)
    self._dirty_regions.clear()
    return None


def skip_headless_frames() -> None:
    """From now on, in this process, a headless app draws no frame (see the module's docstring)."""
    Compositor.render_update = _render_update  # type: ignore[method-assign,assignment]


@contextmanager
def frames_drawn() -> Iterator[None]:
    """Headless apps draw every frame meanwhile, as an app with a terminal does."""
    _drawing[0] = True
    try:
        yield
    finally:
        _drawing[0] = False
