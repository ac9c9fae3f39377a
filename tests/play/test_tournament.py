"""Duplicate games: every deal in every seating, Wilson intervals, per-bot and per-seat
results, move timing, and the same games whatever the number of processes."""

from __future__ import annotations

import json

import pytest

from dvtui.cli import main
from dvtui.engine import Outcome
from dvtui.play.autoplay import play_game
from dvtui.play.seats import parse_players
from dvtui.play.tournament import Plan, Tally, percentile, play, seatings, wilson
from dvtui.store import read_game

from ..support.processes import dvtui, one_error_line


def test_wilson_interval_matches_the_textbook_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_more_games_narrow_the_interval() -> None:
    a = wilson(60, 120)
    b = wilson(600, 1200)
    assert b[1] - b[0] < a[1] - a[0]


def test_seatings_are_the_distinct_ones() -> None:
    assert len(seatings(["strong", "greedy", "greedy"])) == 3
    assert len(seatings(["a", "b", "c"])) == 6
    assert len(seatings(["strong", "greedy", "greedy", "greedy", "greedy"])) == 5
    assert seatings(["a", "b", "c"], rotations=2) == [(0, 1, 2), (1, 2, 0)]
    for seating in seatings(["strong", "greedy", "greedy"]):
        assert sorted(seating) == [0, 1, 2]
    # every seat holds the strong bot exactly once over the seatings
    assert sorted(s.index(0) for s in seatings(["strong", "greedy", "greedy"])) == [0, 1, 2]


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.95) == 95.0
    assert percentile(values, 0.5) == 50.0
    assert percentile([], 0.95) == 0.0


def test_a_shared_victory_splits_and_ranks_are_shared() -> None:
    tally = Tally(3)
    tally.add_game(Outcome.of([300, 300, 100]), (2, 0, 1))  # seats 0 and 1 tie for first
    assert tally.wins == [0.5, 0.0, 0.5]  # by entrant: seat 1 holds entrant 0, seat 0 entrant 2
    assert tally.seat_wins == [0.5, 0.5, 0.0]
    assert tally.rank_sum == [1.5, 3.0, 1.5]


def test_each_deal_is_played_in_every_seating_with_the_same_deal() -> None:
    plan = Plan(("random", "greedy", "greedy"), (11, 12), tuple(seatings(["random", "greedy", "greedy"])))
    tally = play(plan)
    assert tally.games == 6
    assert tally.moves == 6 * 6 * 5 * 3
    assert sum(tally.wins) == pytest.approx(6)
    # the random bot's games, replayed by hand from the seat it had in each seating
    expected = 0
    for seed in (11, 12):
        for seating in plan.seatings:
            seat_of_random = seating.index(0)
            bots = ["bot:" + plan.entrants[e] for e in seating]
            game, _ = play_game(parse_players(",".join(bots)), seed, seed % 3)
            expected += game.scores()[seat_of_random]
    assert tally.score_sum[0] == expected
    assert len(tally.move_times[0]) == 6 * 6 * 5  # every move of the random bot was timed
    assert len(tally.move_times[1]) + len(tally.move_times[2]) == 6 * 6 * 5 * 2


def _results(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["sim", *args, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


def test_jobs_do_not_change_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--players", "bot:random,bot:greedy,bot:random", "--deals", "6", "--seed", "3"]
    one = _results(capsys, *args, "--jobs", "1")
    two = _results(capsys, *args, "--jobs", "2")
    for key in ("games", "moves", "deals", "seatings", "seats"):
        assert one[key] == two[key]
    strip = ("move_seconds_median", "move_seconds_p95")
    assert [{k: v for k, v in b.items() if k not in strip} for b in one["bots"]] == [
        {k: v for k, v in b.items() if k not in strip} for b in two["bots"]
    ]
    assert one["games"] == 6 * 3


def test_duplicate_mode_reports_intervals_ranks_and_move_times(capsys: pytest.CaptureFixture[str]) -> None:
    result = _results(capsys, "--players", "bot:greedy,bot:random,bot:random", "--deals", "5", "--rotations", "3")
    assert result["games"] == 15 and len(result["seatings"]) == 3
    greedy = next(b for b in result["bots"] if b["bot"] == "greedy")
    assert greedy["games"] == 15 and greedy["moves_timed"] == 15 * 30
    assert greedy["move_seconds_median"] <= greedy["move_seconds_p95"]
    assert 1.0 <= greedy["mean_rank"] <= 3.0
    low, high = greedy["win_share_95"]
    assert 0 <= low <= greedy["win_share"] <= high <= 1
    assert sum(s["wins"] for s in result["seats"]) == pytest.approx(15)


def test_duplicate_games_are_written_one_file_per_seating(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    _results(
        capsys, "--players", "bot:greedy,bot:random,bot:random", "--deals", "2", "--seed", "5", "--out", str(tmp_path)
    )
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"game-{seed}-s{k}.dvr" for seed in (5, 6) for k in (1, 2, 3)]
    deals = {read_game(tmp_path / n).created.grid == read_game(tmp_path / "game-5-s1.dvr").created.grid for n in names}
    assert deals == {True, False}  # the same deal within a seed, another one for the next seed
    entrants = ["greedy", "random", "random"]
    second = seatings(entrants)[1]
    g = read_game(tmp_path / "game-5-s2.dvr").created
    assert [s.bot for s in g.players] == [entrants[e] for e in second]
    assert [s.bot for s in g.players] != entrants


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "3", "--deals", "3"], "--games"),
        (["--rotations", "2"], "--rotations goes with --deals"),
        (["--deals", "2", "--rotations", "4"], "--rotations must be 1 to 3"),
        (["--deals", "0"], "--deals must be at least 1"),
        (["--deals", "2", "--jobs", "-1"], "--jobs"),
    ],
)
def test_bad_tournament_options_are_one_line_and_exit_2(args: list[str], words: str) -> None:
    run = dvtui("sim", "--players", "bot:random,bot:greedy,bot:greedy", *args)
    assert run.returncode == 2 and run.stdout == ""
    assert words in one_error_line(run.stderr)
