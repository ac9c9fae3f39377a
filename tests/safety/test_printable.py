"""Outside text never drives the terminal: file names, a branch's parent, lock records and names
are printed with their control characters escaped (``\\x1b``, ``\\u202e``), never raw.

A game file is shared like any document: its name, the ``parent`` it names and the lock record
beside it are chosen by someone else. Raw, an escape sequence in them would clear the screen, write
the clipboard (OSC 52), plant a link (OSC 8); ``\\r`` and ``\\b`` would draw a fake line over a real
one, U+202E would make a name read backwards. The CLI tests run the real ``dvtui`` and read its
output as bytes.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from types import SimpleNamespace

import msgspec
import pytest

from dvtui.app.exit_state import exit_state_of
from dvtui.cli import main, play
from dvtui.play.session import PlaySession
from dvtui.printable import NO_BREAK_SPACES, printable
from dvtui.replay import Replay
from dvtui.replay.branch import branch_file
from dvtui.store import GameFileError, lock_path, parse_game, read_game

from ..support.files import complete_lines, reference, start_game
from ..support.positions import BOTS3, created
from ..support.processes import dvtui_cmd, env

ESC_NAME = (
    "g\x1b[2J\x1b[H"  # clear the screen
    "\x1b]52;c;aGk=\x07"  # write the clipboard
    "\x1b]8;;x\x1b\\link\x1b]8;;\x1b\\"  # a hyperlink
    "\r\bfake"  # draw over the line
    "\u202etxt.rvd"  # read backwards
    "\x9b31m\x85\u2028.dvr"  # C1 CSI, next line, line separator
)
"""A file name holding every kind of terminal control a file name can hold (no NUL, no slash)."""
ESCAPED_NAME = printable(ESC_NAME)


def assert_inert(output: bytes | str) -> str:
    """``output`` is UTF-8 whose every line is printable (the no-break spaces French writes
    allowed): nothing in it drives a terminal."""
    text = output.decode("utf-8") if isinstance(output, bytes) else output  # strict: no stray byte
    for line in text.split("\n"):
        assert "".join(ch for ch in line if ch not in NO_BREAK_SPACES).isprintable(), repr(line)
    return text


def run(*args: str | bytes, data: Path) -> subprocess.CompletedProcess[bytes]:
    """``dvtui ARGS`` to its end, its output the bytes a terminal would be sent."""
    return subprocess.run(dvtui_cmd(*args), capture_output=True, env=env(data), timeout=60, check=False)


# -- the function ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("char", "shown"),
    [
        ("\x1b", "\\x1b"),
        ("\x07", "\\x07"),
        ("\r", "\\x0d"),
        ("\b", "\\x08"),
        ("\n", "\\x0a"),
        ("\t", "\\x09"),
        ("\x00", "\\x00"),
        ("\x7f", "\\x7f"),
        ("\x9b", "\\x9b"),
        ("\x85", "\\x85"),
        ("\u202a", "\\u202a"),
        ("\u202e", "\\u202e"),
        ("\u2066", "\\u2066"),
        ("\u2069", "\\u2069"),
        ("\u200e", "\\u200e"),
        ("\u200f", "\\u200f"),
        ("\u061c", "\\u061c"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
        ("\ufeff", "\\ufeff"),
        ("\u200b", "\\u200b"),
        ("\udcff", "\\udcff"),  # a byte of a file name that is not UTF-8 (surrogateescape)
        ("\U000e0001", "\\U000e0001"),
    ],
)
def test_printable_escapes_each_control_visibly(char: str, shown: str) -> None:
    assert printable(f"a{char}b") == f"a{shown}b"


def test_printable_keeps_text_as_it_is() -> None:
    for text in ("Ana", "Zoë", "李小龍", "🎲Dice👑", "[/]", "x[/]y.dvr", "a b\\x1b", ""):
        assert printable(text) is text
    assert printable(printable(ESC_NAME)) == ESCAPED_NAME  # escaping twice changes nothing more
    assert ESCAPED_NAME.isprintable() and "\\x1b]52;c;" in ESCAPED_NAME


def test_printable_keeps_the_no_break_spaces_french_writes() -> None:
    """``4 500 000`` and ``gagné !`` as French spaces them print as they are, not as ``\\u202f``."""
    text = "4\u202f500\u202f000 \u00ab\u00a0gagn\u00e9\u202f!\u00a0\u00bb 1\u2007000"
    assert printable(text) == text


# -- the reader: every string field of game_created ----------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("parent", "games/old\x1b[2J.dvr"),
        ("parent", "\x1b]52;c;aGk=\x07"),
        ("parent", "\u202egame.dvr"),
        ("parent", "a\rb"),
        ("players[1].kind", "bot\x1b[2J"),
    ],
)
def test_game_created_text_with_a_control_character_is_refused(field: str, value: str) -> None:
    first = json.loads(complete_lines(reference(BOTS3, seed=5))[0])
    if field == "parent":
        first["parent"], first["parent_seq"] = value, 3
    else:
        first["players"][1]["kind"] = value
    data = json.dumps(first, separators=(",", ":")).encode() + b"\n"
    with pytest.raises(GameFileError) as error:
        parse_game(data, "g.dvr")
    assert str(error.value) == f"g.dvr line 1: game_created: {field} holds a control character"


def test_a_printable_parent_is_read() -> None:
    first = json.loads(complete_lines(reference(BOTS3, seed=5))[0])
    first["parent"], first["parent_seq"] = "/home/ana/games/李 [/] x.dvr", 3
    loaded = parse_game(json.dumps(first).encode() + b"\n", "g.dvr")
    assert loaded.created.parent == "/home/ana/games/李 [/] x.dvr"


def test_a_branch_of_a_file_whose_name_holds_controls_is_readable(tmp_path: Path) -> None:
    """The parent's path is written printable: the branch is a file the reader accepts."""
    parent = tmp_path / ESC_NAME
    parent.write_bytes(reference(BOTS3, seed=5))
    loaded = read_game(parent)
    branched = branch_file(loaded, Replay(loaded.events), 20, tmp_path / "b.dvr")
    assert branched.created.parent == printable(str(parent.resolve()))
    assert main(["verify", str(tmp_path / "b.dvr")]) == 0


# -- the command line -------------------------------------------------------------------------------


def test_verify_prints_a_hostile_file_name_escaped(tmp_path: Path) -> None:
    good = tmp_path / ESC_NAME
    good.write_bytes(reference(BOTS3, seed=5))
    torn = tmp_path / ("torn" + ESC_NAME)
    torn.write_bytes(reference(BOTS3, seed=5) + b'{"type":"card_pla')
    not_utf8 = os.path.join(os.fsencode(tmp_path), b"g\xff\xfe.dvr")
    with open(not_utf8, "wb") as f:
        f.write(reference(BOTS3, seed=5))
    proc = run("verify", str(good), str(torn), not_utf8, data=tmp_path / "data")
    out, err = assert_inert(proc.stdout), assert_inert(proc.stderr)
    assert proc.returncode == 1  # the torn one
    lines = out.splitlines()
    assert lines[0].startswith(f"{printable(str(good))}: ok, 3 players") and "\\x1b[2J" in lines[0]
    assert lines[1].startswith(f"{tmp_path}/g\\udcff\\udcfe.dvr: ok")
    assert err.startswith(f"dvtui: error: {printable(str(torn))} line ") and "torn last line" in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_replay_text_prints_the_file_name_and_its_notices_escaped(tmp_path: Path) -> None:
    path = tmp_path / ESC_NAME
    path.write_bytes(reference(BOTS3, seed=5) + b'{"type":"card_pla')
    proc = run("replay", str(path), "--text", data=tmp_path / "data")
    assert proc.returncode == 0, proc.stderr
    out = assert_inert(proc.stdout)
    assert out.startswith(f"Dolce Vita · {printable(str(path))}\n")
    assert f"Note: {printable(str(path))} line " in out


def test_a_parent_with_controls_is_a_one_line_error_everywhere(tmp_path: Path) -> None:
    first = json.loads(complete_lines(reference(BOTS3, seed=5))[0])
    first["parent"], first["parent_seq"] = "x\x1b[2J\x1b]52;c;aGk=\x07\u202e.dvr", 3
    path = tmp_path / "branch.dvr"
    path.write_bytes(json.dumps(first).encode() + b"\n")
    for args in (["verify", str(path)], ["replay", str(path), "--text"], ["resume", str(path), "--headless"]):
        proc = run(*args, data=tmp_path / "data")
        err = assert_inert(proc.stderr)
        assert proc.returncode == 1 and proc.stdout == b""
        assert err == f"dvtui: error: {path} line 1: game_created: parent holds a control character\n"


def test_resume_list_prints_hostile_file_names_escaped(tmp_path: Path) -> None:
    data = tmp_path / "data"
    games = data / "games"
    games.mkdir(parents=True)
    start_game(games / ESC_NAME)
    first = json.loads(complete_lines(reference(BOTS3, seed=5))[0])
    first["parent"] = "\x1b]52;c;aGk=\x07.dvr"
    (games / "bad-parent.dvr").write_bytes(json.dumps(first).encode() + b"\n")  # refused: not listed
    proc = run("resume", "--list", data=data)
    out, err = assert_inert(proc.stdout), assert_inert(proc.stderr)
    assert proc.returncode == 0
    assert out.splitlines()[0] == printable(str(games / ESC_NAME))
    assert "Bot 1, Bot 2, Bot 3 · round 1 of 6" in out
    assert err == f"(1 file could not be read; see: dvtui verify {games})\n"


def test_resume_headless_prints_a_lock_record_and_the_file_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = start_game(tmp_path / ESC_NAME, seed=5)
    record = {"host": "h\x1b]52;c;aGk=\x07\u202e", "pid": 4242, "user": "u\x1b[2J\r", "since": "2026-01-01T00:00:00Z"}
    lock_path(path).write_text(json.dumps(record))
    assert main(["resume", str(path), "--headless"]) == 0
    out, err = capsys.readouterr()
    assert_inert(out), assert_inert(err)
    assert "took over the lock left by pid 4242 on h\\x1b]52;c;aGk=\\x07\\u202e" in err
    assert out.startswith(f"{printable(str(path))}: game over: ")


def test_usage_errors_quote_arguments_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / ESC_NAME
    taken.write_bytes(b"")
    assert main(["new", "--players", "Ana,bot:greedy,bot:greedy", "-o", str(taken)]) == 2
    err = assert_inert(capsys.readouterr().err)
    assert err.startswith(f"dvtui: error: {printable(str(taken))} already exists")
    with pytest.raises(SystemExit) as exit_:
        main(["new", "--seed", "7\x1b[2J"])
    assert exit_.value.code == 2
    err = assert_inert(capsys.readouterr().err)
    assert "'7\\x1b[2J'" in err


@pytest.mark.parametrize("over", [False, True])
def test_the_lines_after_the_app_quits_name_the_file_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, over: bool
) -> None:
    """ "Game saved in FILE / Continue it: dvtui resume FILE" (or "watch it again"), and a branch's
    parent, as printed once the app has left the screen."""
    monkeypatch.setattr(play, "has_terminal", lambda: True)  # the app itself is stood in for
    path = tmp_path / ESC_NAME
    if over:
        path.write_bytes(reference(BOTS3, seed=5))
        session = PlaySession.resume(read_game(path))
    else:
        with_parent = msgspec.structs.replace(created(BOTS3, seed=5), parent="old\x1b[2J.dvr", parent_seq=0)
        session = PlaySession.start(with_parent, path)
    app = SimpleNamespace(run=lambda loop=None: exit_state_of(session, branched=True), freeze_long_lived=lambda: None)
    assert play._run_app(lambda: app) == 0  # type: ignore[arg-type,return-value]
    out = assert_inert(capsys.readouterr().out)
    shown = printable(str(path))
    if over:
        assert out == f"Game over. Watch it again: dvtui replay {shown}\n"
    else:
        assert out == (
            f"Game saved in {shown}\nContinue it: dvtui resume {shown}\n"
            "Branched from old\\x1b[2J.dvr (left as it was)\n"
        )
