"""Every level only ever makes legal moves (R4.1-R4.3), from any reachable state of 3-5 players."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dvtui.bots import LADDER, LEVELS, bot_seed, bot_seeds, choose, parse_bot
from dvtui.engine import COLORS, Game, Placement, Seat, new_game

from ..support.positions import playing_states

TINY = {"random": "random", "greedy": "greedy", "strong": "strong@12"}
"""Each level with a budget small enough for property tests (strong's search still runs)."""


def test_every_registered_level_is_tested() -> None:
    # the ladder's levels have fixed budgets: tests/bots/test_ladder.py plays them on tiny searches
    assert set(LEVELS) == set(TINY) | {level.name for level in LADDER}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=playing_states(), seed=st.integers(0, 2**64 - 1), level=st.sampled_from(sorted(TINY)))
def test_a_bot_move_is_legal_in_any_reachable_state(game: Game, seed: int, level: str) -> None:
    before = game.copy()
    placement = choose(TINY[level], game, seed)
    assert type(placement) is Placement and placement in game.legal_placements()
    # thinking leaves the state as it found it
    assert (game.totals, game.hands, game.columns, game.goods, game.worth, game.to_move) == (
        before.totals,
        before.hands,
        before.columns,
        before.goods,
        before.worth,
        before.to_move,
    )
    game.place(placement)  # the engine agrees


@settings(max_examples=6, deadline=None)
@given(players=st.integers(3, 5), deal=st.integers(0, 2**31))
def test_a_table_of_every_level_plays_a_whole_game(players: int, deal: int) -> None:
    levels = [TINY[name] for name in ("strong", "greedy", "random", "strong", "greedy")][:players]
    seats = [Seat(name=f"p{i}", kind="bot", color=COLORS[i], bot=levels[i]) for i in range(players)]
    game = Game(new_game(seats, seed=deal))
    while not game.over:
        p = game.to_move
        game.place(choose(parse_bot(levels[p]), game, bot_seed(deal, p)), player=p)
    assert game.round == game.rounds
    assert all(len(hand) == 6 for hand in game.hands)


@pytest.mark.parametrize("text", ["greedy@500", "random@1s", "strong@0", "strong@0s", "strong@fast"])
def test_a_budget_only_goes_with_a_level_that_searches(text: str) -> None:
    from dvtui.bots import UnknownBot, parse_bot

    with pytest.raises(UnknownBot):
        parse_bot(text)


def test_budgets_are_parsed_for_the_strong_level() -> None:
    from dvtui.bots import parse_bot

    assert parse_bot("strong@5000").iterations == 5000
    assert parse_bot("strong@0.5s").seconds == 0.5
    assert str(parse_bot("strong@0.5s")) == "strong@0.5s"


@pytest.mark.parametrize(
    "text", ["strong@200001", "strong@99999999999999", "strong@10.5s", "strong@999999999s", "strong@" + "9" * 5000]
)
def test_a_budget_beyond_the_bounds_is_refused(text: str) -> None:
    """A bot that would think for hours (or without end) is refused where it is named."""
    from dvtui.bots import UnknownBot, parse_bot

    with pytest.raises(UnknownBot):
        parse_bot(text)


def test_the_largest_budgets_are_accepted() -> None:
    from dvtui.bots import parse_bot
    from dvtui.engine import MAX_ITERATIONS, MAX_SECONDS

    assert parse_bot(f"strong@{MAX_ITERATIONS}").iterations == MAX_ITERATIONS == 200_000
    assert parse_bot("strong@10s").seconds == MAX_SECONDS == 10


def test_the_rules_name_the_levels_the_bots_play() -> None:
    from dvtui.bots import LEVELS
    from dvtui.engine import BOT_LEVELS

    assert sorted(LEVELS) == sorted(BOT_LEVELS)


@given(st.integers(min_value=-(2**70), max_value=2**70), st.sampled_from([3, 4, 5]))
def test_bot_seeds_are_each_seats_bot_seed(game_seed: int, players: int) -> None:
    """A tournament's seeds for a whole table (splitmix written out) are the seats' own seeds."""
    assert bot_seeds(game_seed, players) == [bot_seed(game_seed, seat) for seat in range(players)]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=playing_states(), seed=st.integers(0, 2**64 - 1))
def test_the_random_bot_is_its_tabulation_hash(game: Game, seed: int) -> None:
    """random's move, written plainly: entry ``(seed + move) & 4095`` of the table, masked by the
    seed, picks placement ``i`` of the hand's cards by columns (card ``i // 7``, column ``i % 7``).
    The bot reads it from tables made once; every simulated game depends on the two agreeing."""
    from dvtui.bots import random_bot

    hand = game.hands[game.to_move]
    move = game.round * 64 + len(game.placements)
    i = (random_bot._TABLE[(seed + move) & 4095] ^ seed) % (7 * len(hand))
    assert random_bot.choose(game, seed) == Placement(card=hand[i // 7], column=i % 7)


def test_the_random_bots_round_windows_are_its_table_from_each_rounds_first_move() -> None:
    """Every entry a move can read through a round's window, for every seed's low bits and every
    count of placements standing (fewer than 64), is the table's entry for that move number."""
    from dvtui.bots import random_bot

    for round_, window in enumerate(random_bot._WINDOWS):
        for low in range(4096):
            for placed in range(64):
                assert window[low + placed] == random_bot._TABLE[(low + round_ * 64 + placed) & 4095]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=playing_states(), seed=st.integers(0, 2**64 - 1))
def test_the_random_bot_hands_out_the_engines_own_placements(game: Game, seed: int) -> None:
    """Its placement is the very object the engine keeps for that card and column, which
    Game.play finds in its events by identity rather than by comparing two tuples."""
    from dvtui.bots import random_bot
    from dvtui.engine import PLACEMENTS

    placement = random_bot.choose(game, seed)
    assert placement is PLACEMENTS[placement.card][placement.column]
