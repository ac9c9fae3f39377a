"""Names that look like another's: a seat named ``sec3аna`` (a Cyrillic ``а``) reads as the person
``sec3ana`` at a glance. The checks here are small and local (no confusables database): a name's
*skeleton* (compatibility-normalized, case folded, marks stripped, and the Cyrillic and Greek
letters drawn like Latin ones mapped to them) and whether its letters mix scripts. The server
refuses a seat named like an account it is not; a screen names the account beside a seat whose
holder is named otherwise, and flags a name that mixes scripts.

A leaf: it imports nothing of dvtui.
"""

from __future__ import annotations

import unicodedata

_LIKE_LATIN = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "һ": "h", "ӏ": "l", "ɡ": "g", "ь": "b",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
    # Latin look-alikes
    "ı": "i", "ł": "l", "ø": "o", "đ": "d", "ħ": "h",
})  # fmt: skip
"""Letters drawn like a Latin letter (after case folding), mapped to it."""

MIXED_MARK = "⚠"
"""What a screen puts after a name that mixes scripts or is not in its plain form."""


def skeleton(name: str) -> str:
    """``name`` as it reads: two names with one skeleton look alike."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    bare = "".join(c for c in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(c))
    return bare.translate(_LIKE_LATIN)


def _script(char: str) -> str | None:
    """The script a letter belongs to, by its Unicode name's first word (None: not a letter)."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else "UNKNOWN"


def looks_forged(name: str) -> bool:
    """``name`` mixes letters of several scripts (``sec3аna``), or is not in its plain form
    (``𝐬𝐞𝐜𝟑𝐚𝐧𝐚``, fullwidth letters): a name made to pass for another's."""
    scripts = {s for s in map(_script, name) if s is not None}
    return len(scripts) > 1 or unicodedata.normalize("NFKC", name) != name


def same_name(name: str, person: str) -> bool:
    """Whether ``name`` is ``person``'s own (``web:NAME`` is NAME's), case aside."""
    bare = person[4:] if person[:4].casefold() == "web:" else person
    return name.casefold() in (person.casefold(), bare.casefold())


def shown_as(name: str, person: str | None) -> str:
    """A seat's (or a speaker's) ``name`` as a screen shows it: ``person``, the account or vouched
    person who holds it, beside it when it is not their name, and :data:`MIXED_MARK` after a name
    that mixes scripts. ``name`` and ``person`` are the server's, checked printable already."""
    shown = f"{name} {MIXED_MARK}" if looks_forged(name) else name
    if person is not None and not same_name(name, person):
        shown = f"{shown} ({person})"
    return shown


__all__ = ["MIXED_MARK", "looks_forged", "same_name", "shown_as", "skeleton"]
