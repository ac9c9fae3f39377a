"""Hostile and damaged files: every one answered with ``dvtui: error: FILE line N: ...`` and exit 1,
never a traceback, never a file changed.

Each case damages a real game (written by the store's writer) in one way a person, a disk or an
attacker would, and runs the real command line on it: ``verify`` and ``resume --headless``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from dvtui.cli import main
from dvtui.store import GameFileError, GameWriter, SaveError, read_game
from dvtui.store.reader import MAX_FILE_BYTES, MAX_LINE_BYTES

from ..support.files import complete_lines, reference
from ..support.positions import BOTS3, created

Lines = list[bytes]


def _edit(index: int, change: Callable[[dict[str, object]], None]) -> Callable[[Lines], Lines]:
    """Change line ``index``'s JSON object (re-encoded compactly, like the writer does)."""

    def damage(lines: Lines) -> Lines:
        obj = json.loads(lines[index])
        change(obj)
        lines[index] = json.dumps(obj, separators=(",", ":")).encode() + b"\n"
        return lines

    return damage


def _set(index: int, key: str, value: object) -> Callable[[Lines], Lines]:
    return _edit(index, lambda obj: obj.__setitem__(key, value))


def _raw(index: int, line: bytes) -> Callable[[Lines], Lines]:
    def damage(lines: Lines) -> Lines:
        lines[index] = line
        return lines

    return damage


def _splice(index: int, key: str, raw_value: bytes) -> Callable[[Lines], Lines]:
    """Insert ``"key": raw_value`` (raw JSON bytes, possibly not encodable by json.dumps) into line
    ``index`` just after its ``type``."""

    def damage(lines: Lines) -> Lines:
        line = lines[index]
        cut = line.index(b",") + 1
        lines[index] = line[:cut] + b'"' + key.encode() + b'":' + raw_value + b"," + line[cut:]
        return lines

    return damage


def _player(i: int, key: str, value: object) -> Callable[[Lines], Lines]:
    def change(obj: dict[str, object]) -> None:
        players = obj["players"]
        assert isinstance(players, list)
        players[i][key] = value

    return _edit(0, change)


def _players(count: int) -> Callable[[Lines], Lines]:
    colors = ["red", "yellow", "green", "blue", "purple", "white", "black"]

    def change(obj: dict[str, object]) -> None:
        obj["players"] = [{"name": f"P{i}", "kind": "human", "color": colors[i]} for i in range(count)]

    return _edit(0, change)


def _delete(index: int) -> Callable[[Lines], Lines]:
    def damage(lines: Lines) -> Lines:
        del lines[index]
        return lines

    return damage


def _duplicate(index: int) -> Callable[[Lines], Lines]:
    def damage(lines: Lines) -> Lines:
        lines.insert(index, lines[index])
        return lines

    return damage


def _swap(index: int) -> Callable[[Lines], Lines]:
    def damage(lines: Lines) -> Lines:
        lines[index], lines[index + 1] = lines[index + 1], lines[index]
        return lines

    return damage


# (id, damage, the line the error must name (None: the file as a whole), words the message holds)
CASES: list[tuple[str, Callable[[Lines], Lines], int | None, str]] = [
    ("line-too-long", _splice(5, "note", b'"' + b"x" * (MAX_LINE_BYTES + 10) + b'"'), 6, "bytes long"),
    ("six-players", _players(6), 1, "3 to 5 players"),
    ("two-players", _players(2), 1, "3 to 5 players"),
    ("card-out-of-range", _set(3, "card", 7), 4, "number cards are 1 to 6"),
    ("card-zero", _set(3, "card", 0), 4, "number cards are 1 to 6"),
    ("column-out-of-range", _set(3, "column", 7), 4, "column must be 0 to 6"),
    ("negative-column", _set(3, "column", -1), 4, "column"),
    ("player-out-of-range", _set(3, "player", 9), 4, "turn"),
    ("round-out-of-range", _set(3, "round", 99), 4, "round"),
    ("first-player-out-of-range", _set(0, "first_player", 3), 1, "first_player"),
    ("format-2", _set(0, "format", 2), 1, "format 2"),
    ("rounds-wrong", _set(0, "rounds", 7), 1, "rounds"),
    ("seq-negative", _set(2, "seq", -1), 3, "seq is -1, expected 2"),
    ("seq-duplicate", _set(4, "seq", 3), 5, "seq is 3, expected 4"),
    ("seq-missing", _delete(20), 21, "seq is 21, expected 20"),
    ("line-duplicated", _duplicate(7), 9, "seq is 7, expected 8"),
    ("lines-swapped", _swap(7), 8, "seq is 8, expected 7"),
    ("card-as-string", _set(3, "card", "6"), 4, "Expected `int`, got `str`"),
    ("player-as-bool", _set(3, "player", True), 4, "Expected `int`, got `bool`"),
    ("card-as-float", _set(3, "card", 2.0), 4, "Expected `int`, got `float`"),
    ("card-null", _set(3, "card", None), 4, "Expected `int`, got `null`"),
    ("players-object", _set(0, "players", {"a": 1}), 1, "Expected `array`, got `object`"),
    ("totals-string", _set(16, "totals", "3,3,4"), 17, "Expected `array`, got `str`"),
    ("missing-field", _edit(3, lambda o: o.pop("column")), 4, "missing required field `column`"),
    ("unknown-type", _set(3, "type", "card_moved"), 4, "unknown event type 'card_moved'"),
    ("type-not-string", _set(3, "type", 5), 4, "type"),
    ("no-type", _edit(3, lambda o: o.pop("type")), 4, 'no "type" field'),
    ("not-an-object", _raw(3, b"[1, 2, 3]\n"), 4, "not a JSON object"),
    ("bare-number", _raw(3, b"42\n"), 4, "not a JSON object"),
    ("empty-line", _raw(3, b"\n"), 4, "empty line"),
    ("nul-bytes", _raw(3, b"\x00\x00\x00\n"), 4, "not valid JSON"),
    ("bom", lambda ls: [b"\xef\xbb\xbf" + ls[0], *ls[1:]], 1, "not valid JSON"),
    ("first-not-created", _delete(0), 1, "the first event must be game_created"),
    ("created-twice", _raw(5, b""), 6, "game_created"),  # replaced below with line 0 at seq 5
    ("big-int", _set(3, "card", 10**30), 4, "number cards are 1 to 6"),
    ("huge-int", _splice(3, "card", b"9" * 20000), 4, "out of range"),
    ("huge-int-unknown-key", _splice(3, "note", b"9" * 20000), None, ""),  # valid: unknown keys are ignored
    ("huge-float", _splice(3, "card", b"1e99999"), 4, "out of range"),
    ("seed-beyond-64-bits", _set(0, "seed", 2**70), 1, "seed is out of range"),
    ("huge-name", _player(0, "name", "A" * 60000), 1, "'… is 60000 characters; at most 24"),
    ("long-name", _player(0, "name", "A" * 25), 1, "players[0].name: the name 'AAAA"),
    ("name-with-tab", _player(1, "name", "Bot\t2"), 1, "players[1].name: the name 'Bot\\t2' holds a control character"),
    ("names-alike", _player(2, "name", "BOT 1"), 1, "players[2].name: two seats are called 'BOT 1'"),
    (
        "person-named-like-a-bot",
        _edit(0, lambda o: o["players"][0].update(kind="human", name="bot:strong")),
        1,
        "players[0].name: the name 'bot:strong' is how a bot is written",
    ),
    ("bot-level-unknown", _player(1, "bot", "oracle"), 1, "players[1].bot: unknown bot level 'oracle'"),
    (
        "bot-budget-huge",
        _player(1, "bot", "strong@99999999999999"),
        1,
        "players[1].bot: a bot's budget is at most 200000 iterations",
    ),
    ("bot-time-huge", _player(1, "bot", "strong@999999999s"), 1, "players[1].bot: a bot's budget is at most"),
    ("bot-budget-digits", _player(1, "bot", "strong@" + "9" * 5000), 1, "players[1].bot: unknown bot level"),
    ("bot-budget-zero", _player(1, "bot", "strong@0"), 1, "players[1].bot: a bot's budget must be more than 0"),
    ("name-with-escape", _player(1, "name", "Bot\x1b[2J\x1b[H"), 1, "control character"),
    ("name-with-newline", _player(1, "name", "Bot\nrm -rf"), 1, "control character"),
    ("bad-color", _player(1, "color", "pink"), 1, "color"),
    ("huge-string-unknown-key", _set(3, "note", "B" * 60000), None, ""),  # valid: unknown keys are ignored
    ("invalid-utf8-unknown-key", _splice(3, "note", b'"\xff\xfe"'), 4, "not valid UTF-8"),
    ("invalid-utf8-key", _raw(3, b'{"type":"card_placed","\xff":1}\n'), 4, "not valid UTF-8"),
    ("invalid-utf8-name", _player(0, "name", "X"), 1, "not valid UTF-8"),  # the X becomes \xff below
    ("lone-surrogate", _splice(3, "note", b'"\\ud800"'), 4, "not valid JSON"),
    ("deep-nesting", _splice(3, "note", b"[" * 30000 + b"]" * 30000), 4, "nested too deeply"),
    ("deep-objects", _splice(3, "note", b'{"a":' * 10000 + b"1" + b"}" * 10000), 4, "nested too deeply"),
    ("derived-tampered", _set(16, "totals", [9, 9, 9]), 17, "field 'totals'"),
    ("award-stolen", _raw(16, b""), 17, "awards"),  # the first column with an award: below
    ("derived-missing-mid-file", _delete(16), 17, "seq is 17, expected 16"),
    ("derived-missing-no-seq", _delete(16), 17, "card_placed found where column_resolved is owed"),  # below
    ("derived-out-of-place", _swap(15), 16, "seq"),
    ("decision-after-over", _raw(140, b""), 141, ""),  # replaced below
]


def _damaged(case: str, damage: Callable[[Lines], Lines]) -> bytes:
    lines = complete_lines(reference(BOTS3, seed=5))
    if case == "created-twice":
        lines[5] = lines[0].replace(b'"seq":0', b'"seq":5')
        return b"".join(lines)
    if case == "decision-after-over":
        lines.append(b'{"type":"card_placed","seq":140,"round":7,"player":0,"column":0,"card":1}\n')
        return b"".join(lines)
    if case == "derived-missing-no-seq":  # seq is optional: without it, the engine finds the gap
        lines = [re.sub(rb'"seq":\d+,', b"", ln) for ln in lines]
        del lines[16:24]  # round 1's 7 column_resolved and its round_ended
        return b"".join(lines)
    if case == "award-stolen":
        first = next(i for i, ln in enumerate(lines) if b'"awards":[{' in ln)
        damage = _edit(first, lambda o: o.__setitem__("awards", []))
    lines = damage(lines)
    if case == "invalid-utf8-name":
        lines[0] = lines[0].replace(b'"name":"X"', b'"name":"\xffX"')
    return b"".join(lines)


@pytest.mark.parametrize(("case", "damage", "line", "words"), CASES, ids=[c[0] for c in CASES])
def test_hostile_file_gets_one_line_error_and_is_not_modified(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    case: str,
    damage: Callable[[Lines], Lines],
    line: int | None,
    words: str,
) -> None:
    path = tmp_path / "game.dvr"
    data = _damaged(case, damage)
    path.write_bytes(data)
    os.utime(path, (1_000_000_000, 1_000_000_000))
    if line is None and not words:  # unknown keys are annotations: the file is fine, however odd
        assert main(["verify", str(path)]) == 0
        return
    if case == "decision-after-over":
        line, words = 141, "game is over"
    if case == "created-twice":
        words = "game_created may only be the first event"
    if case == "award-stolen":
        line = 1 + next(i for i, ln in enumerate(complete_lines(reference(BOTS3, seed=5))) if b'"awards":[{' in ln)
    for argv in (["verify", str(path)], ["resume", str(path), "--headless"], ["verify", "--canonical", str(path)]):
        code = main(argv)
        _out, err = capsys.readouterr()
        assert code == 1, (argv, err)
        lines = err.splitlines()
        assert len(lines) == 1, err  # one line, whatever the file holds
        where = f"dvtui: error: {path} line {line}: " if line is not None else f"dvtui: error: {path}: "
        assert lines[0].startswith(where), err
        assert words in lines[0], err
        assert lines[0].isprintable() and len(lines[0]) < 500, err
        assert "Traceback" not in err and "internal error" not in err
        assert path.read_bytes() == data  # verify and a refused resume never modify the file
        assert os.stat(path).st_mtime == 1_000_000_000
    assert sorted(os.listdir(tmp_path)) == ["game.dvr"]  # nothing left beside it (no lock, no copy)


def test_a_file_larger_than_the_bound_is_refused_without_reading_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "huge.dvr"
    with open(path, "wb") as f:  # sparse: costs no disk
        f.write(reference(BOTS3, seed=5))
        f.truncate(MAX_FILE_BYTES + 1)
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert err == f"dvtui: error: {path}: is {MAX_FILE_BYTES + 1} bytes; a game file is at most {MAX_FILE_BYTES}\n"


def test_a_file_at_the_size_bound_is_read(tmp_path: Path) -> None:
    """The bound is a size, not a guess: a legal file of nearly 32 MiB (undo after undo) is read."""
    first = complete_lines(reference(BOTS3, seed=5))[0]
    place = b'{"type":"card_placed","round":1,"player":0,"column":3,"card":6}\n'
    undo = b'{"type":"placement_undone","round":1,"player":0,"column":3,"card":6}\n'
    pairs = (MAX_FILE_BYTES - len(first)) // (len(place) + len(undo))
    path = tmp_path / "long.dvr"
    path.write_bytes(first + (place + undo) * pairs)
    loaded = read_game(path)
    assert loaded.file_lines == 1 + 2 * pairs and not loaded.game.placements


@pytest.mark.parametrize("kind", ["directory", "device", "fifo", "symlink-loop", "dangling-symlink", "missing"])
def test_a_file_argument_that_is_not_a_game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    path = tmp_path / "thing.dvr"
    expected = {
        "directory": "is a directory, not a game file",
        "device": "is a device, not a game file",
        "fifo": "is a named pipe, not a game file",
        "symlink-loop": "is a symbolic link loop, not a game file",
        "dangling-symlink": "no such file (a symbolic link to nothing)",
        "missing": "no such file",
    }[kind]
    if kind == "directory":
        path.mkdir()
    elif kind == "device":
        path = Path(os.devnull)
    elif kind == "fifo":
        os.mkfifo(path)  # opening it for reading would block: it must not be opened
    elif kind == "symlink-loop":
        os.symlink(tmp_path / "other.dvr", path)
        os.symlink(path, tmp_path / "other.dvr")
    elif kind == "dangling-symlink":
        os.symlink(tmp_path / "nowhere.dvr", path)
    argvs = [["resume", str(path), "--headless"]]
    if kind != "directory":  # verify takes a directory as "its .dvr files"
        argvs.append(["verify", str(path)])
    for argv in argvs:
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err == f"dvtui: error: {path}: {expected}\n"


def test_writer_refuses_to_create_over_a_directory_or_a_file(tmp_path: Path) -> None:
    (tmp_path / "dir.dvr").mkdir()
    with pytest.raises(SaveError, match="is a directory"):
        GameWriter.create(tmp_path / "dir.dvr", created())
    (tmp_path / "old.dvr").write_bytes(b"keep me\n")
    with pytest.raises(SaveError, match="already exists"):
        GameWriter.create(tmp_path / "old.dvr", created())
    assert (tmp_path / "old.dvr").read_bytes() == b"keep me\n"
    os.symlink(tmp_path / "target.dvr", tmp_path / "link.dvr")  # never written through a symlink
    with pytest.raises(SaveError, match="already exists"):
        GameWriter.create(tmp_path / "link.dvr", created())
    assert not (tmp_path / "target.dvr").exists()
    assert sorted(os.listdir(tmp_path)) == ["dir.dvr", "link.dvr", "old.dvr"]  # no lock file left


def test_error_messages_quote_hostile_text_as_one_clean_line() -> None:
    err = GameFileError("g.dvr", 3, "name 'x\n\x1b[31mred\x1b[0m' " + "y" * 5000)
    text = str(err)
    assert "\n" not in text and "\x1b" not in text
    assert "\\x1b[31m" in text and len(text) < 400


def test_invalid_utf8_deep_in_a_large_file_names_its_line() -> None:
    """The UTF-8 check goes a megabyte at a time; the line it names is still exact."""
    from dvtui.store import parse_game

    first = complete_lines(reference(BOTS3, seed=5))[0]
    place = b'{"type":"card_placed","round":1,"player":0,"column":3,"card":6}\n'
    undo = b'{"type":"placement_undone","round":1,"player":0,"column":3,"card":6}\n'
    body = [first, *([place, undo] * 20000)]
    bad = 30001  # 0-based index of the damaged line, well past the first megabyte
    body[bad] = body[bad].replace(b'"round"', b'"\xe9":0,"round"')
    with pytest.raises(GameFileError) as error:
        parse_game(b"".join(body), "big.dvr")
    assert error.value.line == bad + 1 and "not valid UTF-8 (byte 24 of the line)" in error.value.message


def test_no_directory_is_made_for_a_game_in_a_missing_one(tmp_path: Path) -> None:
    with pytest.raises(SaveError, match="no such directory"):
        GameWriter.create(tmp_path / "missing" / "deeper" / "game.dvr", created())
    assert os.listdir(tmp_path) == []
