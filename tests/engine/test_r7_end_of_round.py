"""R7: number cards go back to their owners and the first player moves one seat clockwise."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dvtui.engine import ColumnResolved, Event, Game, Phase, Placement, RoundEnded, first_player_of_round

MakeGame = Callable[..., Game]
Play = Callable[..., list[Event]]


def test_r7_round_ended_names_the_next_first_player(make_game: MakeGame, play: Play) -> None:
    game = make_game(4, first_player=1)
    events = play(game)
    assert events[-1] == RoundEnded(round=1, next_first_player=2)
    assert game.round == 2
    assert game.first_player == 2
    assert game.to_move == 2
    assert game.phase == Phase.PLACEMENT


def test_r7_first_player_wraps_around_clockwise(make_game: MakeGame, play: Play) -> None:
    game = make_game(5, first_player=4)
    assert play(game)[-1] == RoundEnded(round=1, next_first_player=0)
    assert game.to_move == 0
    assert play(game)[-1] == RoundEnded(round=2, next_first_player=1)


@pytest.mark.parametrize(("players", "first"), [(3, 0), (3, 2), (4, 3), (5, 1)])
def test_r7_first_player_of_round_k(players: int, first: int, make_game: MakeGame, play: Play) -> None:
    game = make_game(players, first_player=first)
    seen = []
    while not game.over:
        seen.append(game.first_player)
        assert game.first_player == first_player_of_round(game.created, game.round)
        play(game, dump=game.round % 7)
    assert seen == [(first + k - 1) % players for k in range(1, game.rounds + 1)]


def test_r7_every_number_card_returns_to_its_owner(make_game: MakeGame, play: Play) -> None:
    game = make_game(3, {0: ["car-100"]})
    # players 0 and 1 tie under column 0 (cancelled); player 2 wins nothing there
    play(game, {0: [Placement(6, 0)], 1: [Placement(2, 0), Placement(4, 0)]}, dump=5)
    assert game.hands == [[1, 2, 3, 4, 5, 6]] * 3
    assert game.totals == [[0, 0, 0]] * 7
    assert game.placements == []
    assert game.round == 2
    assert game.columns[0][0] == "car-100"


def test_r7_history_records_scores_after_each_round(make_game: MakeGame, play: Play) -> None:
    game = make_game(3, {0: ["money-200"], 1: ["house-500"]})
    play(game, {0: [Placement(1, 0)], 2: [Placement(1, 1)]}, dump=4)
    assert len(game.round_scores) == 1
    assert game.round_scores[0] == game.scores()
    assert game.round_scores[0][0] >= 200_000
    assert game.round_scores[0][2] >= 500_000
    after_one = game.scores()
    play(game, dump=4)
    assert game.round_scores[0] == after_one
    assert len(game.round_scores) == 2


def test_r7_round_events_come_in_file_order(make_game: MakeGame, play: Play) -> None:
    game = make_game(4)
    events = play(game)
    derived = events[20:]
    assert [type(e) for e in derived] == [ColumnResolved] * 7 + [RoundEnded]
    assert all(e.round == 1 for e in derived)
