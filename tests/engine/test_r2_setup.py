"""R2: the seeded deal as a game_created event, and the state a game starts from."""

from __future__ import annotations

import struct
from collections.abc import Callable
from random import Random

import msgspec
import pytest

from dvtui.engine import (
    DECK,
    FORMAT_VERSION,
    BadSetup,
    ColumnResolved,
    Event,
    Game,
    GameCreated,
    Phase,
    Placement,
    Seat,
    check_setup,
    deal,
    new_game,
)

from ..support.said import raises_said

MakeCreated = Callable[..., GameCreated]
MakeGame = Callable[..., Game]
Play = Callable[..., list[Event]]


def seats(n: int) -> list[Seat]:
    colours = ["red", "yellow", "green", "blue", "purple"]
    return [Seat(name=f"P{i}", kind="human", color=colours[i]) for i in range(n)]


def test_r2_1_new_game_records_the_seeded_deal() -> None:
    created = new_game(seats(4), first_player=2, seed=7)
    grid, box = deal(7)
    assert created.format == FORMAT_VERSION == 1
    assert created.grid == grid
    assert created.box == box
    assert created.seed == 7
    assert created.first_player == 2
    assert created.rounds == 4
    assert created.players == seats(4)
    check_setup(created)


def shuffled(seed: int) -> list[str]:
    """The deal as its docstring defines it, spelt out: the deck stably sorted by 32-bit keys,
    ``Random(seed).randbytes`` read little-endian."""
    keys = struct.unpack(f"<{len(DECK)}I", Random(seed).randbytes(4 * len(DECK)))
    return [DECK[i] for i in sorted(range(len(DECK)), key=lambda i: keys[i])]


@pytest.mark.parametrize("seeds", [range(3000), [-1, -(2**63), 2**63 - 1, 2**40 + 5, 999_999]], ids=["small", "far"])
def test_r2_1_the_deal_is_the_deck_stably_sorted_by_the_seeds_keys(seeds: range | list[int]) -> None:
    for seed in seeds:
        grid, box = deal(seed)
        assert [card for column in grid for card in column] + box == shuffled(seed), seed
        assert list(map(len, grid)) == [9] * 7


def test_r2_1_same_seed_same_game_created() -> None:
    a = new_game(seats(3), seed=1234)
    b = new_game(seats(3), seed=1234)
    assert msgspec.json.encode(a) == msgspec.json.encode(b)
    assert new_game(seats(3), seed=1235).grid != a.grid


def test_r2_1_game_starts_with_the_dealt_columns_and_no_owned_cards() -> None:
    created = new_game(seats(5), first_player=3, seed=11)
    game = Game(created)
    assert game.columns == created.grid
    assert game.n == 5
    assert game.round == 1
    assert game.phase == Phase.PLACEMENT
    assert not game.over
    assert not game.derived_pending
    assert game.goods == [[None] * 7 for _ in range(5)]
    assert game.money == [[] for _ in range(5)]
    assert game.scores() == [0, 0, 0, 0, 0]
    assert game.totals == [[0] * 5 for _ in range(7)]
    assert game.placements == []
    assert game.round_scores == []


def test_game_columns_are_its_own_not_the_events() -> None:
    """Playing must never rewrite the game_created event a file recorded."""
    created = new_game(seats(3), seed=3)
    before = [col[:] for col in created.grid]
    game = Game(created)
    game.columns[0].pop(0)
    game.columns[1].append("x")
    assert created.grid == before


def test_r2_2_a_column_is_read_from_the_bottom(make_game: MakeGame, play: Play) -> None:
    game = make_game(4, {2: ["horse-500", "boat-100", "jewel-700"]}, first_player=0)
    assert game.columns[2][:3] == ["horse-500", "boat-100", "jewel-700"]
    events = play(game, {0: [Placement(6, 2)], 1: [Placement(5, 2)]}, dump=4)
    col2 = next(e for e in events if isinstance(e, ColumnResolved) and e.column == 2)
    assert [(a.player, a.card) for a in col2.awards] == [(0, "horse-500"), (1, "boat-100")]
    assert game.columns[2][0] == "jewel-700"


@pytest.mark.parametrize("n", [3, 4, 5])
def test_r2_3_each_player_holds_the_six_number_cards(n: int) -> None:
    game = Game(new_game(seats(n), seed=n))
    assert game.hands == [[1, 2, 3, 4, 5, 6]] * n


def test_r2_3_two_players_cannot_share_a_colour(make_created: MakeCreated) -> None:
    created = make_created(3)
    players = [
        Seat(name="A", kind="human", color="red"),
        Seat(name="B", kind="human", color="blue"),
        Seat(name="C", kind="human", color="red"),
    ]
    with raises_said(BadSetup, r"players\[2\]\.color 'red' is already taken \(R2\.3\)"):
        check_setup(msgspec.structs.replace(created, players=players))


def test_r2_3_a_colour_must_be_one_of_the_five(make_created: MakeCreated) -> None:
    created = make_created(3)
    players = [
        Seat(name="A", kind="human", color="red"),
        Seat(name="B", kind="human", color="orange"),
        Seat(name="C", kind="human", color="green"),
    ]
    with raises_said(BadSetup, r"players\[1\]\.color must be one of red, yellow, green, blue, purple"):
        check_setup(msgspec.structs.replace(created, players=players))


def test_a_bot_seat_needs_a_level_and_a_kind_is_human_or_bot(make_created: MakeCreated) -> None:
    created = make_created(3)
    no_level = [
        Seat(name="A", kind="human", color="red"),
        Seat(name="B", kind="bot", color="blue"),
        Seat(name="C", kind="human", color="green"),
    ]
    with raises_said(BadSetup, r"players\[1\] is a bot without a level"):
        check_setup(msgspec.structs.replace(created, players=no_level))
    alien = [
        Seat(name="A", kind="alien", color="red"),
        Seat(name="B", kind="bot", color="blue", bot="greedy"),
        Seat(name="C", kind="human", color="green"),
    ]
    with raises_said(BadSetup, r"players\[0\]\.kind must be \"human\" or \"bot\""):
        check_setup(msgspec.structs.replace(created, players=alien))
    check_setup(msgspec.structs.replace(created, players=[alien[1], no_level[0], no_level[2]]))


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_r2_4_the_chosen_first_player_moves_first(first: int) -> None:
    game = Game(new_game(seats(4), first_player=first, seed=0))
    assert game.first_player == first
    assert game.to_move == first
    assert game.legal_placements()[0] == (1, 0)
    assert len(game.legal_placements()) == 6 * 7


@pytest.mark.parametrize("first", [-1, 4, 9])
def test_r2_4_first_player_must_be_a_seat(first: int, make_created: MakeCreated) -> None:
    with raises_said(BadSetup, f"first player must be a seat from 0 to 3, not {first}"):
        new_game(seats(4), first_player=first)
    created = msgspec.structs.replace(make_created(4), first_player=first)
    with raises_said(BadSetup, f"first_player must be a seat from 0 to 3, not {first}"):
        Game(created)


def test_unsupported_format_is_refused(make_created: MakeCreated) -> None:
    with raises_said(BadSetup, "format 2 is not supported"):
        Game(msgspec.structs.replace(make_created(3), format=2))
