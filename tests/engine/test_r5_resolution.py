"""R5: totals, ties that cancel, ranking, empty columns and the rotation of untouched columns."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dvtui.engine import Award, ColumnResolved, Event, Game, Placement, rank

MakeGame = Callable[..., Game]
Play = Callable[..., list[Event]]

# seven goods of seven categories then two money cards: no award from it can force an exchange
MIXED = ["house-100", "car-200", "boat-300", "horse-400", "jewel-500", "watch-600", "holiday-700"]
MIXED_COLUMN = [*MIXED, "money-100", "money-200"]
MONEY_COLUMN = ["money-100"] * 5 + ["money-200"] * 4


def resolved(events: list[Event]) -> dict[int, ColumnResolved]:
    return {e.column: e for e in events if isinstance(e, ColumnResolved)}


def plan_totals(column: int, totals: list[list[int]]) -> dict[int, list[Placement]]:
    """Each player's cards under ``column`` (an empty list: no card there)."""
    return {p: [Placement(card, column) for card in cards] for p, cards in enumerate(totals)}


def test_r5_1_a_total_is_the_sum_of_a_players_cards(make_game: MakeGame, play: Play) -> None:
    game = make_game(4, {1: MIXED_COLUMN})
    plan = plan_totals(1, [[2, 5], [6], [1, 3, 4], []])
    events = play(game, plan, dump=6)
    col1 = resolved(events)[1]
    assert col1.totals == [7, 6, 8, 0]
    assert col1.cancelled == []
    # 8 > 7 > 6; player 3 placed nothing there and takes no part (R5.1)
    assert col1.awards == [
        Award(2, "house-100", None),
        Award(0, "car-200", None),
        Award(1, "boat-300", None),
    ]
    assert game.columns[1][:2] == ["horse-400", "jewel-500"]


def test_totals_are_visible_during_placement(make_game: MakeGame) -> None:
    game = make_game(3)
    game.place(Placement(4, 2))
    game.place(Placement(1, 2))
    game.place(Placement(6, 5))
    game.place(Placement(6, 2))
    assert game.totals[2] == [10, 1, 0]
    assert game.totals[5] == [0, 0, 6]


@pytest.mark.parametrize(
    ("cards", "cancelled", "winners"),
    [
        # a 2-way tie among three participants
        ([[3], [1, 2], [5], []], [0, 1], [2]),
        # a 3-way tie: only the fourth player takes a card
        ([[4], [1, 3], [4], [2]], [0, 1, 2], [3]),
        # a tie at the top: the next total takes the BOTTOM card, not the third one
        ([[5], [2, 3], [3], [1]], [0, 1], [2, 3]),
        # a tie at the bottom
        ([[6], [4], [1], [1]], [2, 3], [0, 1]),
        # a tie in the middle
        ([[6], [2], [6, 1], [2]], [1, 3], [2, 0]),
        # everyone ties
        ([[3], [3], [1, 2], [2, 1]], [0, 1, 2, 3], []),
    ],
)
def test_r5_2_ties_cancel_at_any_rank_and_take_no_position(
    cards: list[list[int]], cancelled: list[int], winners: list[int], make_game: MakeGame, play: Play
) -> None:
    game = make_game(4, {2: MIXED_COLUMN})
    col2 = resolved(play(game, plan_totals(2, cards), dump=6))[2]
    assert col2.totals == [sum(c) for c in cards]
    assert col2.cancelled == cancelled
    assert col2.awards == [Award(p, MIXED_COLUMN[i], None) for i, p in enumerate(winners)]
    assert col2.rotated is False
    assert game.columns[2] == MIXED_COLUMN[len(winners) :]


@settings(max_examples=500, deadline=None)
@given(totals=st.integers(3, 5).flatmap(lambda n: st.lists(st.integers(0, 21), min_size=n, max_size=n)))
def test_r5_ranking_is_the_rule_as_written(totals: list[int]) -> None:
    """The engine's ranking of one column against R5.1-R5.3 spelled out naively: players with a
    total take part; a total shared by two or more cancels them all; the rest by total, highest
    first. Asked twice: computed, then from the memo."""
    taking_part = [p for p in range(len(totals)) if totals[p] > 0]
    cancelled = [p for p in taking_part if sum(1 for q in taking_part if totals[q] == totals[p]) > 1]
    ranked = sorted((p for p in taking_part if p not in cancelled), key=lambda p: totals[p], reverse=True)
    assert rank(totals) == (tuple(ranked), tuple(cancelled))
    assert rank(totals) == (tuple(ranked), tuple(cancelled))


def test_r5_2_two_separate_pairs_cancel(make_game: MakeGame, play: Play) -> None:
    game = make_game(5, {3: MIXED_COLUMN})
    cards = [[6], [2, 4], [2], [2], [3]]  # totals 6, 6, 2, 2, 3
    col3 = resolved(play(game, plan_totals(3, cards), dump=6))[3]
    assert col3.totals == [6, 6, 2, 2, 3]
    assert col3.cancelled == [0, 1, 2, 3]
    assert col3.awards == [Award(4, "house-100", None)]


def test_r5_2_a_pair_and_a_triple_leave_the_rest_ranked(make_game: MakeGame, play: Play) -> None:
    game = make_game(5, {0: MONEY_COLUMN})
    cards = [[5], [2, 3], [4], [1, 3], [1]]  # 5, 5, 4, 4, 1
    col0 = resolved(play(game, plan_totals(0, cards), dump=6))[0]
    assert col0.totals == [5, 5, 4, 4, 1]
    assert col0.cancelled == [0, 1, 2, 3]
    assert col0.awards == [Award(4, "money-100", None)]
    game = make_game(5, {0: MONEY_COLUMN})
    cards = [[6], [6], [6], [1, 2], [4]]  # a triple at the top: 3 and 4 rank as first and second
    col0 = resolved(play(game, plan_totals(0, cards), dump=6))[0]
    assert col0.cancelled == [0, 1, 2]
    assert col0.awards == [Award(4, "money-100", None), Award(3, "money-100", None)]


def test_r5_3_highest_total_takes_the_bottom_card_first(make_game: MakeGame, play: Play) -> None:
    game = make_game(5, {4: MIXED_COLUMN}, first_player=3)
    cards = [[1], [6, 5], [3], [2, 1], [4, 6, 5]]  # 1, 11, 3, 3, 15 -> 2 and 3 cancel
    col4 = resolved(play(game, plan_totals(4, cards), dump=6))[4]
    assert col4.totals == [1, 11, 3, 3, 15]
    assert col4.cancelled == [2, 3]
    assert col4.awards == [
        Award(4, "house-100", None),
        Award(1, "car-200", None),
        Award(0, "boat-300", None),
    ]
    assert game.goods[4][0] == "house-100"
    assert game.goods[1][1] == "car-200"
    assert game.goods[0][2] == "boat-300"
    assert game.columns[4][0] == "horse-400"


def test_r5_3_order_of_placement_does_not_matter(make_game: MakeGame, play: Play) -> None:
    """A player who placed first but totals less still ranks lower."""
    game = make_game(3, {0: MIXED_COLUMN})
    col0 = resolved(play(game, {0: [Placement(1, 0)], 1: [Placement(2, 0)], 2: [Placement(3, 0)]}, dump=6))[0]
    assert [a.player for a in col0.awards] == [2, 1, 0]


def emptied_column_game(make_game: MakeGame, play: Play) -> tuple[Game, list[ColumnResolved]]:
    """5 players: column 0 holds 9 money cards; round 1 takes 5, round 2 has 4 left for 5 players."""
    game = make_game(5, {0: MONEY_COLUMN, 6: MIXED_COLUMN})
    everyone = {p: [Placement(6 - p, 0)] for p in range(5)}
    first = resolved(play(game, everyone, dump=6))[0]
    second = resolved(play(game, everyone, dump=6))[0]
    return game, [first, second]


def test_r5_4_a_player_whose_turn_finds_the_column_empty_gets_nothing(make_game: MakeGame, play: Play) -> None:
    game, (first, second) = emptied_column_game(make_game, play)
    assert first.awards == [Award(p, "money-100", None) for p in range(5)]
    assert second.totals == [6, 5, 4, 3, 2]
    assert second.cancelled == []
    assert second.awards == [Award(p, "money-200", None) for p in range(4)]
    assert game.columns[0] == []
    # column 0 resolves first each round, so its money is the first each player received
    assert [m[:1] for m in game.money] == [["money-100"]] * 5
    assert [game.money[p][1] for p in range(4)] == ["money-200"] * 4


def test_r5_5_an_untouched_column_moves_its_bottom_card_to_the_top(make_game: MakeGame, play: Play) -> None:
    game = make_game(4, {1: MIXED_COLUMN})
    col1 = resolved(play(game, dump=6))[1]
    assert col1 == ColumnResolved(round=1, column=1, totals=[0, 0, 0, 0], cancelled=[], awards=[], rotated=True)
    assert game.columns[1] == [*MIXED_COLUMN[1:], MIXED_COLUMN[0]]
    resolved(play(game, dump=6))
    assert game.columns[1] == [*MIXED_COLUMN[2:], *MIXED_COLUMN[:2]]


def test_r5_5_every_untouched_column_rotates(make_game: MakeGame, play: Play) -> None:
    game = make_game(3)
    grid = [col[:] for col in game.columns]
    events = resolved(play(game, dump=3))
    assert [c for c, e in events.items() if e.rotated] == [0, 1, 2, 4, 5, 6]
    for c in (0, 1, 2, 4, 5, 6):
        assert game.columns[c] == grid[c][1:] + grid[c][:1]


def test_r5_5_no_rotation_when_every_participant_was_cancelled(make_game: MakeGame, play: Play) -> None:
    game = make_game(4, {5: MIXED_COLUMN})
    col5 = resolved(play(game, plan_totals(5, [[3], [1, 2], [], []]), dump=6))[5]
    assert col5 == ColumnResolved(round=1, column=5, totals=[3, 3, 0, 0], cancelled=[0, 1], awards=[], rotated=False)
    assert game.columns[5] == MIXED_COLUMN


def test_r5_5_a_one_card_column_rotates_onto_itself(make_game: MakeGame, play: Play) -> None:
    # column 1 loses 5 cards in round 1 and 3 in round 2; the dump column holds money only,
    # so nobody owns a good of column 1's categories early and no exchange refills it
    column = [*MIXED, "house-200", "car-300"]
    money_dump = ["money-100"] * 9
    game = make_game(5, {1: column, 6: money_dump})
    play(game, {p: [Placement(6 - p, 1)] for p in range(5)}, dump=6)
    assert game.columns[1] == ["watch-600", "holiday-700", "house-200", "car-300"]
    play(game, {1: [Placement(6, 1)], 2: [Placement(5, 1)], 3: [Placement(4, 1)]}, dump=6)
    assert game.columns[1] == ["car-300"]
    col1 = resolved(play(game, dump=6))[1]
    assert col1 == ColumnResolved(round=3, column=1, totals=[0] * 5, cancelled=[], awards=[], rotated=True)
    assert game.columns[1] == ["car-300"]


def test_r5_5_an_empty_column_does_not_rotate(make_game: MakeGame, play: Play) -> None:
    game, _ = emptied_column_game(make_game, play)
    col0 = resolved(play(game, dump=6))[0]
    assert col0 == ColumnResolved(round=3, column=0, totals=[0] * 5, cancelled=[], awards=[], rotated=False)
    assert game.columns[0] == []


def test_projected_says_what_the_round_would_award_without_changing_the_game(
    make_game: MakeGame,
) -> None:
    game = make_game(3, {0: MIXED_COLUMN})
    game.place(Placement(5, 0))
    game.place(Placement(2, 0))
    game.place(Placement(2, 0))
    columns = [c[:] for c in game.columns]
    events, after = game.projected()
    assert [e.column for e in events] == list(range(7))
    assert events[0].awards == [Award(0, "house-100", None)]
    assert events[0].cancelled == [1, 2]
    assert [e.rotated for e in events[1:]] == [True] * 6
    assert after.goods[0][0] == "house-100"
    assert game.columns == columns
    assert game.goods[0] == [None] * 7
    assert game.totals[0] == [5, 2, 2]


def test_projected_after_a_placement_is_the_projection_once_it_is_made(make_game: MakeGame) -> None:
    """``projected(placement, player=...)``: what the round would award had that player also made
    that placement (a bot weighing its move), without placing it."""
    game = make_game(3, {0: MIXED_COLUMN})
    game.place(Placement(5, 0))
    game.place(Placement(2, 0))
    before = (game.to_move, [t[:] for t in game.totals], [h[:] for h in game.hands], game.placements[:])
    events, after = game.projected(Placement(3, 0), player=2)  # player 2's 3 under column 0: 5, 2, 3
    assert (game.to_move, game.totals, game.hands, game.placements) == before  # nothing placed
    assert events[0].totals == [5, 2, 3]
    assert [(a.player, a.card) for a in events[0].awards] == [
        (0, MIXED_COLUMN[0]),
        (2, MIXED_COLUMN[1]),
        (1, MIXED_COLUMN[2]),
    ]
    placed = game.copy()
    placed.place(Placement(3, 0))
    placed_events, placed_after = placed.projected()
    assert events == placed_events
    assert (after.worth, after.goods, after.money, after.columns) == (
        placed_after.worth,
        placed_after.goods,
        placed_after.money,
        placed_after.columns,
    )


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=26), min_size=3, max_size=5))
def test_r5_a_memo_miss_ranks_by_the_totals_shape_as_the_totals_rank(totals: list[int]) -> None:
    """A miss of the rankings' memo is answered by the totals' shape (order, ties and zeros kept);
    that answer is the ranking of the totals themselves, whatever they are."""
    from dvtui.engine import rules

    key = tuple(totals)
    rules._RANKINGS.pop(key, None)
    assert rules._ranked_and_kept(key) == rules._ranked(key)
