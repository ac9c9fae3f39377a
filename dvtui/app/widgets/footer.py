"""The footer every screen of the app shows its keys in."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.compose import compose
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter

from ..textual_private import FooterKey


class Footer(TextualFooter):
    """Textual's footer, which keeps the keys it shows when they stay, and makes its keys compact
    when it is, rather than once they are mounted.

    Textual's footer removes and mounts every key again whenever the screen's keys may have
    changed, and the whole screen is laid out again for it; about half the time, at the table, the
    keys shown are the same (a key the footer does not show turned on or off): this footer keeps
    them then. The other times the keys change in part (a card chosen: ``place``; the bots' turn:
    ``undo``, ``help`` and ``quit`` alone): the keys shown take the words of the new ones at their
    places, and only the keys beyond those are removed or mounted.

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

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        shown, fresh = list(self.children), compose(self)
        if _same_keys(shown, fresh):
            return
        kept = _kept_places(shown, fresh)
        if not kept:
            await super().recompose()
            return
        async with self.batch():
            for key, new in zip(shown[:kept], fresh[:kept], strict=True):
                _take_words(key, new)  # type: ignore[arg-type]
            if shown[kept:]:
                await self.remove_children(shown[kept:])
            if fresh[kept:]:
                await self.mount_all(fresh[kept:])


def _same_keys(shown: Sequence[Widget], fresh: Sequence[Widget]) -> bool:
    """The footer's keys ``fresh`` are those ``shown``: the same keys, words, places and states
    (anything but keys, such as a group's label, counts as a change)."""
    if len(shown) != len(fresh):
        return False
    for key, new in zip(shown, fresh, strict=True):
        if not isinstance(key, FooterKey) or not isinstance(new, FooterKey):
            return False
        if (key.key, key.key_display, key.description, key.action, key.tooltip) != (
            new.key,
            new.key_display,
            new.description,
            new.action,
            new.tooltip,
        ) or any(key.has_class(name) != new.has_class(name) for name in ("-disabled", "-command-palette")):
            return False
    return True


KEY_CLASSES = ("-disabled", "-command-palette", "-grouped")
"""A footer key's classes that its place and look depend on (the palette's key is docked right)."""


def _kept_places(shown: Sequence[Widget], fresh: Sequence[Widget]) -> int:
    """How many of the footer's keys ``shown``, from the first, are each as the key of ``fresh`` at
    its place is (enabled or not, the palette's, in a group), whatever their words and actions:
    those can take the new words in place."""
    kept = 0
    for key, new in zip(shown, fresh, strict=False):
        if not (isinstance(key, FooterKey) and isinstance(new, FooterKey)):
            break
        if any(key.has_class(name) != new.has_class(name) for name in KEY_CLASSES):
            break
        kept += 1
    return kept


def _take_words(key: FooterKey, new: FooterKey) -> None:
    """``key`` becomes ``new`` (see :func:`_kept_places`): its key, words, action and tooltip; laid
    out again only when its words' width changed."""
    width = cell_len(key.key_display) + cell_len(key.description)
    key.key, key.key_display, key.description, key.action = new.key, new.key_display, new.description, new.action
    key.tooltip = new.tooltip
    key.refresh(layout=cell_len(key.key_display) + cell_len(key.description) != width)
