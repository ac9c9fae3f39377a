"""``dvtui new`` and ``dvtui resume`` up to the point where the app opens: flags checked (one line,
exit 2), the game file created with its seed, unfinished games listed, finished games pointed to
the replay. The app's run is replaced by a stub that records what it was given."""

from __future__ import annotations

from pathlib import Path

import pytest

from dvtui.app.app import DvtuiApp
from dvtui.app.exit_state import ExitState, exit_state_of
from dvtui.cli import main, play
from dvtui.engine import SEED_RANGE, Game, Placement, new_game
from dvtui.play.autoplay import play_game, play_out
from dvtui.play.seats import parse_players
from dvtui.store import GameWriter, read_game
from dvtui.store import data_dir as saves_dir

PLAYERS = "Ana,bot:greedy,bot:greedy"


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[DvtuiApp]:
    """Apps that would have been shown (their ``run`` returns at once, as if quit straight away)."""
    apps: list[DvtuiApp] = []

    def run(self: DvtuiApp, *args: object, **kwargs: object) -> ExitState:
        apps.append(self)
        return exit_state_of(self.session)

    monkeypatch.setattr(DvtuiApp, "run", run)
    monkeypatch.setattr(play, "has_terminal", lambda: True)
    return apps


TABLE = ["--table", "friday", "--server", "/nonexistent/dvtui-server"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["new", "--players", "Ana,Ben"], "3 to 5 players"),
        (["new", "--players", "Ana,bot:genius,bot:greedy"], "unknown bot level"),
        (["new", "--players", PLAYERS, "--first", "4"], "--first must be a seat from 1 to 3, not 4"),
        (["new", "--players", PLAYERS, "--first", "0"], "--first must be a seat from 1 to 3, not 0"),
        (["new", "--players", PLAYERS, "--bot-delay", "-1"], "--bot-delay must be between 0 and 10"),
        (["new", "--players", PLAYERS, "-o", "missing/dir/game.dvr"], "no such directory"),
        (["resume", "--bot-delay", "99"], "--bot-delay must be between 0 and 10"),
        (["new", "--players", PLAYERS, "--seed", "-5"], "--seed must be a whole number from 0 to 9223372036854775807"),
        (["new", "--players", PLAYERS, "--seed", str(2**63)], "--seed must be a whole number from 0 to"),
        (["new", "--players", PLAYERS, "--seed", "9" * 26], "--seed must be a whole number from 0 to"),
        (["new", "--players", "Ana,Bo\tb,bot:greedy"], "seat 2: the name 'Bo\\tb' holds a control character"),
        (["new", "--players", "Ana,ANA,bot:greedy"], "seat 2: two seats are called 'ANA'"),
        (["new", "--players", "Ana," + "x" * 25 + ",bot:greedy"], "is 25 characters; at most 24"),
        (["new", "--players", "Ana,Bot 1,bot:greedy"], "seat 3: two seats are called 'Bot 1'"),
        (
            ["new", "--players", "Ana,bot:strong@99999999999999,bot:greedy"],
            "seat 2: a bot's budget is at most 200000 iterations (strong@200000) or 10 seconds (strong@10s)",
        ),
        (["new", "--players", "Ana,bot:strong@999999999s,bot:greedy"], "seat 2: a bot's budget is at most"),
        # a table's game is refused the same flags, before any server is asked
        (["new", *TABLE, "--players", PLAYERS, "--first", "4"], "--first must be a seat from 1 to 3, not 4"),
        (["new", *TABLE, "--players", PLAYERS, "--seed", "-5"], "--seed must be a whole number from 0 to"),
        (["new", *TABLE, "--players", "Ana,Ben"], "3 to 5 players"),
        (["new", *TABLE], "--table needs --players"),
        (["new", *TABLE, "--players", PLAYERS, "-o", "x.dvr"], "-o does not go with --table"),
    ],
)
def test_bad_flags_are_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], opened: list[DvtuiApp]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dvtui: error: ") and message in err
    assert opened == []


def test_an_existing_output_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opened: list[DvtuiApp]
) -> None:
    (tmp_path / "taken.dvr").write_text("x")
    assert main(["new", "--players", PLAYERS, "-o", str(tmp_path / "taken.dvr")]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "taken.dvr").read_text() == "x"


def test_new_with_players_creates_the_file_before_the_table_opens(
    data_dir: Path, opened: list[DvtuiApp], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "--players", PLAYERS, "--first", "2", "--bot-delay", "0.2"]) == 0
    (app,) = opened
    assert app.session is not None and app.pace.bot_delay == 0.2
    files = list(saves_dir().glob("*.dvr"))
    assert len(files) == 1
    created = read_game(files[0]).created
    assert created.first_player == 1 and [s.name for s in created.players] == ["Ana", "Bot 1", "Bot 2"]
    assert created.seed is not None and 0 <= created.seed < SEED_RANGE  # chosen, and recorded
    assert "dvtui resume" in capsys.readouterr().out


def test_new_with_a_seed_and_an_output_file(tmp_path: Path, opened: list[DvtuiApp]) -> None:
    out = tmp_path / "mine.dvr"
    assert main(["new", "--players", PLAYERS, "--seed", "42", "-o", str(out)]) == 0
    assert read_game(out).created == new_game(parse_players(PLAYERS), seed=42)


def test_new_without_players_opens_the_set_up_screen(opened: list[DvtuiApp], data_dir: Path) -> None:
    assert main(["new", "--seed", "9", "--first", "3"]) == 0
    (app,) = opened
    assert app.session is None and app.setup_defaults.seed == 9 and app.setup_defaults.first == 2
    assert not saves_dir().exists() or not list(saves_dir().glob("*.dvr"))  # nothing created yet


def unfinished(path: Path, seed: int, moves: int) -> Path:
    created = new_game(parse_players(PLAYERS), seed=seed)
    with GameWriter.create(path, created) as writer:
        game = Game(created)
        for _ in range(moves):
            hand = game.hands[game.to_move]
            writer.append(game.place(Placement(hand[0], 0)))
    return path


def test_resume_list_shows_unfinished_games_only(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = saves_dir()
    games.mkdir(parents=True)
    unfinished(games / "a.dvr", 1, 4)
    _, events = play_game(parse_players("bot:greedy,bot:greedy,bot:random"), seed=2)
    with GameWriter.create(games / "done.dvr", events[0]) as writer:
        play_out(Game(events[0]), writer.append)  # a finished game: not listed
    assert main(["resume", "--list"]) == 0
    out = capsys.readouterr().out
    assert "a.dvr" in out and "done.dvr" not in out
    assert "Ana, Bot 1, Bot 2 · round 1 of 6 · last move " in out


def test_resume_without_file_takes_the_latest_unfinished_game(data_dir: Path, opened: list[DvtuiApp]) -> None:
    saves_dir().mkdir(parents=True)
    path = unfinished(saves_dir() / "b.dvr", 4, 2)
    assert main(["resume", "--bot-delay", "0"]) == 0
    (app,) = opened
    assert app.session is not None and app.session.path == path and len(app.session.game.placements) == 2


def test_resume_with_nothing_to_resume(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resume"]) == 1
    assert "no unfinished game" in capsys.readouterr().err


def test_a_finished_game_says_so_and_offers_the_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opened: list[DvtuiApp]
) -> None:
    _, events = play_game(parse_players("bot:greedy,bot:greedy,bot:random"), seed=2)
    path = tmp_path / "over.dvr"
    with GameWriter.create(path, events[0]) as writer:
        play_out(Game(events[0]), writer.append)
    assert main(["resume", str(path)]) == 1
    err = capsys.readouterr().err
    assert "this game is finished" in err and f"dvtui replay {path}" in err
    assert opened == []


def test_resuming_a_finished_game_with_a_torn_end_repairs_it_as_verify_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], opened: list[DvtuiApp]
) -> None:
    path = tmp_path / "over.dvr"
    created = play_game(parse_players("bot:greedy,bot:greedy,bot:random"), seed=2)[1][0]
    with GameWriter.create(path, created) as writer:
        play_out(Game(created), writer.append)
    whole = path.read_bytes()
    with path.open("ab") as f:
        f.write(b'{"type":"card_pl')  # a crash in the middle of writing (nothing can follow a game's end)
    assert main(["verify", str(path)]) == 1
    assert "'dvtui resume' repairs it" in capsys.readouterr().err
    assert main(["resume", str(path)]) == 1  # nothing to play: it is finished
    err = capsys.readouterr().err
    assert "this game is finished" in err and "cut the torn last line" in err
    assert path.read_bytes() == whole and main(["verify", str(path)]) == 0
    assert [p.name for p in tmp_path.glob("over.dvr.torn-*")] and opened == []


@pytest.mark.parametrize(
    ("players", "seed"), [("Bot 12,bot:strong@200000,bot:greedy", 2**63 - 1), ("Zoë,李小龍,bot:strong@10s", 0)]
)
def test_what_new_accepts_the_reader_opens(tmp_path: Path, players: str, seed: int, opened: list[DvtuiApp]) -> None:
    """The same rules on both sides: the largest seed, the largest budgets, a person called like a
    bot that is not at the table."""
    path = tmp_path / "g.dvr"
    assert main(["new", "--players", players, "--seed", str(seed), "-o", str(path)]) == 0
    created = read_game(path).created
    assert created.seed == seed and created.players[0].name == players.split(",")[0]
