"""msgspec's reasons for refusing a file or a value are said in the reader's words and language:
a French sentence about a damaged game, its kept analysis or ``verify``'s line has no English
inside it, and keeps where the value went wrong (the key path, the byte)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from dvtui.i18n import set_language
from dvtui.replay.analysis import Analysis, analyse, analysis_path, file_digest, load, made_by, save
from dvtui.store import read_game
from dvtui.store.decode_words import malformed_words, validation_words
from dvtui.store.errors import GameFileError

from ..support.processes import dvtui
from ..support.replays import REPLAYS

ENGLISH = re.compile(r"\b(Expected|got|malformed|invalid|character|missing|field|byte|at|truncated)\b")
"""msgspec's words, which a French sentence must not have."""


@pytest.fixture
def french() -> None:
    set_language("fr")  # (English again after each test: tests/conftest.py)


def _damaged(tmp_path: Path, line: bytes) -> Path:
    """A real game whose second line is ``line``."""
    lines = (REPLAYS / "game.dvr").read_bytes().splitlines(keepends=True)
    lines[1] = line + b"\n"
    path = tmp_path / "damaged.dvr"
    path.write_bytes(b"".join(lines))
    return path


def _said(path: Path) -> str:
    with pytest.raises(GameFileError) as raised:
        read_game(path)
    return str(raised.value)


@pytest.mark.usefixtures("french")
def test_a_value_of_the_wrong_kind_is_said_in_french_with_its_key_path(tmp_path: Path) -> None:
    line = json.loads((REPLAYS / "game.dvr").read_bytes().splitlines()[1])
    line["seq"] = "un"
    said = _said(_damaged(tmp_path, json.dumps(line).encode()))
    assert "ligne 2" in said and "$.seq" in said
    assert "on attendait un entier ou null, pas un texte" in said
    assert not ENGLISH.search(said), said


@pytest.mark.usefixtures("french")
def test_a_line_that_is_not_json_is_said_in_french_with_its_byte(tmp_path: Path) -> None:
    said = _said(_damaged(tmp_path, b'{"type": \x01}'))
    assert "ligne 2" in said and "caractère non valable (octet 9)" in said
    assert not ENGLISH.search(said), said


@pytest.mark.usefixtures("french")
def test_verify_says_a_damaged_files_reason_in_french(tmp_path: Path) -> None:
    path = _damaged(tmp_path, b'{"type" 1}')
    run = dvtui("--lang", "fr", "verify", path, data=tmp_path)
    assert run.returncode == 1
    assert f"{path} ligne 2\u00a0: JSON invalide («\u00a0:\u00a0» attendu (octet 8))" in run.stderr, run.stderr


@pytest.mark.usefixtures("french")
def test_a_kept_analysis_of_another_layout_is_said_in_french(tmp_path: Path) -> None:
    game = tmp_path / "shared.dvr"
    shutil.copyfile(REPLAYS / "game.dvr", game)
    events = read_game(game).events
    digest = file_digest(game.read_bytes())
    save(analysis_path(game), Analysis(digest, 5, made_by(), analyse(events, 5)))
    body = json.loads(analysis_path(game).read_text())
    body["reviews"][0]["played"] = "beaucoup"
    analysis_path(game).write_text(json.dumps(body))
    found, why = load(analysis_path(game), digest, 5, made_by(), events)
    assert found is None and why is not None
    assert "on attendait un nombre décimal ou null, pas un texte, à $.reviews[0].played)" in why, why
    assert not ENGLISH.search(why), why


def test_in_english_msgspecs_own_words_stay() -> None:
    assert validation_words("Expected `int | null`, got `str` - at `$.seq`") == (
        "Expected `int | null`, got `str` - at `$.seq`"
    )
    assert validation_words("Object missing required field `round`") == "Object missing required field `round`"
    assert malformed_words("JSON is malformed: invalid character (byte 7)") == "invalid character (byte 7)"
    assert malformed_words("Input data was truncated") == "input data was truncated"


def test_a_message_the_patterns_do_not_know_is_kept_whole() -> None:
    set_language("fr")
    assert validation_words("Expected `str` matching regex '^a'") == "Expected `str` matching regex '^a'"
