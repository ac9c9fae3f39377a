"""One event, one line: the writer's canonical form and the reader's lax-but-strict decoding
(REPLAY_FORMAT.md, "Encoding" and "Events")."""

from __future__ import annotations

import json

import msgspec
import pytest

from dvtui.engine import (
    Award,
    CardPlaced,
    ColumnResolved,
    Event,
    Game,
    GameCreated,
    GameEnded,
    Placement,
    PlacementUndone,
    RoundEnded,
    Seat,
    new_game,
)
from dvtui.store import GameFileError, encode_line, parse_game
from dvtui.store.codec import line_decoder

from ..support.files import PLAYERS, dump, engine_events, engine_lines, file_bytes, lines_of, obj

SPEC_FIELDS: dict[str, list[str]] = {
    "game_created": ["format", "players", "first_player", "rounds", "grid", "box", "seed"],
    "card_placed": ["round", "player", "column", "card"],
    "placement_undone": ["round", "player", "column", "card"],
    "column_resolved": ["round", "column", "totals", "cancelled", "awards", "rotated"],
    "round_ended": ["round", "next_first_player"],
    "game_ended": ["scores", "winners"],
}
"""Each type's fields in the order of the spec's tables."""


def keys(line: bytes) -> list[str]:
    """The line's top-level keys in the order they are written."""
    return [k for k, _ in json.loads(line, object_pairs_hook=list)]


def every_event_type() -> list[Event]:
    """A real 3-player game's events plus an undo: every type of format 1, ``seq`` cleared."""
    events = engine_events(PLAYERS[3], seed=7)
    game = Game(events[0])  # type: ignore[arg-type]
    game.place(Placement(5, 2))
    undone = game.undo()
    assert {ev.__struct_config__.tag for ev in [*events, undone]} == set(SPEC_FIELDS)
    return [*events, undone]


EVENTS = every_event_type()


@pytest.mark.parametrize("event", EVENTS[:20] + EVENTS[-12:], ids=lambda e: e.__struct_config__.tag)
def test_encode_line_is_one_line_type_then_seq_then_spec_fields(event: Event) -> None:
    line = encode_line(event, 41)
    tag = event.__struct_config__.tag
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert keys(line) == ["type", "seq", *SPEC_FIELDS[tag]]
    assert json.loads(line)["type"] == tag
    assert json.loads(line)["seq"] == 41
    assert b" " not in line.replace(b"Bot ", b"")  # compact JSON: no padding anywhere


def test_at_stamp_is_the_last_key_and_only_when_given() -> None:
    event = CardPlaced(round=2, player=1, column=6, card=3)
    stamped = encode_line(event, 9, "2026-11-21T19:40:02.123Z")
    assert keys(stamped) == ["type", "seq", "round", "player", "column", "card", "at"]
    assert json.loads(stamped)["at"] == "2026-11-21T19:40:02.123Z"
    assert stamped.endswith(b"}\n") and stamped.count(b"\n") == 1
    assert "at" not in keys(encode_line(event, 9))
    assert encode_line(event, 9) == b'{"type":"card_placed","seq":9,"round":2,"player":1,"column":6,"card":3}\n'


def test_seq_comes_from_the_file_position_not_the_event() -> None:
    event = RoundEnded(round=3, next_first_player=1, seq=77)
    assert json.loads(encode_line(event, 4))["seq"] == 4


def test_column_resolved_writes_every_field_even_when_empty_or_false() -> None:
    """``cancelled: []``, ``returned: null`` and ``rotated: false`` are written out, in order."""
    event = ColumnResolved(
        round=1,
        column=0,
        totals=[3, 3, 4],
        cancelled=[0, 1],
        awards=[Award(player=2, card="jewel-200", returned=None)],
        rotated=False,
    )
    # the spec's own example line, byte for byte
    assert encode_line(event, 16) == (
        b'{"type":"column_resolved","seq":16,"round":1,"column":0,"totals":[3,3,4],"cancelled":[0,1],'
        b'"awards":[{"player":2,"card":"jewel-200","returned":null}],"rotated":false}\n'
    )
    rotated = ColumnResolved(round=2, column=5, totals=[0, 0, 0], cancelled=[], awards=[], rotated=True)
    o = json.loads(encode_line(rotated, 0))
    assert (o["cancelled"], o["awards"], o["rotated"]) == ([], [], True)


def test_awards_are_player_card_returned_in_order() -> None:
    resolved = [ev for ev in EVENTS if isinstance(ev, ColumnResolved) and ev.awards]
    assert resolved
    for ev in resolved:
        for award in json.loads(encode_line(ev, 0), object_pairs_hook=list)[6][1]:
            assert [k for k, _ in award] == ["player", "card", "returned"]


def test_game_created_players_carry_bot_level_only_for_bots() -> None:
    seats = [
        Seat(name="Zoë", kind="human", color="red"),
        Seat(name="Bot 1", kind="bot", color="yellow", bot="greedy"),
        Seat(name="Bot 2", kind="bot", color="green", bot="random"),
    ]
    line = encode_line(new_game(seats, first_player=2, seed=42), 0)
    o = json.loads(line)
    assert keys(line) == ["type", "seq", *SPEC_FIELDS["game_created"]]
    assert o["format"] == 1 and o["first_player"] == 2 and o["rounds"] == 6 and o["seed"] == 42
    assert o["players"][0] == {"name": "Zoë", "kind": "human", "color": "red"}
    assert o["players"][1] == {"name": "Bot 1", "kind": "bot", "bot": "greedy", "color": "yellow"}
    assert [list(p)[:2] for p in o["players"]] == [["name", "kind"]] * 3
    assert len(o["grid"]) == 7 and all(len(col) == 9 for col in o["grid"]) and len(o["box"]) == 3
    assert "Zoë".encode() in line  # UTF-8 as is, not \u escapes


def test_game_created_without_seed_omits_it() -> None:
    created = new_game(
        [Seat(name=f"P{i}", kind="human", color=c) for i, c in enumerate(("red", "yellow", "green"))], seed=1
    )
    created.seed = None
    assert keys(encode_line(created, 0)) == ["type", "seq", *SPEC_FIELDS["game_created"][:-1]]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: e.__struct_config__.tag)
def test_every_event_type_decodes_back_to_itself(event: Event) -> None:
    decoded = line_decoder.decode(encode_line(event, 12, "2026-01-01T00:00:00.000Z"))
    assert type(decoded) is type(event)
    assert decoded.seq == 12
    decoded.seq = None
    assert decoded == event


def test_decoding_ignores_key_order() -> None:
    line = b'{"card":4,"seq":3,"column":0,"player":2,"round":1,"type":"card_placed"}'
    assert line_decoder.decode(line) == CardPlaced(round=1, player=2, column=0, card=4, seq=3)


def test_unknown_keys_are_ignored_at_every_level() -> None:
    """Writers may annotate (format spec): extra keys on events, seats and awards are skipped."""
    created = EVENTS[0]
    assert isinstance(created, GameCreated)
    o = obj(encode_line(created, 0))
    o["comment"] = {"by": "a tool", "tags": [1, None, "x"]}
    o["players"][0]["avatar"] = "cat"  # type: ignore[index]
    decoded = line_decoder.decode(dump(o))
    decoded.seq = None
    assert decoded == created

    resolved = next(ev for ev in EVENTS if isinstance(ev, ColumnResolved) and ev.awards)
    o = obj(encode_line(resolved, 5))
    o["awards"][0]["why"] = "highest total"  # type: ignore[index]
    o["note"] = "good column"
    decoded = line_decoder.decode(dump(o))
    decoded.seq = None
    assert decoded == resolved


def test_annotated_file_reads_like_the_plain_one() -> None:
    plain = engine_lines(PLAYERS[3], seed=7)
    annotated = []
    for i, line in enumerate(plain):
        o = obj(line)
        o["comment"] = f"line {i + 1}"
        o["at"] = "2026-11-21T19:40:02.123Z"
        annotated.append(dump(o))
    a = parse_game(b"".join(plain))
    b = parse_game(b"".join(annotated))
    assert a.events == b.events
    assert b.torn is None and not b.notices


def test_unknown_type_is_an_error_naming_the_line() -> None:
    with pytest.raises(msgspec.ValidationError):
        line_decoder.decode(b'{"type":"card_burned","seq":3}')
    lines = engine_lines(PLAYERS[3], seed=7)
    lines[4] = b'{"type":"card_burned","seq":4,"round":1,"player":1,"column":0,"card":2}\n'
    with pytest.raises(GameFileError) as e:
        parse_game(b"".join(lines), "g.dvr")
    assert e.value.line == 5
    assert str(e.value).startswith("g.dvr line 5: ")
    assert "unknown event type 'card_burned'" in str(e.value)


def test_line_without_type_is_an_error() -> None:
    lines = engine_lines(PLAYERS[3], seed=7)
    o = obj(lines[3])
    del o["type"]
    lines[3] = dump(o)
    with pytest.raises(GameFileError) as e:
        parse_game(b"".join(lines), "g.dvr")
    assert e.value.line == 4 and '"type"' in e.value.message


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda o: o.pop("card"), ["card_placed", "card"]),
        (lambda o: o.update(card="6"), ["card_placed", "$.card"]),
        (lambda o: o.update(card=True), ["card_placed", "$.card"]),
        (lambda o: o.update(column=1.5), ["card_placed", "$.column"]),
    ],
    ids=["missing-field", "string-for-int", "bool-for-int", "float-for-int"],
)
def test_a_field_of_the_wrong_shape_is_named(edit: object, words: list[str]) -> None:
    lines = engine_lines(PLAYERS[3], seed=7)
    o = obj(lines[2])
    assert o["type"] == "card_placed"
    edit(o)  # type: ignore[operator]
    lines[2] = dump(o)
    with pytest.raises(GameFileError) as e:
        parse_game(b"".join(lines), "g.dvr")
    assert e.value.line == 3
    for word in words:
        assert word in e.value.message


def test_seq_is_checked_when_present() -> None:
    lines = engine_lines(PLAYERS[3], seed=7)
    o = obj(lines[9])
    o["seq"] = 10
    lines[9] = dump(o)
    with pytest.raises(GameFileError) as e:
        parse_game(b"".join(lines), "g.dvr")
    assert e.value.line == 10
    assert "seq is 10, expected 9" in str(e.value)


def test_the_first_damaged_line_is_reported_whether_seq_or_rules() -> None:
    """seq is checked for the whole file before the fold, but damage is still reported in file
    order: a rule broken on line 5 comes before a wrong seq on line 30, and the other way round."""
    lines = engine_lines(PLAYERS[3], seed=7)
    late_seq = obj(lines[29])
    late_seq["seq"] = 99
    early_rule = obj(lines[4])
    assert early_rule["type"] == "card_placed"
    early_rule["player"] = (early_rule["player"] + 1) % 3  # not this player's turn
    both = [*lines[:4], dump(early_rule), *lines[5:29], dump(late_seq), *lines[30:]]
    with pytest.raises(GameFileError) as e:
        parse_game(b"".join(both), "g.dvr")
    assert e.value.line == 5 and "turn" in e.value.message
    early_seq = obj(lines[4])
    early_seq["seq"] = 99
    late_round = obj(lines[29])
    late_round["round"] = 9
    both = [*lines[:4], dump(early_seq), *lines[5:29], dump(late_round), *lines[30:]]
    with pytest.raises(GameFileError) as e:
        parse_game(b"".join(both), "g.dvr")
    assert e.value.line == 5 and "seq is 99, expected 4" in e.value.message


def test_a_wrong_derived_event_is_named_though_rounds_are_compared_whole() -> None:
    """The reader compares a round's derived events with the engine's in one go; a difference
    must still be named at its own line and field."""
    lines = engine_lines(PLAYERS[3], seed=7)
    for i, line in enumerate(lines):
        if obj(line)["type"] == "round_ended":
            o = obj(line)
            o["next_first_player"] = (o["next_first_player"] + 1) % 3
            lines[i] = dump(o)
            break
    with pytest.raises(GameFileError) as e:
        parse_game(b"".join(lines), "g.dvr")
    assert e.value.line == i + 1 and "next_first_player" in e.value.message


def test_seq_may_be_left_out_on_any_line() -> None:
    lines = engine_lines(PLAYERS[3], seed=7)
    none = []
    some = []
    for i, line in enumerate(lines):
        o = obj(line)
        del o["seq"]
        none.append(dump(o))
        some.append(dump(o) if i % 3 else line)
    full = parse_game(b"".join(lines))
    assert parse_game(b"".join(none)).events == full.events
    assert parse_game(b"".join(some)).events == full.events


def test_file_bytes_of_a_game_are_the_engine_lines() -> None:
    """The support module's two ways of writing a game agree (guards the other tests)."""
    assert file_bytes(engine_events(PLAYERS[4], seed=3)) == b"".join(engine_lines(PLAYERS[4], seed=3))
    assert lines_of(b"a\nb\n") == [b"a\n", b"b\n"]


def test_game_ended_and_placement_undone_lines() -> None:
    assert encode_line(GameEnded(scores=[2300000, 1900000, 2300000], winners=[0, 2]), 139) == (
        b'{"type":"game_ended","seq":139,"scores":[2300000,1900000,2300000],"winners":[0,2]}\n'
    )
    assert encode_line(PlacementUndone(round=1, player=0, column=3, card=6), 2) == (
        b'{"type":"placement_undone","seq":2,"round":1,"player":0,"column":3,"card":6}\n'
    )


def test_stand_in_is_an_optional_key_of_card_placed_read_back_and_shaped_like_a_level() -> None:
    """A bot standing in for an absent human is noted on its placement, after the spec's fields;
    without it the line is the format's plain one, and a reader refuses anything not level-shaped
    (the note is shown by the replay, so it is outside text)."""
    plain = encode_line(CardPlaced(round=1, player=0, column=3, card=6), 1)
    noted = encode_line(CardPlaced(round=1, player=0, column=3, card=6, stand_in="strong@0.5s"), 1)
    assert keys(plain) == ["type", "seq", *SPEC_FIELDS["card_placed"]]
    assert keys(noted) == ["type", "seq", *SPEC_FIELDS["card_placed"], "stand_in"]
    decoded = line_decoder.decode(noted)
    assert isinstance(decoded, CardPlaced) and decoded.stand_in == "strong@0.5s"
    for bad in ("\x1b[2J", "x" * 40, "", "Greedy"):
        with pytest.raises(msgspec.ValidationError):
            line_decoder.decode(noted.replace(b'"strong@0.5s"', json.dumps(bad).encode()))
