"""The words dvtui says, in the language its user chose: one module that every layer that speaks uses.

The language is chosen once, at start (:func:`choose`, then :func:`set_language`), from the command
line, ``DVTUI_LANG``, the settings, then the usual ``LANGUAGE`` / ``LC_ALL`` / ``LC_MESSAGES`` /
``LANG``, then English. The choice reads those values as text and never asks the system's locale
database (a machine may have only the C locales), and the catalogues are dvtui's own gettext files
in ``dvtui/locale``: nothing here depends on what the system has installed.

Text that a module holds from import time (a screen's bindings, a table of names) is marked with
:func:`N_` and translated where it is shown, with :func:`_`: the language may be chosen after the
module was imported, and a test may switch it. Placeholders are named, ``{name}``, filled with
``str.format`` after translation, so a translator may move them; a sentence is never assembled from
fragments (articles and agreement belong to the catalogue). What programs read (file contents,
``--json``, protocol codes) is never translated.

This is a leaf: it imports nothing of dvtui, so any layer may use it.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "dvtui"
ENGLISH = "en"
PSEUDO = "qps"
"""The pseudo-locale (the code Windows uses for one): every message accented and about 30 % longer,
made from the English at run time, so a screen shows at once what escaped the catalogue (plain
English) and what overflows when a translation is longer than its English."""
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""``<language>/LC_MESSAGES/dvtui.po`` (committed) and its compiled ``dvtui.mo`` (built with the
package; a source checkout without it compiles the ``.po`` when the language is chosen)."""

ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The usual variables, in gettext's order of precedence; ``LANGUAGE`` may list several."""

_CODE = re.compile(r"[a-z]{2,3}")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = ENGLISH


def available() -> list[str]:
    """The languages dvtui speaks: English and each one with a catalogue."""
    found = {ENGLISH, PSEUDO}
    if LOCALE_DIR.is_dir():
        for entry in LOCALE_DIR.iterdir():
            messages = entry / "LC_MESSAGES"
            if _CODE.fullmatch(entry.name) and any((messages / f"{DOMAIN}{ext}").is_file() for ext in (".po", ".mo")):
                found.add(entry.name)
    return sorted(found)


def language_of(value: str) -> str | None:
    """The language code a setting names (``fr``, ``fr_FR.UTF-8``, ``fr-CA``, ``FR``), or None for
    the C locale, an empty value or text that names no language."""
    text = value.strip().lower()
    if text in ("", "c", "posix") or text.startswith("c."):
        return None
    code = re.split(r"[_\-.@]", text, maxsplit=1)[0]
    return code if _CODE.fullmatch(code) else None


def choose(flag: str | None, environ: Mapping[str, str], setting: str | None) -> str:
    """The language to speak: the first of ``flag`` (``--lang``), ``DVTUI_LANG``, ``setting`` (the
    settings file's ``"language"``) and the usual environment variables that names a language
    dvtui has; English when none does. An explicit choice dvtui lacks falls through to the next."""
    have = available()
    candidates: list[str] = []
    for explicit in (flag, environ.get("DVTUI_LANG"), setting):
        if explicit:
            candidates.append(explicit)
    for name in ENVIRONMENT:
        value = environ.get(name, "")
        if value:
            candidates.extend(value.split(":") if name == "LANGUAGE" else [value])
            if name != "LANGUAGE":
                break  # LC_ALL overrides LC_MESSAGES, which overrides LANG: the first set one decides
    for candidate in candidates:
        code = language_of(candidate)
        if code in have:
            return code
    return ENGLISH


def _catalogue(code: str) -> gettext.NullTranslations:
    messages = LOCALE_DIR / code / "LC_MESSAGES"
    compiled, source = messages / f"{DOMAIN}.mo", messages / f"{DOMAIN}.po"
    if compiled.is_file() and (not source.is_file() or compiled.stat().st_mtime >= source.stat().st_mtime):
        with compiled.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    if source.is_file():  # a source checkout: the catalogue as committed, compiled here
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        with source.open("rb") as handle:
            catalog = read_po(handle, locale=code, domain=DOMAIN)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        buffer.seek(0)
        return gettext.GNUTranslations(buffer)
    return gettext.NullTranslations()


_ACCENTED = str.maketrans(
    "AaCcDdEeGgHhIiJjKkLlNnOoRrSsTtUuWwYyZz",
    "ÅåÇçÐðÉéĜĝĤĥÎîĴĵĶķĻļÑñÖöŔŕŠšŢţÛûŴŵÝýŽž",
)
_KEPT = re.compile(r"(\{[^{}]*\}|\[[^\[\]]*\]|%\(\w+\)\w|%\w)")
"""What the pseudo-locale leaves as it is: ``{placeholders}`` (filled after translation),
``[markup]``, and argparse's own ``%(name)s`` / ``%s`` (which it fills after asking for them)."""


def pseudo(message: str) -> str:
    """``message`` as the pseudo-locale says it: letters accented (placeholders and markup kept) and
    a tail of ``·`` about 30 % of its length, so ``"Start"`` reads ``"Šţåŕţ·"``. Three characters
    or fewer get no tail: a card's code keeps its three cells."""
    parts = _KEPT.split(message)
    text = "".join(part if index % 2 else part.translate(_ACCENTED) for index, part in enumerate(parts))
    return text + "·" * (len(message) * 3 // 10)


class _Pseudo(gettext.NullTranslations):
    """The pseudo-locale's catalogue: every English message, transformed as it is asked for."""

    def gettext(self, message: str) -> str:
        return pseudo(message) if message else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)


def set_language(code: str) -> None:
    """Speak ``code`` from now on (English for a language without a catalogue)."""
    global _translation, _language
    if code == PSEUDO:
        _translation, _language = _Pseudo(), PSEUDO
        return
    _translation = gettext.NullTranslations() if code == ENGLISH else _catalogue(code)
    _language = code if isinstance(_translation, gettext.GNUTranslations) or code == ENGLISH else ENGLISH


def translations(code: str) -> gettext.NullTranslations:
    """``code``'s catalogue, without speaking it: the words of one reader while the process speaks
    another language (``dvtui serve`` speaks English to its clients and its operator's language in
    its log)."""
    if code == PSEUDO:
        return _Pseudo()
    return gettext.NullTranslations() if code == ENGLISH else _catalogue(code)


def language() -> str:
    """The language spoken now (a code such as ``en`` or ``fr``)."""
    return _language


def _(message: str) -> str:
    """``message`` in the language spoken now."""
    return _translation.gettext(message)


def N_(message: str) -> str:  # (gettext's own name for the marker, which extraction looks for)
    """``message`` as it is, marked for the catalogue: text held from import time, translated with
    :func:`_` where it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for ``n`` (French: 0 and 1 take the singular)."""
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` as it is meant in ``context``: a short word whose translation depends on where
    it stands (a key's name, a good, a column's heading)."""
    return _translation.pgettext(context, message)
