"""One judgement for the hint and the analysis: the analysis never marks the placement the hint
advises, and a mark stays put when the seed or the budget changes (the play-test's 5-player game,
where the two used to contradict each other)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from dvtui.bots import advise, bot_seed, judge, win_chance, win_chance_error
from dvtui.bots.strong import candidates
from dvtui.engine import Game, Placement, new_game
from dvtui.play.seats import parse_players
from dvtui.replay.analysis import review

from ..support.positions import random_state

REPORT_PLAYERS = "Ana,bot:novice,bot:casual,bot:club,bot:master"
REPORT_SEED = 959726
REPORT_BEFORE = (
    "4G 6G 2F 4C 6A 6B 4E 3F 5C 1B 5C 3G 6G 1G 3G 3G 5A 5E 6G 5G 2F 2D 1A 3B 4F "
    "5D 4B 4D 5A 5D 6B 6F 2A 3B 1A 1G 3D 3F 4B 6F 2E 1C 6G 2E 3B 3B 5F 1E 6B 4E "
    "4D 6C 6C 3D 4F 3G 1A 1F 1F 6E 2D 5C 3C 6C 1C 1C 4C 5C 2C 2D 5E 3C 4D 4A 3F "
    "2F 6D 3D 4F 5F 6C 5F 6F 1F 2F 1B 3D 2D 5D 6A 5A 2D 4C 6C 1E 4C 4F 5C 2F 3E "
    "3F 5E 5E 5G 6G 6E 1E 6D 4E 1G 2F"
)
"""Every placement of that game (``dvtui new --players REPORT_PLAYERS --seed REPORT_SEED``, the bots'
own moves included) up to Ana's third of round 5."""


def _placement(text: str) -> Placement:
    return Placement(card=int(text[0]), column="ABCDEFG".index(text[1]))


def _reported_position() -> Game:
    game = Game(new_game(parse_players(REPORT_PLAYERS), first_player=0, seed=REPORT_SEED))
    for text in REPORT_BEFORE.split():
        game.place(_placement(text))
    assert (game.round, game.to_move) == (5, 0)
    return game


def test_the_analysis_never_marks_the_hint_where_the_report_saw_it_do_so() -> None:
    game = _reported_position()
    hint = advise(game, bot_seed(REPORT_SEED, 0))  # the seed the table's hint uses for Ana
    judged = review(game, hint.placement, 5000)
    assert (judged.best_card, judged.best_column) == (hint.placement.card, hint.placement.column)
    assert judged.mark is None and judged.loss == 0.0


def test_a_mark_stays_when_the_seed_or_the_budget_changes() -> None:
    game = _reported_position()
    played = _placement("6E")  # Ana's placement, marked a 49-point blunder at 5,000, 44 at 20,000
    reviews = [review(game, played, budget, seed=seed) for seed, budget in ((None, 5000), (1, 5000), (2, 5000),
                                                                            (None, 10000))]  # fmt: skip
    assert {(r.best_card, r.best_column, r.mark) for r in reviews} == {(6, 3, "blunder")}
    losses = [r.loss for r in reviews if r.loss is not None]
    assert max(losses) - min(losses) < 0.05  # the same judgement, give or take its noise
    assert all(r.noise is not None and 0.0 < r.noise < 0.03 for r in reviews)  # measured, and small


@pytest.mark.parametrize("walk", range(4))
def test_the_hint_is_never_marked(walk: int) -> None:
    game = random_state(4, 11 + walk, 9 + 7 * walk, walk)
    hint = advise(game, bot_seed(game.created.seed or 0, game.to_move), iterations=300)
    judged = review(game, hint.placement, 300)
    assert judged.mark is None and judged.loss == 0.0


def test_the_played_placement_is_weighed_by_a_search_as_long_as_the_best_ones() -> None:
    game = _reported_position()
    worst = candidates(game)[-1]  # the placement of least promise: the halving drops it at once
    judged = judge(game, 5, 2000, also=worst)
    mine = judged.of(worst)
    assert mine is not None and mine.placement != judged.best.placement
    assert mine.iterations == judged.best.iterations  # carried on to the best's size, to be compared
    assert mine.iterations < judged.iterations // 2  # the halving gave most of the budget to a few
    dropped = [w for w in judged.weighed if w.placement != worst and w.iterations < judged.best.iterations]
    assert dropped  # the others it dropped were searched less


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_calibrated_chance_rises_with_the_value_and_stays_a_chance(players: int) -> None:
    values = [k / 100 for k in range(-5, 106)]
    chances = [win_chance(v, players) for v in values]
    assert all(0.0 < c < 1.0 for c in chances)
    inside = chances[6:-6]  # values kept inside 0..1 (EDGE) read alike beyond it
    assert all(a < b for a, b in pairwise(inside))  # a better placement always says more
    assert all(a <= b for a, b in pairwise(chances))
    for v in (0.05, 0.15, 0.35, 0.55, 0.85, 0.95):  # the error carried over is the map's slope times the value's
        slope = (win_chance(v + 1e-6, players) - win_chance(v - 1e-6, players)) / 2e-6
        assert win_chance_error(v, 0.01, players) == pytest.approx(0.01 * slope, rel=1e-4)


def test_the_hint_says_the_chance_the_analysis_shows() -> None:
    game = _reported_position()
    hint = advise(game, bot_seed(REPORT_SEED, 0))
    judged = review(game, hint.placement, 5000)
    assert hint.win == judged.before == judged.played
    raw = judge(game, bot_seed(REPORT_SEED, 0)).best.value
    assert hint.win == win_chance(raw, game.n)  # calibrated, both of them
