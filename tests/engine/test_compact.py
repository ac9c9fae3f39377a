"""The compact round's end (``dvtui.engine.compact``) is the rules' round's end: R5 and R6 on ints
give what :meth:`Game.projected` gives, on random states of every player count.

A search resolves thousands of imagined ends of a round for one move, so it uses the compact copy;
this test is what keeps that copy the same rules (a change to R5 or R6 fails here until both agree).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from dvtui.engine import Game, value
from dvtui.engine.compact import CANCELLED, CompactGame, encode, outcomes

from ..support.positions import playing_states, random_state


def goods_in_100k(game: Game, player: int) -> list[int]:
    return [0 if g is None else value(g) // 100_000 for g in game.goods[player]]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=playing_states())
def test_the_compact_round_end_is_the_engine_projection(game: Game) -> None:
    ends = outcomes(game.totals)
    worth, goods, rest = CompactGame(game).resolve(ends, keep_rest=True)
    events, after = game.projected()
    # R5.1-R5.3: each column's outcome is the one the engine resolves it by
    for event, end in zip(events, ends, strict=True):
        takers = [award.player for award in event.awards]
        if end is CANCELLED:
            assert event.cancelled and not takers and not event.rotated
        else:
            assert takers == list(end[: len(takers)])
            assert event.rotated == (not end and bool(game.columns[event.column]))
    # R5.4-R6.3: what every player holds and scores, and what is left in the columns
    assert [w * 100_000 for w in worth] == after.worth
    for p in range(game.n):
        assert goods[p] == goods_in_100k(after, p)
    assert rest == [[encode(c) for c in col] for col in after.columns if col]


def test_without_the_rest_only_the_columns_are_left_out() -> None:
    game = random_state(4, 3, 17, 5)
    ends = outcomes(game.totals)
    worth, goods, rest = CompactGame(game).resolve(ends, keep_rest=False)
    assert (worth, goods) == CompactGame(game).resolve(ends)[:2]
    assert rest == []


def test_an_exchanged_good_passes_down_the_ranking() -> None:
    """R6.1/R6.2 on a hand-made state: the winner's old house goes on top and the second takes it."""
    game = random_state(3, 1, 0, 0)
    game.columns[0] = ["house-300"]
    game.goods[0][0] = "house-500"
    game.worth[0] = 500_000
    game.totals[0] = [6, 4, 0]
    worth, goods, rest = CompactGame(game).resolve(outcomes(game.totals))
    assert goods[0][0] == 3 and goods[1][0] == 5 and worth[:2] == [3, 5]
    _, after = game.projected()
    assert after.goods[1][0] == "house-500" and after.worth[1] == 500_000
    assert after.columns[0] == [] and len(rest) == 6  # the column is used up, and dropped


def test_a_column_where_everyone_tied_is_cancelled_and_an_unplayed_one_is_empty() -> None:
    """R5.2: all who placed there tied; R5.1: nobody placed there."""
    assert outcomes([[3, 3, 0], [0, 0, 0], [5, 2, 2], [4, 4, 4]]) == (CANCELLED, (), (0,), CANCELLED)


def test_cards_encode_category_and_value() -> None:
    assert encode("car-400") == 1 * 8 + 4
    assert encode("money-200") == 7 * 8 + 2
