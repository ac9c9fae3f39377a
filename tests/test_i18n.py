"""The language is chosen from text alone (never the system's locale database), in a fixed order,
and only among the languages dvtui has a catalogue for."""

from __future__ import annotations

import pytest

from dvtui import i18n


@pytest.mark.parametrize(
    ("value", "code"),
    [("fr", "fr"), ("fr_FR.UTF-8", "fr"), ("fr-CA", "fr"), ("FR", "fr"), ("de_DE@euro", "de"),
     ("C", None), ("C.UTF-8", None), ("POSIX", None), ("", None), ("../fr", None), ("français", None)],
)  # fmt: skip
def test_a_setting_names_a_language_or_none(value: str, code: str | None) -> None:
    assert i18n.language_of(value) == code


def test_the_order_of_the_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "available", lambda: ["de", "en", "fr"])
    env = {"DVTUI_LANG": "de", "LANG": "fr_FR.UTF-8"}
    assert i18n.choose("fr", env, "de") == "fr"  # the flag first
    assert i18n.choose(None, env, "fr") == "de"  # then DVTUI_LANG
    assert i18n.choose(None, {"LANG": "de_DE.UTF-8"}, "fr") == "fr"  # then the settings
    assert i18n.choose(None, {"LANGUAGE": "it:fr", "LANG": "de_DE"}, None) == "fr"  # LANGUAGE's list, in order
    assert i18n.choose(None, {"LC_ALL": "de_DE", "LANG": "fr_FR"}, None) == "de"  # LC_ALL over LANG
    assert i18n.choose(None, {"LC_ALL": "C", "LANG": "fr_FR"}, None) == "en"  # the C locale is English
    assert i18n.choose("it", {}, None) == "en"  # a language dvtui lacks: the next choice, then English


def test_english_needs_no_catalogue() -> None:
    i18n.set_language("zz")
    assert i18n.language() == "en"
    assert i18n._("Start the game") == "Start the game"
    assert i18n.ngettext("{n} round", "{n} rounds", 2) == "{n} rounds"
    i18n.set_language("en")
