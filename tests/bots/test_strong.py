"""The strong bot: it weighs each distinct placement once, it is deterministic, exact where it can
be, and clearly stronger than chance. (Its round's end is the engine's compact one, tested against
the rules in tests/engine/test_compact.py.)"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dvtui.bots import DEFAULT_ITERATIONS, bot_seed, choose, parse_bot, think
from dvtui.bots import value as V
from dvtui.bots.strong import candidates
from dvtui.engine import COLORS, CardPlaced, Game, Placement, Seat, fold, new_game

from ..support.positions import before_the_last_placement, random_state


def seats_for(levels: list[str]) -> list[Seat]:
    return [Seat(name=f"p{i}", kind="bot", color=COLORS[i], bot=level) for i, level in enumerate(levels)]


def play_out(game: Game, levels: list[str], seed: int) -> list[CardPlaced]:
    """Let the bots finish ``game``; return the placements they made."""
    made: list[CardPlaced] = []
    while not game.over:
        p = game.to_move
        event = game.place(choose(parse_bot(levels[p]), game, bot_seed(seed, p)))[0]
        assert isinstance(event, CardPlaced)
        made.append(event)
    return made


# -- what the search weighs ------------------------------------------------------------------------


def test_placements_that_cannot_differ_are_searched_once() -> None:
    """Empty columns never hold a card again (nothing to win there), and two columns holding the
    same cards with the same totals are interchangeable: one move per card for each such group."""
    game = random_state(3, 4, 0, 0)
    game.columns[1] = []
    game.columns[2] = []
    game.columns[4] = ["money-100", "money-200"]
    game.columns[6] = ["money-100", "money-200"]
    moves = candidates(game)
    assert len(moves) == len(set(moves)) == 6 * 5  # columns 0, 3, 5, {4, 6} and {1, 2}
    assert {k for _, k in moves} == {0, 1, 3, 4, 5}
    game.totals[6][1] = 3  # now column 6 differs from column 4
    moves = candidates(game)
    assert {k for _, k in moves} == {0, 1, 3, 4, 5, 6}


# -- determinism ------------------------------------------------------------------------------------

any_position = given(
    players=st.integers(3, 5),
    deal=st.integers(0, 2**31),
    moves=st.integers(0, 120),
    walk=st.integers(0, 2**31),
    seed=st.integers(0, 2**64 - 1),
)
"""A position of a random game (:func:`random_state`) and a bot seed."""


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@any_position
def test_same_state_and_seed_give_the_same_move(players: int, deal: int, moves: int, walk: int, seed: int) -> None:
    game = random_state(players, deal, moves, walk)
    if game.over:
        return
    first = think(game, seed, iterations=150)
    again = think(game.copy(), seed, iterations=150)
    refolded = think(random_state(players, deal, moves, walk), seed, iterations=150)
    assert first.placement == again.placement == refolded.placement
    assert (first.gain, first.win) == (again.gain, again.win) == (refolded.gain, refolded.win)


def test_the_budget_in_the_spec_reaches_the_search() -> None:
    game = random_state(3, 11, 4, 5)
    assert choose("strong@150", game, 9) == think(game, 9, iterations=150).placement
    assert think(game, 9, iterations=150).iterations == 150
    assert think(game, 9, iterations=3).iterations == 3
    # plain "strong" searches its default budget, deterministically
    assert choose("strong", game, 9) == think(game, 9, iterations=DEFAULT_ITERATIONS).placement


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@any_position
def test_a_search_that_stops_once_its_move_is_settled_plays_the_whole_budgets_move(
    players: int, deal: int, moves: int, walk: int, seed: int
) -> None:
    game = random_state(players, deal, moves, walk)
    if game.over:
        return
    whole = think(game, seed, iterations=600)
    settled = think(game, seed, iterations=600, settle=True)
    assert settled.placement == whole.placement
    assert whole.iterations == 600
    assert settled.iterations <= 600
    assert settled.visits[0][0] == whole.visits[0][0]


def test_a_settled_search_stops_before_its_budget_when_the_rest_could_not_change_the_move() -> None:
    """Late in a round few placements are worth a look: the move is settled before the budget
    ends, and the search says how many iterations it spent."""
    stopped = []
    for deal in range(6):
        game = random_state(3, deal, 12, deal)
        full = think(game, 1, iterations=2000)
        early = think(game, 1, iterations=2000, settle=True)
        assert early.placement == full.placement
        stopped.append(early.iterations < 2000)
        if early.iterations < 2000:  # it stopped because the lead was out of reach of what was left
            lead = early.visits[0][1] - (early.visits[1][1] if len(early.visits) > 1 else 0)
            assert lead > 2000 - early.iterations
    assert any(stopped)
    assert choose("strong@2000", game, 1) == full.placement


@pytest.mark.parametrize("cut", [1, 17, 44, 70])
def test_a_game_resumed_from_its_events_ends_as_the_uninterrupted_one(cut: int) -> None:
    levels = ["strong@40", "greedy", "strong@25"]
    game = Game(new_game(seats_for(levels), seed=2024))
    whole = play_out(game, levels, seed=2024)
    # replay the first `cut` decisions into a fresh Game, then let the same bots continue
    resumed = fold([game.created, *whole[:cut]]).game
    rest = play_out(resumed, levels, seed=2024)
    assert whole[:cut] + rest == whole
    assert resumed.scores() == game.scores()
    assert resumed.round_scores == game.round_scores


# -- exact where the search can see everything --------------------------------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), deal=st.integers(0, 2**31), walk=st.integers(0, 2**31))
def test_the_last_placement_of_the_game_is_the_best_there_is(players: int, deal: int, walk: int) -> None:
    """The game's last placement has no future: the search must find the best win share exactly."""
    game = before_the_last_placement(players, deal, walk)
    me = game.to_move

    def share(placement: Placement) -> float:
        g = game.copy()
        g.place(placement)
        scores = g.scores()
        best = max(scores)
        return 1 / scores.count(best) if scores[me] == best else 0.0

    best = max(share(placement) for placement in game.legal_placements())
    hint = think(game, 3, iterations=300)
    assert share(hint.placement) == best
    # and the gain it reports is what that placement brings, exactly (nothing is left to chance)
    g = game.copy()
    g.place(hint.placement)
    assert hint.gain == g.worth[me] - game.worth[me]


def test_progress_is_reported_and_reaches_the_end() -> None:
    seen: list[float] = []
    hint = think(random_state(4, 5, 3, 1), 1, iterations=400, progress=seen.append)
    assert seen and seen[-1] == 1.0
    assert seen == sorted(seen)
    assert hint.iterations == 400


def test_a_time_budget_gives_a_legal_move() -> None:
    game = random_state(5, 8, 10, 2)
    hint = think(game, 1, seconds=0.05)
    assert hint.placement in game.legal_placements()
    assert hint.iterations >= 1
    assert choose("strong@0.05s", game, 1) in game.legal_placements()


def test_after_the_last_round_winning_comes_first_then_rank_then_margin() -> None:
    shared = V.final([30, 50, 50])
    assert shared[1] == shared[2] > shared[0]
    alone = V.final([49, 50, 20])
    assert alone[1] > 0.9 > alone[0] > alone[2]  # second place still beats third
    assert V.final([10, 50, 48])[1] > V.final([10, 50, 49])[1]  # a bigger lead is a bit better
    assert V.final([10, 50, 48])[1] - V.final([10, 50, 49])[1] < 0.01  # ... but only a bit


def test_before_the_last_round_a_higher_estimate_is_a_better_chance() -> None:
    values = V.estimate([40.0, 35.0, 20.0], 5.0)
    assert values[0] > values[1] > values[2]
    assert abs(sum(values) - sum(V.estimate([20.0, 20.0, 20.0], 5.0))) < 1e-9  # a fixed pie
    assert V.estimate([40.0, 35.0, 20.0], 20.0)[0] < values[0]  # more rounds left: less certain


# -- strength --------------------------------------------------------------------------------------------


def test_strong_beats_random_in_nearly_every_game() -> None:
    """Strong (small budget) against two random bots, each of 6 fixed deals with strong in each seat.

    A random bot wins about a third of the time against its equals; losing more than one game of
    18 would mean the search is broken, not unlucky.
    """
    wins = 0.0
    for deal in range(6):
        for seat in range(3):
            levels = ["random"] * 3
            levels[seat] = "strong@60"
            game = Game(new_game(seats_for(levels), seed=100 + deal))
            play_out(game, levels, seed=100 + deal)
            scores = game.scores()
            if scores[seat] == max(scores):
                wins += 1 / scores.count(max(scores))
    assert wins >= 17


def test_a_set_stop_event_ends_the_search_and_an_unset_one_changes_nothing() -> None:
    """A program that quits while the bot thinks sets the event (a thread cannot be killed); left
    unset, the search and its move are exactly those of a search without one."""
    import threading

    from dvtui.bots import Stopped, bot_fn

    game = Game(new_game(seats_for(["strong", "greedy", "greedy"]), seed=4))
    stop = threading.Event()
    with_stop = think(game, 9, iterations=700, stop=stop)
    without = think(game, 9, iterations=700)
    assert (with_stop.placement, with_stop.gain, with_stop.win, with_stop.iterations) == (
        without.placement,
        without.gain,
        without.win,
        without.iterations,
    )
    assert bot_fn(parse_bot("strong"), stop)(game, 9) == choose("strong", game, 9)
    stop.set()
    with pytest.raises(Stopped):
        think(game, 9, iterations=200_000, stop=stop)
    with pytest.raises(Stopped):
        think(game, 9, seconds=10.0, stop=stop)
    with pytest.raises(Stopped):
        bot_fn(parse_bot("strong@200000"), stop)(game, 9)
