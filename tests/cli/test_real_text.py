"""What the commands print is real text: French amounts and percentages are spaced with the narrow
no-break space (U+202F), as French typography writes them, never with a look-alike such as the
braille blank (U+2800), which breaks copying into a spreadsheet and which a screen reader reads
aloud as "braille pattern blank"."""

from __future__ import annotations

from pathlib import Path

import pytest

from ..support.processes import REPO, dvtui

GAME = REPO / "replays" / "game.dvr"
LOOK_ALIKES = "\u2800\u3164\u115f\u1160\uffa0"
"""Blank-looking characters that are not spaces: the braille blank and the Hangul fillers."""


def _copy(tmp_path: Path) -> str:
    game = tmp_path / GAME.name
    game.write_bytes(GAME.read_bytes())
    return str(game)


COMMANDS: dict[str, list[str]] = {
    "replay --text": ["replay", "{game}", "--text"],
    "verify": ["verify", "{game}"],
    "analyse": ["analyse", "{game}", "--budget", "20"],
    "sim": ["sim", "--players", "bot:random,bot:greedy,bot:random", "--games", "2"],
    "resume --list": ["resume", "--list"],
    "--help": ["--help"],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_no_command_prints_a_look_alike_space(command: str, tmp_path: Path) -> None:
    game = _copy(tmp_path)
    args = [arg.format(game=game) for arg in COMMANDS[command]]
    done = dvtui("--lang", "fr", *args, data=tmp_path)
    assert done.returncode == 0, done.stderr
    for said in (done.stdout, done.stderr):
        assert not set(said) & set(LOOK_ALIKES), [line for line in said.splitlines() if set(line) & set(LOOK_ALIKES)]


def test_french_amounts_on_standard_output_use_the_narrow_no_break_space(tmp_path: Path) -> None:
    done = dvtui("--lang", "fr", "replay", _copy(tmp_path), "--text", data=tmp_path)
    assert "Bot 1 l’emporte avec 4\u202f500\u202f000" in done.stdout
    analysed = dvtui("--lang", "fr", "analyse", _copy(tmp_path), "--budget", "20", data=tmp_path)
    assert "\u202f%" in analysed.stdout and " %" not in analysed.stdout


def test_no_source_writes_a_look_alike_space() -> None:
    """Not in the code, its catalogue or its docs, written out or escaped."""
    found = []
    for path in [*(REPO / "dvtui").rglob("*.py"), *(REPO / "dvtui").rglob("*.po"), *(REPO / "docs").rglob("*.md")]:
        text = path.read_text(encoding="utf-8")
        if set(text) & set(LOOK_ALIKES) or "\\u2800" in text.lower():
            found.append(str(path.relative_to(REPO)))
    assert found == []
