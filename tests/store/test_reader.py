"""Reading ``.dvr`` files: every derived event re-derived and checked, game scripts completed,
a torn tail recovered (and said), any other damage reported by line and field (REPLAY_FORMAT.md,
"Reading")."""

from __future__ import annotations

import bisect
import tempfile
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dvtui.engine import (
    AnyEvent,
    CardPlaced,
    ColumnResolved,
    Event,
    Game,
    GameCreated,
    GameEnded,
    Placement,
    PlacementUndone,
    RoundEnded,
    fold,
    new_game,
)
from dvtui.play.autoplay import bot_players
from dvtui.play.seats import parse_players
from dvtui.store import GameFileError, GameWriter, encode_line, parse_game, read_game

from ..support.files import (
    DERIVED,
    PLAYERS,
    decode,
    dump,
    engine_events,
    engine_lines,
    file_bytes,
    lines_of,
    obj,
    renumber,
    replay_independently,
    same_state,
    strip_at,
    write_game,
)

GAMES = settings(max_examples=12, deadline=None)
WRITTEN_GAMES = settings(max_examples=6, deadline=None)
"""Fewer examples where every move is fsynced: the disk, not the code, sets the pace there."""


@st.composite
def bot_games(draw: st.DrawFn) -> tuple[str, int, int]:
    """(players, seed, first player) of a bot-only game of 3 to 5 random/greedy bots."""
    n = draw(st.integers(3, 5))
    levels = draw(st.lists(st.sampled_from(["random", "greedy"]), min_size=n, max_size=n))
    seed = draw(st.integers(0, 2**32 - 1))
    first = draw(st.integers(0, n - 1))
    return ",".join(f"bot:{level}" for level in levels), seed, first


def kind(line: bytes) -> str:
    return str(obj(line)["type"])


def is_derived(line: bytes) -> bool:
    return kind(line) in ("column_resolved", "round_ended", "game_ended")


def read_error(data: bytes, path: str = "g.dvr") -> GameFileError:
    with pytest.raises(GameFileError) as e:
        parse_game(data, path)
    err = e.value
    where = path if err.line is None else f"{path} line {err.line}"
    assert str(err) == f"{where}: {err.message}"
    assert "\n" not in str(err)
    return err


# -- whole games -------------------------------------------------------------------------------


@WRITTEN_GAMES
@given(bot_games())
def test_file_round_trip_gives_the_same_game(spec: tuple[str, int, int]) -> None:
    players, seed, first = spec
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "game.dvr"
        played, _ = write_game(path, players, seed, first)
        data = path.read_bytes()
        loaded = read_game(path)
    events = engine_events(players, seed, first)
    same_state(loaded.game, played)
    assert loaded.game.over
    assert loaded.events == events
    last = events[-1]
    assert isinstance(last, GameEnded) and last.scores == played.scores()
    assert loaded.torn is None and not loaded.missing_tail and not loaded.notices
    assert not loaded.decisions_only
    assert loaded.file_lines == len(events) == data.count(b"\n")
    assert loaded.good_bytes == len(data)
    assert [strip_at(line) for line in lines_of(data)] == engine_lines(players, seed, first)


@GAMES
@given(bot_games(), st.sampled_from(["renumbered", "no-seq"]))
def test_game_script_is_completed_to_the_engines_own_file(spec: tuple[str, int, int], seq: str) -> None:
    """Decisions only (derived events dropped) -> the reader recomputes the rest, byte for byte."""
    lines = engine_lines(*spec)
    script = [line for line in lines if not is_derived(line)]
    if seq == "renumbered":
        script = renumber(script)
    else:
        script = [dump({k: v for k, v in obj(line).items() if k != "seq"}) for line in script]
    loaded = parse_game(b"".join(script), "script.dvr")
    assert loaded.decisions_only
    assert loaded.file_lines == len(script)
    assert loaded.torn is None and not loaded.missing_tail
    assert [encode_line(ev, i) for i, ev in enumerate(loaded.events)] == lines
    same_state(loaded.game, fold(engine_events(*spec)).game)


@GAMES
@given(bot_games(), st.data())
def test_a_derived_event_missing_in_the_middle_is_named(spec: tuple[str, int, int], data: st.DataObject) -> None:
    lines = engine_lines(*spec)
    middle = [i for i, line in enumerate(lines[:-1]) if is_derived(line)]
    i = data.draw(st.sampled_from(middle), label="removed line index")
    removed = decode(lines[i])
    holed = lines[:i] + lines[i + 1 :]

    # as written, the gap shows first in seq
    err = read_error(b"".join(holed))
    assert err.line == i + 1
    assert f"seq is {i + 1}, expected {i}" in err.message

    # renumbered (a careless edit), the rules show it on the same line
    err = read_error(b"".join(renumber(holed)))
    assert err.line == i + 1
    if isinstance(removed, ColumnResolved):
        field = "column" if removed.column < 6 else "type"
        assert f"column_resolved: field {field!r}" in err.message
    elif isinstance(removed, RoundEnded) and kind(lines[i + 1]) == "card_placed":
        assert "card_placed found where round_ended is owed" in err.message
    else:
        assert "round_ended: field 'type'" in err.message


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_whole_round_of_derived_events_missing_is_named(players: int) -> None:
    lines = engine_lines(PLAYERS[players], seed=5)
    ends = [i for i, line in enumerate(lines) if kind(line) == "round_ended"]
    start = ends[0] - 7  # round 1's column_resolved for column 0
    assert kind(lines[start]) == "column_resolved" and kind(lines[start - 1]) == "card_placed"
    holed = renumber(lines[:start] + lines[ends[0] + 1 :])
    err = read_error(b"".join(holed))
    assert err.line == start + 1
    assert "card_placed found where column_resolved is owed" in err.message


def test_a_derived_event_where_none_is_owed_is_named() -> None:
    lines = engine_lines(PLAYERS[3], seed=5)
    extra = dump({"type": "round_ended", "round": 1, "next_first_player": 1})
    err = read_error(b"".join(renumber([*lines[:4], extra, *lines[4:]])))
    assert err.line == 5 and "round_ended is not owed here" in err.message


def test_a_decision_after_the_end_is_named() -> None:
    lines = engine_lines(PLAYERS[3], seed=5)
    extra = dump({"type": "card_placed", "seq": len(lines), "round": 7, "player": 1, "column": 0, "card": 1})
    err = read_error(b"".join([*lines, extra]))
    assert err.line == len(lines) + 1 and "card_placed" in err.message and "over" in err.message


def test_game_created_twice_or_not_first_is_named() -> None:
    lines = engine_lines(PLAYERS[3], seed=5)
    err = read_error(b"".join(renumber([lines[0], *lines])))
    assert err.line == 2 and "game_created" in err.message
    err = read_error(b"".join(renumber(lines[1:])))
    assert err.line == 1 and "first event must be game_created" in err.message


@pytest.mark.parametrize(
    ("edit", "bad"),
    [
        (lambda o: o.update(player=(o["player"] + 1) % 3), "it is player"),
        (lambda o: o.update(column=7), "column must be 0 to 6"),
        (lambda o: o.update(card=9), "number cards are 1 to 6"),
        (lambda o: o.update(round=2), "round 1 is being played"),
    ],
    ids=["wrong-player", "column-7", "card-9", "wrong-round"],
)
def test_an_illegal_decision_is_named(edit: Callable[[dict], None], bad: str) -> None:
    lines = engine_lines(PLAYERS[3], seed=5)
    o = obj(lines[6])
    assert o["type"] == "card_placed"
    edit(o)
    lines[6] = dump(o)
    err = read_error(b"".join(lines))
    assert err.line == 7 and err.message.startswith("card_placed: ") and bad in err.message


def test_a_card_played_twice_in_a_round_is_named() -> None:
    lines = engine_lines(PLAYERS[3], seed=5)
    first, later = obj(lines[1]), obj(lines[4])  # the same player's 1st and 2nd placements
    assert first["player"] == later["player"]
    later["card"] = first["card"]
    lines[4] = dump(later)
    err = read_error(b"".join(lines))
    assert err.line == 5 and "already placed their" in err.message


# -- a derived event with a wrong field --------------------------------------------------------

Mutation = Callable[[dict, int], None]


def _other_card(card: str) -> str:
    return "money-100" if card != "money-100" else "money-200"


def _other_winners(winners: list[int], n: int) -> list[int]:
    return [p for p in range(n) if p not in winners][:1] if len(winners) == 1 else winners[:1]


MUTATIONS: dict[str, tuple[str, Callable[[dict], bool], Mutation]] = {
    # field named in the error: (event type, which lines qualify, the edit)
    "awards[0].card": (
        "column_resolved",
        lambda o: bool(o["awards"]),
        lambda o, n: o["awards"][0].update(card=_other_card(o["awards"][0]["card"])),
    ),
    "awards[0].player": (
        "column_resolved",
        lambda o: bool(o["awards"]),
        lambda o, n: o["awards"][0].update(player=(o["awards"][0]["player"] + 1) % n),
    ),
    "awards[0].returned": (
        "column_resolved",
        lambda o: bool(o["awards"]),
        lambda o, n: o["awards"][0].update(returned=None if o["awards"][0]["returned"] else "car-100"),
    ),
    "awards": (
        "column_resolved",
        lambda o: bool(o["awards"]),
        lambda o, n: o["awards"].pop(),
    ),
    "totals": (
        "column_resolved",
        lambda o: True,
        lambda o, n: o["totals"].__setitem__(0, o["totals"][0] + 1),
    ),
    "cancelled": (
        "column_resolved",
        lambda o: True,
        lambda o, n: o.update(cancelled=[] if o["cancelled"] else [0]),
    ),
    "rotated": (
        "column_resolved",
        lambda o: True,
        lambda o, n: o.update(rotated=not o["rotated"]),
    ),
    "column": (
        "column_resolved",
        lambda o: True,
        lambda o, n: o.update(column=(o["column"] + 1) % 7),
    ),
    "next_first_player": (
        "round_ended",
        lambda o: True,
        lambda o, n: o.update(next_first_player=(o["next_first_player"] + 1) % n),
    ),
    "scores": (
        "game_ended",
        lambda o: True,
        lambda o, n: o["scores"].__setitem__(0, o["scores"][0] + 100_000),
    ),
    "winners": (
        "game_ended",
        lambda o: True,
        lambda o, n: o.update(winners=_other_winners(o["winners"], n)),
    ),
}


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("field", list(MUTATIONS))
def test_a_derived_event_with_a_wrong_field_names_line_and_field(field: str, players: int) -> None:
    lines = engine_lines(PLAYERS[players], seed=17, first=players - 1)
    tag, qualifies, edit = MUTATIONS[field]
    fits = [i for i, line in enumerate(lines) if kind(line) == tag and qualifies(obj(line))]
    i = fits[len(fits) // 2]
    o = obj(lines[i])
    edit(o, players)
    assert dump(o) != lines[i]
    lines[i] = dump(o)
    err = read_error(b"".join(lines), "game.dvr")
    assert err.line == i + 1
    assert f"{tag}: field {field!r} should be " in err.message
    assert str(err).startswith(f"game.dvr line {i + 1}: {tag}: field {field!r}")


def test_a_changed_decision_is_caught_by_the_derived_events_it_changes() -> None:
    """Moving round 1's first card to another column keeps the decision legal; the file's own
    ``column_resolved`` then disagrees with the rules at the first column that changed."""
    lines = engine_lines(PLAYERS[3], seed=23)
    o = obj(lines[1])
    moved_from = o["column"]
    moved_to = (moved_from + 3) % 7
    o["column"] = moved_to
    lines[1] = dump(o)
    err = read_error(b"".join(lines))
    first_changed = min(moved_from, moved_to)
    resolved = [i for i, line in enumerate(lines) if kind(line) == "column_resolved"]
    assert err.line == resolved[first_changed] + 1
    assert "column_resolved: field 'totals'" in err.message


# -- torn tails and damage ---------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(3, 31), (5, 32)])
def test_torn_tail_at_every_byte_offset(tmp_path: Path, players: int, seed: int) -> None:
    """Cut a real (stamped) file at every byte: the complete lines before the cut are recovered,
    never one less, and the cut line is reported; with no complete line there is nothing to read."""
    path = tmp_path / "game.dvr"
    write_game(path, PLAYERS[players], seed, first=1)
    data = path.read_bytes()
    full = read_game(path).events
    ends = [i + 1 for i, byte in enumerate(data) if byte == 0x0A]
    assert ends[-1] == len(data)
    for k in range(len(data) + 1):
        cut = data[:k]
        complete = bisect.bisect_right(ends, k)
        good = ends[complete - 1] if complete else 0
        if complete == 0:
            err = read_error(cut)
            if k == 0:
                assert err.line is None and "empty" in err.message
            else:
                assert err.line == 1 and "incomplete" in err.message, k
            continue
        loaded = parse_game(cut, "g.dvr")
        assert loaded.file_lines == complete, k
        assert loaded.good_bytes == good, k
        if k == good:
            assert loaded.torn is None, k
        else:
            torn = loaded.torn
            assert torn is not None, k
            assert (torn.line, torn.offset, torn.size) == (complete + 1, good, k - good), k
            assert loaded.notices[0].startswith(f"g.dvr line {complete + 1}: torn last line"), k
            lines = "line" if complete == 1 else "lines"
            assert f"recovered the {complete} complete {lines} before it" in loaded.notices[0], k
        # the complete lines are the game as written, plus at most the derived events they owe
        assert len(loaded.events) >= complete, k
        assert loaded.events == full[: len(loaded.events)], k
        # a cut file's owed derived events are recomputed and owed to a resuming writer, unless
        # the cut left no derived event at all: then it is a game script, complete as it is
        owed = [] if loaded.decisions_only else full[complete : len(loaded.events)]
        assert loaded.missing_tail == owed, k


def test_a_missing_newline_only_at_the_end_is_a_torn_tail() -> None:
    data = b"".join(engine_lines(PLAYERS[4], seed=3))
    full = parse_game(data)
    loaded = parse_game(data[:-1], "g.dvr")
    assert loaded.torn is not None and loaded.torn.reason == "no end of line"
    n = data.count(b"\n")
    assert loaded.torn.line == n and loaded.file_lines == n - 1
    assert f"line {n}: torn last line" in loaded.notices[0]
    # game_ended was on the torn line: recomputed, and owed by a writer resuming the file
    assert loaded.events == full.events
    assert [type(ev) for ev in loaded.missing_tail] == [GameEnded]


def test_a_last_line_that_does_not_parse_is_a_torn_tail() -> None:
    lines = engine_lines(PLAYERS[3], seed=3)[:20]
    loaded = parse_game(b"".join([*lines, b'{"type":"card_placed","seq":20,"rou\n']), "g.dvr")
    assert loaded.torn is not None and loaded.torn.line == 21 and "parse" in loaded.torn.reason
    assert loaded.file_lines == 20 and loaded.good_bytes == len(b"".join(lines))
    assert loaded.notices and "line 21" in loaded.notices[0]


def test_a_line_that_does_not_parse_before_the_last_is_an_error() -> None:
    lines = engine_lines(PLAYERS[3], seed=3)[:20]
    lines[10] = lines[10][:25] + b"\n"
    err = read_error(b"".join(lines))
    assert err.line == 11 and "not valid JSON" in err.message


def test_a_file_cut_between_lines_after_a_rounds_last_placement_owes_the_derived_events() -> None:
    lines = engine_lines(PLAYERS[3], seed=3)
    round_ends = [i for i, line in enumerate(lines) if kind(line) == "round_ended"]
    last_placement = round_ends[1] - 8  # round 2's: round 1's derived events are in the file
    assert kind(lines[last_placement]) == "card_placed"
    loaded = parse_game(b"".join(lines[: last_placement + 1]), "g.dvr")
    assert loaded.torn is None and not loaded.decisions_only
    assert loaded.file_lines == last_placement + 1
    assert [type(ev) for ev in loaded.missing_tail] == [ColumnResolved] * 7 + [RoundEnded]
    assert loaded.events == engine_events(PLAYERS[3], seed=3)[: last_placement + 9]
    assert loaded.game.round == 3 and not loaded.game.derived_pending
    assert loaded.notices and f"line {last_placement + 1}" in loaded.notices[0]

    # cut the same way before any derived event was written, the file is a game script
    first_end = round_ends[0] - 8
    script = parse_game(b"".join(lines[: first_end + 1]))
    assert script.decisions_only and not script.missing_tail and not script.notices
    assert script.game.round == 2


FLIP_MASKS = (0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80)


def test_a_flipped_byte_is_reported_with_its_line_or_the_file_is_still_consistent(tmp_path: Path) -> None:
    """Flip one bit at positions all over a real file (all but its last line: damage there, or a
    merge into it, is a torn tail by the format's definition). Either the reader names the
    damaged line (or, for a decision changed into another legal one, the later line where the
    rules disagree), or the changed file is itself a consistent game, as judged independently
    by replaying its decisions."""
    path = tmp_path / "game.dvr"
    write_game(path, PLAYERS[4], seed=41, first=2)
    data = path.read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == 0x0A]
    at_line = 0
    later = 0
    accepted = 0
    flips = [(p, FLIP_MASKS[p % len(FLIP_MASKS)]) for p in range(0, ends[-2] - 1, 3)]
    # and every placement's column and card turned into a neighbouring number (often still legal)
    for start, end in zip([0, *ends[:-2]], ends[:-1], strict=True):
        if data.startswith(b'{"type":"card_placed"', start):
            for key in (b'"column":', b'"card":'):
                p = data.index(key, start, end) + len(key)
                flips.append((p, 0x01))
    for p, mask in flips:
        flipped = bytearray(data)
        flipped[p] ^= mask
        flipped_data = bytes(flipped)
        line = bisect.bisect_right(ends, p) + 1  # 1-based line holding byte p
        try:
            loaded = parse_game(flipped_data, "g.dvr")
        except GameFileError as e:
            assert e.line is not None and e.line >= line, (p, str(e))
            assert str(e).startswith(f"g.dvr line {e.line}: "), (p, str(e))
            raw = flipped_data.split(b"\n")[line - 1]
            try:
                msgspec.json.decode(raw, type=AnyEvent)
            except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
                assert e.line == line, (p, str(e))  # the line itself is broken: it is the one named
            if e.line == line:
                at_line += 1
            else:
                later += 1
            continue
        accepted += 1
        assert loaded.torn is None and not loaded.missing_tail, p
        in_file = [decode(raw) for raw in lines_of(flipped_data)]
        assert loaded.events == in_file, p
        assert replay_independently(in_file) == in_file, p
    assert at_line > 1000 and later > 20 and accepted > 100  # every outcome was exercised


def test_invalid_utf8_in_a_name_is_reported_with_its_line(tmp_path: Path) -> None:
    lines = engine_lines(PLAYERS[3], seed=3)
    lines[0] = lines[0].replace(b'"Bot 2"', b'"Bot \xc3("', 1)
    err = read_error(b"".join(lines))
    assert err.line == 1 and "UTF-8" in err.message


def test_a_blank_line_in_the_middle_is_an_error() -> None:
    lines = engine_lines(PLAYERS[3], seed=3)
    err = read_error(b"".join([*lines[:5], b"\n", *lines[5:]]))
    assert err.line == 6 and "empty line" in err.message


def test_two_events_on_one_line_are_an_error_on_that_line() -> None:
    lines = engine_lines(PLAYERS[3], seed=3)
    joined = lines[6].rstrip(b"\n") + b"," + lines[7]
    err = read_error(b"".join([*lines[:6], joined, *lines[8:]]))
    assert err.line == 7 and "not valid JSON" in err.message


def test_a_joined_line_and_a_split_line_do_not_cancel_out() -> None:
    """One line holding two events and one event cut over two lines leave the count of lines
    right: each line must still be exactly one event (a decoding of the whole file as one JSON
    sequence would accept this file)."""
    lines = engine_lines(PLAYERS[3], seed=3)
    joined = lines[1].rstrip(b"\n") + b"," + lines[2]
    cut = lines[10].index(b',"column"')
    split = [lines[10][:cut] + b"\n", lines[10][cut + 1 :]]
    err = read_error(b"".join([lines[0], joined, *lines[3:10], *split, *lines[11:]]))
    assert err.line == 2 and "not valid JSON" in err.message
    name = lines[0].index(b'"Bot 2"') + 4
    cut_name = [lines[0][:name] + b"\n", lines[0][name + 1 :]]  # a line break inside a name
    err = read_error(b"".join([*cut_name, joined, *lines[3:]]))
    assert err.line == 1


def test_a_line_of_whitespace_or_a_trailing_comma_is_an_error_on_its_line() -> None:
    lines = engine_lines(PLAYERS[3], seed=3)
    err = read_error(b"".join([*lines[:3], b"   \n", *lines[3:]]))
    assert err.line == 4 and "empty line" in err.message
    err = read_error(b"".join([*lines[:3], lines[3].rstrip(b"\n") + b",\n", *lines[4:]]))
    assert err.line == 4 and "not valid JSON" in err.message


@pytest.mark.parametrize(
    ("content", "line", "words"),
    [
        (b"", None, "empty"),
        (b"\n", 1, "nothing to recover"),
        (b"[1, 2, 3]\n{}\n", 1, "not a JSON object"),
        (b"\x00\x01\x02garbage\n\xff\n", 1, "not valid JSON"),
        (b'{"type":"card_placed","round":1,"player":0,"column":0,"card":1}\n', 1, "must be game_created"),
    ],
    ids=["empty", "one-newline", "json-array", "binary", "no-game-created"],
)
def test_files_that_are_not_games(content: bytes, line: int | None, words: str) -> None:
    err = read_error(content)
    assert err.line == line and words in err.message


def test_a_text_file_is_not_valid_json_said_once_in_plain_words() -> None:
    assert read_error(b"# dvtui\n\nText\n").message == "not valid JSON (invalid character (byte 0))"


def test_read_game_on_empty_file_directory_and_missing_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.dvr"
    empty.write_bytes(b"")
    for path, words in [
        (empty, "is empty"),
        (tmp_path, "is a directory"),
        (tmp_path / "nowhere.dvr", "no such file"),
    ]:
        with pytest.raises(GameFileError) as e:
            read_game(path)
        assert e.value.line is None
        assert str(e.value) == f"{path}: {e.value.message}"
        assert words in e.value.message


# -- placement_undone --------------------------------------------------------------------------


def game_with_undos(players: str, seed: int) -> list[Event]:
    """A bot game in which placements are regularly taken back and made again (once or twice in a
    row), as a hesitant human would: its log holds ``placement_undone`` events."""
    created: GameCreated = new_game(parse_players(players), seed=seed)
    game = Game(created)
    fns = bot_players(game)
    events: list[Event] = [created]
    k = 0
    while not game.over:
        fn, s = fns[game.to_move]  # type: ignore[misc]
        placed = game.place(fn(game, s))
        events.extend(placed)
        k += 1
        if len(placed) == 1 and k % 4 == 1:
            if k % 8 == 1 and len(game.placements) >= 2:
                again = game.placements[-2:]
                events.extend([game.undo(), game.undo()])
            else:
                again = game.placements[-1:]
                events.append(game.undo())
            for ev in again:
                events.extend(game.place(Placement(ev.card, ev.column), player=ev.player))
    return events


def test_undo_round_trips_and_a_script_with_undos_completes() -> None:
    events = game_with_undos(PLAYERS[4], seed=2)
    assert sum(isinstance(ev, PlacementUndone) for ev in events) > 10
    data = file_bytes(events)
    loaded = parse_game(data)
    assert loaded.events == events and loaded.game.over
    script = [ev for ev in events if not isinstance(ev, DERIVED)]
    completed = parse_game(file_bytes(script))
    assert completed.decisions_only
    assert b"".join(encode_line(ev, i) for i, ev in enumerate(completed.events)) == data


def test_an_undo_that_does_not_name_the_latest_placement_is_named() -> None:
    events = game_with_undos(PLAYERS[3], seed=2)
    lines = lines_of(file_bytes(events))
    i = next(i for i, ev in enumerate(events) if isinstance(ev, PlacementUndone))
    o = obj(lines[i])
    o["card"] = o["card"] % 6 + 1
    lines[i] = dump(o)
    err = read_error(b"".join(lines))
    assert err.line == i + 1 and "placement_undone" in err.message and "latest placement" in err.message


def test_writer_output_reads_back_after_every_append(tmp_path: Path) -> None:
    """What a crash between two appends leaves is always a readable game (no torn tail)."""
    events = game_with_undos(PLAYERS[3], seed=9)
    path = tmp_path / "g.dvr"
    game = Game(events[0])  # type: ignore[arg-type]
    with GameWriter.create(path, events[0], stamp=True) as writer:  # type: ignore[arg-type]
        for ev in events[1:]:
            if isinstance(ev, CardPlaced):
                writer.append(game.place(Placement(ev.card, ev.column), player=ev.player))
            elif isinstance(ev, PlacementUndone):
                writer.append([game.undo()])
            else:
                continue
            loaded = read_game(path)
            assert loaded.torn is None and not loaded.missing_tail
            assert loaded.file_lines == writer.next_seq
            same_state(loaded.game, game)
    assert read_game(path).events == events
