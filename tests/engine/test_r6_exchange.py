"""R6: one good per category; the exchange puts the old good on top of the column at once."""

from __future__ import annotations

from collections.abc import Callable

from dvtui.engine import Award, ColumnResolved, Event, Game, Placement

MakeGame = Callable[..., Game]
Play = Callable[..., list[Event]]

MONEY_DUMP = ["money-100"] * 9


def resolved(events: list[Event]) -> dict[int, ColumnResolved]:
    return {e.column: e for e in events if isinstance(e, ColumnResolved)}


def test_r6_1_the_french_example_car_400_for_car_700(make_game: MakeGame, play: Play) -> None:
    """A player owns the car 400,000 and takes the car 700,000: the 400,000 goes on top."""
    col0 = ["car-400", "house-100"]
    col1 = ["car-700", "boat-100", "horse-100"]
    game = make_game(4, {0: col0, 1: col1, 6: MONEY_DUMP})
    rest_of_col1 = game.columns[1][1:]
    events = resolved(play(game, {0: [Placement(6, 0), Placement(5, 1)]}, dump=6))
    assert events[0].awards == [Award(0, "car-400", None)]
    assert events[1] == ColumnResolved(
        round=1, column=1, totals=[5, 0, 0, 0], cancelled=[], awards=[Award(0, "car-700", "car-400")], rotated=False
    )
    assert game.goods[0] == [None, "car-700", None, None, None, None, None]
    assert game.columns[1] == [*rest_of_col1, "car-400"]
    assert len(game.columns[1]) == 9
    assert game.worth[0] == 700_000 + sum(100_000 for _ in game.money[0])


def test_r6_1_exchange_for_a_lower_value_is_mandatory(make_game: MakeGame, play: Play) -> None:
    game = make_game(3, {2: ["car-700"], 4: ["car-200", "jewel-600"], 6: MONEY_DUMP})
    events = resolved(play(game, {1: [Placement(3, 2), Placement(1, 4)]}, dump=6))
    assert events[2].awards == [Award(1, "car-700", None)]
    assert events[4].awards == [Award(1, "car-200", "car-700")]
    assert game.goods[1][1] == "car-200"
    assert game.columns[4][0] == "jewel-600"
    assert game.columns[4][-1] == "car-700"
    assert game.score(1) == 200_000 + 100_000 * len(game.money[1])


def test_r6_1_the_exchange_also_happens_across_rounds(make_game: MakeGame, play: Play) -> None:
    game = make_game(3, {0: ["boat-300"], 3: ["money-200", "boat-500"], 6: MONEY_DUMP})
    play(game, {1: [Placement(1, 3)], 2: [Placement(4, 0)]}, dump=6)  # (column 3 is taken from, so it does not rotate)
    assert game.goods[2][2] == "boat-300"
    events = resolved(play(game, {2: [Placement(2, 3)]}, dump=6))
    assert events[3].awards == [Award(2, "boat-500", "boat-300")]
    assert game.goods[2][2] == "boat-500"
    assert game.columns[3][-1] == "boat-300"


def test_r6_1_other_players_of_the_column_are_not_affected(make_game: MakeGame, play: Play) -> None:
    """Only the exchanging player gives back a good; the others take the next bottom cards."""
    game = make_game(3, {0: ["watch-100"], 1: ["watch-500", "watch-300", "house-700"], 6: MONEY_DUMP})
    plan = {0: [Placement(1, 0), Placement(6, 1)], 1: [Placement(5, 1)], 2: [Placement(4, 1)]}
    events = resolved(play(game, plan, dump=6))
    assert events[1].awards == [
        Award(0, "watch-500", "watch-100"),
        Award(1, "watch-300", None),
        Award(2, "house-700", None),
    ]
    assert game.columns[1][-1] == "watch-100"
    assert [g[5] for g in game.goods] == ["watch-500", "watch-300", None]


def test_r6_2_a_lower_ranked_player_receives_the_returned_good(make_game: MakeGame, play: Play) -> None:
    """5 players, 4 cards left in column 0: the 4th takes the car 700,000 and gives back the car
    400,000, which the 5th then receives because the cards below it have run out."""
    col0 = ["money-100"] * 5 + ["money-200"] * 3 + ["car-700"]
    col6 = ["money-100"] * 4 + ["money-200"] * 5
    game = make_game(5, {0: col0, 1: ["car-400"], 6: col6})
    everyone = {p: [Placement(6 - p, 0)] for p in range(5)}
    round1 = {**everyone, 3: [Placement(3, 0), Placement(1, 1)]}
    first = resolved(play(game, round1, dump=6))
    assert first[0].awards == [Award(p, "money-100", None) for p in range(5)]
    assert first[1].awards == [Award(3, "car-400", None)]
    assert game.columns[0] == ["money-200"] * 3 + ["car-700"]
    second = resolved(play(game, everyone, dump=6))
    assert second[0] == ColumnResolved(
        round=2,
        column=0,
        totals=[6, 5, 4, 3, 2],
        cancelled=[],
        awards=[
            Award(0, "money-200", None),
            Award(1, "money-200", None),
            Award(2, "money-200", None),
            Award(3, "car-700", "car-400"),
            Award(4, "car-400", None),
        ],
        rotated=False,
    )
    assert game.goods[3][1] == "car-700"
    assert game.goods[4][1] == "car-400"
    assert game.columns[0] == []


def test_r6_2_the_returned_good_waits_on_top_while_cards_remain_below(make_game: MakeGame, play: Play) -> None:
    """The returned good goes on top: while cards remain below it, the next player takes those."""
    game = make_game(3, {0: ["horse-200"], 2: ["horse-600", "jewel-300", "boat-200"], 6: MONEY_DUMP})
    plan = {0: [Placement(1, 0), Placement(6, 2)], 1: [Placement(5, 2)], 2: [Placement(4, 2)]}
    events = resolved(play(game, plan, dump=6))
    assert events[2].awards == [
        Award(0, "horse-600", "horse-200"),
        Award(1, "jewel-300", None),
        Award(2, "boat-200", None),
    ]
    assert game.columns[2][-1] == "horse-200"
    assert len(game.columns[2]) == 7


def test_r6_3_money_is_never_exchanged(make_game: MakeGame, play: Play) -> None:
    game = make_game(4, {0: ["money-100"], 1: ["money-200"], 2: ["money-100"], 3: ["money-200"]})
    columns_after_take = [game.columns[c][1:] for c in range(4)]
    events = resolved(play(game, {1: [Placement(1, 0), Placement(2, 1), Placement(3, 2), Placement(4, 3)]}, dump=6))
    for c, card in enumerate(["money-100", "money-200", "money-100", "money-200"]):
        assert events[c].awards == [Award(1, card, None)]
        assert game.columns[c] == columns_after_take[c]
    assert game.money[1][:4] == ["money-100", "money-200", "money-100", "money-200"]
    assert game.goods[1][:6] == [None] * 6


def test_r6_no_player_ever_owns_two_goods_of_a_category(make_game: MakeGame, play: Play) -> None:
    houses = ["house-100", "house-200", "house-300", "house-400", "house-500", "house-600", "house-700"]
    game = make_game(3, {c: [h] for c, h in enumerate(houses)})
    events = resolved(play(game, {0: [Placement(c + 1, c) for c in range(5)]}, dump=6))
    assert [events[c].awards for c in range(5)] == [
        [Award(0, "house-100", None)],
        [Award(0, "house-200", "house-100")],
        [Award(0, "house-300", "house-200")],
        [Award(0, "house-400", "house-300")],
        [Award(0, "house-500", "house-400")],
    ]
    assert game.goods[0][0] == "house-500"
    owned = [card for card in game.owned_cards(0) if card.startswith("house")]
    assert owned == ["house-500"]
