"""R8: scores are goods plus money; the highest score wins, and a shared highest score is shared."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dvtui.engine import Event, Game, GameEnded, Outcome, Phase, Placement, RoundEnded, Seat, new_game, value

MakeGame = Callable[..., Game]
Play = Callable[..., list[Event]]

ALL_TIE = 3
"""The column every leftover card goes under: everyone's leftovers total the same, so they cancel."""


def play_three_player_game(game: Game, play: Play) -> list[Event]:
    """Round 1: each player alone under their own column (0, 1, 2) with a 6; leftovers under
    column 3, where all three total 1+2+3+4 and cancel. Later rounds: everyone's 1..5 under column
    3, all cancelled. So each player owns exactly the bottom card of their column."""
    events = play(game, {p: [Placement(6, p)] for p in range(3)}, dump=ALL_TIE)
    while not game.over:
        events += play(game, dump=ALL_TIE)
    return events


@pytest.mark.parametrize(
    ("bottoms", "scores", "winners"),
    [
        (["money-200", "money-200", "money-100"], [200_000, 200_000, 100_000], [0, 1]),
        (["car-700", "money-200", "jewel-700"], [700_000, 200_000, 700_000], [0, 2]),
        (["house-300", "boat-300", "money-100"], [300_000, 300_000, 100_000], [0, 1]),
        (["money-100", "money-100", "money-100"], [100_000] * 3, [0, 1, 2]),
        (["car-700", "money-200", "money-100"], [700_000, 200_000, 100_000], [0]),
        (["money-100", "horse-100", "watch-400"], [100_000, 100_000, 400_000], [2]),
    ],
)
def test_r8_highest_score_wins_and_ties_share_the_victory(
    bottoms: list[str], scores: list[int], winners: list[int], make_game: MakeGame, play: Play
) -> None:
    game = make_game(3, {c: [card] for c, card in enumerate(bottoms)})
    events = play_three_player_game(game, play)
    assert events[-1] == GameEnded(scores=scores, winners=winners)
    assert game.scores() == scores
    assert [game.owned_cards(p) for p in range(3)] == [[card] for card in bottoms]


@pytest.mark.parametrize(
    ("bottoms", "winners"),
    [
        (["car-700", "money-200", "money-100"], (0,)),
        (["car-700", "money-200", "jewel-700"], (0, 2)),
        (["money-100", "money-100", "money-100"], (0, 1, 2)),
    ],
)
def test_r8_the_outcome_is_the_game_ended_event(
    bottoms: list[str], winners: tuple[int, ...], make_game: MakeGame, play: Play
) -> None:
    """``Game.outcome()``: nothing while the game goes on; then the scores and the winners of
    ``game_ended``, a tie shared (R8)."""
    game = make_game(3, {c: [card] for c, card in enumerate(bottoms)})
    events = play(game, {p: [Placement(6, p)] for p in range(3)}, dump=ALL_TIE)
    assert game.outcome() is None  # a round is over, not the game
    while not game.over:
        assert game.outcome() is None
        events += play(game, dump=ALL_TIE)
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    outcome = game.outcome()
    assert outcome == Outcome(tuple(ended.scores), tuple(ended.winners))
    assert outcome.winners == winners
    assert outcome.best == max(ended.scores) == value(bottoms[winners[0]])
    assert outcome.shared == (len(winners) > 1)


def test_r8_an_outcome_from_scores_shares_a_tie_at_the_top_only() -> None:
    assert Outcome.of([300, 300, 100]) == Outcome((300, 300, 100), (0, 1))
    assert Outcome.of([100, 300, 300, 300]).winners == (1, 2, 3)
    assert Outcome.of([100, 100, 300]).winners == (2,)  # a tie below the top changes nothing
    assert not Outcome.of([100, 100, 300]).shared and Outcome.of([0, 0, 0]).shared


def test_r8_nobody_wins_anything_means_everyone_shares_the_victory(make_game: MakeGame, play: Play) -> None:
    game = make_game(3)
    events: list[Event] = []
    while not game.over:
        events += play(game, dump=ALL_TIE)
    assert events[-1] == GameEnded(scores=[0, 0, 0], winners=[0, 1, 2])


def test_r8_score_is_goods_plus_money(make_game: MakeGame, play: Play) -> None:
    game = make_game(3, {0: ["car-700"], 1: ["money-200"], 2: ["car-300"], 4: ["money-100"]})
    play(game, {0: [Placement(6, 0), Placement(5, 1), Placement(4, 2), Placement(3, 4), Placement(1, 4)]}, dump=ALL_TIE)
    # car-700, then money-200, then car-300 exchanged for car-700 (R6), then money-100
    assert game.goods[0][1] == "car-300"
    assert game.money[0] == ["money-200", "money-100"]
    assert game.score(0) == 300_000 + 200_000 + 100_000
    assert game.worth[0] == 600_000


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (4, 6), (5, 7)])
def test_r8_game_ended_scores_every_owned_card(players: int, seed: int, play: Play) -> None:
    colours = ["red", "yellow", "green", "blue", "purple"]
    game = Game(new_game([Seat(name=f"P{i}", kind="human", color=colours[i]) for i in range(players)], seed=seed))
    events: list[Event] = []
    while not game.over:
        # spread each player's leftovers over different columns so that most columns award
        events += play(game, dump={p: (p * 2 + game.round) % 7 for p in range(players)})
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    expected = [sum(value(card) for card in game.owned_cards(p)) for p in range(players)]
    assert ended.scores == expected == game.scores()
    assert sum(expected) > 0
    assert ended.winners == [p for p in range(players) if expected[p] == max(expected)]
    assert game.round_scores[-1] == expected
    assert isinstance(events[-2], RoundEnded) and events[-2].round == game.rounds


def test_r8_game_ended_comes_once_after_the_last_round(make_game: MakeGame, play: Play) -> None:
    game = make_game(4)
    for _ in range(3):
        events = play(game)
        assert not any(isinstance(e, GameEnded) for e in events)
        assert not game.over
    events = play(game)
    assert isinstance(events[-1], GameEnded)
    assert game.over
    assert game.phase == Phase.OVER
    assert not game.derived_pending
