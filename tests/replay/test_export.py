"""``dvtui replay FILE --text``, pinned by golden files for every example.

After a deliberate change of the text, rewrite the golden files and read the difference:
``DVTUI_UPDATE_GOLDEN=1 python -m pytest tests/replay/test_export.py`` then ``git diff``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dvtui.cli import main
from dvtui.replay.export import export_text
from dvtui.store import read_game

from ..support.replays import EXAMPLES, REPLAYS, REPO, cut_copies

GOLDEN = Path(__file__).resolve().parent / "golden"


def _golden(name: str, text: str) -> str:
    path = GOLDEN / f"{Path(name).stem}.txt"
    if os.environ.get("DVTUI_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_exports_as_pinned(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    before = (REPLAYS / name).read_bytes()
    assert main(["replay", f"replays/{name}", "--text"]) == 0
    out = capsys.readouterr().out
    assert out == _golden(name, out)
    assert (REPLAYS / name).read_bytes() == before


@pytest.mark.parametrize("name", ["game.dvr", "game-5p.dvr"])
def test_the_examples_in_french_as_pinned(name: str, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    """Read start to end against the French rules' words: manche, colonne, placement, égalité, the
    goods with their articles, the money cards as "la carte argent", amounts as ``4 500 000``."""
    monkeypatch.chdir(REPO)
    assert main(["--lang", "fr", "replay", f"replays/{name}", "--text"]) == 0
    out = capsys.readouterr().out
    assert out == _golden(f"{Path(name).stem}.fr.dvr", out)
    assert max(len(line) for line in out.splitlines()) <= 100


def test_a_long_column_line_is_cut_between_two_awards_never_inside_one() -> None:
    """The cut line ends with the separator; the separator fits on it as well, or the award before
    it goes to the next line."""
    text = export_text(read_game(REPLAYS / "game-3p.dvr").events)
    assert ("G  (Bot 1: 4, Bot 2: 2, Bot 3: 5) Bot 3 takes jewel 700, returns jewel 200;\n"
            "       Bot 1 takes boat 600; Bot 2 takes house 700\n") in text  # fmt: skip


def test_the_export_tells_the_game_round_by_round() -> None:
    loaded = read_game(REPLAYS / "game.dvr")
    text = export_text(loaded.events, label="game.dvr")
    assert text.startswith("Dolce Vita · game.dvr\n")
    assert [line.split(" · ")[0] for line in text.splitlines() if line.startswith("ROUND")] == [
        f"ROUND {r} of 6" for r in range(1, 7)
    ]
    assert text.count("  Columns:") == 6 and text.count("  Scores: ") == 6
    assert "(Bot 2 placed 1 under column D, then took it back)" in text
    assert (
        "E  (Bot 1: 7, Bot 2: 4, Bot 3: 4) Bot 2 and Bot 3 tie at 4: both cancelled;\n       Bot 1 takes jewel 600"
    ) in text
    assert "Bot 1 takes house 400, returns house 300" in text
    assert "RESULT  Game over: Bot 1 wins with 4,500,000" in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_a_torn_or_unfinished_file_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = cut_copies(tmp_path)
    before = cut["torn"].read_bytes()
    assert main(["replay", str(cut["torn"]), "--text"]) == 0
    out = capsys.readouterr().out
    assert f"Note: {cut['torn']} line 61: torn last line" in out
    assert cut["torn"].read_bytes() == before  # never repaired by a replay
    assert main(["replay", str(cut["unfinished"]), "--text"]) == 0
    out = capsys.readouterr().out
    assert "The game stops here: round 2 of 5, Bot 5 to play (11 of 25 placements made this round)." in out
    assert "RESULT" not in out


def test_a_script_is_exported_with_its_results_worked_out() -> None:
    loaded = read_game(REPLAYS / "script-3p.dvr")
    text = export_text(loaded.events, decisions_only=True)
    assert "Note: a game script (decisions only)" in text
    assert text.count("  Columns:") == 6


def test_a_bad_file_is_one_line_and_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.dvr"
    bad.write_text('{"type":"card_placed","round":1,"player":0,"column":0,"card":1}\n')
    assert main(["replay", str(bad), "--text"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("dvtui: error: ") and err.count("\n") == 1


def test_the_export_does_not_import_textual() -> None:
    code = (
        "import contextlib, io, sys\nfrom dvtui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['replay', 'replays/game.dvr', '--text']) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_a_total_is_never_read_as_part_of_a_numbered_name(capsys: pytest.CaptureFixture[str]) -> None:
    """``Bot 1 3`` could be Bot 13 with nothing, or Bot 1 with 3: the export says ``Bot 1: 3``."""
    assert main(["replay", str(REPLAYS / "game.dvr"), "--text"]) == 0
    text = capsys.readouterr().out
    assert "A  (Bot 1: 3, Bot 2: 4) Bot 2 takes watch 400" in text
    assert "Scores: Bot 1: 1,700,000 · Bot 2: 1,500,000 · Bot 3: 300,000" in text
