"""``dvtui verify``: one summary line per consistent file, ``dvtui: error: FILE line N: ...`` for
one that is not; exit 0 only when all are consistent, 1 for a bad file, 2 for bad usage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dvtui.cli import main
from dvtui.engine import Game, Placement, fold

from ..support.files import Games, file_bytes, strip_at
from ..support.processes import dvtui, one_error_line, run_main


def scores_text(game: Game) -> str:
    return "scores " + " / ".join(f"{s:,}" for s in game.scores())


def test_a_directory_of_good_files_gives_one_summary_line_each(games: Games) -> None:
    run = dvtui("verify", games.dir)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    lines = run.stdout.splitlines()
    files = sorted(games.dir.glob("*.dvr"))
    assert len(files) == 5
    assert [line.split(": ok, ")[0] for line in lines] == [str(p) for p in files]
    by_file = dict(line.split(": ok, ", 1) for line in lines)
    for n, (path, events) in games.complete.items():
        summary = by_file[str(path)]
        game = fold(events).game
        names = ", ".join(f"Bot {i + 1}" for i in range(n))
        assert summary.startswith(f"{n} players ({names}), {game.rounds}/{game.rounds} rounds played, ")
        assert scores_text(game) in summary
        winners = [f"Bot {p + 1}" for p, s in enumerate(game.scores()) if s == max(game.scores())]
        verdict = ("winner " if len(winners) == 1 else "shared victory ") + " & ".join(winners)
        assert verdict in summary
        assert "game script" not in summary
    assert by_file[str(games.script)].endswith(", game script")
    unfinished = by_file[str(games.unfinished)]
    assert unfinished.startswith("4 players (Bot 1, Bot 2, Bot 3, Bot 4), 1/4 rounds played, ")
    assert "unfinished: round 2, Bot 4 to move" in unfinished  # 23 decisions: round 1's 20, then 3


def test_files_and_directories_can_be_mixed(games: Games, capsys: pytest.CaptureFixture[str]) -> None:
    path3 = games.complete[3][0]
    assert main(["verify", str(path3), str(games.dir), str(games.script)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == 7
    assert lines[0].startswith(f"{path3}: ok, 3 players")


def make_bad(tmp_path: Path, games: Games) -> tuple[Path, int]:
    """A copy of the 4-player game with one column_resolved's totals changed: (file, its line)."""
    lines = games.complete[4][0].read_bytes().splitlines(keepends=True)
    i = [i for i, line in enumerate(lines) if b'"column_resolved"' in line][10]  # round 2, column 3
    o = json.loads(lines[i])
    assert o["type"] == "column_resolved"
    o["totals"][1] += 1
    lines[i] = json.dumps(o, separators=(",", ":")).encode() + b"\n"
    bad = tmp_path / "bad.dvr"
    bad.write_bytes(b"".join(lines))
    return bad, i + 1


def test_a_bad_file_is_one_error_line_naming_file_and_line(tmp_path: Path, games: Games) -> None:
    bad, line = make_bad(tmp_path, games)
    run = dvtui("verify", bad)
    assert run.returncode == 1
    assert run.stdout == ""
    message = one_error_line(run.stderr)
    assert message.startswith(f"{bad} line {line}: column_resolved: field 'totals' should be ")


@pytest.mark.parametrize(
    ("first_line", "words"),
    [('"""A Python docstring', "not valid JSON"), ('["a", "list"]', "not a JSON object"), ("{}", 'no "type"')],
)
def test_a_file_that_is_no_game_file_says_so_in_words(
    tmp_path: Path, first_line: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not msgspec's "Expected `object`, got `str`" for someone's script given by mistake."""
    path = tmp_path / "notes.dvr"
    path.write_text(first_line + "\nmore\n")
    run = run_main(capsys, "verify", path)
    assert run.returncode == 1 and one_error_line(run.stderr).startswith(f"{path} line 1: {words}")


def test_a_bad_file_among_good_ones_fails_the_run_but_the_good_ones_are_reported(
    tmp_path: Path, games: Games, capsys: pytest.CaptureFixture[str]
) -> None:
    bad, line = make_bad(tmp_path, games)
    good = games.complete[5][0]
    run = run_main(capsys, "verify", good, bad, games.script)
    assert run.returncode == 1
    assert one_error_line(run.stderr).startswith(f"{bad} line {line}: ")
    assert [line.split(": ok, ")[0] for line in run.stdout.splitlines()] == [str(good), str(games.script)]


def test_a_directory_with_no_game_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "notes.txt").write_text("not a game\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deeper.dvr").write_text("{}\n")  # verify does not descend
    run = run_main(capsys, "verify", tmp_path)
    assert run.returncode == 2
    assert run.stdout == ""
    message = one_error_line(run.stderr)
    assert str(tmp_path) in message and ".dvr" in message


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("missing.dvr", None, "no such file"),
        ("empty.dvr", b"", "is empty"),
        ("junk.dvr", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\n", "line 1: "),
        ("latin1.dvr", None, "UTF-8"),
    ],
    ids=["missing", "empty", "binary", "invalid-utf8"],
)
def test_files_that_are_not_games_are_one_error_line_and_exit_1(
    tmp_path: Path, games: Games, name: str, content: bytes | None, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    if name == "latin1.dvr":
        data = games.complete[3][0].read_bytes()
        path.write_bytes(data.replace(b'"Bot 2"', b'"Bot \xe9"', 1))
    elif content is not None:
        path.write_bytes(content)
    run = run_main(capsys, "verify", path)
    assert run.returncode == 1
    message = one_error_line(run.stderr)
    assert message.startswith(f"{path}")
    assert words in message


def test_a_torn_file_is_not_consistent_as_it_stands(
    tmp_path: Path, games: Games, capsys: pytest.CaptureFixture[str]
) -> None:
    data = games.complete[3][0].read_bytes()
    torn = tmp_path / "torn.dvr"
    torn.write_bytes(data[: len(data) - 30])
    lines = data[: len(data) - 30].count(b"\n")
    run = run_main(capsys, "verify", torn)
    assert run.returncode == 1
    message = one_error_line(run.stderr)
    assert message.startswith(f"{torn} line {lines + 1}: torn")
    assert f"recovered the {lines} complete lines" in message


def test_verify_without_files_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("dvtui: error: ") and len(err.splitlines()) == 1


def test_canonical_of_a_game_script_is_the_engines_own_file(games: Games) -> None:
    """``--canonical`` completes a decision-only script into the file the engine itself writes,
    byte for byte apart from the ``at`` stamps."""
    run = dvtui("verify", "--canonical", games.script)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    written = games.complete[3][0].read_bytes()
    assert run.stdout.encode() == strip_at(written)
    assert run.stdout.encode() == file_bytes(games.script_events)


def test_canonical_of_a_complete_file_drops_only_the_stamps(games: Games, capsys: pytest.CaptureFixture[str]) -> None:
    path, events = games.complete[5]
    run = run_main(capsys, "verify", "--canonical", path)
    assert run.returncode == 0
    assert run.stdout.encode() == strip_at(path.read_bytes()) == file_bytes(events)


def test_canonical_of_a_bad_file_is_an_error(tmp_path: Path, games: Games, capsys: pytest.CaptureFixture[str]) -> None:
    bad, line = make_bad(tmp_path, games)
    run = run_main(capsys, "verify", "--canonical", bad)
    assert run.returncode == 1 and run.stdout == ""
    assert one_error_line(run.stderr).startswith(f"{bad} line {line}: ")
    missing = run_main(capsys, "verify", "--canonical", tmp_path / "nope.dvr")
    assert missing.returncode == 1 and "no such file" in one_error_line(missing.stderr)


def test_canonical_takes_exactly_one_file(games: Games, capsys: pytest.CaptureFixture[str]) -> None:
    run = run_main(capsys, "verify", "--canonical", games.script, games.complete[3][0])
    assert run.returncode == 2 and run.stdout == ""
    assert "--canonical" in one_error_line(run.stderr)


def test_a_game_saved_in_its_first_round_is_not_called_a_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No round resolved yet means no derived event yet: still a full log, not a game script."""
    from dvtui.engine import Game, new_game
    from dvtui.play.seats import parse_players
    from dvtui.store import GameWriter

    path = tmp_path / "new.dvr"
    game = Game(new_game(parse_players("Ana,bot:greedy,bot:greedy"), seed=4))
    with GameWriter.create(path, game.created) as writer:
        writer.append(game.place(Placement(4, 3)))
        writer.append(game.place(Placement(1, 1)))
    run = run_main(capsys, "verify", path)
    assert run.returncode == 0 and "unfinished: round 1" in run.stdout
    assert "game script" not in run.stdout
    script = run_main(capsys, "verify", Path(__file__).resolve().parents[2] / "replays" / "script-3p.dvr")
    assert script.returncode == 0 and script.stdout.rstrip().endswith("game script")
