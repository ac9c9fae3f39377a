"""R1: the 66 goods and money cards, the 30 number cards, and check_setup's view of a deal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dvtui.engine import (
    CATEGORIES,
    CATEGORY_OF,
    COLORS,
    DECK,
    GOODS,
    NUMBER_CARDS,
    VALUE_OF,
    BadSetup,
    Game,
    GameCreated,
    Seat,
    category,
    check_setup,
    deal,
    is_good,
    is_money,
    new_game,
    value,
)

from ..support.said import raises_said

MakeCreated = Callable[..., GameCreated]


def test_r1_1_forty_nine_goods_seven_categories_of_seven_values() -> None:
    assert CATEGORIES == ("house", "car", "boat", "horse", "jewel", "watch", "holiday")
    assert len(GOODS) == 49
    assert len(set(GOODS)) == 49
    per_category = Counter(category(g) for g in GOODS)
    assert per_category == dict.fromkeys(CATEGORIES, 7)
    for cat in CATEGORIES:
        assert sorted(value(g) for g in GOODS if category(g) == cat) == [
            100_000,
            200_000,
            300_000,
            400_000,
            500_000,
            600_000,
            700_000,
        ]


def test_r1_2_seventeen_money_cards_nine_of_100k_and_eight_of_200k() -> None:
    money = [card for card in DECK if is_money(card)]
    assert len(money) == 17
    assert Counter(money) == {"money-100": 9, "money-200": 8}
    assert len(DECK) == 66
    assert Counter(DECK) - Counter(money) == Counter(GOODS)


def test_r1_3_thirty_number_cards_in_five_colours() -> None:
    assert COLORS == ("red", "yellow", "green", "blue", "purple")
    assert NUMBER_CARDS == (1, 2, 3, 4, 5, 6)
    assert len(COLORS) * len(NUMBER_CARDS) == 30


@pytest.mark.parametrize(
    ("card", "cat", "worth", "good"),
    [
        ("car-400", "car", 400_000, True),
        ("house-100", "house", 100_000, True),
        ("holiday-700", "holiday", 700_000, True),
        ("jewel-200", "jewel", 200_000, True),
        ("money-100", None, 100_000, False),
        ("money-200", None, 200_000, False),
    ],
)
def test_r1_card_values_and_categories(card: str, cat: str | None, worth: int, good: bool) -> None:
    assert category(card) == cat
    assert value(card) == worth
    assert VALUE_OF[card] == worth
    assert is_good(card) is good
    assert is_money(card) is not good
    if good:
        assert CATEGORIES[CATEGORY_OF[card]] == cat
    else:
        assert card not in CATEGORY_OF


def test_a_dealt_card_is_the_tables_own_key() -> None:
    """A dealt card is the very string VALUE_OF and CATEGORY_OF are keyed by (and a file's card, as
    msgspec reads it from the Card literal), so the engine's look-ups find it by identity."""
    keys = {id(card) for card in VALUE_OF}
    grid, box = deal(7)
    assert all(id(card) in keys for card in [*DECK, *box, *(card for col in grid for card in col)])
    assert [id(card) for card in CATEGORY_OF] == [id(card) for card in GOODS]


def test_unknown_card_has_no_value() -> None:
    assert category("yacht-900") is None
    assert not is_good("yacht-900")
    assert not is_money("money-300")
    with pytest.raises(KeyError):
        value("car-800")


def test_r2_1_deal_is_deterministic_for_a_seed() -> None:
    assert deal(42) == deal(42)
    assert deal(0) == deal(0)
    assert deal(1) != deal(2)


@pytest.mark.parametrize("seed", [0, 1, 42, 2**31 - 1, 123456789])
def test_r2_1_deal_is_a_permutation_of_the_deck(seed: int) -> None:
    grid, box = deal(seed)
    assert len(grid) == 7
    assert all(len(col) == 9 for col in grid)
    assert len(box) == 3
    cards = [card for col in grid for card in col] + box
    assert sorted(cards) == sorted(DECK)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(-(2**70), 2**70))
def test_r2_1_every_seed_deals_a_legal_grid(seed: int) -> None:
    """Games made by new_game may skip check_setup, so every seed's deal must pass it."""
    grid, box = deal(seed)
    assert Counter(card for col in grid for card in col) + Counter(box) == Counter(DECK)
    assert [len(col) for col in grid] == [9] * 7
    seats = [
        Seat(name="A", kind="human", color="red"),
        Seat(name="B", kind="human", color="yellow"),
        Seat(name="C", kind="human", color="green"),
    ]
    check_setup(new_game(seats, seed=seed))


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(-(2**70), 2**70))
def test_r2_1_deal_is_the_deck_stably_sorted_by_its_seeded_keys(seed: int) -> None:
    """The deal's definition, written plainly: card i of DECK gets the i-th little-endian 32-bit
    key of ``Random(seed).randbytes``, and the deck is stably sorted by key. ``deal`` computes it
    another way (a float sort); they must agree for every seed, or seeds would change meaning."""
    import random

    raw = random.Random(seed).randbytes(4 * len(DECK))
    keys = [int.from_bytes(raw[4 * i : 4 * i + 4], "little") for i in range(len(DECK))]
    cards = [DECK[i] for i in sorted(range(len(DECK)), key=lambda i: keys[i])]
    grid, box = deal(seed)
    assert grid == [cards[9 * c : 9 * c + 9] for c in range(7)]
    assert box == cards[63:]


def test_deal_does_not_touch_the_global_random() -> None:
    import random

    random.seed(5)
    expected = random.random()
    random.seed(5)
    deal(99)
    assert random.random() == expected


def _replace(created: GameCreated, **changes: object) -> GameCreated:
    return msgspec.structs.replace(created, **changes)


def test_check_setup_accepts_a_dealt_game(make_created: MakeCreated) -> None:
    check_setup(make_created(4))


def test_check_setup_refuses_a_grid_of_six_columns(make_created: MakeCreated) -> None:
    created = make_created(4)
    bad = _replace(created, grid=created.grid[:6], box=created.box + created.grid[6])
    with raises_said(BadSetup, r"grid must be 7 columns of 9 cards \(R2\.1\)"):
        check_setup(bad)


def test_check_setup_refuses_a_short_column(make_created: MakeCreated) -> None:
    created = make_created(4)
    grid = [col[:] for col in created.grid]
    moved = grid[2].pop()
    bad = _replace(created, grid=grid, box=[*created.box, moved])
    with raises_said(BadSetup, "grid must be 7 columns of 9 cards"):
        check_setup(bad)


def test_check_setup_refuses_a_box_of_the_wrong_size(make_created: MakeCreated) -> None:
    created = make_created(4)
    with raises_said(BadSetup, r"box must hold 3 cards \(R2\.1\), not 2"):
        check_setup(_replace(created, box=created.box[:2]))


def test_check_setup_refuses_a_duplicate_good(make_created: MakeCreated) -> None:
    # a money card replaced by a second car-400: still 66 cards, but one good twice
    created = make_created(4, {0: ["car-400"], 1: ["money-100"]})
    grid = [col[:] for col in created.grid]
    grid[1][0] = "car-400"
    with raises_said(BadSetup, r"card 'car-400' is dealt twice \(R1\.1"):
        check_setup(_replace(created, grid=grid))


@pytest.mark.parametrize("unknown", ["car-800", "yacht-100", "money-300", ""])
def test_check_setup_refuses_an_unknown_card(make_created: MakeCreated, unknown: str) -> None:
    created = make_created(4, {3: ["money-200"]})
    grid = [col[:] for col in created.grid]
    grid[3][0] = unknown
    with raises_said(BadSetup, f"unknown card '{unknown}'"):
        check_setup(_replace(created, grid=grid))


def test_check_setup_refuses_eighteen_money_cards(make_created: MakeCreated) -> None:
    # one good replaced by money: 18 money cards and 48 goods
    created = make_created(4, {5: ["boat-300"]})
    grid = [col[:] for col in created.grid]
    grid[5][0] = "money-100"
    with raises_said(BadSetup, r"all 49 goods and 17 money cards \(R1\), it holds 48 goods and 18 money"):
        check_setup(_replace(created, grid=grid))


def test_check_setup_refuses_sixteen_money_cards(make_created: MakeCreated) -> None:
    # one money card replaced by a good already dealt: 16 money cards
    created = make_created(4, {0: ["money-200", "horse-700"]})
    grid = [col[:] for col in created.grid]
    grid[0][0] = "horse-700"
    with raises_said(BadSetup, "'horse-700' is dealt twice"):
        check_setup(_replace(created, grid=grid))


@pytest.mark.parametrize(("hundreds", "two_hundreds"), [(17, 0), (0, 17), (5, 12), (12, 5)])
def test_r1_2_another_money_split_is_accepted(make_created: MakeCreated, hundreds: int, two_hundreds: int) -> None:
    """A reader never assumes the 9/8 split: a file from another tool may deal any 17."""
    created = make_created(4)
    money = ["money-100"] * hundreds + ["money-200"] * two_hundreds
    cards = [card for col in created.grid for card in col] + created.box
    it = iter(money)
    cards = [next(it) if is_money(card) else card for card in cards]
    grid = [cards[c * 9 : (c + 1) * 9] for c in range(7)]
    other = _replace(created, grid=grid, box=cards[63:])
    check_setup(other)
    game = Game(other)
    assert Counter(card for col in game.columns for card in col if is_money(card)) + Counter(
        card for card in other.box if is_money(card)
    ) == Counter(money)


def test_deal_is_pinned_so_a_seed_means_the_same_game_everywhere() -> None:
    """R2.1 and the determinism promise: a seed's deal never changes (files name seeds)."""
    grid, box = deal(42)
    assert grid[0] == [
        "watch-400",
        "house-300",
        "horse-400",
        "boat-500",
        "boat-400",
        "money-200",
        "boat-100",
        "money-100",
        "boat-600",
    ]
    assert box == ["watch-300", "car-600", "holiday-700"]
    grid, box = deal(0)
    assert grid[6] == [
        "boat-600",
        "holiday-300",
        "watch-400",
        "boat-700",
        "jewel-500",
        "money-100",
        "car-500",
        "car-100",
        "money-200",
    ]
    assert box == ["boat-200", "jewel-700", "jewel-400"]
