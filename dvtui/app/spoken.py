"""The footer's words and keys in the language spoken now.

A Textual binding's description is read from the screen's class when the module is imported, before
the language is chosen (and a test may switch it): the screens' bindings keep the English words,
marked for the catalogue with ``N_``, and :class:`SpokenScreen` translates them in
``active_bindings``, the one place from which the footer and Textual's key panel read them. Key
names are a word of the keyboard's language as well (``Échap``, ``Entrée``, ``Espace``):
:func:`key_display` is what the app's ``get_key_display`` answers. The keys themselves stay the same
in every language.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TypeVar

from rich.style import Style
from rich.text import Text
from textual.binding import ActiveBinding
from textual.screen import Screen

from ..i18n import N_, _, pgettext

ResultT = TypeVar("ResultT")

TEXTUAL_WORDS = (N_("palette"), N_("Open the command palette"), N_("Search for commands…"), N_("Dismiss menu"))
"""Textual's own words that dvtui shows: the palette's key in the footer, its tooltip, the
palette's search field, the footer's word for Escape while a drop-down list is open."""


def key_names() -> dict[str, str]:
    """A key's name as Textual writes it (``esc``, ``space``) to its name on the keyboard, in the
    language spoken now."""
    return {
        "esc": pgettext("key", "esc"),
        "space": pgettext("key", "space"),
        "enter": pgettext("key", "enter"),
        "tab": pgettext("key", "tab"),
        "shift": pgettext("key", "shift"),
        "backspace": pgettext("key", "backspace"),
        "delete": pgettext("key", "delete"),
        "y": pgettext("key", "y"),  # yes in a dialog: French says oui (the dialogs take o as well as y)
    }


def key_display(shown: str) -> str:
    """``shown`` (a footer's key, such as ``esc``, ``n/esc`` or ``shift+tab``) with each key's name
    in the language spoken now; symbols and letters stay as they are."""
    names = key_names()
    out: list[str] = []
    word = ""
    for char in shown + "\0":
        if char.isalpha():
            word += char
            continue
        out.append(names.get(word, word))
        word = ""
        out.append(char)
    return "".join(out[:-1])


class SpokenScreen(Screen[ResultT]):
    """A screen whose footer speaks: its bindings' descriptions (and tooltips) translated where
    the footer and the key panel read them."""

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        active = super().active_bindings
        return {key: _spoken(binding) for key, binding in active.items()}


def _spoken(active: ActiveBinding) -> ActiveBinding:
    binding = active.binding
    if not binding.description and not binding.tooltip and not active.tooltip:
        return active
    said = replace(
        binding,
        description=_(binding.description) if binding.description else "",
        tooltip=_(binding.tooltip) if binding.tooltip else "",
    )
    return active._replace(binding=said, tooltip=_(active.tooltip) if active.tooltip else "")


_FIELD = re.compile(r"\{(\w+)\}")


def filled(template: str, style: Style | str = "", **fields: str | Text) -> Text:
    """``template`` (a translated message with named ``{fields}``) as styled text: its own words
    in ``style``, each field's text in its own style (a command in bold, a name in its colour) or
    in none, wherever the language puts it."""
    out = Text()
    last = 0
    for match in _FIELD.finditer(template):
        out.append(template[last : match.start()], style=style)
        value = fields[match.group(1)]
        if isinstance(value, Text):
            out.append_text(value)
        else:
            out.append(value)
        last = match.end()
    out.append(template[last:], style=style)
    return out
