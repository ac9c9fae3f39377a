"""Every language's catalogue is whole and well formed: each message the code marks is in it,
translated, not fuzzy, with the same placeholders in every form; GNU msgfmt finds nothing to say;
French plural forms take the singular for 0 and 1."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from dvtui import i18n

from .support.processes import REPO

CATALOGUES = sorted(i18n.LOCALE_DIR.glob("*/LC_MESSAGES/dvtui.po"))
BRACES = re.compile(r"\{[^{}]*\}")
PERCENT = re.compile(r"%(?:\([a-z_]+\))?[-#0 +]*\d*(?:\.\d+)?[sdifr%]")
"""``{name}`` (dvtui's own messages) and, in a message flagged ``python-format``, ``%s``/``%(name)s``
(argparse's, which dvtui says too)."""


def catalogue(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=path.parts[-3], domain=i18n.DOMAIN)


def forms(message: Message) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple) else [message.string]


def placeholders(text: str, message: Message) -> list[str]:
    found = BRACES.findall(text)
    if "python-format" in message.flags:
        found += [p for p in PERCENT.findall(text) if p != "%%"]
    return sorted(found)


def test_there_is_a_french_catalogue() -> None:
    assert [path.parts[-3] for path in CATALOGUES] == ["fr"]
    assert i18n.available() == ["en", "fr", "qps"]


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.parts[-3])
def test_every_message_is_translated_and_none_fuzzy(path: Path) -> None:
    untranslated = [m.id for m in catalogue(path) if m.id and not all(forms(m))]
    fuzzy = [m.id for m in catalogue(path) if m.id and m.fuzzy]
    assert untranslated == [] and fuzzy == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.parts[-3])
def test_every_form_has_the_same_placeholders(path: Path) -> None:
    wrong = []
    for message in catalogue(path):
        if not message.id:
            continue
        wanted = placeholders(message.id if isinstance(message.id, str) else message.id[-1], message)
        wrong += [(message.id, form) for form in forms(message) if placeholders(form, message) != wanted]
    assert wrong == []


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: p.parts[-3])
def test_gnu_msgfmt_checks_it_clean(path: Path) -> None:
    msgfmt = shutil.which("msgfmt")
    assert msgfmt is not None, "msgfmt (GNU gettext) is missing: .ci/setup-system.sh installs it"
    done = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(path)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")


def test_every_message_the_code_marks_is_in_each_catalogue() -> None:
    """Extracted as the documented command does (babel.cfg): a new English string without its
    translation fails here, not on a French screen."""
    with (REPO / "babel.cfg").open() as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found = extract_from_dir(REPO, method_map, options_map)
    marked = {(context, message if isinstance(message, str) else message[0]) for _f, _l, message, _c, context in found}
    assert len(marked) > 50
    for path in CATALOGUES:
        have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalogue(path) if m.id}
        assert sorted(marked - have, key=str) == [], path


def test_french_takes_the_singular_for_zero_and_one() -> None:
    french = catalogue(CATALOGUES[0])
    form = gettext.c2py(french.plural_expr)
    assert [form(n) for n in (0, 1, 2, 3, 100)] == [0, 0, 2, 2, 2]
    i18n.set_language("fr")
    try:
        said = [i18n.ngettext("{count} round", "{count} rounds", n).format(count=n) for n in (0, 1, 2, 6)]
    finally:
        i18n.set_language(i18n.ENGLISH)
    assert said == ["0 manche", "1 manche", "2 manches", "6 manches"]


def test_the_pseudo_locale_accents_and_lengthens_every_message() -> None:
    i18n.set_language(i18n.PSEUDO)
    try:
        said = i18n._("{name} takes the {card}")
        code = i18n.pgettext("card code", "CAR")
        counted = i18n.ngettext("{count} round", "{count} rounds", 2)
    finally:
        i18n.set_language(i18n.ENGLISH)
    assert said.startswith("{name} ţåķéš ţĥé {card}") and len(said) >= len("{name} takes the {card}") * 1.25
    assert code == "ÇÅŔ"  # three cells, as a card shows it
    assert counted.startswith("{count} ŕöûñðš")
