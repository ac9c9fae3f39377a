"""``dvtui sim``: bot-only games with per-player wins (ties split), mean score and games/s;
``--out`` keeps every game as a ``.dvr``; bad input is one line and exit 2, never a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dvtui.cli import main
from dvtui.cli.sim import simulate
from dvtui.play.autoplay import play_game
from dvtui.play.seats import parse_players
from dvtui.store import read_game

from ..support.files import file_bytes, strip_at
from ..support.processes import dvtui, one_error_line, run_main

THREE = "bot:random,bot:greedy,bot:greedy"
FOUR = "bot:greedy,bot:random,bot:random,bot:greedy"


def expected_results(players: str, games: int, seed: int) -> tuple[list[float], list[float]]:
    """Wins (a shared victory split between its winners) and mean scores, computed here from the
    engine directly: game i is dealt with seed SEED+i and started by seat i mod n."""
    seats = parse_players(players)
    n = len(seats)
    wins = [0.0] * n
    total = [0] * n
    for i in range(games):
        game, _ = play_game(seats, seed + i, (seed + i) % n)
        scores = game.scores()
        winners = [p for p in range(n) if scores[p] == max(scores)]
        for p in winners:
            wins[p] += 1 / len(winners)
        for p in range(n):
            total[p] += scores[p]
    return wins, [t / games for t in total]


def sim_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["sim", *args, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


def test_json_results_are_the_games_the_engine_plays(capsys: pytest.CaptureFixture[str]) -> None:
    result = sim_json(capsys, "--players", FOUR, "--games", "24", "--seed", "9")
    wins, means = expected_results(FOUR, 24, 9)
    assert result["games"] == 24 and result["deals"] == 24 and result["seatings"] == [[0, 1, 2, 3]]
    assert result["players"] == ["greedy", "random", "random", "greedy"]
    seats = result["seats"]
    assert [p["seat"] for p in seats] == [0, 1, 2, 3]
    assert [p["wins"] for p in seats] == pytest.approx(wins)
    assert sum(p["wins"] for p in seats) == pytest.approx(24)
    assert [p["win_share"] for p in seats] == pytest.approx([w / 24 for w in wins])
    assert [p["mean_score"] for p in seats] == pytest.approx(means)
    bots = {b["bot"]: b for b in result["bots"]}
    assert bots["greedy"]["seats_in_lineup"] == 2 and bots["random"]["seats_in_lineup"] == 2
    assert bots["greedy"]["wins"] == pytest.approx(wins[0] + wins[3])
    assert bots["greedy"]["win_share"] == pytest.approx((wins[0] + wins[3]) / 48)  # per seat
    assert bots["greedy"]["share_of_games"] == pytest.approx((wins[0] + wins[3]) / 24)
    low, high = bots["greedy"]["win_share_95"]
    assert low < bots["greedy"]["win_share"] < high
    assert result["moves"] == 24 * 4 * 5 * 4  # 4 rounds of 5 placements by 4 players (R3, R4.2)
    assert result["games_per_second"] > 0 and result["seconds"] > 0


def test_text_output_has_wins_share_interval_mean_and_rates() -> None:
    run = dvtui("sim", "--players", THREE, "--games", "15", "--seed", "40")
    assert run.returncode == 0 and run.stderr == ""
    lines = run.stdout.splitlines()
    assert lines[0] == "15 games, seeds 40..54"
    assert lines[1].split() == [
        "bot",
        "seats",
        "wins",
        "of",
        "games",
        "per",
        "seat",
        "95%",
        "interval",
        "mean",
        "score",
        "rank",
    ]
    wins, means = expected_results(THREE, 15, 40)
    row = r"(\w+)\s+(\d)\s+([\d.]+)\s+([\d.]+)%\s+([\d.]+)%\s+\[([\d.]+)%, ([\d.]+)%\]\s+([\d,]+)\s+([\d.]+)"
    random_row = re.fullmatch(row, lines[2])
    assert random_row and random_row[1] == "random" and random_row[2] == "1", lines[2]
    assert float(random_row[3]) == pytest.approx(wins[0], abs=0.005)
    assert float(random_row[6]) <= float(random_row[5]) <= float(random_row[7])
    assert int(random_row[8].replace(",", "")) == pytest.approx(means[0], abs=0.5)
    greedy_row = re.fullmatch(row, lines[3])
    assert greedy_row and greedy_row[1] == "greedy" and greedy_row[2] == "2", lines[3]
    # the games the level won with either seat, and its share per seat (half that: two seats)
    assert float(greedy_row[4]) == pytest.approx(100 * (wins[1] + wins[2]) / 15, abs=0.05)
    assert float(greedy_row[5]) == pytest.approx(100 * (wins[1] + wins[2]) / 30, abs=0.05)
    assert lines[4].split()[:2] == ["seat", "player"]
    for i, row in enumerate(lines[5:8]):
        m = re.fullmatch(r"(\d)\s+(Bot \d) \((\w+)\)\s+([\d.]+)\s+([\d.]+)%\s+([\d,]+)\s+([\d.]+)", row)
        assert m, row
        assert int(m[1]) == i + 1 and m[2] == f"Bot {i + 1}" and m[3] == THREE.split(",")[i][4:]  # seats from 1
        assert float(m[4]) == pytest.approx(wins[i], abs=0.005)
        assert float(m[5]) == pytest.approx(100 * wins[i] / 15, abs=0.05)
        assert int(m[6].replace(",", "")) == pytest.approx(means[i], abs=0.5)
    assert re.fullmatch(r"[\d,]+ games/s, [\d,]+ moves/s \([\d.]+ s\)", lines[8]), lines[8]
    assert len(lines) == 9


def test_out_writes_every_game_and_they_all_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "runs" / "a"  # made on demand, parents too
    result = sim_json(capsys, "--players", THREE, "--games", "6", "--seed", "70", "--out", str(out))
    files = sorted(out.iterdir())
    assert [p.name for p in files] == [f"game-{70 + i}.dvr" for i in range(6)]
    seats = parse_players(THREE)
    finals = []
    for i in range(6):
        path = out / f"game-{70 + i}.dvr"
        _, events = play_game(seats, 70 + i, (70 + i) % 3)
        assert strip_at(path.read_bytes()) == file_bytes(events)
        loaded = read_game(path)
        assert loaded.game.over and loaded.created.seed == 70 + i and loaded.created.first_player == (70 + i) % 3
        finals.append(loaded.game.scores())
    means = [sum(s[p] for s in finals) / 6 for p in range(3)]
    assert [p["mean_score"] for p in result["seats"]] == pytest.approx(means)

    assert main(["verify", str(out)]) == 0
    verified, err = capsys.readouterr()
    assert err == "" and len(verified.splitlines()) == 6
    assert all(": ok, 3 players" in line for line in verified.splitlines())


def test_the_same_seed_gives_byte_identical_files(tmp_path: Path) -> None:
    runs = []
    for name in ("one", "two"):
        run = dvtui("sim", "--players", FOUR, "--games", "4", "--seed", "123", "--out", tmp_path / name)
        assert run.returncode == 0, run.stderr
        runs.append({p.name: p.read_bytes() for p in (tmp_path / name).iterdir()})
    assert len(runs[0]) == 4 and runs[0] == runs[1]
    assert len(set(runs[0].values())) == 4  # four different deals


def test_the_same_seed_gives_the_same_results(capsys: pytest.CaptureFixture[str]) -> None:
    a = sim_json(capsys, "--players", THREE, "--games", "5", "--seed", "8")
    b = sim_json(capsys, "--players", THREE, "--games", "5", "--seed", "8")
    assert a["seats"] == b["seats"] and a["bots"] == b["bots"]


def test_out_never_overwrites_an_earlier_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = run_main(capsys, "sim", "--players", THREE, "--games", "2", "--seed", "1", "--out", tmp_path)
    assert first.returncode == 0
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    again = run_main(capsys, "sim", "--players", THREE, "--games", "2", "--seed", "1", "--out", tmp_path)
    assert again.returncode == 1
    assert "already exists" in one_error_line(again.stderr)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_out_that_is_a_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "results.txt"
    target.write_text("keep me\n")
    run = run_main(capsys, "sim", "--players", THREE, "--games", "1", "--out", target)
    assert run.returncode == 2 and run.stdout == ""
    assert "not a directory" in one_error_line(run.stderr)
    assert target.read_text() == "keep me\n"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "bot:random,bot:greedy", "--games", "3"], "3 to 5 players"),
        (["--players", ",".join(["bot:random"] * 6), "--games", "3"], "3 to 5 players"),
        (["--players", "bot:random,bot:genius,bot:greedy", "--games", "3"], "unknown bot level"),
        (["--players", "bot:random,bot:strong@-5,bot:greedy", "--games", "3"], "strong's budget is a number"),
        (["--players", "Ana,bot:greedy,bot:greedy", "--games", "3"], "only bots"),
        (["--players", "bot:random,,bot:greedy", "--games", "3"], "empty entry"),
        (["--players", THREE, "--games", "0"], "--games"),
        (["--players", THREE, "--games", "-4"], "--games"),
        (["--players", THREE, "--games", "many"], "--games"),
        (["--games", "3"], "--players"),
    ],
    ids=[
        "2-players",
        "6-players",
        "unknown-level",
        "bad-budget",
        "human",
        "empty-entry",
        "games-0",
        "games-negative",
        "games-not-a-number",
        "no-players",
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    """In this process; a real process's exit code and stderr:
    :func:`test_bad_input_in_a_real_process_is_one_line_and_exit_2`."""
    run = run_main(capsys, "sim", *args)
    assert run.returncode == 2
    assert run.stdout == ""
    assert words in one_error_line(run.stderr)


def test_bad_input_in_a_real_process_is_one_line_and_exit_2() -> None:
    run = dvtui("sim", "--players", "bot:random,bot:genius,bot:greedy", "--games", "3")
    assert run.returncode == 2
    assert run.stdout == ""
    assert "unknown bot level" in one_error_line(run.stderr)


def test_a_shared_victory_splits_the_win() -> None:
    """Find a seeded game that ends in a tie, then simulate exactly that one game."""
    seats = parse_players(THREE)
    for seed in range(400):
        game, _ = play_game(seats, seed, seed % 3)
        scores = game.scores()
        if scores.count(max(scores)) > 1:
            break
    else:
        raise AssertionError("no shared victory in 400 games")
    winners = [p for p in range(3) if scores[p] == max(scores)]
    result = simulate(seats, 1, seed=seed)  # game 0 of a run: dealt with SEED, seat SEED % 3 starts
    shares = [1 / len(winners) if p in winners else 0.0 for p in range(3)]
    assert [s["wins"] for s in result["seats"]] == pytest.approx(shares)
    assert [s["mean_score"] for s in result["seats"]] == scores
