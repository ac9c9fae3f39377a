"""The analysis: reproducible marks, a blunder where a placement throws the game away, the file kept
beside the game and reused, and bad input refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dvtui.bots import advise, calibration, judge
from dvtui.bots.strong import candidates
from dvtui.cli import main
from dvtui.engine import Game, Placement
from dvtui.replay.analysis import analyse, analysis_path, kept, mark_for, review
from dvtui.store import read_game

from ..support.files import PLAYERS, write_game
from ..support.positions import random_state
from ..support.processes import dvtui, one_error_line

BUDGET = 200


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analysis") / "3p.dvr"
    write_game(path, PLAYERS[3], 101)
    return path


def test_an_analysis_of_a_fixed_game_gives_the_same_marks_twice(game_file: Path) -> None:
    events = read_game(game_file).events
    first = analyse(events, BUDGET)
    assert len(first) == 5 * 3 * 6  # every placement of a 3-player game, none taken back
    assert first == analyse(events, BUDGET)
    assert any(r.loss for r in first)  # not a game of perfect play: the comparison is not vacuous


def test_the_worker_pool_changes_nothing(game_file: Path) -> None:
    events = read_game(game_file).events
    assert analyse(events, 50, jobs=2) == analyse(events, 50, jobs=1)


def _share(game: Game, placement: Placement) -> float:
    g = game.copy()
    g.place(placement)
    scores = g.scores()
    return 1 / scores.count(max(scores)) if scores[game.to_move] == max(scores) else 0.0


def _decisive_last_placement() -> tuple[Game, Placement, Placement]:
    """The game's last placement, where one placement wins outright and another loses it all."""
    for walk in range(200):
        game = random_state(3, 7, 5 * 3 * 6 - 1, walk)
        shares = {p: _share(game, p) for p in candidates(game)}
        wins = [p for p, s in shares.items() if s == 1.0]
        losses = [p for p, s in shares.items() if s == 0.0]
        if wins and losses:
            return game, wins[0], losses[0]
    raise AssertionError("no decisive last placement in 200 walks")


def test_a_placement_that_loses_the_game_is_a_blunder_and_the_winning_one_unmarked() -> None:
    game, win, loss = _decisive_last_placement()
    bad = review(game, loss, BUDGET)
    assert bad.mark == "blunder"
    assert bad.loss is not None and bad.loss > 0.9
    assert _share(game, Placement(bad.best_card, bad.best_column)) == 1.0
    good = review(game, win, BUDGET)
    assert good.mark is None and good.loss == pytest.approx(0.0, abs=0.02)


def test_a_loss_within_the_noise_earns_no_mark() -> None:
    assert mark_for(0.2, 0.05) == "blunder"
    assert mark_for(0.2, 0.11) is None  # twice the standard error is more than the loss
    assert mark_for(0.12, 0.01) == "mistake"
    assert mark_for(0.06, 0.01) == "inaccuracy"
    assert mark_for(0.04, 0.0) is None


def test_the_help_says_what_the_win_chance_is() -> None:
    run = dvtui("analyse", "--help")
    assert run.returncode == 0
    assert "a model" in run.stdout and "bots" in run.stdout and "noise" in run.stdout


def test_the_command_keeps_its_result_beside_the_game_and_reuses_it(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The first run is the command end to end; the others run it in this process (its main), which
    reads and keeps the file the same way without a fresh interpreter's start each time."""

    def again_here(*args: str) -> tuple[int, str]:
        code = main(["analyse", str(path), *args])
        return code, capsys.readouterr().out

    path = tmp_path / game_file.name
    path.write_bytes(game_file.read_bytes())
    run = dvtui("analyse", path, "--budget", "30")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Analysis at 30 iterations")
    kept = analysis_path(path)
    body = json.loads(kept.read_text())
    assert body["budget"] == 30 and len(body["reviews"]) == 90
    assert path.read_bytes() == game_file.read_bytes()  # never inside the game
    # reused: a tampered mark shows, so the second run did not search again
    body["reviews"][0]["mark"] = "blunder"
    kept.write_text(json.dumps(body))
    code, again = again_here("--budget", "30")
    assert code == 0 and again != run.stdout
    # a kept file that does not fit the game (anyone may write it) is made again, never shown
    body["reviews"][0]["mark"] = "\x1b[31mgotcha"
    body["reviews"][1]["player"] = 9
    kept.write_text(json.dumps(body))
    code, remade = again_here("--budget", "30")
    assert code == 0 and remade == run.stdout and "gotcha" not in remade
    # another budget is another analysis
    code, _ = again_here("--budget", "31")
    assert code == 0 and json.loads(kept.read_text())["budget"] == 31


def test_bad_input_is_one_error_line(tmp_path: Path) -> None:
    missing = dvtui("analyse", tmp_path / "nope.dvr")
    assert missing.returncode == 1
    one_error_line(missing.stderr, tmp_path / "nope.dvr")
    junk = tmp_path / "junk.dvr"
    junk.write_text("not a game\n")
    bad = dvtui("analyse", junk)
    assert bad.returncode == 1
    one_error_line(bad.stderr)
    usage = dvtui("analyse", junk, "--budget", "0")
    assert usage.returncode == 2
    one_error_line(usage.stderr)


def test_the_analysis_judges_as_the_hint_does() -> None:
    for walk in range(3):
        game = random_state(4, 5, 7 + walk, walk)
        judged = judge(game, 9, 300)
        assert judged.best.placement == advise(game, 9, iterations=300).placement
        assert {w.placement for w in judged.weighed} == set(candidates(game))  # each distinct placement
        assert all(w.error >= 0 and 1 <= w.iterations <= judged.best.iterations for w in judged.weighed)


def test_a_kept_analysis_made_under_another_calibration_is_made_again(
    game_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kept analysis holds calibrated chances: a map refitted without a new version of dvtui must
    not show the old map's chances."""
    path = tmp_path / game_file.name
    path.write_bytes(game_file.read_bytes())
    data, events = path.read_bytes(), read_game(path).events
    first, _ = kept(path, data, events, budget=30)
    assert kept(path, data, events, budget=30)[0] == first  # the same map: reused as it is
    c, slopes = calibration.FIT[3]
    monkeypatch.setitem(calibration.FIT, 3, (c + 1.0, slopes))  # a refit: every chance higher
    again, _ = kept(path, data, events, budget=30)
    assert again.version != first.version
    assert all(b.before > a.before for a, b in zip(first.reviews, again.reviews, strict=True))
    assert json.loads(analysis_path(path).read_text())["version"] == again.version
