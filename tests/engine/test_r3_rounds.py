"""R3: rounds by player count (3 -> 6, 4 -> 4, 5 -> 5); other counts refused with a clear message."""

from __future__ import annotations

from collections.abc import Callable

import msgspec
import pytest

from dvtui.engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUNDS,
    BadSetup,
    CardPlaced,
    Event,
    Game,
    GameCreated,
    GameEnded,
    RoundEnded,
    Seat,
    check_setup,
    new_game,
    rounds_for,
)

from ..support.said import raises_said

MakeCreated = Callable[..., GameCreated]
Play = Callable[..., list[Event]]
COLOURS = ["red", "yellow", "green", "blue", "purple", "red", "yellow"]


def seats(n: int) -> list[Seat]:
    return [Seat(name=f"P{i}", kind="human", color=COLOURS[i]) for i in range(n)]


@pytest.mark.parametrize(("players", "rounds"), [(3, 6), (4, 4), (5, 5)])
def test_r3_rounds_as_printed(players: int, rounds: int) -> None:
    assert rounds_for(players) == rounds
    assert ROUNDS[players] == rounds
    assert new_game(seats(players)).rounds == rounds
    assert Game(new_game(seats(players))).rounds == rounds


def test_r3_three_to_five_players() -> None:
    assert (MIN_PLAYERS, MAX_PLAYERS) == (3, 5)
    assert sorted(ROUNDS) == [3, 4, 5]


@pytest.mark.parametrize("players", [0, 1, 2, 6, 7])
def test_r3_other_player_counts_are_refused_clearly(players: int) -> None:
    message = rf"Dolce Vita is for 3 to 5 players \(R3\), not {players}"
    with raises_said(BadSetup, message):
        rounds_for(players)
    with raises_said(BadSetup, message):
        new_game(seats(players))


@pytest.mark.parametrize("players", [2, 6])
def test_r3_a_created_event_with_two_or_six_players_is_refused(players: int, make_created: MakeCreated) -> None:
    created = msgspec.structs.replace(make_created(4), players=seats(players))
    with raises_said(BadSetup, rf"3 to 5 players \(R3\), not {players}"):
        Game(created)


@pytest.mark.parametrize(("players", "wrong"), [(3, 4), (4, 6), (5, 4)])
def test_r3_a_created_event_with_the_wrong_round_count_is_refused(
    players: int, wrong: int, make_created: MakeCreated
) -> None:
    created = msgspec.structs.replace(make_created(players), rounds=wrong)
    with raises_said(BadSetup, rf"{players} players play {ROUNDS[players]} rounds \(R3\), not {wrong}"):
        check_setup(created)


@pytest.mark.parametrize(("players", "rounds"), [(3, 6), (4, 4), (5, 5)])
def test_r3_a_whole_game_lasts_exactly_its_rounds(players: int, rounds: int, play: Play) -> None:
    game = Game(new_game(seats(players), first_player=1, seed=players))
    events: list[Event] = []
    for r in range(1, rounds + 1):
        assert game.round == r
        assert not game.over
        events += play(game, dump={p: (p + r) % 7 for p in range(players)})
    assert game.over
    assert game.round == rounds
    assert [e.round for e in events if isinstance(e, RoundEnded)] == list(range(1, rounds + 1))
    assert sum(isinstance(e, CardPlaced) for e in events) == 5 * players * rounds
    assert isinstance(events[-1], GameEnded)
    assert sum(isinstance(e, GameEnded) for e in events) == 1
    assert len(game.round_scores) == rounds
