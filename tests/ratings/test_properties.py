"""The ratings over random finishes: finite, the order of arrival and repeats change nothing, a better
place never rates lower against the same field, and the bots' strengths never move."""

from __future__ import annotations

import itertools
import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dvtui.ratings import MARKS, BotSeat, FinishedGame, Holder, Ledger, Person, Rating, Z, fold, level_rating, update

ACCOUNTS = ("ann", "bob", "cid", "dan", "eve", "fay")
LEVELS = (*(level for level, _ in MARKS), "greedy", "expert")


@st.composite
def games(draw: st.DrawFn, gid: str, ended: int) -> FinishedGame:
    n = draw(st.integers(3, 5))
    people = draw(st.lists(st.sampled_from(ACCOUNTS), min_size=1, max_size=n, unique=True))
    seats: list[Holder] = [Person(a) for a in people]
    seats += [BotSeat(draw(st.sampled_from(LEVELS))) for _ in range(n - len(people))]
    seats = draw(st.permutations(seats))
    scores = tuple(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)))  # small: ties are common
    resigned = tuple(sorted(draw(st.sets(st.integers(0, n - 1), max_size=2))))
    finished = draw(st.booleans()) or draw(st.booleans())
    return FinishedGame(
        game=gid, ended=ended, seats=tuple(seats), scores=scores if finished else None, resigned=resigned
    )


@st.composite
def histories(draw: st.DrawFn) -> list[FinishedGame]:
    count = draw(st.integers(1, 12))
    ends = draw(st.lists(st.integers(0, 6), min_size=count, max_size=count))  # equal ends: taken by id
    return [draw(games(f"g{i}", ended)) for i, ended in enumerate(ends)]


def everything(ledger: Ledger) -> object:
    return ledger.leaderboard(), {a: ledger.history(a) for a in ACCOUNTS}


@settings(max_examples=60, deadline=None)
@given(histories())
def test_every_rating_is_finite_and_sure_of_something(played: list[FinishedGame]) -> None:
    ledger = fold(played)
    for standing in ledger.leaderboard():
        rating = standing.rating
        assert math.isfinite(rating.mu) and math.isfinite(rating.sigma) and rating.sigma > 0
        assert standing.games == len(ledger.history(standing.account)) > 0


@settings(max_examples=60, deadline=None)
@given(histories(), st.randoms(use_true_random=False), st.integers(0, 12))
def test_the_order_of_arrival_and_repeats_change_nothing(
    played: list[FinishedGame], rng: random.Random, repeats: int
) -> None:
    arriving = played + [rng.choice(played) for _ in range(repeats)]
    rng.shuffle(arriving)
    one_by_one = Ledger()
    for game in arriving:
        one_by_one.add(game)
    expected = everything(fold(played))
    assert everything(one_by_one) == expected
    assert everything(fold(arriving)) == expected
    half = len(arriving) // 2
    in_two = Ledger(arriving[:half])
    in_two.extend(arriving[half:])
    assert everything(in_two) == expected


@settings(max_examples=60, deadline=None)
@given(histories())
def test_the_bots_strengths_never_move(played: list[FinishedGame]) -> None:
    ledger = fold(played)
    seated = [
        (holder, rating)
        for game in played
        if (step := ledger.step(game.game)) is not None and step.unrated is None
        for holder, rating in zip(game.seats, step.seated, strict=True)
        if isinstance(holder, BotSeat)
    ]
    assert math.fsum(r.mu for _, r in seated) == math.fsum(level_rating(h.level) or math.nan for h, _ in seated)
    assert ledger.accounts() <= len(ACCOUNTS)  # a bot is never an account


def lower(rating: Rating) -> float:
    return rating.mu - Z * rating.sigma


ratings = st.builds(Rating, st.floats(800, 2200), st.floats(10, 180))


@settings(max_examples=100, deadline=None)
@given(st.lists(ratings, min_size=3, max_size=5), st.randoms(use_true_random=False))
def test_a_better_place_never_rates_lower_against_the_same_field(field: list[Rating], rng: random.Random) -> None:
    """Seat 0 finishing first, then second, ... with the others in one fixed order: its rating after
    each place is at least its rating after the next, and after first at least its rating before."""
    n = len(field)
    others = list(range(1, n))
    rng.shuffle(others)
    accounts = [f"p{i}" for i in range(n)]
    before = dict(zip(accounts, field, strict=True))
    after = []
    for place in range(n):
        order = [*others[:place], 0, *others[place:]]  # seats from first to last
        scores = tuple(n - order.index(seat) for seat in range(n))
        game = FinishedGame(game="g", ended=0, seats=tuple(Person(a) for a in accounts), scores=scores)
        after.append(dict(update(game, before).entries)["p0"].after)
    assert after[0].mu >= field[0].mu
    assert lower(after[0]) >= lower(field[0])  # the shown rating, before rounding
    assert all(better.mu >= worse.mu for better, worse in itertools.pairwise(after))
    assert all(lower(better) >= lower(worse) for better, worse in itertools.pairwise(after))
