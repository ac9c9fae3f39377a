"""The start menu's "Your games": the saves of this machine and a table server's games one sat at,
newest first, with the date, the opponents (bots with their level), the result and one's place;
Enter opens the viewer, Escape goes back; a damaged file is one line saying so."""

from __future__ import annotations

import getpass
import json
import os
import time
from pathlib import Path

from textual.widgets import OptionList, Static

from dvtui.app.app import DvtuiApp
from dvtui.app.config import Pace, SetupDefaults
from dvtui.app.options import AppOptions, Menu
from dvtui.app.past import PastGame, described, your_seat
from dvtui.app.screens.history import HistoryScreen
from dvtui.app.screens.lobby import Lobby
from dvtui.app.screens.menu import MenuScreen
from dvtui.app.screens.replay import ReplayScreen
from dvtui.engine import Seat
from dvtui.store import data_dir as saves_dir
from dvtui.store import read_game
from dvtui.tables import ServerPlace

from ..support.apps import new_session
from ..support.pilot import screen_lines, until
from ..support.servers import game_on_disk, in_thread, short_dir

REPO = Path(__file__).resolve().parents[2]
HOUR = 3600.0


def _finished(path: Path, *, at: float, bot_3: str = "Bot 3") -> None:
    """A finished game of Ana (won, 4,500,000) against two bots, last played at ``at``."""
    data = (REPO / "replays" / "game.dvr").read_text()
    data = data.replace('{"name":"Bot 1","kind":"bot","bot":"greedy","color":"red"}',
                        '{"name":"Ana","kind":"human","color":"red"}', 1)  # fmt: skip
    path.write_text(data.replace('"name":"Bot 3"', json.dumps(bot_3)[:-1].join(['"name":', '"']), 1))
    os.utime(path, (at, at))


def _saves(now: float) -> None:
    """Three saves: a finished game two hours ago, an unfinished one an hour ago, and a damaged file
    (newest, since no one touched it since)."""
    saves_dir().mkdir(parents=True, mode=0o700)
    _finished(saves_dir() / "won.dvr", at=now - 2 * HOUR, bot_3="[b]Zoé[/b]")
    new_session(saves_dir() / "half.dvr", players="Ana,bot:master,bot:novice").close()
    os.utime(saves_dir() / "half.dvr", (now - HOUR, now - HOUR))
    (saves_dir() / "broken.dvr").write_text('{"type":"game_created"\n')


def _menu_app(lobby: Lobby | None = None) -> DvtuiApp:
    app = DvtuiApp(
        Menu(), AppOptions(setup=SetupDefaults(default_name="Ana"), pace=Pace(0.0, None), seed_source=lambda: 5)
    )
    app.lobby = lobby
    return app


def _prompts(options: OptionList) -> list[str]:
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


async def _open_history(pilot) -> HistoryScreen:  # type: ignore[no-untyped-def]
    menu = pilot.app.screen
    assert isinstance(menu, MenuScreen)
    choice = menu.query_one(OptionList)
    choice.highlighted = next(i for i in range(choice.option_count) if choice.get_option_at_index(i).id == "history")
    await pilot.press("enter")
    await until(pilot, "your games", lambda: isinstance(pilot.app.screen, HistoryScreen))
    screen = pilot.app.screen
    assert isinstance(screen, HistoryScreen)
    return screen


def test_your_place_shares_a_tie_and_names_the_bots_levels() -> None:
    game = read_game(REPO / "replays" / "game.dvr").game  # Bot 1 4,500,000, Bot 2 4,100,000, Bot 3 2,900,000
    second = described(PastGame(None, "x", you=1), game)
    assert second.opponents == "with Bot 1 (greedy) and Bot 3 (random)"
    assert second.result == "Bot 1 wins with 4,500,000" and second.place == "your place: 2 of 3"
    nobody = described(PastGame(None, "x"), game)  # a game of bots alone: no place of one's own
    assert nobody.opponents == "with Bot 1 (greedy), Bot 2 (greedy) and Bot 3 (random)" and nobody.place == ""
    people = [Seat(name="Ana", kind="human", color="red"), Seat(name="Ben", kind="human", color="yellow"),
              Seat(name="Bot 1", kind="bot", bot="club", color="green")]  # fmt: skip
    assert your_seat(people, "ben") == 1  # a hot-seat game: the seat with one's name
    assert your_seat(people, "Cy") is None
    assert your_seat(people[:1] + people[2:], "Cy") == 0  # the only person's seat


async def test_your_games_newest_first_enter_opens_the_viewer_escape_goes_back() -> None:
    _saves(time.time())
    app = _menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        menu = app.screen
        history = await _open_history(pilot)
        options = history.query_one(OptionList)
        prompts = _prompts(options)
        assert len(prompts) == 3, prompts
        assert "  broken.dvr\n    damaged, does not open: " in prompts[0], prompts
        assert options.get_option_at_index(0).disabled
        assert prompts[1].endswith("  half.dvr\n    with Bot 1 (master) and Bot 2 (novice) · unfinished, round 1 of 6")
        assert prompts[2].endswith(
            "  won.dvr\n    with Bot 2 (greedy) and [b]Zoé[/b] (random) · you win with 4,500,000 · your place: 1 of 3"
        )
        assert any("[b]Zoé[/b] (random)" in line for line in screen_lines(app))  # shown as written, not markup
        assert options.highlighted == 1  # the newest game that opens
        options.highlighted = 2
        await pilot.press("enter")
        await until(pilot, "the viewer", lambda: isinstance(app.screen, ReplayScreen))
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen) and viewer.game_file == saves_dir() / "won.dvr"
        await pilot.press("escape")
        await until(pilot, "your games again", lambda: app.screen is history)
        await pilot.press("escape")
        await until(pilot, "the menu again", lambda: app.screen is menu)


async def test_no_game_yet_is_said() -> None:
    app = _menu_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        history = await _open_history(pilot)
        assert _prompts(history.query_one(OptionList)) == ["No game yet: start one with New game."]


def _kept_at(games: Path, name: str, *, at: float, owner: int | None) -> None:
    """A finished game kept after its table ``name`` (its seat 1 ``owner``'s: a uid)."""
    game_on_disk(games / f"{name}.dvr", at=at)
    record = {"owners": [None, owner, None], "stand_ins": [None, None, None]}
    (games / f"{name}.table.json").write_text(json.dumps(record))


async def test_a_table_servers_games_one_sat_at_open_in_the_viewer_and_leave_no_file(
    data_dir: Path, tmp_path: Path
) -> None:
    """The server's kept games of this account are listed among the saves by their time, with the
    seat that was theirs; one opens in the viewer from memory: no file is written anywhere."""
    now = time.time()
    _saves(now)
    with short_dir() as d:
        (d / "srv").mkdir(mode=0o700)
        _kept_at(d / "srv" / "games", "fri.2026-03-04T10-00-00", at=now - 3 * HOUR, owner=os.getuid())
        _kept_at(d / "srv" / "games", "sat.2026-03-05T10-00-00", at=now - 1.5 * HOUR, owner=None)  # not one's own
        with in_thread(d / "srv") as server:
            await _fetched_and_viewed(server.place, tmp_path)


async def _fetched_and_viewed(place: ServerPlace, tmp_path: Path) -> None:
    before = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    app = _menu_app(Lobby(place, getpass.getuser().title()))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        history = await _open_history(pilot)
        options = history.query_one(OptionList)
        await until(pilot, "the server's game fetched", lambda: any("fri." in p and "your place" in p
                                                                    for p in _prompts(options)))  # fmt: skip
        prompts = _prompts(options)
        assert not any("sat." in p for p in prompts), prompts
        assert len(prompts) == 4 and "table fri.2026-03-04T10-00-00" in prompts[3], prompts
        assert prompts[3].endswith("with Bot 1 (greedy) and Bot 3 (random) · you share the victory with 4,300,000 · "
                                   "your place: 1 of 3")  # the seat that was this account's: Bot 2  # fmt: skip
        options.highlighted = 3
        await pilot.press("enter")
        await until(pilot, "the viewer", lambda: isinstance(app.screen, ReplayScreen))
        viewer = app.screen
        assert isinstance(viewer, ReplayScreen) and viewer.game_file is None
        await pilot.press("escape")
        await until(pilot, "your games again", lambda: app.screen is history)
        assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == before
        options.highlighted = 1  # a save of this machine: nothing to copy
        await pilot.press("s")
        assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == before
        options.highlighted = 3
        await pilot.press("s")  # asked: a copy among the saves, as dvtui fetch would write it
        status = history.query_one("#history-status", Static)
        await until(pilot, "the copy saved", lambda: "saved as " in str(status.render()))
        (copy,) = set(saves_dir().glob("*.dvr")) - {saves_dir() / name for name in before}
        assert str(status.render()) == f"saved as {copy.name}"
        assert read_game(copy).game.over and copy.stat().st_mode & 0o777 == 0o600


def test_your_games_at_80x24(snap_compare) -> None:
    """Your games, newest first, two lines each; a damaged file says so; a list longer than the
    screen scrolls, the hint and the footer stay."""
    now = time.mktime((2026, 12, 6, 21, 50, 0, 0, 0, -1))
    _saves(now)
    for hour in range(3, 9):
        _finished(saves_dir() / f"older-{hour}.dvr", at=now - hour * HOUR)
    os.utime(saves_dir() / "broken.dvr", (now, now))
    os.utime(saves_dir() / "half.dvr", (now - HOUR / 2, now - HOUR / 2))

    async def shown(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        await _open_history(pilot)
        await pilot.pause()

    assert snap_compare(_menu_app(), terminal_size=(80, 24), run_before=shown)
