"""The ladder's named levels: legal, deterministic for a game and a seed, named everywhere a level is."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dvtui.bots import DEFAULT_ITERATIONS, LADDER, LEVELS, Level, Stopped, bot_fn, choose, parse_bot, think
from dvtui.bots import value as V
from dvtui.bots.ladder import KEEP, MASTER, draw, mover
from dvtui.bots.strong import STRONG, Evaluation, _Search
from dvtui.cli import main
from dvtui.engine import BOT_LEVELS, Game, Placement, Seat, UnknownBot, check_seats, compact
from dvtui.play.autoplay import play_game
from dvtui.play.seats import parse_players
from dvtui.store import read_game

from ..support.files import file_bytes, strip_at
from ..support.positions import before_the_last_placement, playing_states, random_state
from ..support.said import raises_said


def tiny(level: Level) -> Level:
    """The rung with a search small enough for property tests (its temperature and draw unchanged)."""
    return dataclasses.replace(level, iterations=24)


def test_the_ladder_has_five_rungs_weakest_first_each_named_everywhere() -> None:
    names = [level.name for level in LADDER]
    assert len(names) == 5 and len(set(names)) == 5
    assert [level.iterations for level in LADDER] == sorted(level.iterations for level in LADDER)
    assert [level.temperature for level in LADDER] == sorted((level.temperature for level in LADDER), reverse=True)
    for name in names:
        assert name in BOT_LEVELS and name in LEVELS and LADDER[names.index(name)].sentence
        assert str(parse_bot(name)) == name
        check_seats([Seat(name=f"B{i}", kind="bot", color="red", bot=name) for i in range(1)])


@pytest.mark.parametrize("text", ["novice@500", "master@1s", "club@0"])
def test_a_named_level_takes_no_budget(text: str) -> None:
    with raises_said(UnknownBot, "takes no budget"):
        parse_bot(text)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=playing_states(), seed=st.integers(0, 2**64 - 1), rung=st.integers(0, len(LADDER) - 1))
def test_every_rung_plays_legally_and_the_same_move_twice(game: Game, seed: int, rung: int) -> None:
    choose = mover(tiny(LADDER[rung]))
    placement = choose(game, seed)
    assert placement in game.legal_placements()
    assert choose(game.copy(), seed) == placement


def test_the_draw_keeps_to_the_searchs_good_placements_and_depends_only_on_its_key() -> None:
    a, b, c = (Placement(card=i, column=0) for i in range(3))
    visits = ((a, 100), (b, 40), (c, int(KEEP * 100) - 1))  # c is below the share kept
    drawn = {draw(visits, 1.0, key) for key in range(0, 2**64, 2**58)}
    assert drawn == {a, b}
    assert draw(visits, 0.0, 2**64 - 1) == a  # temperature 0: the search's own choice
    assert all(draw(visits, 0.5, key) == draw(visits, 0.5, key) for key in range(0, 2**64, 2**60))


def test_a_rung_at_temperature_zero_plays_the_searchs_own_move() -> None:
    game = random_state(4, 7, 10, 3)
    level = Level("t", "", 40, 0.0)
    assert mover(level)(game, 5) == think(game, 5, iterations=40).placement


def test_a_sim_of_named_levels_writes_files_that_read_back_and_replay_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    players = "bot:novice,bot:casual,bot:club"
    assert main(["sim", "--players", players, "--games", "1", "--seed", "3", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    loaded = read_game(tmp_path / "game-3.dvr")  # the file reader takes the names
    assert [seat.bot for seat in loaded.created.players] == ["novice", "casual", "club"]
    _, events = play_game(parse_players(players), 3, 0)  # the same game again: the levels are deterministic
    assert strip_at((tmp_path / "game-3.dvr").read_bytes()) == file_bytes(events)


def test_a_server_that_caps_its_bots_search_refuses_a_named_level_that_searches_more() -> None:
    from dvtui.server.pool import MaxBudget

    cap = MaxBudget(iterations=1000)
    assert cap.problem("club") is None
    assert cap.problem("master") == "master searches more than this server's bots may (" + cap.said() + ")"


@pytest.mark.parametrize("name", [level.name for level in LADDER])
def test_a_stop_reaches_every_named_levels_search(name: str) -> None:
    """The app's cancel hands :func:`bot_fn` its worker's event: once set, a rung's search ends with
    :class:`Stopped` (it looks at the event on its first iteration), whatever its size."""
    game = random_state(3, 11, 4, 2)
    stop = threading.Event()
    stop.set()
    with pytest.raises(Stopped):
        bot_fn(parse_bot(name), stop)(game, 9)


def test_an_unset_stop_leaves_a_named_levels_move_as_it_is() -> None:
    game = random_state(4, 12, 6, 1)
    assert bot_fn(parse_bot("novice"), threading.Event())(game, 3) == choose("novice", game, 3)


def test_a_rungs_evaluation_reaches_its_search_and_strongs_stays_the_default() -> None:
    """A level may judge the round's end its own way; ``strong`` (and a rung naming no evaluation)
    keeps the search whose moves tests/bots/test_strong.py pins."""
    game = random_state(3, 21, 9, 4)
    plain = think(game, 8, iterations=300)
    same = think(game, 8, iterations=300, evaluation=STRONG)
    assert dataclasses.replace(same, seconds=0.0) == dataclasses.replace(plain, seconds=0.0)
    other = think(game, 8, iterations=300, evaluation=Evaluation(rollout_epsilon=0.0, temperature_scale=0.5))
    assert other.win != plain.win
    assert Level("t", "", 10, 0.0).evaluation == STRONG


def test_expert_plays_strongs_moves_and_master_is_strongs_search_four_times_as_long() -> None:
    """The top of the ladder is ``strong``'s search: ``expert`` at its budget (a named level for the
    same player), ``master`` at four times it with half its judgement on places, both playing the
    search's own choice."""
    rungs = {level.name: level for level in LADDER}
    assert (rungs["expert"].iterations, rungs["expert"].temperature) == (DEFAULT_ITERATIONS, 0.0)
    assert (rungs["master"].iterations, rungs["master"].temperature) == (4 * DEFAULT_ITERATIONS, 0.0)
    assert rungs["expert"].evaluation == STRONG
    assert rungs["master"].evaluation == dataclasses.replace(STRONG, rank_weight=0.5)
    for players, seed in ((3, 31), (4, 32), (5, 33)):
        game = random_state(players, seed, 7, 1)
        assert choose("expert", game, seed) == choose("strong", game, seed)


def test_the_value_fitted_to_strong_games_is_what_a_search_asking_for_it_judges_by() -> None:
    """Every size the fit covers reaches the search: its decay, potential weight and temperature, and
    ``strong`` keeps the greedy fit at the same positions."""
    assert V.STRONG_GAMES
    for (players, left), (decay, weight, temperature) in V.STRONG_GAMES.items():
        start = random_state(players, 5, 0, 0)
        game = random_state(players, 5, (start.rounds - left - start.round) * 5 * players + 1, 0)
        assert game.rounds - game.round == left
        fitted = _Search(game, 1, Evaluation(strong_games=True))
        assert (fitted.decay, fitted.pot_w, fitted.temp) == (decay, weight, temperature)
        assert fitted.gains is V.gain_table(decay)
        plain = _Search(game, 1)
        assert (plain.decay, plain.pot_w, plain.temp) == (
            V.DEPTH_DECAY.get(left, 0.9),
            V.POTENTIAL_WEIGHT,
            V.temperature(players, left),
        )


def test_masters_judgement_counts_passing_an_opponent_nearly_twice_what_strongs_does() -> None:
    """``master`` gives half its judgement to the places below first, ``strong`` a quarter: a player
    far behind the leader gains much more, under ``master``'s, by passing the third (about 1.8
    times: the win chance and the margin, which move alike under both, are the rest), and a place
    still never outweighs the win."""
    master = MASTER.rank_weight

    def passing(rank_w: float) -> float:
        return V.estimate([60.0, 35.0, 30.0], 5.0, rank_w)[1] - V.estimate([60.0, 30.0, 35.0], 5.0, rank_w)[1]

    assert passing(master) > 1.7 * passing(STRONG.rank_weight) > 1.7 * passing(0.0) > 0
    assert V.final([30, 50, 20], master)[1] > V.final([50, 30, 20], master)[1] > V.final([50, 20, 30], master)[1]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), deal=st.integers(0, 2**31), walk=st.integers(0, 2**31))
def test_masters_last_placement_of_the_game_is_its_own_judgements_best(players: int, deal: int, walk: int) -> None:
    """The game's last placement has no future, so ``master``'s search judges every placement
    exactly: it plays one its judgement (a win first, then the places, then the margin) ranks first."""
    game = before_the_last_placement(players, deal, walk)
    me = game.to_move

    def judged(placement: Placement) -> float:
        g = game.copy()
        g.place(placement)
        return V.final(compact.CompactGame(g).worth, MASTER.rank_weight)[me]  # the units the search judges in

    best = max(judged(placement) for placement in game.legal_placements())
    assert judged(choose("master", game, deal)) == pytest.approx(best, abs=1e-9)
