"""What ``dvtui serve`` says to the person who runs it, in that person's language.

The server speaks English on the wire (each client says a refusal or a seat's words in its own
language), so the process speaks English; its log lines and startup errors are read in the
server's terminal by its operator, so they are said in the language the command was given
(``--lang``, ``DVTUI_LANG``, the settings, ``LANGUAGE``). Messages are marked with ``N_`` where
they are written and said with :func:`said`."""

from __future__ import annotations

import gettext

from ..i18n import ENGLISH, translations

_words: gettext.NullTranslations = gettext.NullTranslations()
"""The operator's catalogue (English until :func:`speak_to_operator`)."""
_code = ENGLISH


def speak_to_operator(code: str) -> None:
    """Say the operator's lines in ``code`` from now on, whatever the process speaks."""
    global _words, _code
    _words, _code = translations(code), code


def operator_language() -> str:
    """The language the operator's lines are said in."""
    return _code


def said(message: str) -> str:
    """``message`` (marked with ``N_``) in the operator's language."""
    return _words.gettext(message)
