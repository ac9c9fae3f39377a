"""The worked example of the French rules (seeds/dolce-vita-fr.txt), reproduced exactly.

Four players, red, yellow, green and blue in seats 0 to 3. Left column: red and yellow both total
3 and take their cards back; green, with 4, takes the bottom card, a jewel 200,000; blue, second
with 1, takes the card just above it, a house 300,000. Right column: red leads and takes the watch
400,000, yellow second takes a money card 100,000, green third takes the next, also 100,000.
"""

from __future__ import annotations

from collections.abc import Callable

from dvtui.engine import Award, CardPlaced, ColumnResolved, Event, Game, Placement, RoundEnded

MakeGame = Callable[..., Game]

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
LEFT, RIGHT, ASIDE = 0, 6, 3

LEFT_COLUMN = ["jewel-200", "house-300", "car-500"]
RIGHT_COLUMN = ["watch-400", "money-100", "money-100", "boat-600"]
ASIDE_COLUMN = ["money-200", "money-200"] + ["money-100"] * 7
"""Where the cards the example does not mention go: money only, so nothing there can cause an
exchange in the right column, which is resolved after it."""

# one round in turn order, red first; (player, column, card)
PLACEMENTS = [
    (RED, LEFT, 3), (YELLOW, LEFT, 1), (GREEN, LEFT, 4), (BLUE, LEFT, 1),
    (RED, RIGHT, 6), (YELLOW, LEFT, 2), (GREEN, RIGHT, 3), (BLUE, ASIDE, 2),
    (RED, ASIDE, 1), (YELLOW, RIGHT, 5), (GREEN, ASIDE, 1), (BLUE, ASIDE, 3),
    (RED, ASIDE, 2), (YELLOW, ASIDE, 3), (GREEN, ASIDE, 2), (BLUE, ASIDE, 4),
    (RED, ASIDE, 4), (YELLOW, ASIDE, 4), (GREEN, ASIDE, 5), (BLUE, ASIDE, 5),
]  # fmt: skip


def play_example(make_game: MakeGame) -> tuple[Game, list[Event]]:
    game = make_game(4, {LEFT: LEFT_COLUMN, RIGHT: RIGHT_COLUMN, ASIDE: ASIDE_COLUMN}, first_player=RED)
    assert [seat.color for seat in game.created.players] == ["red", "yellow", "green", "blue"]
    events: list[Event] = []
    for player, column, card in PLACEMENTS:
        events += game.place(Placement(card, column), player=player)
    return game, events


def test_the_example_left_column(make_game: MakeGame) -> None:
    _, events = play_example(make_game)
    left = next(e for e in events if isinstance(e, ColumnResolved) and e.column == LEFT)
    assert left == ColumnResolved(
        round=1,
        column=LEFT,
        totals=[3, 3, 4, 1],
        cancelled=[RED, YELLOW],
        awards=[Award(GREEN, "jewel-200", None), Award(BLUE, "house-300", None)],
        rotated=False,
    )


def test_the_example_right_column(make_game: MakeGame) -> None:
    _, events = play_example(make_game)
    right = next(e for e in events if isinstance(e, ColumnResolved) and e.column == RIGHT)
    assert right == ColumnResolved(
        round=1,
        column=RIGHT,
        totals=[6, 5, 3, 0],
        cancelled=[],
        awards=[
            Award(RED, "watch-400", None),
            Award(YELLOW, "money-100", None),
            Award(GREEN, "money-100", None),
        ],
        rotated=False,
    )


def test_the_example_round_as_a_whole(make_game: MakeGame) -> None:
    game, events = play_example(make_game)
    assert [(e.player, e.column, e.card) for e in events if isinstance(e, CardPlaced)] == PLACEMENTS
    derived = events[len(PLACEMENTS) :]
    assert [type(e) for e in derived] == [ColumnResolved] * 7 + [RoundEnded]
    by_column = {e.column: e for e in derived if isinstance(e, ColumnResolved)}
    # nobody played under columns 1, 2, 4, 5: each moves its bottom card to its top (R5.5)
    assert [c for c, e in by_column.items() if e.rotated] == [1, 2, 4, 5]
    assert all(by_column[c].awards == [] for c in (1, 2, 4, 5))
    # the cards set aside: red and yellow tie again at 7, blue (14) then green (8) take money
    assert by_column[ASIDE] == ColumnResolved(
        round=1,
        column=ASIDE,
        totals=[7, 7, 8, 14],
        cancelled=[RED, YELLOW],
        awards=[Award(BLUE, "money-200", None), Award(GREEN, "money-200", None)],
        rotated=False,
    )
    assert derived[-1] == RoundEnded(round=1, next_first_player=YELLOW)
    # who owns what afterwards
    assert game.goods[RED] == [None, None, None, None, None, "watch-400", None]
    assert game.goods[YELLOW] == [None] * 7
    assert game.goods[GREEN] == [None, None, None, None, "jewel-200", None, None]
    assert game.goods[BLUE] == ["house-300", None, None, None, None, None, None]
    assert game.money == [[], ["money-100"], ["money-200", "money-100"], ["money-200"]]
    assert game.scores() == [400_000, 100_000, 500_000, 500_000]
    # what is left of the two columns of the example
    assert game.columns[LEFT][0] == "car-500"
    assert len(game.columns[LEFT]) == 7
    assert game.columns[RIGHT][0] == "boat-600"
    assert len(game.columns[RIGHT]) == 6
    # every number card back in hand, yellow starts round 2 (R7)
    assert game.hands == [[1, 2, 3, 4, 5, 6]] * 4
    assert game.to_move == YELLOW
