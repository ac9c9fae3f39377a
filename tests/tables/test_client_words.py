"""The table server speaks English on the wire, with a code per error; the client says each error
in the person's language from its code (in English, the server's own words)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dvtui import i18n
from dvtui.tables.client import ERROR_WORDS, refusal_words
from dvtui.tables.protocol import Error, ErrorCode
from dvtui.tables.server import Server

from ..support.processes import dvtui


def test_every_error_code_has_its_words() -> None:
    assert sorted(ERROR_WORDS) == sorted(ErrorCode.__args__)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "said"), [("en", "no table zz here"), ("fr", "cette table n’existe pas")])
def test_a_refusal_in_the_language_spoken(lang: str, said: str) -> None:
    i18n.set_language(lang)
    assert refusal_words(Error(code="no_table", message="no table zz here")) == said


def test_a_real_command_says_the_servers_refusal_in_french(in_process: Server, tmp_path: Path) -> None:
    srv = str(in_process.place.directory)
    done = dvtui("--lang", "fr", "say", "nosuch", "bonjour", "--server", srv, data=tmp_path)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == "dvtui : erreur : cette table n’existe pas\n"
    english = dvtui("say", "nosuch", "hello", "--server", srv, data=tmp_path)
    assert english.stderr.startswith("dvtui: error: no table nosuch")
